#!/bin/sh
# Generates the inputs of tests/fate/gpujpeg_hap.mak: raw clips of 3 lavfi
# testsrc2 pictures, one per PIX_FMT-WxH (nothing binary is committed). The
# rgba clips get a varying alpha (the mirrored picture's luma), so that
# hap_alpha has something to fit; 98x62 is not a multiple of 4 (edge padding).
#
#   gpujpeg_hap_inputs.sh FFMPEG OUTDIR
set -eu
ffmpeg=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
for src in rgba-64x48 rgba-98x62 rgb24-96x64 yuvj420p-96x64; do
    fmt=${src%%-*}
    graph="testsrc2=size=${src#*-}:rate=25,format=rgb24"
    [ "$fmt" = rgba ] && graph="$graph,split[c][a];[a]hflip,format=gray[g];[c][g]alphamerge"
    # bitexact swscale: the same pixels with and without x86 SIMD
    "$ffmpeg" -nostdin -hide_banner -loglevel error -y -f lavfi -i "$graph" \
        -frames:v 3 -sws_flags +accurate_rnd+bitexact -pix_fmt "$fmt" -f rawvideo "$out/$src.raw"
done
