#!/bin/sh
# Generates the JPEG encoding test inputs into OUTDIR (tests/encode_check.sh runs
# the tests; their names go to OUTDIR/tests.txt).
#
#   tests/gen_encode_corpus.sh OUTDIR
#
# Environment: GJ_TEST_TOOLS (default tests/tools), GJ_PHOTO_DIR (default
# /usr/share/wallpapers: plasma-workspace-wallpapers), FFMPEG (default ffmpeg:
# the Y4M, PAM and PNG inputs and the decodability check; skipped without it).
#
#   photoN.ppm, photoN.pgm  Debian wallpapers at 640x400 (synthetic without them)
#   odd_WxH.ppm             crops of odd sizes, 1x1 to 33x65
#   noise.ppm, solid.ppm    256x256 noise (long codes, many 0xFF bytes at q100), one colour
#   photo0_FMT.y4m          planar YCbCr inputs (FFmpeg; 4:4:0 from jpeg_raw_decode)
#   photo0.pam, photo0.png  RGBA and PNG inputs of photo0
#   bad_*                   inputs the encoder must refuse with a message
set -eu

out=${1:?usage: gen_encode_corpus.sh OUTDIR}
tools=${GJ_TEST_TOOLS:-tests/tools}
photo_dir=${GJ_PHOTO_DIR:-/usr/share/wallpapers}
ffmpeg=${FFMPEG:-ffmpeg}

rm -rf "$out"
mkdir -p "$out"
tests=$out/tests.txt.tmp
: > "$tests"
t() { echo "$*" >> "$tests"; }

# ------------------------------------------------------------------ pictures
n=0
for name in Path EveningGlow Kite ColorfulCups; do
    f=$(ls "$photo_dir/$name/contents/images/"2560x1600.jpg 2>/dev/null | head -n 1 || true)
    [ -n "$f" ] || continue
    djpeg -scale 1/4 -ppm -outfile "$out/photo$n.ppm" "$f"
    n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
    echo "$0: no photographs in $photo_dir (apt-get install plasma-workspace-wallpapers)" >&2
    touch "$out/NO_PHOTOS"
    for i in 0 1; do "$tools/make_image" --seed $i rings 640 400 "$out/photo$i.ppm"; done
    n=2
fi
i=0
while [ $i -lt $n ]; do
    cjpeg -grayscale -quality 100 "$out/photo$i.ppm" | djpeg -pnm -outfile "$out/photo$i.pgm"
    i=$((i + 1))
done
for s in 1x1 2x2 17x9 9x17 15x15 33x65 1x40 40x1; do
    "$tools/make_image" crop 3 5 "${s%x*}" "${s#*x}" "$out/photo0.ppm" "$out/odd_$s.ppm"
done
"$tools/make_image" noise 256 256 "$out/noise.ppm"
"$tools/make_image" solid 48 40 "$out/solid.ppm"

# Planar inputs. FFmpeg 5.1 writes no 4:4:0 Y4M: libjpeg's own planes of a 4:4:0 file, with a header.
have_ffmpeg=no
if command -v "$ffmpeg" > /dev/null 2>&1; then
    have_ffmpeg=yes
    for pf in yuvj420p yuvj422p yuvj444p gray; do
        "$ffmpeg" -v error -y -i "$out/photo0.ppm" -pix_fmt $pf -strict -1 "$out/photo0_$pf.y4m"
    done
    "$tools/make_image" crop 0 0 37 21 "$out/photo0.ppm" "$out/odd.ppm"
    "$ffmpeg" -v error -y -i "$out/odd.ppm" -pix_fmt yuvj420p -strict -1 "$out/odd_yuvj420p.y4m"
    "$ffmpeg" -v error -y -i "$out/odd.ppm" -pix_fmt yuvj444p -strict -1 "$out/odd_yuvj444p.y4m"
    rm -f "$out/odd.ppm"
    "$ffmpeg" -v error -y -i "$out/photo0.ppm" -pix_fmt rgba "$out/photo0.pam"
    "$ffmpeg" -v error -y -i "$out/photo0.ppm" "$out/photo0.png"
    sed 's/XCOLORRANGE=FULL/XCOLORRANGE=LIMITED/; s/ C420jpeg / C420jpeg XCOLORRANGE=LIMITED /' \
        "$out/photo0_yuvj420p.y4m" > "$out/bad_limited.y4m"
