#!/bin/sh
# MJPEG decoding through FFmpeg on a CUDA GPU machine (doc/benchmarks.md,
# "FFmpeg"): the native mjpeg decoder with libgpujpeg's hwaccel, the
# mjpeg_gpujpeg decoder, NVDEC through mjpeg_cuvid, and the native decoder on
# the CPU, all in one ffmpeg binary (`make ffmpeg`), on 1080p and 4K clips in
# 4:2:0 and 4:2:2 (what cameras send) without restart markers.
#
#   bench/ffmpeg_mjpeg.sh FFMPEG PHOTO_DIR
#
# PHOTO_DIR holds photo-CLIP.jpg for each clip of BENCH_CLIPS (default
# 1080p-420 1080p-422 4k-420 4k-422; a name starting with 4k runs the 4K loop
# counts): bench/make_clips.sh FFMPEG PHOTO_DIR makes them from photographs. BENCH_SCALE=N divides the loops; BENCH_GPU_ONLY=1 leaves NVDEC and the
# CPU decoder out. Prints one line per decoder and clip:
#   CLIP DECODER FRAMES fps
set -eu
ffmpeg=$1 photos=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/gj-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
threads=$(nproc)

# 50 copies of one photo as an AVI clip; -stream_loop makes long runs of it.
make_clip() {
    mkdir -p "$work/$1"
    n=0
    while [ $n -lt 50 ]; do cp "$photos/photo-$1.jpg" "$work/$1/$(printf %03d $n).jpg"; n=$((n + 1)); done
    "$ffmpeg" -nostdin -hide_banner -loglevel error -framerate 25 -i "$work/$1/%03d.jpg" -c:v copy "$work/$1.avi"
}

# run CLIP NAME LOOPS ARGS...: decodes LOOPS x 50 frames, prints fps from -benchmark's rtime
run() {
    clip=$1 name=$2 loops=$3
    shift 3
    log=$work/log
    if "$ffmpeg" -nostdin -hide_banner -benchmark "$@" -stream_loop $((loops - 1)) -i "$work/$clip.avi" \
            -f null - > "$log" 2>&1; then
        frames=$(sed -n 's/.*Input stream #0:0 (video): .* \([0-9]*\) frames decoded.*/\1/p' "$log" | tail -n 1)
        [ -n "$frames" ] || frames=$(grep -o 'frame= *[0-9]*' "$log" | tail -n 1 | tr -dc 0-9)
        rtime=$(sed -n 's/.*bench: .*rtime=\([0-9.]*\)s.*/\1/p' "$log" | tail -n 1)
        awk -v c="$clip" -v n="$name" -v f="$frames" -v t="$rtime" \
            'BEGIN { printf "%-10s %-34s %6d frames %8.1f fps\n", c, n, f, f / t }'
    else
        echo "$clip $name: failed: $(grep -iE 'error|fail' "$log" | tail -n 2 | tr '\n' ' ')"
    fi
}

for clip in ${BENCH_CLIPS:-1080p-420 1080p-422 4k-420 4k-422}; do
    make_clip "$clip"
    # loops of 50 frames: GPU paths, CPU/NVDEC paths (BENCH_SCALE divides both)
    case $clip in 4k*) gpu=80 cpu=6 ;; *) gpu=160 cpu=20 ;; esac
    gpu=$(( (gpu + ${BENCH_SCALE:-1} - 1) / ${BENCH_SCALE:-1} )) cpu=$(( (cpu + ${BENCH_SCALE:-1} - 1) / ${BENCH_SCALE:-1} ))
    cuda="-hwaccel cuda -hwaccel_output_format cuda"
    # shellcheck disable=SC2086 # one word per option
    run "$clip" "mjpeg + gpujpeg hwaccel (cuda)" $gpu -loglevel verbose $cuda
    run "$clip" "mjpeg_gpujpeg (cuda frames)" $gpu -loglevel verbose $cuda -c:v mjpeg_gpujpeg
    [ -n "${BENCH_GPU_ONLY:-}" ] && continue
    run "$clip" "mjpeg_cuvid (NVDEC, cuda frames)" $cpu -loglevel verbose $cuda -c:v mjpeg_cuvid
    run "$clip" "mjpeg native ($threads threads)" $cpu -loglevel verbose -threads "$threads"
done
