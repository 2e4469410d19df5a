#!/bin/sh
# CESNET GPUJPEG, a peer: built from its public source on the GPU machine for
# the comparison only (its code is never committed here).
#
#   bench/gpujpeg_cesnet.sh build SRC BUILDDIR
#       SRC: a GPUJPEG source tree, or a `git archive` of one (.tar or .tar.gz).
#       Builds gpujpegtool with cmake (Release, CUDA architecture of GPU 0 from
#       nvidia-smi, or $CUDA_ARCH) and prints its path as the last line.
#   bench/gpujpeg_cesnet.sh decode TOOL ITERS FILE.jpg...
#       Decodes each file ITERS + 3 times in one `gpujpegtool -d -n` run (to RGB
#       in host memory, its default) and prints result lines as the other
#       benchmark programs do (bench/bench_util.h), from the timings that
#       gpujpegtool prints per iteration, the first 3 dropped:
#         host-rgb24     "Decode Image": host JPEG in, host RGB out
#         nocopy-rgb24   "Decode Image Bare": without the copies to/from the GPU
#         gpuonly-rgb24  "Decode Image GPU": only the work on the GPU (without
#                        restart markers GPUJPEG decodes Huffman on the CPU)
#   bench/gpujpeg_cesnet.sh encode-bench TOOL ITERS QUALITY FILE.jpg...
#       Decodes each file once with gpujpegtool, then encodes that RGB picture
#       ITERS + 3 times in one `gpujpegtool -e -n` run, 4:2:0, quality QUALITY,
#       GPUJPEG's other defaults (restart interval 8), and prints result lines
#       (the notes: the file's size), first 3 dropped:
#         enc-host-rgb24     "Encode Image": host RGB in, host JPEG out
#         enc-nocopy-rgb24   "Encode Image Bare": without the copies to/from the GPU
#         enc-gpuonly-rgb24  "Encode Image GPU": only the work on the GPU
#   bench/gpujpeg_cesnet.sh encode TOOL IN.jpg OUT.jpg [QUALITY [SUBSAMPLING]]
#       Makes a "GPUJPEG restart-rich file": decodes IN with gpujpegtool and
#       re-encodes it with GPUJPEG's encoder and its defaults (restart interval
#       chosen by GPUJPEG, non-interleaved scans), quality QUALITY (default 90),
#       chroma SUBSAMPLING (default 4:4:4, GPUJPEG's default; or 4:2:0, 4:2:2).
set -eu

warmup=3

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

find_nvcc() {
    for c in "$(command -v nvcc 2>/dev/null || true)" "${CUDA_HOME:-/nonexistent}/bin/nvcc" \
             /usr/local/cuda/bin/nvcc; do
        if [ -n "$c" ] && [ -x "$c" ]; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

cmd_build() {
    [ $# -eq 2 ] || usage
    src=$1
    dir=$2
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ -f "$src" ]; then
        rm -rf "$dir/src"
        mkdir -p "$dir/src"
        tar -xf "$src" -C "$dir/src"
        src=$dir/src
        # an archive made with --prefix holds one top directory
        if [ ! -f "$src/CMakeLists.txt" ] && [ "$(ls "$src" | wc -l)" -eq 1 ]; then
            src=$src/$(ls "$src")
        fi
    fi
    if [ ! -f "$src/CMakeLists.txt" ]; then
        echo "$0: $src is not a GPUJPEG source tree (no CMakeLists.txt)" >&2
        exit 1
    fi
    nvcc=$(find_nvcc) || { echo "$0: nvcc not found (set CUDA_HOME)" >&2; exit 1; }
    arch=${CUDA_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
                        head -n 1 | tr -d '. ' || true)}
    arch=${arch:-90}
    echo "GPUJPEG: cmake build for sm_$arch with $nvcc" >&2
    cmake -S "$src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DBUILD_OPENGL=OFF -DBUILD_TESTING=OFF >&2
    cmake --build "$dir/build" -j "$(nproc)" --target gpujpeg-bin >&2
    echo "$dir/build/gpujpegtool"
}

# median and minimum of the numbers on stdin, one per line, after dropping the
# first $warmup: "MEDIAN MIN COUNT", nothing when none is left
stats() {
    tail -n +$((warmup + 1)) | sort -g | awk '
        { v[NR] = $1 }
        END {
            if (NR == 0) exit
            m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%.6f %.6f %d\n", m, v[1], NR
        }'
}

# result FILE SIZE SAMPLING RESTART MODE "MEDIAN MIN COUNT"
result() {
    set -- "$1" "$2" "$3" "$4" "$5" $6
    if [ $# -lt 8 ]; then
        printf '%-32s %-9s %-8s %-8s %-16s failed: no timings in the output\n' "$1" "$2" "$3" "$4" "$5"
        return
    fi
    awk -v f="$1" -v s="$2" -v smp="$3" -v r="$4" -v mode="$5" -v med="$6" -v min="$7" -v n="$8" 'BEGIN {
        split(s, d, "x")
        ips = med > 0 ? 1000 / med : 0
        printf "%-32s %-9s %-8s %-8s %-16s %9.3f %9.3f %9.1f %9.1f n=%d\n",
               f, s, smp, r, mode, med, min, ips, ips * d[1] * d[2] / 1e6, n
    }'
}

