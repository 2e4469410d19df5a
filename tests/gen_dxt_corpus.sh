#!/bin/sh
# Generates the DXT test inputs and references into OUTDIR (tests/dxt_check.sh
# runs the tests; their names go to OUTDIR/tests.txt).
#
#   tests/gen_dxt_corpus.sh OUTDIR
#
# Environment: GJ_TEST_TOOLS (default tests/tools), GJ_PHOTO_DIR (default
# /usr/share/wallpapers: plasma-workspace-wallpapers), FFMPEG (default ffmpeg;
# without it the comparisons with FFmpeg's hap encoder and decoders are skipped).
#
#   photoN.ppm          Debian wallpapers at 1/4 size (640x400), cropped to whole blocks
#   photoN_hap.ppm      FFmpeg's hap encoder (DXT1) decoded by its hap decoder
#   photoN_hapq.ppm     the same with -format hap_q (photos 0 and 1)
#   photoN_cluster.ppm  dxt_tool's exhaustive cluster fit, decoded by the C reference
#   synth_*.pam         hard cases (dxt_tool synth), some of odd sizes
#   j*.jpg              JPEG inputs: 4:2:0, 4:2:2 at an odd size, 4:4:4, gray
#   random_FMT.dds      random blocks of every format (decoders)
#   bad_*.dds           broken or unsupported DDS files
set -eu

out=${1:?usage: gen_dxt_corpus.sh OUTDIR}
tools=${GJ_TEST_TOOLS:-tests/tools}
photo_dir=${GJ_PHOTO_DIR:-/usr/share/wallpapers}
ffmpeg=${FFMPEG:-ffmpeg}
dxt() { "$tools/dxt_tool" "$@"; }

rm -rf "$out"
mkdir -p "$out"
tests=$out/tests.txt.tmp
: > "$tests"

# ------------------------------------------------------------------ photographs
n=0
for name in Path EveningGlow Kite ColorfulCups OneStandsOut ColdRipple BytheWater \
            DarkestHour summer_1am FallenLeaf; do
    f=$(ls "$photo_dir/$name/contents/images/"*.jpg 2>/dev/null | head -n 1 || true)
    [ -n "$f" ] || continue
    djpeg -scale 1/4 -ppm -outfile "$out/full.ppm" "$f"
    set -- $(sed -n 2p "$out/full.ppm")
    "$tools/make_image" crop 0 0 $(($1 / 4 * 4)) $(($2 / 4 * 4)) "$out/full.ppm" "$out/photo$n.ppm"
    n=$((n + 1))
done
rm -f "$out/full.ppm"
if [ "$n" -eq 0 ]; then
    echo "$0: no photographs in $photo_dir (apt-get install plasma-workspace-wallpapers)" >&2
    touch "$out/NO_PHOTOS"
fi
have_ffmpeg=no
if command -v "$ffmpeg" > /dev/null 2>&1 && "$ffmpeg" -hide_banner -encoders 2>/dev/null | grep -q ' hap '; then
    have_ffmpeg=yes
else
    touch "$out/NO_FFMPEG"
fi
i=0
while [ $i -lt $n ]; do
    p=$out/photo$i
    if [ $have_ffmpeg = yes ]; then
        "$ffmpeg" -v error -y -i "$p.ppm" -pix_fmt rgba -c:v hap -format hap -compressor none "$p.mov"
        "$ffmpeg" -v error -y -i "$p.mov" -pix_fmt rgb24 -update 1 "${p}_hap.ppm"
        if [ $i -lt 2 ]; then
            "$ffmpeg" -v error -y -i "$p.ppm" -pix_fmt rgba -c:v hap -format hap_q -compressor none "$p.mov"
            "$ffmpeg" -v error -y -i "$p.mov" -pix_fmt rgb24 -update 1 "${p}_hapq.ppm"
        fi
        rm -f "$p.mov"
    fi
    dxt cluster "$p.ppm" "$p.dds"
    dxt decode "$p.dds" "${p}_cluster.ppm"
    rm -f "$p.dds"
    i=$((i + 1))
done

# ------------------------------------------------------------------ synthetic hard cases
for s in gradient:64x64 hue:96x64 solid:64x64 two:64x64 dark:64x64 alpha-edge:61x37; do
    dxt synth "${s%%:*}" "${s#*:}" "$out/synth_${s%%:*}.pam"
done

# ------------------------------------------------------------------ JPEG inputs (GPU decode -> DXT)
if [ "$n" -gt 0 ]; then src=$out/photo0.ppm; else src=$out/synth_hue.pam; fi
"$tools/make_image" crop 0 0 128 96 "$src" "$out/crop.ppm" 2>/dev/null || cp "$src" "$out/crop.ppm"
"$tools/make_image" crop 3 5 37 19 "$src" "$out/odd.ppm"
cjpeg -quality 90 -sample 2x2 -outfile "$out/j420.jpg" "$out/crop.ppm"
cjpeg -quality 90 -sample 2x1 -outfile "$out/j422_37x19.jpg" "$out/odd.ppm"
cjpeg -quality 90 -sample 1x1 -outfile "$out/j444.jpg" "$out/crop.ppm"
cjpeg -quality 90 -grayscale -outfile "$out/jgray.jpg" "$out/crop.ppm"
cjpeg -quality 90 -sample 4x1 -outfile "$out/j411.jpg" "$out/crop.ppm"
rm -f "$out/crop.ppm"

# ------------------------------------------------------------------ blocks for the decoders
for f in bc1 bc3 ycocg bc4; do
    dxt random $f 37x21 $((${#f} + 11)) "$out/random_$f.dds"
done
head -c 200 "$out/random_bc1.dds" > "$out/bad_truncated.dds"
# FourCC DXT3 (offset 84): a real format this library does not encode.
{ head -c 84 "$out/random_bc1.dds"; printf 'DXT3'; tail -c +89 "$out/random_bc1.dds"; } > "$out/bad_fourcc.dds"
# Width 0 (offset 16).
{ head -c 16 "$out/random_bc1.dds"; printf '\000\000\000\000'; tail -c +21 "$out/random_bc1.dds"; } > "$out/bad_zero_width.dds"
printf 'not a DDS file' > "$out/bad_not_dds.dds"

# ------------------------------------------------------------------ the test list
for f in bc1 bc3 ycocg bc4; do echo "decode_$f"; done >> "$tests"
for f in bc1 bc3 ycocg bc4; do
    for q in fast balanced high; do echo "kernel_${f}_$q"; done
done >> "$tests"
for j in j420 j422_37x19 j444 jgray j411; do echo "jpeg_$j"; done >> "$tests"
echo "psnr_photos" >> "$tests"
echo "psnr_synthetic" >> "$tests"
for b in truncated fourcc zero_width not_dds; do echo "bad_$b"; done >> "$tests"
echo "bad_options" >> "$tests"
mv "$tests" "$out/tests.txt"
