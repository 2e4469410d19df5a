#!/bin/sh
# Generates the JPEG test corpus into OUTDIR (nothing is checked in: every file is
# made here from Debian's wallpaper photographs and synthetic pictures).
#
#   tests/gen_corpus.sh OUTDIR
#
# Environment: GJ_TEST_TOOLS  the built test tools (default tests/tools)
#              GJ_PHOTO_DIR   where the photographs are (default /usr/share/wallpapers,
#                             from the plasma-workspace-wallpapers package)
#
# What each directory means to tests/run_tests.sh:
#   good/         must decode; rgb24 equals djpeg's, planar equals jpeg_raw_decode's
#   unsupported/  must fail with an "unsupported" message (progressive, arithmetic,
#                 lossless, 12-bit, hierarchical)
#   invalid/      must fail with a message (libjpeg-turbo rejects them too, or they
#                 are outside the format: 2 or 5 components)
#   bad/          must fail with a message or decode; never crash or hang
#   damaged/      truncated or padded files: behave as djpeg (fail when it fails,
#                 else decode to the same picture)
#   corrupt/      flipped bits in the entropy-coded data: never crash or hang; the
#                 result is compared with djpeg's but a difference is only noted
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
out=$1
tools=${GJ_TEST_TOOLS:-tests/tools}
photo_dir=${GJ_PHOTO_DIR:-/usr/share/wallpapers}
here=$(cd "$(dirname "$0")" && pwd)

for t in make_image jpeg_edit jpeg_cmyk_encode jpeg_raw_decode; do
    [ -x "$tools/$t" ] || { echo "$0: $tools/$t is not built (make check builds it)" >&2; exit 2; }
done
for t in cjpeg djpeg wrjpgcom; do
    command -v $t >/dev/null || { echo "$0: $t not found (apt-get install libjpeg-turbo-progs)" >&2; exit 2; }
done

rm -rf "$out"
mkdir -p "$out"
src=$out/src          # intermediate pictures, removed at the end
mkdir -p "$src" "$out/good" "$out/unsupported" "$out/invalid" "$out/bad" \
         "$out/damaged" "$out/corrupt"

make_image() { "$tools/make_image" "$@"; }
edit() { "$tools/jpeg_edit" "$@"; }
cmyk() { "$tools/jpeg_cmyk_encode" "$@"; }

# cj DIR/NAME SOURCE [cjpeg options]: one cjpeg run writing $out/DIR/NAME.jpg.
cj() {
    name=$1 source=$2
    shift 2
    cjpeg "$@" -outfile "$out/$name.jpg" "$src/$source"
}

# Width and height of a binary PNM written by djpeg or make_image (no comments).
dims() { sed -n 2p "$1"; }

# ------------------------------------------------------------------ sources
# Real photographs: scenes with texture, sky gradients and dark areas. The
# wallpapers are 2560x1600 JPEGs; djpeg -scale gives exact 1/4 and 1/2 sizes.
photos=
for name in Path EveningGlow Kite ColorfulCups OneStandsOut ColdRipple BytheWater \
            DarkestHour summer_1am FallenLeaf; do
    f=$(ls "$photo_dir/$name/contents/images/"*.jpg 2>/dev/null | head -n 1 || true)
    [ -n "$f" ] && photos="$photos $f"
done
if [ -z "$photos" ]; then   # another release of the package: take what is there
    photos=$(find "$photo_dir" -path '*/images/*.jpg' 2>/dev/null | sort | head -n 10 || true)
fi
if [ -z "$photos" ]; then
    echo "$0: no photographs in $photo_dir (apt-get install plasma-workspace-wallpapers):" \
         "using synthetic pictures in their place" >&2
    touch "$out/NO_PHOTOS"
    i=0
    for pattern in rings gradient blocks noise rings gradient blocks rings gradient blocks; do
        make_image --seed $i $pattern 1280 800 "$src/full$i.ppm"
        i=$((i + 1))
    done
else
    i=0
    for f in $photos; do
        djpeg -rgb -ppm -outfile "$src/full$i.ppm" "$f"
        i=$((i + 1))
    done
fi
nphotos=$i
# photo N -> small (about 640 wide) and medium (about 1280 wide) versions
i=0
while [ $i -lt $nphotos ]; do
    set -- $(dims "$src/full$i.ppm")
    cjpeg -quality 100 -sample 1x1 -outfile "$src/full$i.jpg" "$src/full$i.ppm"
    scale_small=1/4 scale_medium=1/2
    if [ "$1" -le 1600 ]; then scale_small=1/2 scale_medium=1/1; fi
    djpeg -scale $scale_small -ppm -outfile "$src/p$i.ppm" "$src/full$i.jpg"
    djpeg -scale $scale_medium -ppm -outfile "$src/m$i.ppm" "$src/full$i.jpg"
    i=$((i + 1))