cmd_decode() {
    [ $# -ge 3 ] || usage
    tool=$1
    iters=$2
    shift 2
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    echo "# gpujpeg_cesnet.sh: CESNET GPUJPEG ($("$tool" -V 2>&1 | head -n 1)), $iters timed decodes per file"
    printf '# %-30s %-9s %-8s %-8s %-16s %9s %9s %9s %9s %s\n' file size sampling restart mode \
        median_ms min_ms img/s Mpix/s notes
    for f in "$@"; do
        name=$(basename "$f")
        "$tool" -I "$f" > "$tmp/info" 2>&1 || true
        w=$(sed -n 's/^width: \([0-9]*\).*/\1/p' "$tmp/info")
        h=$(sed -n 's/^height: \([0-9]*\).*/\1/p' "$tmp/info")
        smp=$(sed -n 's/^internal representation: .*(\(.*\)).*/\1/p' "$tmp/info")
        dri=$(sed -n 's/^segment count: .*(DRI = \([0-9]*\)).*/\1/p' "$tmp/info")
        size=${w:-0}x${h:-0}
        restart=none
        if [ -n "$dri" ] && [ "$dri" != 0 ]; then
            restart=rst$dri
        fi
        if ! "$tool" -d -n $((iters + warmup)) "$f" "$tmp/out.pnm" > "$tmp/log" 2>&1; then
            printf '%-32s %-9s %-8s %-8s %-16s failed: %s\n' "$name" "$size" "${smp:-?}" "$restart" \
                host-rgb24 "$(grep -i -m 1 'error\|fail' "$tmp/log" || tail -n 1 "$tmp/log")"
            continue
        fi
        result "$name" "$size" "${smp:-?}" "$restart" host-rgb24 \
            "$(awk '/^Decode Image:/ { print $3 }' "$tmp/log" | stats)"
        result "$name" "$size" "${smp:-?}" "$restart" nocopy-rgb24 \
            "$(awk '/^Decode Image Bare:/ { print $4 }' "$tmp/log" | stats)"
        result "$name" "$size" "${smp:-?}" "$restart" gpuonly-rgb24 \
            "$(awk '/^Decode Image GPU:/ { print $4 }' "$tmp/log" | stats)"
    done
}

cmd_encode() {
    if [ $# -lt 3 ] || [ $# -gt 5 ]; then usage; fi
    tool=$1
    in=$2
    out=$3
    quality=${4:-90}
    subsampling=${5:-4:4:4}
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    "$tool" -d "$in" "$tmp/in.pnm" > "$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
    "$tool" -e -q "$quality" --subsampled="$subsampling" "$tmp/in.pnm" "$out" > "$tmp/log" 2>&1 ||
        { cat "$tmp/log" >&2; exit 1; }
    "$tool" -I "$out" | grep -E '^(width|height|internal|interleaved|segment)' | tr '\n' ' ' >&2
    echo >&2
}

cmd_encode_bench() {
    [ $# -ge 4 ] || usage
    tool=$1 iters=$2 quality=$3
    shift 3
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    echo "# gpujpeg_cesnet.sh: CESNET GPUJPEG ($("$tool" -V 2>&1 | head -n 1)), $iters timed encodes per file, q$quality 4:2:0"
    printf '# %-30s %-9s %-8s %-8s %-16s %9s %9s %9s %9s %s\n' file size sampling restart mode \
        median_ms min_ms img/s Mpix/s notes
    for f in "$@"; do
        name=$(basename "$f")
        if ! "$tool" -d "$f" "$tmp/in.pnm" > "$tmp/log" 2>&1 ||
           ! "$tool" -e -n $((iters + warmup)) -q "$quality" --subsampled=4:2:0 "$tmp/in.pnm" "$tmp/out.jpg" \
               > "$tmp/log" 2>&1; then
            echo "$name: failed: $(grep -i -m 1 'error\|fail' "$tmp/log" || tail -n 1 "$tmp/log")"
            continue
        fi
        size=$(head -c 20 "$tmp/in.pnm" | tr '\n' ' ' | awk '{ print $2 "x" $3 }')
        result "$name" "$size" 420 rst8 enc-host-rgb24 \
            "$(awk '/^Encode Image:/ { print $3 }' "$tmp/log" | stats)"
        result "$name" "$size" 420 rst8 enc-nocopy-rgb24 \
            "$(awk '/^Encode Image Bare:/ { print $4 }' "$tmp/log" | stats)"
        result "$name" "$size" 420 rst8 enc-gpuonly-rgb24 \
            "$(awk '/^Encode Image GPU:/ { print $4 }' "$tmp/log" | stats)"
        echo "#   $name: $(wc -c < "$tmp/out.jpg") bytes"
    done
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
    build) cmd_build "$@" ;;
    decode) cmd_decode "$@" ;;
    encode) cmd_encode "$@" ;;
    encode-bench) cmd_encode_bench "$@" ;;
    *) usage ;;
esac
