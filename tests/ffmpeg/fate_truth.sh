#!/bin/sh
# Checks that the FATE references of tests/fate/gpujpeg.mak are true: our
# decoders' output of one generated clip equals libjpeg-turbo's raw-data decode
# (tests/tools/jpeg_raw_decode) of each of its frames, byte for byte. Frames
# that libjpeg-turbo refuses must be refused (dropped) by our decoders too.
# Prints one line per decoder path: PASS/FAIL ffmpeg/PATH-CLIP, and a note on
# whether FFmpeg's native mjpeg decoder is bit-exact with libjpeg-turbo.
#
#   fate_truth.sh FFMPEG CLIP.avi HWACCEL(opencl|cuda) GPU_DEVICE JPEG_RAW_DECODE
set -u
ffmpeg=$1 clip=$2 hwaccel=$3 device=$4 raw_decode=$5
name=$(basename "$clip" .avi)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-truth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ff() { timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }

# libjpeg-turbo's planes of every frame it decodes, concatenated
ff -i "$clip" -c:v copy -f image2 "$tmp/%03d.jpg" || { echo "FAIL ffmpeg/truth-$name: cannot extract the frames"; exit 0; }
: > "$tmp/expected.yuv"
for f in "$tmp"/*.jpg; do
    if "$raw_decode" "$f" "$tmp/frame.yuv" 2> /dev/null; then
        cat "$tmp/frame.yuv" >> "$tmp/expected.yuv"
    fi
done

# check PATH FFMPEG_ARGS...: the raw output of one decoder path
check() {
    path=$1
    shift
    # passthrough: a refused frame must not be replaced by a duplicate
    if ! ff "$@" -fps_mode passthrough -f rawvideo "$tmp/$path.yuv" 2> "$tmp/$path.log" && [ ! -s "$tmp/$path.yuv" ]; then
        echo "FAIL ffmpeg/$path-$name: ffmpeg failed: $(tail -n 1 "$tmp/$path.log")"
    elif cmp -s "$tmp/$path.yuv" "$tmp/expected.yuv"; then
        echo "PASS ffmpeg/$path-$name ($(wc -c < "$tmp/expected.yuv") bytes equal libjpeg-turbo's)"
    else
        echo "FAIL ffmpeg/$path-$name: differs from libjpeg-turbo: $(cmp "$tmp/$path.yuv" "$tmp/expected.yuv" 2>&1 | head -n 1)"
    fi
}

case $name in
cjprog)
    # progressive: mjpeg_gpujpeg refuses it; the hwaccel falls back (FATE checks that)
    if ff -c:v mjpeg_gpujpeg -gpu_device "$device" -i "$clip" -f null - 2> "$tmp/log" ||
       ! grep -q "unsupported" "$tmp/log"; then
        echo "FAIL ffmpeg/dec-$name: a progressive frame was not refused as unsupported"
    else
        echo "PASS ffmpeg/dec-$name (refused: $(grep -m 1 unsupported "$tmp/log" | cut -c 1-80))"
    fi
    ;;
*)
    check dec -c:v mjpeg_gpujpeg -gpu_device "$device" -i "$clip"
    check hwaccel -hwaccel "$hwaccel" -i "$clip"
    if ff -i "$clip" -fps_mode passthrough -f rawvideo "$tmp/native.yuv" 2> /dev/null && cmp -s "$tmp/native.yuv" "$tmp/expected.yuv"; then
        echo "note: ffmpeg/native-$name: FFmpeg's mjpeg decoder is bit-exact with libjpeg-turbo here"
    else
        echo "note: ffmpeg/native-$name: FFmpeg's mjpeg decoder differs from libjpeg-turbo"
    fi
    ;;
esac
