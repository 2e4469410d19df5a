#!/bin/sh
# Generates the inputs of tests/fate/gpujpeg_j2k.mak (nothing binary is committed):
# JPEG 2000 clips of lavfi testsrc2 pictures from FFmpeg's jpeg2000 encoder in
# MOV, AVI and MXF, codestreams and JP2 files from OpenJPEG's opj_compress
# (libopenjp2-tools: tiles, precincts, progression orders, layers, a resolution
# box, and a palette around them), a digital cinema one (Rsiz 3: X'Y'Z'), a
# sequence with a truncated codestream, one whose pictures change size and JP2 files
# with ICC profiles.
#
#   gpujpeg_j2k_inputs.sh FFMPEG OUTDIR
set -eu
ffmpeg=$1 out=$2
tmp=$out/tmp
rm -rf "$out" && mkdir -p "$tmp"
command -v opj_compress > /dev/null || { echo "$0: opj_compress not found (apt-get install libopenjp2-tools)" >&2; exit 1; }
ff() { "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }
# NAME.EXT SIZE PIX_FMT FRAMES ENCODER_OPTIONS...: FFmpeg's jpeg2000 encoder
ffj2k() {
    file=$1 size=$2 fmt=$3 frames=$4
    shift 4
    ff -f lavfi -i "testsrc2=size=$size:rate=25" -frames:v "$frames" -sws_flags +accurate_rnd+bitexact \
        -pix_fmt "$fmt" -c:v jpeg2000 "$@" "$out/$file"
}
# NAME SIZE FRAMES EXT opj_compress OPTIONS...: frames NAME-001.EXT ... by OpenJPEG
opj_clip() {
    name=$1 size=$2 frames=$3 ext=$4
    shift 4
    ff -f lavfi -i "testsrc2=size=$size:rate=25" -frames:v "$frames" -sws_flags +accurate_rnd+bitexact \
        -c:v ppm -f image2 "$tmp/$name-%03d.ppm"
    for p in "$tmp/$name"-*.ppm; do
        f=$(basename "${p%.ppm}")
        opj_compress -i "$p" -o "$out/$f.$ext" "$@" > /dev/null
    done
}

ffj2k ff_rgb_lossless.mov 176x144 rgb24     3 -pred 1
ffj2k ff_yuv420.avi       97x61   yuv420p   3
ffj2k ff_gray12.mxf       64x48   gray12le  2 -pred 1
ffj2k ff_yuv422.avi       66x38   yuv422p   2 -pred 1
# deep planar YUV (broadcast contribution's 4:2:2 10-bit) and 4:1:0
ffj2k ff_yuv422p10.mxf    66x38   yuv422p10le 2 -pred 1
ffj2k ff_yuv420p12.avi    97x61   yuv420p12le 2 -pred 1
ffj2k ff_yuv410.avi       68x36   yuv410p   2 -pred 1
# 4:4:4 YUV: the encoder's JP2 files say sYCC (colr), which decodes to planar YUV
ffj2k ff_yuv444.avi       66x38   yuv444p   2 -pred 1
ffj2k ff_yuv444p12.mov    64x48   yuv444p12le 2 -pred 1
# gray with alpha and 16-bit RGBA: packed ya8 and rgba64le
ffj2k ff_ya8.avi          66x38   ya8       2 -pred 1
ffj2k ff_rgba64.mov       64x48   rgba64le  2 -pred 1
# YUV with alpha: planar, the alpha a fourth plane (yuva444p: a JP2 file that says sYCC)
ffj2k ff_yuva420p.avi     66x38   yuva420p  2 -pred 1
ffj2k ff_yuva422p10.mov   64x48   yuva422p10le 2 -pred 1
ffj2k ff_yuva444p.mov     64x48   yuva444p  2 -pred 1

opj_clip opj_tiles   200x120 2 j2k -t 64,64 -I -r 20,10 -p RPCL -c [64,64],[32,32]
opj_clip opj_jp2     99x75   2 jp2 -n 4 -b 16,16 -p CPRL -SOP -EPH
opj_clip opj_layers  128x96  2 j2k -r 40,20,10 -M 1 -p LRCP

# A JP2 file's resolution box (res, T.800 I.5.3.7), which opj_compress does not
# write: a capture resolution (resc) of 3 grid points a metre vertically and 4
# horizontally, the frames' sample aspect ratio 3:4. with_res IN writes IN with that
# box at the end of its JP2 Header box into $tmp/res.jp2 (opj_compress's JP2 files
# start with the signature and ftyp boxes, 12 and 20 bytes).
be32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)))"; }
with_res() {
    len=$(od -An -tu1 -j32 -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
    [ "$(dd if="$1" bs=1 skip=36 count=4 2> /dev/null)" = jp2h ] || { echo "$0: $1: no jp2h box at byte 32" >&2; exit 1; }
    { head -c 32 "$1"; be32 $((len + 26)); tail -c +37 "$1" | head -c $((len - 4))
      printf '\000\000\000\032res \000\000\000\022resc\000\003\000\001\000\004\000\001\000\000'
      tail -c +$((33 + len)) "$1"; } > "$tmp/res.jp2"
}
opj_clip res         64x48   2 jp2 -n 3
for f in "$out"/res-*.jp2; do
    with_res "$f" && mv "$tmp/res.jp2" "$f"
done

# A JP2 palette (pclr, T.800 I.5.3.4), which opj_compress does not write: 240 RGB
# entries of 8, 6 and 5 bits, through a component map (cmap), on gray pictures a
# second apart whose samples pass the last entry (the native decoder reports pal8).
# box TYPE CONTENTS_FILE: a box of that file's bytes
box() { be32 $(($(wc -c < "$2") + 8)); printf '%s' "$1"; cat "$2"; }
# The boxes every picture shares: ftyp, the colour (sRGB), the palette, the component map
{ printf '\000\360\003\007\005\004'
  i=0
  while [ $i -lt 240 ]; do
      printf "$(printf '\\%03o\\%03o\\%03o' $i $(((255 - i) >> 2)) $(((i * 7 & 255) >> 3)))"
      i=$((i + 1))
  done; } > "$tmp/pclr"
printf '\000\000\001\000\000\000\001\001\000\000\001\002' > "$tmp/cmap"
printf '\001\000\000\000\000\000\020' > "$tmp/colr"
printf 'jp2 \000\000\000\000jp2 ' > "$tmp/ftyp"
# jp2_of IN.j2k COMPONENTS BOX...: IN in a JP2 file, $tmp/out.jp2, whose header box holds
# an ihdr (COMPONENTS of 8 bits) and the BOXes, $tmp files named TYPE[.VARIANT]
jp2_of() {
    j2k=$1 nc=$2
    shift 2
    boxes=$*
    # ihdr: height, width (SIZ's Ysiz and Xsiz, bytes 12-15 and 8-11), nc components of 8 bits
    set -- $(od -An -tu1 -j8 -N8 "$j2k")
    { printf "$(printf '\\%03o' $5 $6 $7 $8 $1 $2 $3 $4 0 "$nc")"; printf '\007\007\000\000'; } > "$tmp/ihdr"
    { box ihdr "$tmp/ihdr"; for b in $boxes; do box "${b%%.*}" "$tmp/$b"; done; } > "$tmp/jp2h"
    { printf '\000\000\000\014jP  \015\012\207\012'; box ftyp "$tmp/ftyp"; box jp2h "$tmp/jp2h"
      box jp2c "$j2k"; } > "$tmp/out.jp2"
}
ff -f lavfi -i "testsrc2=size=72x40:rate=1" -frames:v 2 -pix_fmt gray -c:v rawvideo -f image2 "$tmp/pal-%03d.raw"
for p in "$tmp"/pal-*.raw; do
    opj_compress -i "$p" -F 72,40,1,8,u -o "${p%.raw}.j2k" > /dev/null
    jp2_of "${p%.raw}.j2k" 1 colr pclr cmap && mv "$tmp/out.jp2" "$out/$(basename "${p%.raw}").jp2"
done

# ICC profiles (colr of method 2, T.800 I.5.3.3), which opj_compress does not write: RGB
# pictures with a profile of 132 bytes, none (sRGB), one of 200 bytes. icc_profile SIZE
# writes a profile's header (ICC.1: its size, version 2.1, a display's RGB to XYZ, the
# 'acsp' signature) and no tags; nothing reads more of it.
icc_profile() {
    { be32 "$1"; printf 'gj  \002\020\000\000mntrRGB XYZ '; head -c 12 /dev/zero; printf 'acsp'
      head -c $(($1 - 40)) /dev/zero; } > "$tmp/profile"
    { printf '\002\000\000'; cat "$tmp/profile"; } > "$tmp/colr.icc"
}
ff -f lavfi -i "testsrc2=size=48x32:rate=1" -frames:v 3 -c:v ppm -f image2 "$tmp/icc-%03d.ppm"
for p in "$tmp"/icc-*.ppm; do
    f=$(basename "${p%.ppm}")
    opj_compress -i "$p" -o "$tmp/$f.j2k" > /dev/null
    case $f in
        icc-001) icc_profile 132 && jp2_of "$tmp/$f.j2k" 3 colr.icc ;;
        icc-002) jp2_of "$tmp/$f.j2k" 3 colr ;;
        icc-003) icc_profile 200 && jp2_of "$tmp/$f.j2k" 3 colr.icc ;;
    esac
    mv "$tmp/out.jp2" "$out/$f.jp2"
