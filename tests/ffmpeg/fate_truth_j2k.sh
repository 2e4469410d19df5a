#!/bin/sh
# Checks that the references of tests/fate/gpujpeg_j2k.mak are true for the
# lossless inputs: jpeg2000_gpujpeg's output equals FFmpeg's native jpeg2000
# decoder's byte for byte (a lossless decode has one right answer), in the
# same pixel format, on software frames and, for 8-bit planar YUV, hardware frames,
# and so does the sample aspect ratio.
# Prints PASS/FAIL ffmpeg/PATH-CLIP lines like fate_truth.sh.
#
#   fate_truth_j2k.sh FFMPEG CLIP HWACCEL(opencl|cuda) GPU_DEVICE
set -u
ffmpeg=$1 clip=$2 hwaccel=$3 device=$4
name=j2k-$(basename "$clip" | sed 's/[-.].*//')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-truth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ff() { timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }

# at the info level, ffmpeg's description of the input names the native decoder's pixel format
if ! timeout 300 "$ffmpeg" -nostdin -hide_banner -y -c:v jpeg2000 -i "$clip" -f rawvideo "$tmp/expected.raw" \
        2> "$tmp/native.log"; then
    echo "FAIL ffmpeg/truth-$name: the native decoder failed: $(tail -n 1 "$tmp/native.log")"
    exit 0
fi
fmt=$(sed -n 's/.*Video: jpeg2000[^,]*, \([a-z0-9]*\).*/\1/p' "$tmp/native.log" | head -n 1)

# check PATH FFMPEG_ARGS...: the raw output of one decoder path
check() {
    path=$1
    shift
    if ! ff "$@" -f rawvideo -pix_fmt "$fmt" "$tmp/$path.raw" 2> "$tmp/$path.log"; then
        echo "FAIL ffmpeg/$path-$name: ffmpeg failed: $(tail -n 1 "$tmp/$path.log")"
    elif cmp -s "$tmp/$path.raw" "$tmp/expected.raw"; then
        echo "PASS ffmpeg/$path-$name ($(wc -c < "$tmp/expected.raw") bytes of $fmt equal the native decoder's)"
    else
        echo "FAIL ffmpeg/$path-$name: differs from the native decoder: $(cmp "$tmp/$path.raw" "$tmp/expected.raw" 2>&1 | head -n 1)"
    fi
}

check dec -c:v jpeg2000_gpujpeg -gpu_device "$device" -i "$clip"
# (the 8-bit ones, with alpha or not: deep planar YUV comes in software frames where FFmpeg's
# frames cannot hold it)
case $fmt in
    yuv4??p | yuva4??p) check hw -hwaccel "$hwaccel" -hwaccel_output_format "$hwaccel" -c:v jpeg2000_gpujpeg -i "$clip" \
               -vf "hwdownload,format=$fmt" ;;
esac

# A lowres (max_lowres is 31) whose reduced picture, shifted back to FFmpeg's full size,
# passes an int: refused with a message (once, on the first clip)
case $name in
    j2k-ff_rgb_lossless)
        # (a subshell: truth_refuse's variables would overwrite name)
        ( . "$(dirname "$0")/truth_refuse.sh"
          truth_refuse ffmpeg decoded "lowres31-$name" "lowres 31 is too large" -lowres 31 -c:v jpeg2000_gpujpeg \
              -gpu_device "$device" -i "$clip" ) ;;
esac

# the stream's sample aspect ratio (a JP2 file's resolution box) as the native decoder's
sar() { ff "$@" -f framecrc - | sed -n 's/^#sar 0: //p'; }
native_sar=$(sar -c:v jpeg2000 -i "$clip")
ours_sar=$(sar -c:v jpeg2000_gpujpeg -gpu_device "$device" -i "$clip")
if [ -n "$ours_sar" ] && [ "$ours_sar" = "$native_sar" ]; then
    echo "PASS ffmpeg/sar-$name ($ours_sar, as the native decoder's)"
else
    echo "FAIL ffmpeg/sar-$name: '$ours_sar', the native decoder's '$native_sar'"
fi