done
photo() { echo "p$(($1 % nphotos)).ppm"; }
medium() { echo "m$(($1 % nphotos)).ppm"; }

# Odd-sized crops so that photographs also end in partial MCUs.
make_image crop 0 0 637 397 "$src/$(photo 5)" "$src/odd.ppm"
make_image crop 3 5 642 402 "$src/$(medium 1)" "$src/odd642.ppm"   # 2 mod 16 both ways
make_image crop 0 0 37 19 "$src/$(photo 2)" "$src/tiny.ppm"

# ------------------------------------------------------------------ good/
# Every common sampling at two qualities, a different photo each time.
n=0
for q in 75 90; do
    for s in 444:1x1 422:2x1 420:2x2 440:1x2 411:4x1; do
        cj good/photo_${s%%:*}_q$q "$(photo $n)" -quality $q -sample ${s#*:}
        n=$((n + 1))
    done
done
cj good/photo_420_q50 "$(photo 2)" -quality 50 -sample 2x2
cj good/photo_444_q50 "$(photo 3)" -quality 50 -sample 1x1
cj good/photo_420_q100 "$(photo 4)" -quality 100 -sample 2x2
cj good/photo_422_q100 "$(photo 6)" -quality 100 -sample 2x1
cj good/photo_420_q90_642x402 odd642.ppm -quality 90 -sample 2x2

# Unusual sampling factors (T.81 allows 1..4 each, at most 10 blocks per MCU),
# on an odd size so that every edge is a partial MCU.
for s in 3x1 4x2 3x2 1x4 2x4 2x2,1x2,1x1 1x1,2x2,2x2 2x1,1x2,1x1 4x1,2x1,1x1 \
         1x1,1x1,2x2 2x2,2x1,1x2 3x2,1x2,1x1; do
    cj good/sample_$(echo $s | tr , _)_637x397 odd.ppm -quality 85 -sample $s
done

# Restart intervals: every MCU row (-restart 1), in blocks (B), some that do
# not divide a row.
cj good/photo_420_q90_rst1row "$(photo 7)" -quality 90 -sample 2x2 -restart 1
cj good/photo_444_q75_rst1B "$(photo 8)" -quality 75 -sample 1x1 -restart 1B
cj good/photo_420_q75_rst7B "$(photo 9)" -quality 75 -sample 2x2 -restart 7B
cj good/photo_422_q90_rst3row "$(photo 0)" -quality 90 -sample 2x1 -restart 3
cj good/photo_411_q90_rst100B "$(photo 1)" -quality 90 -sample 4x1 -restart 100B
cj good/photo_440_q90_rst1B "$(photo 2)" -quality 90 -sample 1x2 -restart 1B
cj good/photo_420_q85_rst5B_637x397 odd.ppm -quality 85 -sample 2x2 -restart 5B

# Optimised Huffman tables.
cj good/photo_420_q90_optimize "$(photo 3)" -quality 90 -sample 2x2 -optimize
cj good/photo_444_q75_optimize "$(photo 4)" -quality 75 -sample 1x1 -optimize
cj good/photo_422_q90_optimize_rst1row "$(photo 5)" -quality 90 -sample 2x1 -optimize -restart 1

# Non-interleaved scans (T.81 A.2.2): each component alone; luma then
# interleaved chroma; scans in another order than the components; a 4x4 luma
# only a non-interleaved scan can carry; per-scan optimised tables (DHT
# redefined between scans); restart markers inside non-interleaved scans.
printf '0;\n1;\n2;\n' > "$src/separate.scans"
printf '0;\n1,2;\n' > "$src/luma_then_chroma.scans"
printf '2;\n0,1;\n' > "$src/out_of_order.scans"
cj good/scans_separate_420 "$(photo 6)" -quality 90 -sample 2x2 -scans "$src/separate.scans"
cj good/scans_luma_then_chroma_422 "$(photo 7)" -quality 90 -sample 2x1 -scans "$src/luma_then_chroma.scans"
cj good/scans_out_of_order_444 "$(photo 8)" -quality 75 -sample 1x1 -scans "$src/out_of_order.scans"
cj good/scans_separate_4x4_637x397 odd.ppm -quality 85 -sample 4x4 -scans "$src/separate.scans"
cj good/scans_separate_420_optimize "$(photo 9)" -quality 90 -sample 2x2 -optimize -scans "$src/separate.scans"
cj good/scans_separate_420_rst2B "$(photo 0)" -quality 90 -sample 2x2 -restart 2B -scans "$src/separate.scans"
cj good/scans_luma_then_chroma_420_637x397 odd.ppm -quality 85 -sample 2x2 -scans "$src/luma_then_chroma.scans"

# Grayscale (one component; its sampling factors must not matter).
cj good/gray_q75 "$(photo 1)" -grayscale -quality 75
cj good/gray_q90_optimize "$(photo 2)" -grayscale -quality 90 -optimize
cj good/gray_q90_rst1row "$(photo 3)" -grayscale -quality 90 -restart 1
cj good/gray_sample2x2_637x397 odd.ppm -grayscale -quality 85 -sample 2x2
cj good/gray_q95_637x397 odd.ppm -grayscale -quality 95

# RGB JPEGs (Adobe APP14 transform 0: no colour conversion).
cj good/rgb_444_q90 "$(photo 4)" -rgb -quality 90
cj good/rgb_420_q90 "$(photo 5)" -rgb -quality 90 -sample 2x2
cj good/rgb_444_q75_rst1B "$(photo 6)" -rgb -quality 75 -restart 1B
# Without the Adobe marker the component ids 'R','G','B' still say RGB.
cjpeg -rgb -quality 90 -outfile "$src/rgb.jpg" "$src/$(photo 7)"
edit "$src/rgb.jpg" "$out/good/rgb_444_no_adobe_marker.jpg" drop APP14
# Without JFIF the ids 1,2,3 say YCbCr.
cjpeg -quality 90 -sample 2x2 -outfile "$src/ycc.jpg" "$src/$(photo 8)"
edit "$src/ycc.jpg" "$out/good/photo_420_no_jfif.jpg" drop APP0

# CMYK and YCCK (Adobe APP14 transform 0 and 2), which cjpeg cannot write.
cmyk --quality 90 "$src/$(photo 9)" "$out/good/cmyk_q90.jpg"
cmyk --quality 75 --sample 2x2,1x1,1x1,2x2 "$src/$(photo 0)" "$out/good/cmyk_2x2_1x1_1x1_2x2_q75.jpg"
cmyk --quality 90 --restart 1 "$src/$(photo 1)" "$out/good/cmyk_q90_rst1row.jpg"
cmyk --quality 85 "$src/odd.ppm" "$out/good/cmyk_q85_637x397.jpg"
cmyk --ycck --quality 90 "$src/$(photo 2)" "$out/good/ycck_q90.jpg"
cmyk --ycck --quality 90 --sample 1x1,1x1,1x1,1x1 "$src/$(photo 3)" "$out/good/ycck_444_q90.jpg"
cmyk --ycck --quality 85 "$src/tiny.ppm" "$out/good/ycck_37x19.jpg"

# Markers a decoder must skip or honour wherever they are.
cjpeg -quality 90 -sample 2x2 -restart 1 -outfile "$src/rst.jpg" "$src/$(photo 4)"
edit "$src/rst.jpg" "$out/good/dri_before_dqt.jpg" move DRI DQT
edit "$src/rst.jpg" "$out/good/dri_before_sof.jpg" move DRI SOF0
edit "$src/rst.jpg" "$out/good/dri_first_after_soi.jpg" move DRI APP0
wrjpgcom -comment "libgpujpeg test corpus: a COM marker" "$src/ycc.jpg" > "$out/good/marker_com.jpg"
# A minimal Exif APP1 (big-endian TIFF header, empty IFD0) before JFIF.
edit "$src/ycc.jpg" "$out/good/marker_exif.jpg" insert APP0 APP1 4578696600004d4d002a000000080000000000000000
edit "$src/ycc.jpg" "$out/good/marker_app15_between_tables.jpg" insert SOF0 APP15 0102030405ff00ff
# An ICC profile large enough to need two APP2 chunks.
make_image --gray noise 300 250 "$src/icc.pgm"
tail -c 70000 "$src/icc.pgm" > "$src/fake.icc"
cj good/marker_icc_2_chunks "$(photo 5)" -quality 75 -icc "$src/fake.icc"
# One DHT and one DQT segment holding every table, as MJPEG cameras write them.
edit "$src/ycc.jpg" "$out/good/tables_merged.jpg" merge DHT merge DQT
# Fill bytes (0xFF) before markers (T.81 B.1.1.2).
edit "$src/rst.jpg" "$out/good/fill_bytes.jpg" fill SOF0 3 fill SOS 1 fill EOI 5
# MJPEG frames (AVI1) have no DHT: libjpeg-turbo then uses the T.81 K.3 tables,
# the ones cjpeg wrote here.
edit "$src/ycc.jpg" "$out/good/mjpeg_no_dht.jpg" drop DHT

# Synthetic pictures at sizes that leave partial MCUs and blocks everywhere.
synth() {   # synth NAME PATTERN W H CJPEG-OPTIONS...
    name=$1 pattern=$2 w=$3 h=$4
    shift 4
    make_image --seed $w $pattern $w $h "$src/synth.ppm"
    cj good/$name synth.ppm "$@"
}
synth size_1x1_420 gradient 1 1 -sample 2x2
synth size_1x1_444 solid 1 1 -sample 1x1
synth size_2x2_411 noise 2 2 -sample 4x1
synth size_1x17_422 noise 1 17 -sample 2x1
synth size_17x1_420 checker 17 1 -sample 2x2
synth size_7x9_444 gradient 7 9 -sample 1x1 -quality 95
synth size_9x1_411 blocks 9 1 -sample 4x1
# Chroma 2 samples wide or less: libjpeg-turbo replicates instead of its fancy filter.
synth size_3x8_420 rings 3 8 -sample 2x2
synth size_4x5_422 noise 4 5 -sample 2x1
synth size_5x5_420 gradient 5 5 -sample 2x2
synth size_8x3_440 blocks 8 3 -sample 1x2
synth size_15x15_420 blocks 15 15 -sample 2x2
synth size_16x16_420 rings 16 16 -sample 2x2
synth size_17x17_440 rings 17 17 -sample 1x2
synth size_18x34_420 gradient 18 34 -sample 2x2
# Scans denser than the output frame holds side by side: the later ones decode after
# the first on one queue instead of at once (libgpujpeg/src/jpeg/decode_scan_units.c).
synth scans_separate_noise_q100_256x160 noise 256 160 -quality 100 -sample 2x2 -scans "$src/separate.scans"
synth size_33x65_411 rings 33 65 -sample 4x1
synth size_65x1_rgb gradient 65 1 -rgb
synth size_1023x1_420 noise 1023 1 -sample 2x2
synth size_4095x3_422 gradient 4095 3 -sample 2x1
synth size_65500x16_420 gradient 65500 16 -sample 2x2
synth size_16x65500_422 gradient 16 65500 -sample 2x1
make_image --gray gradient 1 1 "$src/synth.pgm"
cj good/size_1x1_gray synth.pgm -grayscale
make_image --gray noise 333 77 "$src/synth.pgm"
cj good/gray_noise_333x77_q100 synth.pgm -grayscale -quality 100
synth solid_1280x16_420 solid 1280 16 -sample 2x2
synth checker_256x256_444_q100 checker 256 256 -sample 1x1 -quality 100
synth rings_800x600_422_q90 rings 800 600 -sample 2x1 -quality 90

# Long scans without restart markers (the parallel entropy decoder splits them
# into chunks that must synchronise), and long Huffman codes: noise at q100
# with the default tables uses codes of up to 16 bits.
synth noise_512x512_420_q100 noise 512 512 -sample 2x2 -quality 100
synth noise_1920x1080_444_q100 noise 1920 1080 -sample 1x1 -quality 100
cj good/photo_1280x800_420_q100 "$(medium 6)" -quality 100 -sample 2x2
cj good/photo_1280x800_440_q90 "$(medium 7)" -quality 90 -sample 1x2
large=full$((8 % nphotos)).ppm
set -- $(dims "$src/$large")
if [ "$1" -ge 2560 ] && [ "$2" -ge 1440 ]; then
    make_image crop 0 0 2560 1440 "$src/$large" "$src/large.ppm"
else
    make_image --seed 3 rings 2560 1440 "$src/large.ppm"
fi
cj good/large_2560x1440_420_q90 large.ppm -quality 90 -sample 2x2
cj good/large_2560x1440_422_q75_optimize large.ppm -quality 75 -sample 2x1 -optimize

# ------------------------------------------------------------------ unsupported/
base=$src/ycc.jpg                         # 4:2:0 q90 photo, no restart markers
cj unsupported/progressive_420 "$(photo 0)" -progressive
cj unsupported/progressive_gray "$(photo 1)" -progressive -grayscale
cj unsupported/arithmetic_420 "$(photo 2)" -arithmetic
cj unsupported/arithmetic_progressive "$(photo 3)" -arithmetic -progressive
edit "$base" "$out/unsupported/sof1_12bit.jpg" recode SOF0 0xC1 set SOF1 0 12
edit "$base" "$out/unsupported/sof3_lossless.jpg" recode SOF0 0xC3
edit "$base" "$out/unsupported/sof2_recoded.jpg" recode SOF0 0xC2
edit "$base" "$out/unsupported/sof9_recoded.jpg" recode SOF0 0xC9
# Hierarchical: a DHP segment (same layout as a frame header) and SOF5.
sof=$("$tools/jpeg_edit" --list "$base" | awk '$2 == "SOF0" { print $1, $3 }')
dhp=$(od -An -v -tx1 -j $(( ${sof% *} + 4 )) -N $(( ${sof#* } - 4 )) "$base" | tr -d ' \n')
edit "$base" "$out/unsupported/sof5_hierarchical.jpg" insert SOF0 DHP "$dhp" recode SOF0 0xC5

# ------------------------------------------------------------------ invalid/
small=$src/small.jpg
cjpeg -quality 75 -sample 2x2 -outfile "$small" "$src/tiny.ppm"
: > "$out/invalid/empty_file.jpg"
cp "$src/tiny.ppm" "$out/invalid/not_jpeg_ppm.jpg"
echo "This is not a JPEG file." > "$out/invalid/not_jpeg_text.jpg"
printf '\377\330' > "$out/invalid/soi_only.jpg"
printf '\377\330\377\331' > "$out/invalid/soi_eoi.jpg"
bad() {   # bad NAME jpeg_edit-operations...: a crafted copy of $small in invalid/
    name=$1
    shift
    edit "$small" "$out/invalid/$name.jpg" "$@"
}
bad sof_width_0 set SOF0 3 0,0
bad sof_height_0 set SOF0 1 0,0
bad sof_0_components set SOF0 5 0 resize SOF0 6
bad sof_2_components set SOF0 5 2 resize SOF0 12 set SOS 0 2 resize SOS 8 set SOS 5 0,63,0
bad sof_5_components set SOF0 5 5 resize SOF0 21 set SOF0 15 4,0x11,0,5,0x11,0
bad sof_sampling_h0 set SOF0 7 0x01
bad sof_sampling_v5 set SOF0 7 0x25
bad sof_quant_table_4 set SOF0 8 4
bad sof_twice insert DHT SOF0 "$dhp"
bad no_dqt drop DQT
bad dqt_table_id_4 set DQT 0 4
bad dht_table_id_4 set DHT 0 0x04
bad dht_class_2 set DHT 0 0x20
bad dht_oversubscribed set DHT 1 3
bad sos_undefined_huffman_table set SOS 2 0x22
bad sos_missing_component set SOS 1 9
bad sos_0_components set SOS 0 0
bad sos_5_components set SOS 0 5
bad sos_before_sof move SOF0 EOI
bad no_sos drop SOS

# ------------------------------------------------------------------ bad/
# Outside libjpeg-turbo's limits (65500) but inside ours: fail cleanly or decode.
edit "$small" "$out/bad/huge_65535x65535_420.jpg" set SOF0 1 255,255,255,255
cjpeg -grayscale -outfile "$src/gray_small.jpg" "$src/tiny.ppm"
edit "$src/gray_small.jpg" "$out/bad/huge_65535x65535_gray.jpg" set SOF0 1 255,255,255,255
edit "$small" "$out/bad/wide_65535x8_420.jpg" set SOF0 1 0,8,255,255
# Spectral selection in a sequential scan: libjpeg-turbo only warns.
edit "$small" "$out/bad/sos_spectral_1_63.jpg" set SOS 7 1
edit "$small" "$out/bad/sof_precision_12_in_sof0.jpg" set SOF0 0 12
edit "$small" "$out/bad/sof_precision_0.jpg" set SOF0 0 0
edit "$small" "$out/bad/dht_empty.jpg" set DHT 1 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
edit "$small" "$out/bad/dqt_zero_entries.jpg" set DQT 1 0,0,0,0,0,0,0,0
edit "$small" "$out/bad/dri_interval_huge.jpg" insert SOS DRI ffff

# ------------------------------------------------------------------ damaged/
# Truncation at every kind of place: in each header segment (djpeg fails), in
# the entropy-coded data (djpeg warns, decodes what is there and fills the rest),
# and just before EOI.
truncate_at() {   # truncate_at SOURCE NAME BYTES
    head -c "$3" "$1" > "$out/damaged/$2.jpg"
}
cut_points() {   # cut_points FILE PREFIX: one truncation inside each segment
    file=$1 prefix=$2
    size=$(wc -c < "$file")
    "$tools/jpeg_edit" --list "$file" | awk -v size="$size" '
        $2 == "SOS" { scan++ }
        $2 != "DATA" && $2 != "SOI" && $2 != "EOI" { print "in_" $2 "_" NR, $1 + int($3 / 2) }
        $2 == "SOS" { print "scan" scan "_start", $1 + $3 }
        $2 == "DATA" { print "scan" scan "_1byte", $1 + 1;
                       print "scan" scan "_10pct", $1 + int($3 / 10);
                       print "scan" scan "_50pct", $1 + int($3 / 2);
                       print "scan" scan "_99pct", $1 + int($3 * 99 / 100) }
        END { print "no_eoi", size - 2; print "half_eoi", size - 1 }' |
    while read -r what at; do
        truncate_at "$file" "${prefix}_$what" "$at"
    done
}
truncate_at "$base" truncated_1byte 1
truncate_at "$base" truncated_soi_only 2
cut_points "$base" truncated
cut_points "$src/rst.jpg" truncated_rst
cjpeg -quality 90 -sample 2x2 -scans "$src/separate.scans" -outfile "$src/scans.jpg" "$src/$(photo 9)"
cut_points "$src/scans.jpg" truncated_scans
truncate_at "$out/good/gray_q75.jpg" truncated_gray_scan_50pct $(( $(wc -c < "$out/good/gray_q75.jpg") / 2 ))
truncate_at "$out/good/cmyk_q90.jpg" truncated_cmyk_scan_50pct $(( $(wc -c < "$out/good/cmyk_q90.jpg") / 2 ))
# A cut right after a 0xFF byte of the entropy-coded data (a marker half read).
data=$("$tools/jpeg_edit" --list "$base" | awk '$2 == "DATA" { print $1; exit }')
ff=$(od -An -v -tu1 -w1 "$base" | awk -v data="$data" 'NR > data + 100 && $1 == 255 { print NR; exit }')
truncate_at "$base" truncated_after_ff_in_scan "$ff"
# More lines in the frame header than in the scan: the rest is filled.
height=$(od -An -tu1 -j $(( ${sof% *} + 5 )) -N 2 "$base" | awk '{ print ($1 * 256 + $2) * 2 }')
edit "$base" "$out/damaged/sof_height_doubled.jpg" set SOF0 1 $((height >> 8)),$((height & 255))
# Stray bytes before markers, trailing data, a second picture after EOI.
edit "$base" "$out/damaged/junk_before_sos.jpg" junk SOS 0102030405
edit "$base" "$out/damaged/junk_before_sof.jpg" junk SOF0 00ff00
{ cat "$base"; echo "trailing garbage"; } > "$out/damaged/junk_after_eoi.jpg"
cat "$base" "$small" > "$out/damaged/two_pictures.jpg"

# ------------------------------------------------------------------ corrupt/
flip() {   # flip SOURCE NAME SEED COUNT
    edit "$1" "$out/corrupt/$2_seed$3_x$4.jpg" flip "$3" "$4"
}
for sc in 1:1 2:1 3:5 4:20 5:200; do flip "$base" photo_420 ${sc%:*} ${sc#*:}; done
for sc in 6:1 7:5 8:50; do flip "$src/rst.jpg" photo_420_rst1row ${sc%:*} ${sc#*:}; done
flip "$src/scans.jpg" scans_separate 9 10
flip "$out/good/gray_q75.jpg" gray 10 10
flip "$out/good/cmyk_q90.jpg" cmyk 11 10
flip "$out/good/noise_512x512_420_q100.jpg" noise_q100 12 30
flip "$out/good/photo_411_q90_rst100B.jpg" photo_411_rst100B 13 10
# Restart markers out of sequence, or announced and missing.
edit "$src/rst.jpg" "$out/corrupt/rst_out_of_sequence.jpg" rst 3 0xD6
edit "$src/rst.jpg" "$out/corrupt/rst_repeated.jpg" rst 5 0xD4
edit "$base" "$out/corrupt/dri_without_rst_markers.jpg" insert SOS DRI 0004

rm -rf "$src"
"$here/verify_corpus.sh" "$out"
