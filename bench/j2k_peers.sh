#!/bin/sh
# Issue 5's JPEG 2000 benchmark in one run: ours against nvJPEG2000, OpenJPEG and
# FFmpeg's native decoder, on the same files (doc/benchmarks.md, "JPEG 2000").
#
#   bench/j2k_peers.sh make-streams DIR
#       Writes the benchmark's streams into DIR with opj_compress and ffmpeg (on a
#       machine that has them, from the EveningGlow photo of Debian's desktop-base):
#       4k-lossless, 4k-lossy-r20 (-I -r 20), 4k-lossless-tiled (1024x1024 tiles)
#       from 8-bit RGB; 2k-dci (-cinema2K 24, 2048x1080) and 4k-dci (-cinema4K,
#       4096x2160) from 12-bit RGB, as the DCI profiles require: their SIZ says
#       Rsiz 3 and 4 (opj_compress writes Rsiz 0, "Non-profile-3 codestream",
#       from 8-bit input); hd-422p10-r8 and 4k-422p10-r8 (1920x1080 and 3840x2160
#       YUV 4:2:2 of 10 bits, -I -r 8: broadcast contribution's) from 10-bit YUV.
#   bench/j2k_peers.sh run DIR [DEVICE]
#       From the top of a configured and built tree (bench/bench_j2k, DEVICE
#       default cuda), for every DIR/*.j2k: one picture at a time and batches of
#       16 (lanes 6, the default, and 8) with bench_j2k; then, those found:
#         nvJPEG2000   $NVJ2K: the nvidia/nvjpeg2k directory of the PyPI wheel
#                      nvidia-nvjpeg2k-cu13 (bench_nvjpeg2k is built from
#                      bench/bench_nvjpeg2k.c against it and $CUDA, default
#                      /usr/local/cuda), one at a time and batches of 16 on 8 and
#                      16 threads;
#         OpenJPEG     $OPJ_DECOMPRESS (default opj_decompress), -threads $THREADS
#                      (default: every core), its own "decode time", 3 runs;
#         FFmpeg       $FFMPEG (default ffmpeg), the native jpeg2000 decoder,
#                      -threads $THREADS, 96 frames of -loop 1, rtime / 96.
#       ms per picture throughout; ours and nvJPEG2000 decode to device memory.
set -e

die() { echo "j2k_peers.sh: $*" >&2; exit 1; }

# to12 IN OUT: FFmpeg's 16-bit PPM (rgb48be) as a 12-bit one (MAXVAL 4095), which
# opj_compress reads as 12-bit components. Row by row: a 4K picture's samples as one
# perl list would take gigabytes.
to12() {
    perl -e 'binmode STDIN; binmode STDOUT; local $/; my $d = <STDIN>;
             $d =~ s/^P6\s+(\d+)\s+(\d+)\s+65535\s//s or die "j2k_peers.sh: not a 16-bit PPM\n";
             my $row = $1 * 6;
             print "P6\n$1 $2\n4095\n";
             for (my $o = 0; $o < length $d; $o += $row) {
                 print pack("n*", map { $_ >> 4 } unpack("n*", substr($d, $o, $row)));
             }' < "$1" > "$2"
}

# yuv422p10 WxH OUT: the photo as 10-bit YUV 4:2:2, 9/7 at 1:8, from raw planes (big-endian,
# as opj_compress reads samples of more than 8 bits).
yuv422p10() {
    ffmpeg -loglevel error -y -i "$photo" -vf "crop=2560:1440,scale=$1:flags=lanczos" -pix_fmt yuv422p10le \
        -f rawvideo "$tmp/422.raw"
    perl -e 'binmode STDIN; binmode STDOUT; local $/; print pack("n*", unpack("v*", <STDIN>))' \
        < "$tmp/422.raw" > "$tmp/422be.raw"
    opj_compress -i "$tmp/422be.raw" -o "$2" -F "$(echo "$1" | tr x ,),3,10,u@1x1:2x1:2x1" -I -r 8 >/dev/null
}

# dci IN OUT OPTION...: a DCI profile stream; opj_compress falls back to Rsiz 0 with a
# warning (not an error) when the input does not fit the profile.
dci() {
    in=$1 o=$2
    shift 2
    log=$(opj_compress -i "$in" -o "$o" "$@" 2>&1) || die "opj_compress $*: $log"
    case $log in *Non-profile*) die "opj_compress $*: not a profile stream: $log" ;; esac
}

