#!/bin/sh
# MJPEG encoding through FFmpeg on a CUDA GPU machine (doc/benchmarks.md,
# "FFmpeg: MJPEG encoding"): mjpeg_gpujpeg from CUDA frames and from software
# frames, against FFmpeg's native mjpeg encoder with every core, all in one
# ffmpeg binary (`make ffmpeg`). FFmpeg has no NVENC MJPEG encoder
# (mjpeg_nvenc); the script says so if the binary lacks it.
#
#   bench/ffmpeg_mjpeg_encode.sh FFMPEG PHOTO.jpg
#
# PHOTO: e.g. the 3840x2160 4k-q90-420.jpg of bench/make_photos.sh. It is decoded
# once, converted to full-range yuv420p, and then
#   CUDA frames:     uploaded once (hwupload) and repeated on the GPU by the loop
#                    filter: every encode reads the same device frame in place,
#                    so neither decoding nor uploading is timed;
#   software frames: repeated in host memory by loop (each encode uploads it).
# Each row runs once untimed (N1 frames: the GPU's clocks ramp up; the first row
# measured cold came out a third slower than the same encode later), then three
# times twice, N1 = N2 / 8 and N2 frames; fps = (N2 - N1) / (rtime2 - rtime1)
# (-benchmark's rtime), which leaves out start-up (CUDA context, kernels); the
# median of the three is printed.
# BENCH_HW=opencl: OpenCL frames and device instead of CUDA.
# Prints: NAME FRAMES fps BYTES_PER_FRAME. BENCH_N (default 9600: with 3200 the runs
# of one row spread from 1345 to 2086 fps on an H200): N2 of the GPU
# rows (software frames: N2 / 4, the native encoder: N2 / 20).
set -eu
ffmpeg=$1 photo=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/gj-bench-enc.XXXXXX")
trap 'rm -rf "$work"' EXIT
threads=$(nproc)
source="-i $photo -vf scale=out_range=full,format=yuv420p"
hw=${BENCH_HW:-cuda}             # opencl: the same rows on OpenCL frames
hwdev="-init_hw_device $hw=gj -filter_hw_device gj"

# ff, rtime, fps
. "$(dirname "$0")/ffmpeg_encode_common.sh"

# run NAME N1 N2 FILTER_TAIL ARGS...
run() {
    name=$1 n1=$2 n2=$3 tail=$4
    shift 4
    rtime "$n1" "$tail" "$@" > /dev/null
    runs=
    for i in 1 2 3; do
        runs="$runs $(fps "$n1" "$n2" "$tail" "$@")"
    done
    # the size of 5 packets, written apart from the timed runs
    size=0
    ff 5 "$tail" "$@" -f mjpeg -y "$work/out.mjpeg" && size=$(($(wc -c < "$work/out.mjpeg") / 5))
    # shellcheck disable=SC2086 # one word per run
    median=$(printf '%s\n' $runs | sort -g | sed -n 2p)
    awk -v n="$name" -v n2="$n2" -v f="$median" -v all="$runs" -v s="$size" \
        'BEGIN { if (f > 0) printf "%-44s %6d frames %8.1f fps %9d bytes/frame (runs:%s)\n", n, n2, f, s, all;
                 else printf "%-44s failed\n", n }'
}

"$ffmpeg" -hide_banner -encoders 2> /dev/null | grep -q mjpeg_nvenc || echo "mjpeg_nvenc: not in this FFmpeg (NVENC has no JPEG)"
N=${BENCH_N:-9600}
devices=$hwdev
run "mjpeg_gpujpeg $hw frames, -quality 90"     $((N / 8)) $N ",hwupload" -c:v mjpeg_gpujpeg -quality 90
run "mjpeg_gpujpeg $hw frames, -q:v 2"          $((N / 8)) $N ",hwupload" -c:v mjpeg_gpujpeg -q:v 2
run "mjpeg_gpujpeg $hw frames, -quality 90 opt" $((N / 8)) $N ",hwupload" -c:v mjpeg_gpujpeg -quality 90 -huffman optimal
devices=
run "mjpeg_gpujpeg software frames, -quality 90" $((N / 32)) $((N / 4)) "" -c:v mjpeg_gpujpeg -gpu_device "$hw" -quality 90
run "mjpeg native, $threads threads, -q:v 2"     $((N / 160)) $((N / 20)) "" -c:v mjpeg -q:v 2 -threads "$threads"
