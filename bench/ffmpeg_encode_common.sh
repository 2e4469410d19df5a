# Sourced by bench/ffmpeg_mjpeg_encode.sh, bench/ffmpeg_hap_encode.sh and
# bench/ffmpeg_dxt_filter.sh: one ffmpeg run over a picture repeated by the loop
# filter, and its time. The caller sets ffmpeg (the binary), devices (hw device
# options, or empty), source (input and filter head) and work (a scratch
# directory), and may set after_loop (",FILTERS" that run on every repeated frame).

# ff N FILTER_TAIL ARGS...: encodes N frames of the repeated picture (the output follows ARGS)
ff() {
    n=$1 tail=$2
    shift 2
    # shellcheck disable=SC2086 # one word per option
    "$ffmpeg" -nostdin -hide_banner -benchmark $devices $source$tail,loop=loop=-1:size=1${after_loop:-} -frames:v "$n" "$@" \
        > "$work/log" 2>&1 || { echo "failed: $(grep -iE 'error|fail' "$work/log" | tail -n 2 | tr '\n' ' ')" >&2; return 1; }
}

# rtime N FILTER_TAIL ARGS...: seconds for N frames to the null muxer (0 on failure)
rtime() {
    ff "$@" -f null - || { echo 0; return; }
    sed -n 's/.*bench: .*rtime=\([0-9.]*\)s.*/\1/p' "$work/log" | tail -n 1
}

# fps N1 N2 FILTER_TAIL ARGS...: (N2 - N1) / (rtime of N2 frames - rtime of N1), which
# leaves out start-up (CUDA context, kernels); 0 on failure
fps() {
    fps_n1=$1 fps_n2=$2
    shift 2
    t1=$(rtime "$fps_n1" "$@")
    t2=$(rtime "$fps_n2" "$@")
    awk -v n1="$fps_n1" -v n2="$fps_n2" -v t1="$t1" -v t2="$t2" \
        'BEGIN { print (t1 > 0 && t2 > t1) ? (n2 - n1) / (t2 - t1) : 0 }'
}