make_streams() {
    dir=$1
    photo=/usr/share/wallpapers/EveningGlow/contents/images/2560x1600.jpg
    [ -f "$photo" ] || die "$photo missing (apt-get install desktop-base)"
    mkdir -p "$dir"
    tmp=$(mktemp -d)
    ffmpeg -loglevel error -y -i "$photo" -vf crop=2560:1440,scale=3840:2160:flags=lanczos -pix_fmt rgb24 "$tmp/4k.ppm"
    ffmpeg -loglevel error -y -i "$tmp/4k.ppm" -vf scale=2048:1080 -pix_fmt rgb48be "$tmp/2k16.ppm"
    ffmpeg -loglevel error -y -i "$photo" -vf crop=2560:1350,scale=4096:2160:flags=lanczos -pix_fmt rgb48be \
        "$tmp/4kd16.ppm"
    to12 "$tmp/2k16.ppm" "$tmp/2k.ppm"
    to12 "$tmp/4kd16.ppm" "$tmp/4kd.ppm"
    opj_compress -i "$tmp/4k.ppm" -o "$dir/4k-lossless.j2k" >/dev/null
    opj_compress -i "$tmp/4k.ppm" -o "$dir/4k-lossy-r20.j2k" -I -r 20 >/dev/null
    opj_compress -i "$tmp/4k.ppm" -o "$dir/4k-lossless-tiled.j2k" -t 1024,1024 >/dev/null
    dci "$tmp/2k.ppm" "$dir/2k-dci.j2k" -cinema2K 24
    dci "$tmp/4kd.ppm" "$dir/4k-dci.j2k" -cinema4K
    yuv422p10 1920x1080 "$dir/hd-422p10-r8.j2k"
    yuv422p10 3840x2160 "$dir/4k-422p10-r8.j2k"
    rm -rf "$tmp"
    ls -l "$dir"
}

run() {
    dir=$1
    device=${2:-cuda}
    threads=${THREADS:-$(nproc)}
    [ -x bench/bench_j2k ] || die "run from a built tree (bench/bench_j2k)"
    set -- "$dir"/*.j2k
    [ -f "$1" ] || die "no .j2k streams in $dir"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    echo "# ours, one picture at a time"
    bench/bench_j2k --device "$device" --iters 20 --seconds 0.5 "$@"
    for lanes in 6 8; do
        echo "# ours, batches of 16, $lanes lanes"
        GJ_LANES=$lanes bench/bench_j2k --device "$device" --iters 6 --seconds 0.5 --batch 16 "$@"
    done
    if [ -n "$NVJ2K" ]; then
        cuda=${CUDA:-/usr/local/cuda}
        nvj=$(mktemp -d)/bench_nvjpeg2k
        gcc -O2 -std=gnu11 -I"$NVJ2K/include" -I"$cuda/include" bench/bench_nvjpeg2k.c bench/bench_util.c \
            -o "$nvj" "$NVJ2K/lib/libnvjpeg2k.so.0" -L"$cuda/lib64" -lcudart -Wl,-rpath,"$NVJ2K/lib"
        echo "# nvJPEG2000, one picture at a time"
        "$nvj" --iters 20 --seconds 0.5 "$@"
        for t in 8 16; do
            echo "# nvJPEG2000, batches of 16, $t threads"
            "$nvj" --iters 6 --seconds 0.5 --batch 16 --threads "$t" "$@"
        done
    fi
    opj=${OPJ_DECOMPRESS:-opj_decompress}
    if command -v "$opj" >/dev/null; then
        echo "# OpenJPEG, -threads $threads, decode time of 3 runs (ms)"
        out=$(mktemp -d)
        for f; do
            printf '%s' "$(basename "$f")"
            for k in 1 2 3; do
                printf ' %s' "$("$opj" -threads "$threads" -i "$f" -o "$out/o.ppm" 2>&1 |
                                sed -n 's/.*decode time: \([0-9.]*\) ms.*/\1/p' | head -1)"
            done
            echo
        done
        rm -rf "$out"
    fi
    ff=${FFMPEG:-ffmpeg}
    if command -v "$ff" >/dev/null; then
        echo "# FFmpeg native jpeg2000, -threads $threads, 96 frames (ms per frame)"
        for f; do
            rtime=$("$ff" -hide_banner -nostats -benchmark -threads "$threads" -f image2 -loop 1 -framerate 24 -t 4 \
                    -c:v jpeg2000 -i "$f" -f null - 2>&1 | sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p')
            echo "$(basename "$f") $(echo "$rtime" | awk '{ printf "%.1f", $1 * 1000 / 96 }')"
        done
    fi
}

case "$1" in
make-streams) [ $# -eq 2 ] || die "usage: $0 make-streams DIR"; make_streams "$2" ;;
run) [ $# -ge 2 ] || die "usage: $0 run DIR [DEVICE]"; run "$2" "$3" ;;
*) die "usage: $0 make-streams DIR | run DIR [DEVICE]" ;;
esac
