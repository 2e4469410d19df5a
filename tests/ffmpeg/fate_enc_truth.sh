#!/bin/sh
# Checks the mjpeg_gpujpeg encoder of the FATE tests (tests/fate/gpujpeg.mak)
# against libjpeg-turbo: its packets of the generated raw clips equal cjpeg's
# files (rgb24 input) and libjpeg-turbo's raw-data encoding (tests/tools/
# jpeg_ycc_encode, planar input) of the same pixels, byte for byte; every
# packet decodes in djpeg without a warning; -q:v gives FFmpeg's mjpeg
# quantisation tables; limited-range YUV is converted, or marked with -strict
# unofficial.
# Prints one PASS/FAIL line per check.
#
#   fate_enc_truth.sh FFMPEG ENC_DATA GPU_DEVICE JPEG_YCC_ENCODE
#
# ENC_DATA: the raw clips (FFmpeg's build tree's tests/data/gpujpeg-enc).
set -u
ffmpeg=$1 data=$2 device=$3 ycc_encode=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-enctruth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ff() { timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }

# encode NAME SRC RANGE OPTIONS...: the packets as $tmp/NAME/%03d.jpg
encode() {
    name=$1 src=$2 range=$3
    shift 3
    mkdir -p "$tmp/$name"
    ff -f rawvideo -pix_fmt "${src%%-*}" -video_size "${src#*-}" -framerate 25 -color_range "$range" \
        -i "$data/$src.raw" -c:v mjpeg_gpujpeg -gpu_device "$device" "$@" -f image2 "$tmp/$name/%03d.jpg"
}

# same NAME REFERENCE_DIR: each packet equals the reference's file
same() {
    for f in "$tmp/$1"/*.jpg; do
        cmp -s "$f" "$2/$(basename "$f")" || { echo "FAIL ffmpeg-enc/$1: $(basename "$f") differs from libjpeg-turbo's"; return; }
    done
    echo "PASS ffmpeg-enc/$1 ($(ls "$tmp/$1" | wc -l) packets equal libjpeg-turbo's)"
}

# rgb24, q90 4:2:0, restart markers (enc-rgb24-rst2): cjpeg of each frame
if encode rgb24 rgb24-80x60 pc -restart 2; then
    mkdir -p "$tmp/cjpeg"
    ff -f rawvideo -pix_fmt rgb24 -video_size 80x60 -i "$data/rgb24-80x60.raw" -f image2 -c:v ppm "$tmp/cjpeg/%03d.ppm"
    for p in "$tmp/cjpeg"/*.ppm; do
        cjpeg -dct int -quality 90 -sample 2x2 -restart 2B -outfile "${p%.ppm}.jpg" "$p"
    done
    same rgb24 "$tmp/cjpeg"
else
    echo "FAIL ffmpeg-enc/rgb24: ffmpeg failed"
fi

# planar: yuv420p q90 (enc-yuv420p), yuv444p to 4:2:2 (enc-yuv444p-to422)
for c in "yuv420p yuv420p-97x61 420" "yuv444p-to422 yuv444p-176x144 422"; do
    set -- $c
    if encode "$1" "$2" pc -sampling "$3"; then
        mkdir -p "$tmp/ycc-$1"
        ff -f rawvideo -pix_fmt "${2%%-*}" -video_size "${2#*-}" -i "$data/$2.raw" -f image2 -c:v rawvideo \
            "$tmp/ycc-$1/%03d.yuv"
        # one Y4M picture per frame: the header jpeg_ycc_encode reads, then the planes
        size=${2#*-} cs=$(echo "${2%%-*}" | tr -dc 0-9)
        for y in "$tmp/ycc-$1"/*.yuv; do
            { printf 'YUV4MPEG2 W%s H%s F25:1 C%s\nFRAME\n' "${size%x*}" "${size#*x}" "$cs"; cat "$y"; } > "${y%.yuv}.y4m"
            "$ycc_encode" 90 "$3" "${y%.yuv}.y4m" "${y%.yuv}.jpg" || echo "FAIL ffmpeg-enc/$1: jpeg_ycc_encode failed"
        done
        same "$1" "$tmp/ycc-$1"
    else
        echo "FAIL ffmpeg-enc/$1: ffmpeg failed"
    fi
done

# -q:v 3: FFmpeg's mjpeg encoder's quantisation tables (its DQT segment)
if encode qscale yuvj422p-33x17 pc -q:v 3 && mkdir -p "$tmp/native" &&
   ff -f rawvideo -pix_fmt yuvj422p -video_size 33x17 -i "$data/yuvj422p-33x17.raw" -c:v mjpeg -q:v 3 \
       -f image2 "$tmp/native/%03d.jpg"; then
    # DQT segments: FF DB, then up to 2 x 65 bytes
    dqt() { od -An -v -tx1 "$1" | tr -d '\n' | sed 's/.*ff db \(00 [0-9a-f][0-9a-f] 00\( [0-9a-f][0-9a-f]\)\{64\}\).*/\1/'; }
    ours=$(dqt "$tmp/qscale/001.jpg") native=$(dqt "$tmp/native/001.jpg")
    case "$ours" in "$native"*) echo "PASS ffmpeg-enc/qscale (the native mjpeg encoder's luma table)" ;;
                    *) echo "FAIL ffmpeg-enc/qscale: DQT $ours, native $native" ;; esac
else
    echo "FAIL ffmpeg-enc/qscale: ffmpeg failed"
fi

# every test's packets decode in libjpeg-turbo without a warning
bad=
for c in "yuvj440p yuvj440p-99x75 -restart 1" "bgra bgra-64x48 -sampling 444" "gray rgba-50x30 -sampling gray" \
         "opt yuv444p-176x144 -huffman optimal" "gray8 gray-64x48 -quality 50"; do
    set -- $c
    n=$1 s=$2
    shift 2
    encode "$n" "$s" pc "$@" || { bad="$bad $n(ffmpeg)"; continue; }
    for f in "$tmp/$n"/*.jpg; do
        djpeg -outfile /dev/null "$f" > "$tmp/djpeg.log" 2>&1 && [ ! -s "$tmp/djpeg.log" ] || bad="$bad $n/$(basename "$f")"
    done
done
[ -z "$bad" ] && echo "PASS ffmpeg-enc/djpeg (every packet decodes)" || echo "FAIL ffmpeg-enc/djpeg:$bad"

# limited-range YUV: ffmpeg converts it to full range (the encoder offers only
# that), unless -strict unofficial: then encoded as it is, marked CS=ITU601
if encode tv yuv420p-96x64 tv && ! grep -q 'CS=ITU601' "$tmp/tv/001.jpg" &&
   encode tv-strict yuv420p-96x64 tv -strict unofficial && grep -q 'CS=ITU601' "$tmp/tv-strict/001.jpg"; then
    echo "PASS ffmpeg-enc/range (converted; with -strict unofficial as it is, marked CS=ITU601)"
else
    echo "FAIL ffmpeg-enc/range: limited-range yuv420p not converted, or not marked with -strict unofficial"
fi