else
    touch "$out/NO_FFMPEG"
fi
if [ -x "$tools/jpeg_raw_decode" ]; then
    cjpeg -quality 100 -sample 1x2 -outfile "$out/t440.jpg" "$out/photo0.ppm"
    "$tools/jpeg_raw_decode" "$out/t440.jpg" "$out/t440.yuv"
    set -- $(sed -n 2p "$out/photo0.ppm")
    { printf 'YUV4MPEG2 W%s H%s F25:1 Ip A0:0 C440 XCOLORRANGE=FULL\nFRAME\n' "$1" "$2"; cat "$out/t440.yuv"; } \
        > "$out/photo0_yuvj440p.y4m"
    rm -f "$out/t440.jpg" "$out/t440.yuv"
fi

# Inputs to refuse.
: > "$out/bad_empty.ppm"
printf 'P6\n64 64\n255\n' > "$out/bad_truncated.ppm"
head -c 1000 /dev/zero | tr '\0' 'x' > "$out/bad_unknown.ppm"
printf 'P6\n4 4\n65535\n' > "$out/bad_16bit.ppm"
head -c 96 /dev/zero >> "$out/bad_16bit.ppm"

# ------------------------------------------------------------------ the test list
# cjpeg_IN_SAMPLING_qQ[_opt][_rN]: the file equals `cjpeg -dct int` byte for byte.
i=0
while [ $i -lt $n ]; do
    for s in 420 422 444 440 gray; do
        for q in 75 90; do t "cjpeg_photo${i}_${s}_q$q"; done
    done
    t "cjpeg_photo${i}_420_q90_opt"
    t "cjpeg_photo${i}.pgm_gray_q85"
    i=$((i + 1))
done
for q in 1 10 23 50 100; do t "cjpeg_photo0_420_q$q"; done
for s in 422 444 440 gray; do t "cjpeg_photo0_${s}_q90_opt"; done
for r in 1 7 40; do t "cjpeg_photo0_420_q90_r$r"; done
t "cjpeg_photo1_444_q75_opt_r5"
t "cjpeg_photo0_gray_q90_opt_r3"
for f in "$out"/odd_*.ppm; do
    b=$(basename "$f" .ppm)
    for s in 420 422 444 440 gray; do t "cjpeg_${b}_${s}_q85"; done
    t "cjpeg_${b}_420_q85_opt_r1"
done
for s in 420 444; do t "cjpeg_noise_${s}_q100"; t "cjpeg_noise_${s}_q100_opt"; done
t "cjpeg_solid_420_q75"
t "cjpeg_solid_444_q75_opt_r2"
if [ $have_ffmpeg = yes ]; then
    # ycc_IN_SAMPLING: planar input equals libjpeg-turbo given the same planes (jpeg_ycc_encode).
    for s in 420 gray; do t "ycc_photo0_yuvj420p_$s"; done
    t "ycc_photo0_yuvj422p_422"
    for s in 444 422 420 440 gray; do t "ycc_photo0_yuvj444p_$s"; done
    t "ycc_photo0_gray_gray"
    t "ycc_odd_yuvj420p_420"
    for s in 420 440; do t "ycc_odd_yuvj444p_$s"; done
    t "input_pam"
    t "input_png"
    t "bad_limited"
fi
[ -f "$out/photo0_yuvj440p.y4m" ] && t "ycc_photo0_yuvj440p_440"
# decode_*: our files decode in djpeg (no warning), in our decoder (= djpeg) and in FFmpeg.
for d in photo0_420_q90 photo1_422_q75_opt_r3 photo0_444_q10 odd_17x9_440_q85_r1 photo0_gray_q90_opt \
         noise_420_q100_opt; do
    t "decode_$d"
done
t "sizes_photos"
for b in empty truncated unknown 16bit options upsampling; do t "bad_$b"; done
mv "$tests" "$out/tests.txt"
