#!/bin/sh
# Generates the inputs of the encoder tests of tests/fate/gpujpeg.mak: raw clips
# of 3 lavfi testsrc2 pictures, one per PIX_FMT-WxH (nothing binary is committed).
# testsrc2 draws in RGB, then swscale converts: drawn in 4:2:0 directly, odd
# sizes would be cut to whole chroma samples.
#
#   gpujpeg_enc_inputs.sh FFMPEG OUTDIR
set -eu
ffmpeg=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
for src in yuv420p-97x61 yuv420p-96x64 yuvj422p-33x17 yuv444p-176x144 yuvj440p-99x75 \
           rgb24-80x60 bgra-64x48 rgba-50x30 gray-64x48; do
    # bitexact swscale: the same pixels with and without x86 SIMD
    "$ffmpeg" -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=${src#*-}:rate=25,format=rgb24" \
        -frames:v 3 -sws_flags +accurate_rnd+bitexact -pix_fmt "${src%%-*}" -f rawvideo "$out/$src.raw"
done
