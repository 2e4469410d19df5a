#!/bin/sh
# Checks the dxt_gpujpeg filter of the FATE tests (tests/fate/gpujpeg_dxt_filter.mak):
# its frames, downloaded by hwdownload, hold exactly the blocks that
# `gpujpeg dxt` writes into a DDS file for the same picture (the file's payload
# after its 128-byte header), frame by frame, for each format, padded sizes and
# software input included; the frames name their texture in their metadata.
# Frames the filter must refuse get a message that says why.
# Prints one PASS/FAIL line per check.
#
#   fate_truth_dxt_filter.sh FFMPEG HAP_DATA GPUJPEG GPU_DEVICE HWACCEL(opencl|cuda)
#
# HAP_DATA: the raw clips (FFmpeg's build tree's tests/data/gpujpeg-hap).
set -u
ffmpeg=$1 data=$2 gpujpeg=$3 device=$4 hwaccel=$5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-dxtftruth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/truth_refuse.sh"
ff() { timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error -y -init_hw_device "$hwaccel=gj" -filter_hw_device gj "$@"; }

# check NAME SRC DXT_FORMAT QUALITY hw|sw: the filter's blocks equal gpujpeg dxt's DDS payload
check() {
    name=$1 src=$2 dxt=$3 quality=$4 upload=
    [ "$5" = hw ] && upload=hwupload,
    fmt=${src%%-*} size=${src#*-}
    w=${size%x*} h=${size#*x}
    case $dxt in bc1 | bc4) block=8 ;; *) block=16 ;; esac
    blocks=$(( ((w + 3) / 4) * ((h + 3) / 4) * block ))
    if ! ff -f rawvideo -pix_fmt "$fmt" -video_size "$size" -framerate 25 -i "$data/$src.raw" \
            -vf "${upload}dxt_gpujpeg=format=$dxt:quality=$quality,hwdownload,format=gray,metadata=mode=print:file=$tmp/$name.meta" \
            -f rawvideo "$tmp/$name.blocks" 2> "$tmp/$name.log"; then
        echo "FAIL ffmpeg-dxtf/$name: ffmpeg failed: $(tail -n 1 "$tmp/$name.log")"
        return
    fi
    : > "$tmp/$name.ref"
    n=0
    while [ $((n * blocks)) -lt "$(wc -c < "$tmp/$name.blocks")" ]; do
        # the source frame as PAM (rgba) or PPM (rgb24) for the tool
        case $fmt in
            rgba) printf 'P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n' "$w" "$h" > "$tmp/in.pam"
                  in=$tmp/in.pam bytes=4 ;;
            rgb24) printf 'P6\n%d %d\n255\n' "$w" "$h" > "$tmp/in.ppm"
                   in=$tmp/in.ppm bytes=3 ;;
        esac
        dd if="$data/$src.raw" bs=$((w * h * bytes)) skip=$n count=1 2> /dev/null >> "$in"
        if ! timeout 300 "$gpujpeg" dxt --device "$device" --format "$dxt" --quality "$quality" "$in" "$tmp/f.dds" \
                2>> "$tmp/$name.log"; then
            echo "FAIL ffmpeg-dxtf/$name: gpujpeg dxt failed: $(tail -n 1 "$tmp/$name.log")"
            return
        fi
        tail -c "$blocks" "$tmp/f.dds" >> "$tmp/$name.ref"
        n=$((n + 1))
    done
    tags="lavfi.dxt_gpujpeg.format=$dxt lavfi.dxt_gpujpeg.width=$w lavfi.dxt_gpujpeg.height=$h"
    for tag in $tags; do
        if [ "$(grep -c "^$tag\$" "$tmp/$name.meta")" -ne "$n" ]; then
            echo "FAIL ffmpeg-dxtf/$name: not every frame has the metadata $tag: $(grep dxt_gpujpeg "$tmp/$name.meta" | head -n 3 | tr '\n' ' ')"
            return
        fi
    done
    if [ "$n" -ne 3 ]; then
        echo "FAIL ffmpeg-dxtf/$name: the filter gave $n frames of $blocks bytes, not 3"
    elif cmp -s "$tmp/$name.blocks" "$tmp/$name.ref"; then
        echo "PASS ffmpeg-dxtf/$name ($n frames of $dxt blocks equal gpujpeg dxt's)"
    else
        echo "FAIL ffmpeg-dxtf/$name: the filter's blocks differ from gpujpeg dxt's: $(cmp "$tmp/$name.blocks" "$tmp/$name.ref" 2>&1 | head -n 1)"
    fi
}

# refuse NAME PATTERN FFMPEG_ARGS...: the graph fails with a message matching PATTERN
refuse() { truth_refuse ffmpeg-dxtf compressed "$@"; }

check bc1-fast rgba-64x48 bc1 fast hw
check bc1 rgba-64x48 bc1 balanced hw
check bc3 rgba-64x48 bc3 balanced hw
check ycocg-fast rgba-64x48 ycocg fast hw
check ycocg rgba-64x48 ycocg balanced hw
check bc4 rgba-64x48 bc4 balanced hw
check odd-bc3 rgba-98x62 bc3 balanced hw
check odd-bc4 rgba-98x62 bc4 fast hw
check sw-rgb24 rgb24-96x64 bc1 balanced sw
check sw-odd-rgba rgba-98x62 ycocg fast sw

lavfi="-f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 1"
# limited-range YUV (DXT is RGB: the filter converts full-range YUV)
refuse yuv-tv "range" $lavfi -vf format=yuv420p,hwupload,dxt_gpujpeg
# hardware frames of a format the DXT kernels do not read
refuse yuva420p "cannot be compressed" $lavfi -vf format=yuva420p,hwupload,dxt_gpujpeg
# software frames and no device for the blocks
if timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error $lavfi -vf format=rgba,dxt_gpujpeg \
        -f null - 2> "$tmp/nodevice.log"; then
    echo "FAIL ffmpeg-dxtf/no-device: compressed software frames without a device"
elif grep -q "filter_hw_device" "$tmp/nodevice.log"; then
    echo "PASS ffmpeg-dxtf/no-device (refused: $(grep filter_hw_device "$tmp/nodevice.log" | head -n 1 | cut -c 1-100))"
else
    echo "FAIL ffmpeg-dxtf/no-device: no message naming -filter_hw_device: $(tail -n 1 "$tmp/nodevice.log")"
fi