done

# Digital cinema: 12-bit RGB becomes X'Y'Z' once SIZ says Rsiz 3 (2K profile).
ffj2k "dci-%03d.j2k" 96x64 gbrp12le 2 -pred 1 -format j2k -f image2
for f in "$out"/dci-*.j2k; do
    # SOC, SIZ marker, Lsiz: Rsiz is bytes 6-7
    printf '\000\003' | dd of="$f" bs=1 seek=6 conv=notrunc 2> /dev/null
done

# Damaged: frame 2 cut at 40% (decoded as far as it goes), frame 3 not JPEG 2000
# (an error for that frame), frame 4 a JP2 file cut at 60% (its codestream box
# too), frames 1 and 5 intact.
ffj2k "dmg-%03d.j2k" 80x60 rgb24 5 -format j2k -f image2
ffj2k "tmp/dmg-%03d.jp2" 80x60 rgb24 5 -f image2
cut() { size=$(wc -c < "$1"); head -c $((size * $2 / 10)) "$1" > "$tmp/cut" && mv "$tmp/cut" "$3"; }
cut "$out/dmg-002.j2k" 4 "$out/dmg-002.j2k"
printf '\377\117\377\121\000\002' > "$out/dmg-003.j2k"   # SOC, then a SIZ of no content
cut "$tmp/dmg-004.jp2" 6 "$out/dmg-004.j2k"
# Sizes that change within a sequence (80x60, 64x48, lossless): each change ends a
# batch. testsrc2 moves slowly at these sizes: frames that differ are picked.
ffj2k "tmp/mixa-%03d.j2k" 80x60 rgb24 4 -pred 1 -format j2k -f image2
ffj2k "tmp/mixb-%03d.j2k" 64x48 rgb24 4 -pred 1 -format j2k -f image2
i=1
for f in mixa-001 mixa-003 mixb-001 mixa-004 mixb-004; do
    mv "$tmp/$f.j2k" "$out/$(printf 'mix-%03d' $i).j2k"
    i=$((i + 1))
done
rm -rf "$tmp"
