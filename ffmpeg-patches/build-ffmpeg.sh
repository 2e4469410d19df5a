#!/bin/sh
# Builds FFmpeg 7.1.x with libgpujpeg's codecs against the libgpujpeg of this
# build tree: `make ffmpeg` runs it from the top of the build tree. Everything
# goes into ./ffmpeg/:
#   download/   the FFmpeg source and nv-codec-headers, fetched with a private
#               apt configuration (the system's apt sources are never touched)
#   ffnvcodec/  nv-codec-headers >= 12 (Debian trixie's libffmpeg-nvenc-dev)
#   pkgconfig/  libgpujpeg.pc of this (uninstalled) build tree
#   src/        the FFmpeg source with ffmpeg-patches/ applied, then filters/' patches
#   build/      the configured build: build/ffmpeg, build/ffprobe; `make fate-gpujpeg`
#
# Environment:
#   FFMPEG_SOURCE      an FFmpeg 7.1.x source directory or tarball to use instead of
#                      Debian trixie's source package
#   FFNVCODEC_PREFIX   an nv-codec-headers (>= 12) install prefix instead of trixie's
#   FFMPEG_JOBS        parallel make jobs (default: the number of cores)
#   FFMPEG_CONFIGURE_EXTRA  more FFmpeg configure options, e.g.
#                      --disable-hwaccel=mjpeg_gpujpeg_cuda (NVDEC then serves -hwaccel cuda)
#   GJ_SRCDIR, GJ_BUILDDIR  libgpujpeg's source and build trees (set by make)
set -eu

srcdir=$(cd "${GJ_SRCDIR:-$(dirname "$0")/..}" && pwd)
builddir=$(cd "${GJ_BUILDDIR:-.}" && pwd)
patches=$srcdir/ffmpeg-patches
filters=$srcdir/filters
top=$builddir/ffmpeg
jobs=${FFMPEG_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$top/download"

say() { echo "build-ffmpeg: $*" >&2; }
die() { echo "build-ffmpeg: error: $*" >&2; exit 1; }

[ -f "$builddir/.libs/libgpujpeg.so" ] || die "build libgpujpeg first ($builddir/.libs/libgpujpeg.so is missing)"

# ------------------------------------------------------------------ private apt
# One list for Debian trixie (deb and deb-src, main), with the archive URI and
# keyring of the system's own Debian entry.
apt_private() {
    apt=$top/download/apt
    if [ ! -f "$apt/sources.list" ]; then
        uri=http://deb.debian.org/debian key=/usr/share/keyrings/debian-archive-keyring.gpg
        entry=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
            /^$/ { if (deb && suite) { print uri, key; exit } uri = key = ""; deb = suite = 0 }
            /^Types:/ && / deb/ { deb = 1 }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i !~ /-/) suite = 1 }
            /^Signed-By:/ { key = $2 }
            END { if (deb && suite) print uri, key }' | head -n 1)
        if [ -n "$entry" ]; then
            uri=${entry% *}
            [ -n "${entry#* }" ] && [ "${entry#* }" != "$entry" ] && key=${entry#* }
        fi
        mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
        printf 'deb [signed-by=%s] %s trixie main\ndeb-src [signed-by=%s] %s trixie main\n' \
            "$key" "$uri" "$key" "$uri" > "$apt/sources.list"
    fi
    APT_OPTS="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/dev/null
        -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o Debug::NoLocking=1
        -o APT::Sandbox::User=root -q"
    if [ ! -f "$apt/updated" ]; then
        say "apt-get update (private list: $(head -n 1 "$apt/sources.list"))"
        # shellcheck disable=SC2086 # one word per option
        apt-get $APT_OPTS update > "$apt/update.log" 2>&1 || { cat "$apt/update.log" >&2; die "apt-get update failed"; }
        touch "$apt/updated"
    fi
}

# ------------------------------------------------------------------ FFmpeg source
get_source() {
    if [ -n "${FFMPEG_SOURCE:-}" ]; then
        echo "$FFMPEG_SOURCE"
        return
    fi
    found=$(ls "$top"/download/ffmpeg_7.1*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1 || true)
    if [ -z "$found" ]; then
        apt_private
        say "apt-get source --download-only ffmpeg (Debian trixie)"
        # shellcheck disable=SC2086
        (cd "$top/download" && apt-get $APT_OPTS source --download-only ffmpeg) > "$top/download/source.log" 2>&1 ||
            { cat "$top/download/source.log" >&2; die "apt-get source ffmpeg failed"; }
        found=$(ls "$top"/download/ffmpeg_7.1*.orig.tar.* | grep -v '\.asc$' | head -n 1)
    fi
    echo "$found"
}

