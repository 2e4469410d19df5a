#!/bin/sh
# The dxt_gpujpeg filter through FFmpeg on a CUDA GPU machine (doc/benchmarks.md,
# "Sixth session: the DXT filter"): DXT compression of CUDA frames in place,
# against FFmpeg's native hap encoder (the CPU DXT compressor FFmpeg has; every
# core, chunks stored: -compressor none) and hap_gpujpeg (the same blocks brought
# back to the host), all in one ffmpeg binary (`make ffmpeg`).
#
#   bench/ffmpeg_dxt_filter.sh FFMPEG PHOTO.jpg
#
# PHOTO: e.g. the 3840x2160 4k-q90-420.jpg of bench/make_photos.sh. It is decoded
# once, converted to rgba and uploaded once (hwupload); the loop filter after
# hwupload repeats the device frame and the filter compresses every repeat into
# CUDA frames of blocks, which go to the null muxer (the blocks never leave the
# GPU). The native encoder repeats the rgba frame in host memory.
# One warm-up run first. Each row runs twice, N1 = N2 / 8 and N2 frames;
# fps = (N2 - N1) / (rtime2 - rtime1) (-benchmark's rtime): start-up and the
# work still queued on the GPU at the end cancel out.
# BENCH_HW=opencl: OpenCL frames and device instead of CUDA.
# Prints: NAME FRAMES fps. BENCH_N (default 3200): N2 of the GPU rows (quality
# high: N2 / 32; the native encoder: N2 / 20).
set -eu
ffmpeg=$1 photo=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/gj-bench-dxtf.XXXXXX")
trap 'rm -rf "$work"' EXIT
threads=$(nproc)
source="-i $photo -vf format=rgba"
hw=${BENCH_HW:-cuda}
hwdev="-init_hw_device $hw=gj -filter_hw_device gj"

# ff, rtime, fps
. "$(dirname "$0")/ffmpeg_encode_common.sh"

# run NAME N1 N2 FILTER_TAIL ARGS...
run() {
    name=$1 n1=$2 n2=$3 tail=$4
    shift 4
    f=$(fps "$n1" "$n2" "$tail" "$@")
    awk -v n="$name" -v n2="$n2" -v f="$f" \
        'BEGIN { if (f > 0) printf "%-48s %6d frames %8.1f fps\n", n, n2, f;
                 else printf "%-48s failed\n", n }'
}

N=${BENCH_N:-3200}
devices=$hwdev
# filter_row NAME OPTIONS [DIVISOR]: N2 = N / DIVISOR (high's cluster fit is ~30x slower)
filter_row() {
    n=$((N / ${3:-1}))
    after_loop=",dxt_gpujpeg=$2"
    run "dxt_gpujpeg $hw frames, $1" $((n / 8)) $n ",hwupload"
    after_loop=
}
after_loop=",dxt_gpujpeg"
ff $((N / 8)) ",hwupload" -f null - || true     # warm-up
filter_row "bc1 fast"       format=bc1:quality=fast
filter_row "bc1 balanced"   format=bc1:quality=balanced
filter_row "bc1 high"       format=bc1:quality=high 32
filter_row "bc3 balanced"   format=bc3:quality=balanced
filter_row "ycocg balanced" format=ycocg:quality=balanced
filter_row "bc4 balanced"   format=bc4:quality=balanced
run "hap_gpujpeg $hw frames, hap, -compressor none" $((N / 8)) $N ",hwupload" -c:v hap_gpujpeg -format hap -compressor none
devices=
run "hap native, $threads threads, -compressor none"        $((N / 160)) $((N / 20)) "" -c:v hap -format hap -compressor none -threads "$threads"
run "hap native, $threads threads, hap_q, -compressor none" $((N / 160)) $((N / 20)) "" -c:v hap -format hap_q -compressor none -threads "$threads"
