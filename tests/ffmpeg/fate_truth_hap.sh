#!/bin/sh
# Checks the hap_gpujpeg encoder of the FATE tests (tests/fate/gpujpeg_hap.mak):
# FFmpeg's own hap decoder, reading our QuickTime files, gives exactly the
# pictures of the blocks that `gpujpeg dxt` makes of the same frames (decoded by
# `gpujpeg undxt`, which follows FFmpeg's texturedsp bit for bit): so the
# packets carry the blocks of the library's encoder, whole, in the right order
# and chunks, for each format, padded sizes and snappy included. Frames the
# encoder must refuse get a message that says why.
# Prints one PASS/FAIL line per check.
#
#   fate_truth_hap.sh FFMPEG HAP_DATA GPUJPEG GPU_DEVICE HWACCEL(opencl|cuda)
#
# HAP_DATA: the raw clips (FFmpeg's build tree's tests/data/gpujpeg-hap).
set -u
ffmpeg=$1 data=$2 gpujpeg=$3 device=$4 hwaccel=$5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-haptruth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/truth_refuse.sh"
ff() { timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }

# check NAME SRC DXT_FORMAT QUALITY OPTIONS...: hap_gpujpeg's file decoded by
# FFmpeg's hap decoder equals `gpujpeg dxt` + `undxt` of each frame
check() {
    name=$1 src=$2 dxt=$3 quality=$4
    shift 4
    fmt=${src%%-*} size=${src#*-}
    w=${size%x*} h=${size#*x}
    # rgb24 in and out for the opaque formats (PPM), RGBA for DXT5 (PAM)
    case $dxt in bc3) out=rgba ext=pam bpp=4 ;; *) out=rgb24 ext=ppm bpp=3 ;; esac
    if ! ff -f rawvideo -pix_fmt "$fmt" -video_size "$size" -framerate 25 -i "$data/$src.raw" \
            -c:v hap_gpujpeg -gpu_device "$device" -quality "$quality" "$@" "$tmp/$name.mov" 2> "$tmp/$name.log" ||
       ! ff -c:v hap -i "$tmp/$name.mov" -f rawvideo -pix_fmt "$out" "$tmp/$name.raw" 2>> "$tmp/$name.log"; then
        echo "FAIL ffmpeg-hap/$name: ffmpeg failed: $(tail -n 1 "$tmp/$name.log")"
        return
    fi
    frame=$((w * h * bpp))
    : > "$tmp/$name.ref"
    n=0
    while [ $((n * frame)) -lt "$(wc -c < "$tmp/$name.raw")" ]; do
        # the source frame as PAM (rgba) or PPM (rgb24) for the tool
        case $fmt in
            rgba) printf 'P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n' "$w" "$h" > "$tmp/in.pam"
                  in=$tmp/in.pam bytes=4 ;;
            rgb24) printf 'P6\n%d %d\n255\n' "$w" "$h" > "$tmp/in.ppm"
                   in=$tmp/in.ppm bytes=3 ;;
        esac
        dd if="$data/$src.raw" bs=$((w * h * bytes)) skip=$n count=1 2> /dev/null >> "$in"
        if ! timeout 300 "$gpujpeg" dxt --device "$device" --format "$dxt" --quality "$quality" "$in" "$tmp/f.dds" \
                2>> "$tmp/$name.log" ||
           ! timeout 300 "$gpujpeg" undxt "$tmp/f.dds" "$tmp/f.$ext" 2>> "$tmp/$name.log"; then
            echo "FAIL ffmpeg-hap/$name: gpujpeg dxt/undxt failed: $(tail -n 1 "$tmp/$name.log")"
            return
        fi
        tail -c "$frame" "$tmp/f.$ext" >> "$tmp/$name.ref"
        n=$((n + 1))
    done
    if [ "$n" -ne 3 ]; then
        echo "FAIL ffmpeg-hap/$name: the hap decoder gave $n frames, not 3"
    elif cmp -s "$tmp/$name.raw" "$tmp/$name.ref"; then
        echo "PASS ffmpeg-hap/$name ($n frames of $out equal gpujpeg dxt's $dxt blocks)"
    else
        echo "FAIL ffmpeg-hap/$name: the hap decoder's pictures differ from gpujpeg dxt's: $(cmp "$tmp/$name.raw" "$tmp/$name.ref" 2>&1 | head -n 1)"
    fi
}

# refuse NAME PATTERN FFMPEG_ARGS...: hap_gpujpeg fails with a message matching PATTERN
refuse() { truth_refuse ffmpeg-hap encoded "$@" -c:v hap_gpujpeg; }

check hap rgba-64x48 bc1 balanced -format hap -compressor none
check hap_alpha rgba-64x48 bc3 balanced -format hap_alpha -compressor none
check hap_q rgb24-96x64 ycocg balanced -format hap_q -compressor none
check chunks rgb24-96x64 ycocg balanced -format hap_q -chunks 5
check snappy rgba-64x48 bc3 balanced -format hap_alpha -chunks 3
check odd rgba-98x62 bc3 balanced -format hap_alpha -chunks 2
check odd_q rgba-98x62 ycocg balanced -format hap_q
check fast rgb24-96x64 bc1 fast -format hap
check high rgba-64x48 bc1 high -format hap
check hw_q rgba-98x62 ycocg balanced -format hap_q -init_hw_device "$hwaccel=gj" -filter_hw_device gj -vf hwupload

# limited-range YUV in hardware frames (DXT is RGB: the encoder converts full-range YUV)
refuse yuv-tv "range" -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 1 \
    -init_hw_device "$hwaccel=gj" -filter_hw_device gj -vf format=yuv420p,hwupload -color_range tv
# hardware frames of a format the DXT kernels do not read
refuse yuva420p "cannot be encoded" -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 1 \
    -init_hw_device "$hwaccel=gj" -filter_hw_device gj -vf format=yuva420p,hwupload
# more chunks than the 2x2 blocks of an 8x8 picture
refuse chunks-blocks "chunk" -f lavfi -i testsrc2=size=8x8:rate=25 -frames:v 1 -pix_fmt rgba -chunks 64
