# Sourced by the FFmpeg truth scripts, which define ff (their ffmpeg command) and
# tmp (a scratch directory).
#
# truth_refuse PREFIX VERB NAME PATTERN FFMPEG_ARGS...: `ff FFMPEG_ARGS -f null -`
# must fail with a message matching PATTERN (VERB: what it must not have done,
# e.g. "encoded"). Prints one PASS/FAIL line as PREFIX/NAME.
truth_refuse() {
    prefix=$1 verb=$2 name=$3 pattern=$4
    shift 4
    if ff "$@" -f null - 2> "$tmp/$name.log"; then
        echo "FAIL $prefix/$name: $verb what it must refuse"
    elif grep -q "$pattern" "$tmp/$name.log"; then
        echo "PASS $prefix/$name (refused: $(grep "$pattern" "$tmp/$name.log" | head -n 1 | cut -c 1-100))"
    else
        echo "FAIL $prefix/$name: no message matching '$pattern': $(tail -n 1 "$tmp/$name.log")"
    fi
}
