#!/bin/sh
# HAP encoding through FFmpeg on a CUDA GPU machine (doc/benchmarks.md,
# "FFmpeg: HAP encoding"): hap_gpujpeg from CUDA frames against FFmpeg's native
# hap encoder (hap and hap_q) with every core, all in one ffmpeg binary
# (`make ffmpeg`, built with libsnappy).
#
#   bench/ffmpeg_hap_encode.sh FFMPEG PHOTO.jpg
#
# PHOTO: e.g. the 3840x2160 4k-q90-420.jpg of bench/make_photos.sh. It is decoded
# once, converted to rgba (what the native encoder takes), and then
#   CUDA frames:     uploaded once (hwupload) and repeated on the GPU by the loop
#                    filter placed after hwupload: every encode reads the same
#                    device frame in place, so neither decoding nor uploading is
#                    timed; the blocks come back and are packed (snappy) on the host;
#   native encoder:  the rgba frame repeated in host memory by loop.
# One warm-up run first (the GPU's clocks, the OpenCL/CUDA caches). Each row runs
# twice, N1 = N2 / 8 and N2 frames; fps = (N2 - N1) / (rtime2 - rtime1)
# (-benchmark's rtime), which leaves out start-up (CUDA context, kernels).
# Both encoders use their defaults otherwise (snappy; chunks: hap_gpujpeg one
# per 128 KiB of blocks, 31 at 4K, FFmpeg's hap one), and rows with the other's
# chunk count each.
# BENCH_HW=opencl: OpenCL frames and device instead of CUDA. BENCH_NATIVE=0:
# no rows of FFmpeg's encoder (e.g. for an older build's GPU rows).
# Prints: NAME FRAMES fps BYTES_PER_FRAME. BENCH_N (default 3200): N2 of the GPU
# rows (the native encoder: N2 / 20).
set -eu
ffmpeg=$1 photo=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/gj-bench-hap.XXXXXX")
trap 'rm -rf "$work"' EXIT
threads=$(nproc)
source="-i $photo -vf format=rgba"
hw=${BENCH_HW:-cuda}             # opencl: the same rows on OpenCL frames
hwdev="-init_hw_device $hw=gj -filter_hw_device gj"

# ff, rtime, fps
. "$(dirname "$0")/ffmpeg_encode_common.sh"

# run NAME N1 N2 FILTER_TAIL ARGS...
run() {
    name=$1 n1=$2 n2=$3 tail=$4
    shift 4
    f=$(fps "$n1" "$n2" "$tail" "$@")
    # the size of 5 packets (the rawvideo muxer writes them as they are), apart from the timed runs
    size=0
    ff 5 "$tail" "$@" -f rawvideo -y "$work/out.hap" && size=$(($(wc -c < "$work/out.hap") / 5))
    awk -v n="$name" -v n2="$n2" -v f="$f" -v s="$size" \
        'BEGIN { if (f > 0) printf "%-44s %6d frames %8.1f fps %9d bytes/frame\n", n, n2, f, s;
                 else printf "%-44s failed\n", n }'
}

"$ffmpeg" -hide_banner -encoders 2> /dev/null | grep -q ' hap ' || echo "hap: FFmpeg's encoder is not in this binary (no libsnappy)"
N=${BENCH_N:-3200}
devices=$hwdev
ff $((N / 8)) ",hwupload" -c:v hap_gpujpeg -f null - || true     # warm-up
run "hap_gpujpeg $hw frames, hap"               $((N / 8)) $N ",hwupload" -c:v hap_gpujpeg -format hap
run "hap_gpujpeg $hw frames, hap -quality fast" $((N / 8)) $N ",hwupload" -c:v hap_gpujpeg -format hap -quality fast
run "hap_gpujpeg $hw frames, hap -chunks 1"     $((N / 8)) $N ",hwupload" -c:v hap_gpujpeg -format hap -chunks 1
run "hap_gpujpeg $hw frames, hap_q"             $((N / 8)) $N ",hwupload" -c:v hap_gpujpeg -format hap_q
[ "${BENCH_NATIVE:-1}" = 0 ] && exit 0
devices=
run "hap native, $threads threads"              $((N / 160)) $((N / 20)) "" -c:v hap -format hap -threads "$threads"
run "hap native, $threads threads, -chunks 16"  $((N / 160)) $((N / 20)) "" -c:v hap -format hap -threads "$threads" -chunks 16
run "hap native, $threads threads, hap_q"       $((N / 160)) $((N / 20)) "" -c:v hap -format hap_q -threads "$threads"