# ------------------------------------------------------------------ nv-codec-headers
get_ffnvcodec() {
    if [ -n "${FFNVCODEC_PREFIX:-}" ]; then
        find "$FFNVCODEC_PREFIX" -name ffnvcodec.pc -exec dirname {} \; | head -n 1
        return
    fi
    pc=$(find "$top/ffnvcodec" -name ffnvcodec.pc 2>/dev/null | head -n 1)
    if [ -z "$pc" ]; then
        deb=$(ls "$top"/download/libffmpeg-nvenc-dev_*.deb 2>/dev/null | head -n 1 || true)
        if [ -z "$deb" ]; then
            apt_private
            say "apt-get download libffmpeg-nvenc-dev (Debian trixie)"
            # shellcheck disable=SC2086
            (cd "$top/download" && apt-get $APT_OPTS download libffmpeg-nvenc-dev) > "$top/download/nvenc.log" 2>&1 ||
                { cat "$top/download/nvenc.log" >&2; die "apt-get download libffmpeg-nvenc-dev failed"; }
            deb=$(ls "$top"/download/libffmpeg-nvenc-dev_*.deb | head -n 1)
        fi
        rm -rf "$top/ffnvcodec"
        dpkg -x "$deb" "$top/ffnvcodec"
        pc=$(find "$top/ffnvcodec" -name ffnvcodec.pc | head -n 1)
        sed -i "s|^prefix=.*|prefix=$top/ffnvcodec/usr|" "$pc"
    fi
    dirname "$pc"
}

