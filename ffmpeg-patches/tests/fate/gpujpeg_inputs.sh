#!/bin/sh
# Generates the inputs of tests/fate/gpujpeg.mak (nothing binary is committed):
# short AVI clips of lavfi testsrc2/smptehdbars pictures, encoded by FFmpeg's
# mjpeg encoder at several pix_fmts and sizes, or by cjpeg (libjpeg-turbo-progs:
# samplings FFmpeg's encoder lacks, restart markers, progressive, damaged frames).
#
#   gpujpeg_inputs.sh FFMPEG OUTDIR
set -eu
ffmpeg=$1 out=$2
tmp=$out/tmp
rm -rf "$out" && mkdir -p "$tmp"
command -v cjpeg > /dev/null || { echo "$0: cjpeg not found (apt-get install libjpeg-turbo-progs)" >&2; exit 1; }
ff() { "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }

# NAME SOURCE SIZE PIX_FMT FRAMES: FFmpeg's own MJPEG
mjpeg() {
    # bitexact swscale: its default RGB->4:2:2/4:4:4 conversion differs from run to run
    ff -f lavfi -i "$2=size=$3:rate=25" -frames:v "$5" -sws_flags +accurate_rnd+bitexact \
        -c:v mjpeg -q:v 3 -pix_fmt "$4" "$out/$1.avi"
}
# NAME SIZE FRAMES CJPEG_OPTIONS...: cjpeg-made frames of testsrc2, remuxed into AVI
cjpeg_clip() {
    name=$1 size=$2 frames=$3
    shift 3
    # bitexact swscale here too: with x86 SIMD (FFmpeg built with nasm) the RGB differs
    ff -f lavfi -i "testsrc2=size=$size:rate=25" -frames:v "$frames" -sws_flags +accurate_rnd+bitexact \
        -c:v ppm -f image2 "$tmp/$name-%03d.ppm"
    for p in "$tmp/$name"-*.ppm; do
        cjpeg "$@" -outfile "${p%.ppm}.jpg" "$p"
    done
}
remux() { ff -framerate 25 -i "$tmp/$2-%03d.jpg" -c:v copy "$out/$1.avi"; }

mjpeg ff420_320x240  testsrc2    320x240   yuvj420p 3
mjpeg ff420_97x61    testsrc2    97x61     yuvj420p 3
mjpeg ff420_1920x1080 smptehdbars 1920x1080 yuvj420p 2
mjpeg ff422_1280x720 smptehdbars 1280x720  yuvj422p 2
mjpeg ff422_33x17    testsrc2    33x17     yuvj422p 3
mjpeg ff444_176x144  testsrc2    176x144   yuvj444p 3

cjpeg_clip cj420_rst 320x240 3 -quality 85 -sample 2x2 -restart 1;  remux cj420_rst cj420_rst
cjpeg_clip cj422_rst 161x97  3 -quality 90 -sample 2x1 -restart 3B; remux cj422_rst cj422_rst
cjpeg_clip cj440     99x75   3 -quality 80 -sample 1x2;             remux cj440 cj440
# 4:1:1 at a width of whole chroma samples: FFmpeg's OpenCL frames cannot be
# downloaded otherwise (hwcontext_opencl refuses such plane sizes)
cjpeg_clip cj411     132x66  3 -quality 75 -sample 4x1;             remux cj411 cj411
cjpeg_clip cjgray    64x48   3 -quality 90 -grayscale;              remux cjgray cjgray
cjpeg_clip cjrgb     80x60   3 -quality 90 -rgb;                    remux cjrgb cjrgb
cjpeg_clip cjopt     200x120 3 -quality 95 -optimize -sample 2x2;   remux cjopt cjopt
cjpeg_clip cjprog    64x64   2 -quality 90 -progressive;            remux cjprog cjprog

# Damaged: frame 2 cut at 60% (concealed: grey after the cut), frame 3 not a
# JPEG (an error for that frame), frames 1 and 4 intact.
cjpeg_clip dmg 160x120 4 -quality 90 -sample 2x2
size=$(wc -c < "$tmp/dmg-002.jpg")
head -c $((size * 6 / 10)) "$tmp/dmg-002.jpg" > "$tmp/cut.jpg" && mv "$tmp/cut.jpg" "$tmp/dmg-002.jpg"
printf '\377\330\377\300\000\013\010\000\170\000\240\000\000\377\331' > "$tmp/dmg-003.jpg"  # SOF0 with 0 components
remux damaged dmg
rm -rf "$tmp"