# ------------------------------------------------------------------ patched tree
# The tree is unpacked again when the source or the patches change; our own
# files are copied over on every run (only changed ones: make rebuilds those).
# The libavfilter filters' registration patches (filters/*.patch) come after
# the libavcodec series.
prepare_tree() {
    source=$1
    all_patches="$(sed "s|^|$patches/|" "$patches/series") $(ls "$filters"/*.patch)"
    stamp=$( { echo "$source"; for p in $all_patches; do echo "$p"; cat "$p"; done; } | md5sum | cut -d ' ' -f 1)
    if [ "$(cat "$top/src/.gj-series" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$top/src" "$top/build"
        mkdir -p "$top/src"
        say "unpacking $source"
        if [ -d "$source" ]; then
            (cd "$source" && tar -c --exclude=.git .) | tar -x -C "$top/src"
        else
            tar -x -f "$source" -C "$top/src" --strip-components=1
        fi
        grep -q '^7\.1' "$top/src/RELEASE" 2>/dev/null || say "warning: FFmpeg $(cat "$top/src/RELEASE" 2>/dev/null) is not 7.1.x"
        for p in $all_patches; do
            say "applying ${p#"$srcdir"/}"
            patch -d "$top/src" -p1 --forward --fuzz=2 --no-backup-if-mismatch < "$p" > "$top/patch.log" 2>&1 ||
                { cat "$top/patch.log" >&2; die "${p#"$srcdir"/} does not apply"; }
        done
        echo "$stamp" > "$top/src/.gj-series"
    fi
    for dir in "$patches" "$filters"; do
        (cd "$dir" && find libavcodec libavfilter tests -type f 2>/dev/null) | while read -r f; do
            cmp -s "$dir/$f" "$top/src/$f" || { mkdir -p "$(dirname "$top/src/$f")"; cp "$dir/$f" "$top/src/$f"; }
        done
    done
}

# ------------------------------------------------------------------ libgpujpeg.pc
# The uninstalled library: headers from the source tree, the .so from .libs
# (found at run time through the rpath that configure gets below).
write_pc() {
    mkdir -p "$top/pkgconfig"
    version=$(sed -n 's/^Version: *//p' "$builddir/libgpujpeg.pc")
    cat > "$top/pkgconfig/libgpujpeg.pc" <<EOF
Name: libgpujpeg
Description: GPU image codecs (CUDA, OpenCL), uninstalled build tree
Version: $version
Cflags: -I$srcdir/libgpujpeg/include
Libs: -L$builddir/.libs -lgpujpeg
EOF
}

# ------------------------------------------------------------------ configure + make
# Only what the FATE tests, the README's example and the benchmarks use.
configure_flags() {
    echo --disable-everything --disable-doc --disable-ffplay --disable-network --disable-autodetect
    echo --disable-debug --enable-pthreads
    echo --enable-libgpujpeg
    # OpenCL where libgpujpeg has it (the GPU machines may lack the ICD headers)
    grep -q '^#define HAVE_OPENCL 1' "$builddir/config.h" && echo --enable-opencl
    echo --enable-ffnvcodec --enable-cuda --enable-nvdec --enable-cuvid
    echo --enable-decoder=mjpeg,mjpeg_gpujpeg,mjpeg_cuvid,rawvideo,wrapped_avframe
    echo --enable-decoder=jpeg2000,jpeg2000_gpujpeg --enable-encoder=jpeg2000
    echo --enable-encoder=mjpeg,rawvideo,wrapped_avframe,ppm
    # HAP: ours (hap_gpujpeg) and FFmpeg's encoder (snappy) and decoder, in QuickTime files;
    # split/hflip/alphamerge give the alpha tests' inputs a varying alpha (gpujpeg_hap_inputs.sh)
    echo --enable-encoder=hap_gpujpeg --enable-decoder=hap --enable-filter=split,hflip,alphamerge
    grep -q '^#define HAVE_SNAPPY 1' "$builddir/config.h" && echo --enable-libsnappy --enable-encoder=hap
    echo --enable-hwaccel=mjpeg_gpujpeg_cuda,mjpeg_gpujpeg_opencl,mjpeg_nvdec
    echo --enable-parser=mjpeg,jpeg2000
    echo --enable-demuxer=avi,mjpeg,image2,rawvideo,mov,mxf
    echo --enable-muxer=avi,mjpeg,image2,rawvideo,framecrc,framemd5,null,mov,mxf
    echo --enable-protocol=file,pipe
    echo --enable-indev=lavfi
    echo --enable-filter=testsrc2,smptehdbars,scale,format,null,hwupload,hwdownload,hwupload_cuda,trim
    # the mjpeg_gpujpeg encoder; loop repeats one uploaded frame in bench/ffmpeg_mjpeg_encode.sh
    echo --enable-encoder=mjpeg_gpujpeg --enable-filter=loop
    # the DXT filter (filters/; gpujpeg_dxt_filter.mak); metadata prints its frames' texture tags
    echo --enable-filter=dxt_gpujpeg,metadata
    # showinfo prints the frames' side data (jpeg2000_gpujpeg's ICC profiles: gpujpeg_j2k_icc.sh)
    echo --enable-filter=showinfo
    command -v nasm > /dev/null 2>&1 || echo --disable-x86asm
    echo ${FFMPEG_CONFIGURE_EXTRA:-}
}

source=$(get_source)
nvpc=$(get_ffnvcodec)
prepare_tree "$source"
write_pc
flags=$(configure_flags | tr '\n' ' ')
mkdir -p "$top/build"
if [ "$(cat "$top/build/.gj-flags" 2>/dev/null)" != "$flags" ] || [ ! -f "$top/build/ffbuild/config.mak" ]; then
    say "configure $flags"
    (cd "$top/build" && PKG_CONFIG_PATH="$top/pkgconfig:$nvpc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
        "$top/src/configure" $flags --extra-ldflags="-Wl,-rpath,$builddir/.libs" > configure.log 2>&1) ||
        { tail -n 30 "$top/build/configure.log" >&2; cat "$top/build/ffbuild/config.log" > "$top/build/config.log.keep" 2>/dev/null || true;
          die "FFmpeg's configure failed (ffmpeg/build/configure.log, ffbuild/config.log)"; }
    echo "$flags" > "$top/build/.gj-flags"
fi
say "make -j$jobs (ffmpeg/build)"
make -C "$top/build" -j"$jobs" > "$top/build/make.log" 2>&1 ||
    { grep -E 'error|Error' "$top/build/make.log" | head -n 20 >&2; die "FFmpeg's make failed (ffmpeg/build/make.log)"; }
"$top/build/ffmpeg" -hide_banner -decoders 2> /dev/null | grep -q mjpeg_gpujpeg || die "ffmpeg lists no mjpeg_gpujpeg decoder"
say "built $top/build/ffmpeg and $top/build/ffprobe ($("$top/build/ffmpeg" -version | head -n 1))"
