#!/bin/sh
# Generates the JPEG 2000 test streams and their references into OUTDIR
# (tests/j2k_check.sh runs the tests; their names go to OUTDIR/tests.txt).
#
#   tests/gen_j2k_corpus.sh OUTDIR
#
# Streams come from OpenJPEG's opj_compress (libopenjp2-tools), Grok's grk_compress,
# GDAL's gdal_translate and pydicom's test files where installed, references from
# opj_decompress. Environment:
# GJ_TEST_TOOLS (default tests/tools), GJ_PHOTO_DIR (default /usr/share/wallpapers:
# plasma-workspace-wallpapers), GJ_DICOM_DIR (pydicom's test files), GJ_J2K_FILES (a
# directory of JPEG 2000 files from anywhere, checked against opj_decompress).
#
#   lossless_NAME   5/3 streams: our decode equals opj_decompress's bit for bit
#   lossy_NAME      9/7 streams: every sample within 2 of opj_decompress's (float)
#   lossy_saturate* 9/7 streams past 16-bit coefficients' optimistic bound: decoded
#                   again (-v says so), as with GJ_J2K_WORST_CASE=1, and within 2 too
#   reduce_N_NAME   --reduce N against opj_decompress -r N (bit for bit; lossy: within 2)
#   layers_N_NAME   --layers N against opj_decompress -l N (the same)
#   *_deep*         12- and 16-bit samples (compared with tests/tools/pnm16.pl)
#   *_dci2k/4k      the DCI 2K and 4K profiles (Rsiz 3, 4; 12 bits): also gpujpeg info's profile
#   *_res_jp2       a JP2 resolution box: also gpujpeg info's sample aspect ratio
#   *_icc*_jp2      a JP2 file's ICC profile (icc-profiles-free's; NAME.icc, none for a
#                   box that counts none): gpujpeg info tells it, PNG files carry it
#   planar_*        4:2:0 and 4:2:2 components: planar output against FFmpeg's decoder
#   *_rgba          four components: rgba (PNG)
#   components_*    streams no frame format holds (two components, four of 12 bits,
#                   five, sixteen, subsampled unlike any format), and pydicom's medical ones
#                   (components_dicom_*): --> PGX, each component against
#                   opj_decompress's (5/3: bit for bit; 9/7: within NAME.tolerance)
#   *_grok*         streams of Grok's grk_compress (grokj2k-tools), as OpenJPEG's
#   *_files_*       GJ_J2K_FILES' files: components_ (OpenJPEG decodes them), unsupported_
#                   (components of more than 16 bits, HTJ2K), broken_ (OpenJPEG refuses them)
#   unsupported_*   refused with a message saying "unsupported"
#   broken_*        truncated and damaged streams: decoded or refused with a message,
#                   never a crash or a hang; refused with NAME.message where there is one
#   NAME.warning    a warning the decode must give (streams written as some writers
#                   get them wrong, which the decode reads as others do, or says it
#                   may read wrong)
set -eu

out=${1:?usage: gen_j2k_corpus.sh OUTDIR}
tools=${GJ_TEST_TOOLS:-tests/tools}
photo_dir=${GJ_PHOTO_DIR:-/usr/share/wallpapers}
icc_dir=${GJ_ICC_DIR:-/usr/share/color/icc}

rm -rf "$out"
mkdir -p "$out"
tests=$out/tests.txt.tmp
: > "$tests"

if ! command -v opj_compress > /dev/null 2>&1; then
    echo "$0: opj_compress not found (apt-get install libopenjp2-tools)" >&2
    touch "$out/NO_OPENJPEG"
    mv "$tests" "$out/tests.txt"
    exit 0
fi

# ------------------------------------------------------------------ pictures
# A photograph at an odd size (edges of tiles, precincts and code-blocks), in
# colour and gray; synthetic noise and gradients when the wallpapers are missing.
f=$(ls "$photo_dir/Path/contents/images/"*.jpg 2>/dev/null | head -n 1 || true)
if [ -n "$f" ]; then
    djpeg -scale 1/4 -ppm -outfile "$out/full.ppm" "$f"
    "$tools/make_image" crop 5 3 317 203 "$out/full.ppm" "$out/photo.ppm"
    djpeg -scale 1/4 -grayscale -pnm -outfile "$out/full.pgm" "$f"
    "$tools/make_image" crop 5 3 317 203 "$out/full.pgm" "$out/gray.pgm"
    rm -f "$out/full.ppm" "$out/full.pgm"
else
    touch "$out/NO_PHOTOS"
    "$tools/make_image" --seed 3 rings 317 203 "$out/photo.ppm"
    "$tools/make_image" --gray --seed 4 rings 317 203 "$out/gray.pgm"
fi
"$tools/make_image" --seed 1 noise 67 45 "$out/noise.ppm"
"$tools/make_image" --gray --seed 2 gradient 129 77 "$out/gradient.pgm"
# Rows longer than the in-place IDWT's local memory holds (GJ_J2K_DWT_LINE).
"$tools/make_image" --gray --seed 5 gradient 8200 9 "$out/wide.pgm"
# Columns longer than GJ_J2K_DWT_LINE / 4. Their levels go through a scratch in the picture's
# memory and gj_j2k_idwt_columns where it holds a component's level (j2k_params.h): in colour,
# and in gray 24 wide (rows padded to 64 bytes); at 64 wide an 8-bit gray picture cannot hold the
# 16-bit coefficients, and its columns take the in-place long-column kernels.
"$tools/make_image" --gray --seed 6 noise 24 2101 "$out/tall.pgm"
"$tools/make_image" --seed 7 rings 24 2101 "$out/tall.ppm"
"$tools/make_image" --gray --seed 8 noise 64 2101 "$out/tall64.pgm"

# stream KIND NAME INPUT [encoder options]: NAME.j2k and its reference; the encoder is
# $encoder (opj_compress unless set, for Grok's grk_compress).
stream() {
    kind=$1 name=${1}_$2 in=$out/$3
    shift 3
    ext=${in##*.}
    [ "$ext" = pam ] && ext=png     # opj_decompress writes RGBA as PNG, not PAM
    j2k=$out/$name.j2k
    case $name in *_jp2) j2k=$out/$name.jp2 ;; esac
    ${encoder:-opj_compress} -i "$in" -o "$j2k" "$@" > "$out/opj.log" 2>&1 || {
        echo "$0: ${encoder:-opj_compress} $* failed: $(tail -n 1 "$out/opj.log")" >&2
        exit 1
    }
    [ "$kind" = unsupported ] || opj_decompress -i "$j2k" -o "$out/${name}_ref.$ext" > "$out/opj.log" 2>&1
    echo "$name" >> "$tests"
}

# ------------------------------------------------------------------ lossless (5/3)
stream lossless gray gray.pgm
stream lossless rgb photo.ppm
stream lossless gradient gradient.pgm -n 3
stream lossless noise noise.ppm
stream lossless levels0 photo.ppm -n 1
stream lossless levels1 photo.ppm -n 2
stream lossless wide wide.pgm -n 2
stream lossless tall tall.pgm -n 2
stream lossless tall_offset tall.pgm -d 0,1 -n 3
stream lossless tall_rgb tall.ppm -d 0,1 -n 2
stream lossless tall_tiles tall.ppm -t 12,2200 -n 2
stream lossless tall_in_place tall64.pgm -n 2
stream lossless tiles photo.ppm -t 64,48 -n 4
stream lossless tiles_offset noise.ppm -d 13,7 -t 20,20 -T 3,5 -n 2
stream lossless precincts photo.ppm -c [64,64],[32,32],[16,16]
for p in LRCP RLCP RPCL PCRL CPRL; do
    stream lossless prog_$p photo.ppm -p $p -c [32,32],[16,16] -r 30,8,1 -t 128,96 -n 4
done
stream lossless prog_RPCL_offset noise.ppm -p RPCL -c [16,16],[8,8] -d 5,3 -t 32,24 -n 3 -r 5,1
stream lossless cblk_16x16 photo.ppm -b 16,16
stream lossless cblk_64x8 photo.ppm -b 64,8
stream lossless cblk_4x4 noise.ppm -b 4,4
for m in 1 2 4 8 16 32 63; do
    stream lossless modes_$m photo.ppm -M $m -r 20,5,1
done
# Bypass segments split by layers: a packet of a later resolution follows the skipped
# layers' packets, whose passes the segments must still count (RLCP).
stream lossless layers_bypass photo.ppm -p RLCP -M 1 -r 40,5,5,1 -n 3
stream lossless sop_eph photo.ppm -SOP -EPH -r 10,1
stream lossless sop_eph_tiles photo.ppm -SOP -EPH -t 96,96 -TP R -r 10,1
# Packed packet headers (tests/tools/j2k_packed_headers.pl: opj_compress writes none),
# PPM and PPT, of one tile and of tiles in tile-parts, their segments written from the
# last index down (the order of a compliance codestream's): joined in their indices'
# order, or the picture is wrong (OpenJPEG decodes them alike).
for k in ppm ppt; do
    for n in sop_eph sop_eph_tiles; do
        name=lossless_$k${n#sop_eph}
        perl "$(dirname "$0")/tools/j2k_packed_headers.pl" "$out/lossless_$n.j2k" "$out/$name.j2k" $k
        opj_decompress -i "$out/$name.j2k" -o "$out/${name}_ref.ppm" > "$out/opj.log" 2>&1
        echo "$name" >> "$tests"
    done
done
stream lossless tile_parts photo.ppm -t 96,96 -n 3 -TP R -r 10,1
# COD and QCD as some encoders get them wrong (tests/tools/j2k_header_edit.pl): copies of
# the main header's in every later tile-part, let be as OpenJPEG and FFmpeg let them; ones
# there that change the number of layers or the guard bits, refused (NAME.message;
# OpenJPEG decodes the whole tile with them, another picture); the component transform
# asked of a gray picture, left out as opj_decompress leaves it out, with a warning.
perl "$(dirname "$0")/tools/j2k_header_edit.pl" "$out/lossless_tile_parts.j2k" "$out/lossless_cod_repeat.j2k" repeat
opj_decompress -i "$out/lossless_cod_repeat.j2k" -o "$out/lossless_cod_repeat_ref.ppm" > "$out/opj.log" 2>&1
perl "$(dirname "$0")/tools/j2k_header_edit.pl" "$out/lossless_tile_parts.j2k" "$out/broken_cod_change.j2k" repeat 1
echo "COD: tile 0's tile-part 1 changes the tile's parameters" > "$out/broken_cod_change.message"
perl "$(dirname "$0")/tools/j2k_header_edit.pl" "$out/lossless_tile_parts.j2k" "$out/broken_qcd_change.j2k" requant
echo "QCD: tile 0's tile-part 1 changes the tile's parameters" > "$out/broken_qcd_change.message"
perl "$(dirname "$0")/tools/j2k_header_edit.pl" "$out/lossless_gray.j2k" "$out/lossless_mct_gray.j2k" mct
opj_decompress -i "$out/lossless_mct_gray.j2k" -o "$out/lossless_mct_gray_ref.pgm" > "$out/opj.log" 2>&1
echo "COD: component transform with 1 component: left out" > "$out/lossless_mct_gray.warning"
printf '%s\n' lossless_cod_repeat broken_cod_change broken_qcd_change lossless_mct_gray >> "$tests"
# A tile's parts out of the order of their TPsot (tests/tools/j2k_swap_tile_parts.pl),
# which OpenJPEG refuses: read in the codestream's order, but not without a warning.
perl "$(dirname "$0")/tools/j2k_swap_tile_parts.pl" "$out/lossless_tile_parts.j2k" "$out/broken_tile_part_order.j2k"
echo "SOT: tile 0's tile-part 2 comes as its part 1: read in the codestream's order" > "$out/broken_tile_part_order.warning"
echo broken_tile_part_order >> "$tests"
stream lossless plt_tlm photo.ppm -PLT -TLM -t 160,128
stream lossless poc photo.ppm -POC T1=0,0,1,6,3,CPRL/T1=0,0,2,6,3,LRCP -r 20,1
stream lossless roi photo.ppm -ROI c=0,U=2
# Code-blocks whose missing bit-planes pass Mb, as a max-shift ROI encoder writes them
# (opj_compress does not): six of Mb's bit-planes moved to the ROI shift.
opj_compress -i "$out/gray.pgm" -o "$out/roi_gray.j2k" -ROI c=0,U=2 > "$out/opj.log" 2>&1
perl "$(dirname "$0")/tools/j2k_roi_planes.pl" "$out/roi_gray.j2k" "$out/lossless_roi_planes.j2k" 6
rm -f "$out/roi_gray.j2k"
opj_decompress -i "$out/lossless_roi_planes.j2k" -o "$out/lossless_roi_planes_ref.pgm" > "$out/opj.log" 2>&1
echo lossless_roi_planes >> "$tests"
stream lossless file_jp2 photo.ppm
# A resolution box (res: a capture resolution of 300 grid points a metre vertically
# and 400 horizontally), which opj_compress does not write: gpujpeg info gives the
# sample aspect ratio 3:4 (tests/j2k_check.sh); the picture is file_jp2's.
perl "$(dirname "$0")/tools/jp2_header_box.pl" "$out/lossless_file_jp2.jp2" "$out/lossless_res_jp2.jp2" \
    res 3 1 4 1 2 2
cp "$out/lossless_file_jp2_ref.ppm" "$out/lossless_res_jp2_ref.ppm"
echo lossless_res_jp2 >> "$tests"
# ... whose length lost 2 bytes (as in two of jpylyzer's test files): the boxes of jp2h
# before it are read, the rest of jp2h is not, with a warning (FFmpeg's decoder reads the
# file so; OpenJPEG refuses it).
perl "$(dirname "$0")/tools/jp2_header_box.pl" "$out/lossless_res_jp2.jp2" "$out/lossless_res_damaged_jp2.jp2" \
    damaged 'res ' 24
cp "$out/lossless_file_jp2_ref.ppm" "$out/lossless_res_damaged_jp2_ref.ppm"
echo "JP2: a damaged box length" > "$out/lossless_res_damaged_jp2.warning"
echo lossless_res_damaged_jp2 >> "$tests"
# An image header box (ihdr) one row taller than the codestream (as in one of jpylyzer's
# test files): the codestream's picture, with a warning (OpenJPEG refuses the file).
perl "$(dirname "$0")/tools/jp2_header_box.pl" "$out/lossless_file_jp2.jp2" "$out/lossless_ihdr_jp2.jp2" \
    ihdr "$(($(sed -n 2p "$out/photo.ppm" | cut -d ' ' -f 2) + 1))" "$(sed -n 2p "$out/photo.ppm" | cut -d ' ' -f 1)"
cp "$out/lossless_file_jp2_ref.ppm" "$out/lossless_ihdr_jp2_ref.ppm"
echo "JP2: ihdr says" > "$out/lossless_ihdr_jp2.warning"
echo lossless_ihdr_jp2 >> "$tests"
# A channel definition box (cdef) that shows channel 0 as blue and 2 as red, as
# opj_decompress (and FFmpeg's decoder) place them.
perl "$(dirname "$0")/tools/jp2_header_box.pl" "$out/lossless_file_jp2.jp2" "$out/lossless_cdef_jp2.jp2" \
    cdef 0:0:3 1:0:2 2:0:1
opj_decompress -i "$out/lossless_cdef_jp2.jp2" -o "$out/lossless_cdef_jp2_ref.ppm" > "$out/opj.log" 2>&1
echo lossless_cdef_jp2 >> "$tests"
# ICC profiles (colr boxes of method 2: T.800 I.5.3.3), which the decode hands on
# (tests/j2k_check.sh); the pictures are file_jp2's. A profile before opj_compress's
# sRGB box is the file's; one of JPX's method 3 is a box a JP2 reader ignores, the
# sRGB box after it then counting.
have_icc=
if [ -f "$icc_dir/sRGB.icc" ] && [ -f "$icc_dir/Gray.icc" ]; then
    have_icc=yes
    for m in 2 3; do
        name=lossless_icc_jp2
        [ $m = 3 ] && name=lossless_icc_any_jp2
        perl "$(dirname "$0")/tools/jp2_header_box.pl" "$out/lossless_file_jp2.jp2" "$out/$name.jp2" \
            colr $m "$icc_dir/sRGB.icc"
        cp "$out/lossless_file_jp2_ref.ppm" "$out/${name}_ref.ppm"
        echo $name >> "$tests"
    done
    cp "$icc_dir/sRGB.icc" "$out/lossless_icc_jp2.icc"
else
    echo "$0: $icc_dir/sRGB.icc and Gray.icc not found (apt-get install icc-profiles-free): no ICC tests" >&2
fi
# A palette (pclr + cmap) around the gray stream, decoded through it by opj_decompress.
perl "$(dirname "$0")/tools/jp2_palette.pl" "$out/lossless_gray.j2k" "$out/lossless_palette_jp2.jp2"
opj_decompress -i "$out/lossless_palette_jp2.jp2" -o "$out/lossless_palette_jp2_ref.ppm" > "$out/opj.log" 2>&1
echo lossless_palette_jp2 >> "$tests"
# Component maps that writers got wrong (tests/tools/jp2_palette.pl), read with a warning
# (NAME.warning): the cmap box after jp2h, and a map leaving palette columns unused, as
# opj_decompress reads them; no cmap at all, as FFmpeg's decoder reads it (OpenJPEG then
# drops the palette): the palette picture each time.
for map in outside unused none; do
    name=lossless_${map}_palette_jp2
    perl "$(dirname "$0")/tools/jp2_palette.pl" "$out/lossless_gray.j2k" "$out/$name.jp2" $map
    if [ $map = none ]; then
        cp "$out/lossless_palette_jp2_ref.ppm" "$out/${name}_ref.ppm"
    else
        opj_decompress -i "$out/$name.jp2" -o "$out/${name}_ref.ppm" > "$out/opj.log" 2>&1
    fi
    echo "$name" >> "$tests"
done
echo "JP2: a cmap box after jp2h, outside it: read as if inside" > "$out/lossless_outside_palette_jp2.warning"
echo "JP2: cmap leaves palette columns unused: channel i through column i" > "$out/lossless_unused_palette_jp2.warning"
echo "JP2: pclr without cmap: channel i through palette column i" > "$out/lossless_none_palette_jp2.warning"

# ------------------------------------------------------------------ lossy (9/7, ICT)
stream lossy rgb photo.ppm -I -r 20
stream lossy gray gray.pgm -I -r 10
stream lossy wide wide.pgm -I -r 10 -n 2
stream lossy tall tall.pgm -I -r 10 -d 0,3 -n 2
stream lossy tall_rgb tall.ppm -I -r 10 -d 3,1 -n 3
stream lossy quality photo.ppm -I -q 35
stream lossy tiles photo.ppm -I -t 64,64 -n 4 -r 30
stream lossy modes photo.ppm -I -M 63 -r 20
stream lossy layers photo.ppm -I -r 80,40,10 -p RLCP
# Streams whose values overshoot their 8 bits (tests/tools/j2k_guard_bits.pl: the
# coefficients 2^DELTA times larger), past the optimistic bound of 16-bit coefficients
# (libgpujpeg/src/j2k/coef_range.c): the IDWT flags a saturated store and the picture is
# decoded again with the worst case's fractions (16-bit ones with 3 levels and twice the
# values, from the photo; 32-bit with 5 levels and four times).
# saturate NAME INPUT DELTA [opj_compress options]
saturate() {
    name=lossy_$1 in=$out/$2 delta=$3
    shift 3
    opj_compress -i "$in" -o "$out/$name.opj.j2k" "$@" > "$out/opj.log" 2>&1 || {
        echo "$0: opj_compress $* failed: $(tail -n 1 "$out/opj.log")" >&2
        exit 1
    }
    perl "$(dirname "$0")/tools/j2k_guard_bits.pl" "$out/$name.opj.j2k" "$out/$name.j2k" "$delta"
    rm -f "$out/$name.opj.j2k"
    opj_decompress -i "$out/$name.j2k" -o "$out/${name}_ref.${in##*.}" > "$out/opj.log" 2>&1
    echo "$name" >> "$tests"
}
saturate saturate photo.ppm 1 -I -r 20 -n 3
saturate saturate_wide photo.ppm 2 -I -r 20

# ------------------------------------------------------------------ reduced resolution and layers
# part N STREAM OPTION: STREAM decoded by opj_decompress with OPTION N (-r or -l).
part() {
    what=reduce
    [ "$3" = -l ] && what=layers
    opj_decompress -i "$out/$2.j2k" -o "$out/${2}_$what$1.ppm" $3 $1 > "$out/opj.log" 2>&1
    echo "${what}_$1_$2" >> "$tests"
}
for r in 1 2 3; do
    part $r lossless_rgb -r
done
part 2 lossless_tiles -r
part 1 lossy_rgb -r
part 1 lossless_prog_LRCP -l
part 2 lossless_prog_LRCP -l
part 2 lossy_layers -l
part 1 lossless_layers_bypass -l
part 3 lossless_layers_bypass -l

# ------------------------------------------------------------------ deep samples
# 12-bit gray (PGX) and 16-bit RGB (PPM) made from the photo with perl (Essential in
# Debian). The decoder aligns samples to the most significant bit of 16 (as FFmpeg);
# the references are aligned alike (tests/tools/pnm16.pl), NAME.tolerance holds the
# lossy tests' tolerance in 16-bit units.
pnm16=$(dirname "$0")/tools/pnm16.pl
perl -e 'local $/; my $d = <STDIN>; $d =~ s/^P5\s+(\d+)\s+(\d+)\s+255\s//s or die "gray.pgm\n";
         my ($w, $h) = ($1, $2); my $i = 0;
         print "PG ML +12 $w $h\n", pack("n*", map { ($_ << 4) | ($i++ * 7 % 16) } unpack("C*", $d));' \
    < "$out/gray.pgm" > "$out/deep12.pgx"
# deepen BITS OUT: photo.ppm as BITS-bit RGB, the bits below its 8 a pattern.
deepen() {
    perl -e 'my $low = shift() - 8; local $/; my $d = <STDIN>;
             $d =~ s/^P6\s+(\d+)\s+(\d+)\s+255\s//s or die "photo.ppm\n";
             my ($w, $h, $max) = ($1, $2, (1 << ($low + 8)) - 1); my $i = 0;
             print "P6\n$w $h\n$max\n",
                 pack("n*", map { ($_ << $low) | ($i++ * 37 % (1 << $low)) } unpack("C*", $d));' "$1" \
        < "$out/photo.ppm" > "$out/$2"
}
deepen 16 deep16.ppm
deepen 12 deep12.ppm
# deep KIND NAME INPUT TOLERANCE [opj_compress options]
deep() {
    kind=$1 name=${1}_$2 src=$3 tolerance=$4
    shift 4
    case $src in *.pgx) ext=pgm ;; *) ext=${src##*.} ;; esac
    opj_compress -i "$out/$src" -o "$out/$name.j2k" "$@" > "$out/opj.log" 2>&1 || {
        echo "$0: opj_compress $* failed: $(tail -n 1 "$out/opj.log")" >&2
        exit 1
    }
    # A profile the input does not fit is only a warning: Rsiz 0 and "Non-profile-3".
    if grep -q Non-profile "$out/opj.log"; then
        echo "$0: opj_compress $* wrote no profile stream: $(grep -A 1 requires "$out/opj.log" | tr '\n' ' ')" >&2
        exit 1
    fi
    opj_decompress -i "$out/$name.j2k" -o "$out/${name}_opj.$ext" > "$out/opj.log" 2>&1
    perl "$pnm16" align "$out/${name}_opj.$ext" "$out/${name}_ref.$ext"
    rm -f "$out/${name}_opj.$ext"
    echo "$tolerance" > "$out/$name.tolerance"
    echo "$name" >> "$tests"
}
deep lossless deep12 deep12.pgx 0
deep lossless deep12_tiles deep12.pgx 0 -t 64,64 -n 3 -c [32,32],[16,16] -p PCRL
deep lossless deep16 deep16.ppm 0
deep lossy deep12 deep12.pgx 32 -I -r 10
deep lossy deep16 deep16.ppm 4 -I -r 5
# The DCI profiles (Rsiz 3 and 4): 12-bit RGB, 9/7 and ICT, CPRL, at most 2048x1080 and
# 4096x2160 (T.800 Amd. 1); opj_compress keeps them for smaller pictures. Within 16:
# one 12-bit step between our fixed-point 9/7 and OpenJPEG's float (PoCL: 1455 samples).
deep lossy deep12_dci2k deep12.ppm 16 -cinema2K 24
deep lossy deep12_dci4k deep12.ppm 16 -cinema4K

# ------------------------------------------------------------------ subsampled components (planar)
# 4:2:0 and 4:2:2 streams decode to planar yuvj420p/422p (.yuv: planes one after
# another). opj_decompress upsamples such components on output, so the references
# come from FFmpeg's native jpeg2000 decoder (bit-exact with ours for 5/3);
# NAME.planes holds the plane sizes for image_compare --planes.
# planar NAME STREAM PIXFMT PLANES TOLERANCE [ffmpeg input options]
planar() {
    name=planar_$1 stream=$2 pixfmt=$3 planes=$4 tolerance=$5
    shift 5
    cp "$out/$stream" "$out/$name.j2k"
    "$ffmpeg" -v error -y "$@" -i "$out/$name.j2k" -f rawvideo -pix_fmt "$pixfmt" "$out/${name}_ref.yuv" || {
        echo "$0: FFmpeg could not decode $name" >&2
        return
    }
    echo "$planes" > "$out/$name.planes"
    echo "$pixfmt" > "$out/$name.pixfmt"
    echo "$tolerance" > "$out/$name.tolerance"
    echo "$name" >> "$tests"
}
ffmpeg=${FFMPEG:-ffmpeg}
if command -v "$ffmpeg" > /dev/null 2>&1 && "$ffmpeg" -hide_banner -encoders 2>/dev/null | grep -q jpeg2000; then
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -pix_fmt yuv420p -f rawvideo "$out/yuv420.raw"
    opj_compress -i "$out/yuv420.raw" -o "$out/opj420.j2k" -F 317,203,3,8,u@1x1:2x2:2x2 > "$out/opj.log" 2>&1
    opj_compress -i "$out/yuv420.raw" -o "$out/opj420t.j2k" -F 317,203,3,8,u@1x1:2x2:2x2 \
        -t 64,64 -n 3 -p RPCL -c [32,32],[16,16] > "$out/opj.log" 2>&1
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -vf crop=316:202 -pix_fmt yuv422p -c:v jpeg2000 -pred 1 \
        -frames 1 -f image2 "$out/ff422.j2k"
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -pix_fmt yuv420p -c:v jpeg2000 -frames 1 -f image2 "$out/ff420.j2k"
    # deep planar YUV (16-bit samples at their own bits, as FFmpeg's decoder stores them) and 4:1:0
    # (opj_compress reads raw samples of more than 8 bits big-endian)
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -vf crop=316:202 -pix_fmt yuv422p10le -f rawvideo "$out/yuv422p10.raw"
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -pix_fmt yuv420p12le -f rawvideo "$out/yuv420p12.raw"
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -pix_fmt yuv444p -f rawvideo "$out/yuv444.raw"
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -pix_fmt yuv444p12le -f rawvideo "$out/yuv444p12.raw"
    for f in yuv422p10 yuv420p12 yuv444p12; do
        perl -e 'local $/; print pack("n*", unpack("v*", <STDIN>))' < "$out/$f.raw" > "$out/${f}be.raw"
    done
    opj_compress -i "$out/yuv422p10be.raw" -o "$out/opj422p10.j2k" -F 316,202,3,10,u@1x1:2x1:2x1 \
        -p CPRL > "$out/opj.log" 2>&1
    opj_compress -i "$out/yuv420p12be.raw" -o "$out/opj420p12.j2k" -F 317,203,3,12,u@1x1:2x2:2x2 \
        -t 96,64 -n 4 > "$out/opj.log" 2>&1
    # JP2 files whose colr box says sYCC (opj_compress -mct 0 of raw components): planar 4:4:4
    opj_compress -i "$out/yuv444.raw" -o "$out/opj_sycc.jp2" -F 317,203,3,8,u@1x1:1x1:1x1 -mct 0 \
        > "$out/opj.log" 2>&1
    opj_compress -i "$out/yuv444p12be.raw" -o "$out/opj_sycc12.jp2" -F 317,203,3,12,u@1x1:1x1:1x1 -mct 0 \
        -n 4 > "$out/opj.log" 2>&1
    "$ffmpeg" -v error -y -i "$out/photo.ppm" -vf crop=316:200 -pix_fmt yuv410p -c:v jpeg2000 -pred 1 \
        -frames 1 -f image2 "$out/ff410.j2k"
    planar opj420 opj420.j2k yuv420p 317x203,159x102,159x102 0
    planar opj420_tiles opj420t.j2k yuv420p 317x203,159x102,159x102 0
    planar opj420_reduce1 opj420.j2k yuv420p 159x102,80x51,80x51 0 -lowres 1
    planar ffmpeg422 ff422.j2k yuv422p 316x202,158x202,158x202 0
    planar ffmpeg420_lossy ff420.j2k yuv420p 317x203,159x102,159x102 2
    # 16-bit samples: compared byte for byte (lossless)
    planar opj422p10 opj422p10.j2k yuv422p10le 632x202,316x202,316x202 0
    planar opj420p12 opj420p12.j2k yuv420p12le 634x203,318x102,318x102 0
    planar ffmpeg410 ff410.j2k yuv410p 316x200,79x50,79x50 0
    planar opj_sycc opj_sycc.jp2 yuv444p 317x203,317x203,317x203 0
    planar opj_sycc12 opj_sycc12.jp2 yuv444p12le 634x203,634x203,634x203 0
    # Gray with alpha (two components) and deep RGBA: packed ya8, ya16le (samples at their
    # own bits, as FFmpeg's decoder stores them) and rgba64le, their one plane raw (.yuv);
    # YUV with alpha: yuva420p, and yuva422p16le for 12 bits (FFmpeg has no 12-bit YUVA)
    for spec in ya8:8:1x1:1x1 ya16:12:1x1:1x1 rgba64:12:1x1:1x1:1x1:1x1 yuva420:8:1x1:2x2:2x2:1x1 \
        yuva422p12:12:1x1:2x1:2x1:1x1; do
        f=${spec%%:*} depth=$(echo "$spec" | cut -d: -f2) subs=$(echo "$spec" | cut -d: -f3-)
        n=$(echo "$subs" | tr : '\n' | grep -c .)
        perl "$(dirname "$0")/tools/raw_components.pl" "$out/photo.ppm" "$out/$f.raw" "$depth" $(echo "$subs" | tr : ' ')
        opj_compress -i "$out/$f.raw" -o "$out/opj_$f.j2k" -F "317,203,$n,$depth,u@$subs" -n 4 > "$out/opj.log" 2>&1
    done
    planar opj_ya8 opj_ya8.j2k ya8 634x203 0
    planar opj_ya16 opj_ya16.j2k ya16le 1268x203 0
    planar opj_rgba64 opj_rgba64.j2k rgba64le 2536x203 0
    planar opj_yuva420 opj_yuva420.j2k yuva420p 317x203,159x102,159x102,317x203 0
    planar opj_yuva422p12 opj_yuva422p12.j2k yuva422p16le 634x203,318x203,318x203,634x203 0
else
    echo "$0: FFmpeg with a jpeg2000 encoder not found: no planar tests" >&2
fi

# ------------------------------------------------------------------ Grok
# A second encoder, Grok (grokj2k-tools: grk_compress), its streams checked against
# opj_decompress as OpenJPEG's are. Its POC streams repeat the main header's list in
# each tile's first tile-part with other orders (libgpujpeg/src/j2k/markers.c): OpenJPEG
# reads them right, and so must we (lossless_grok_poc, also for the warning that says
# so, tests/j2k_check.sh). The HTJ2K stream has no reference: OpenJPEG refuses it too.
if command -v grk_compress > /dev/null 2>&1; then
    encoder="grk_compress -H 1"
    stream lossless grok photo.ppm -n 5 -t 160,128 -u R -S -E -r 30,1
    # (PLT with layers crashes Grok 10's encoder)
    stream lossless grok_plt photo.ppm -L -t 160,128
    stream lossy grok photo.ppm -I -q 38,46 -c [64,64],[32,32] -p RPCL
    stream lossless grok_poc photo.ppm -P T0=0,0,1,6,3,CPRL/T0=0,0,2,6,3,LRCP -r 20,1
    stream lossless grok_poc_gray gray.pgm -n 4 -p PCRL -P T0=0,0,1,4,1,RPCL/T0=0,0,2,4,1,CPRL -r 10,1 -u R
    stream unsupported grok_htj2k photo.ppm -M 64
    encoder=
    # PNG files' ICC profiles, which Grok's encoder keeps in its JP2 files (colr of method
    # 2): lossless, the decode equals the source (opj_decompress applies the profile).
    # grok_icc NAME PICTURE PROFILE: NAME.jp2 of PICTURE with PROFILE, its reference and NAME.icc
    grok_icc() {
        perl "$(dirname "$0")/tools/png_icc.pl" write "$out/$2" "$3" "$out/$1.png"
        grk_compress -H 1 -i "$out/$1.png" -o "$out/$1.jp2" > "$out/opj.log" 2>&1 || {
            echo "$0: grk_compress of a PNG file with a profile failed: $(tail -n 1 "$out/opj.log")" >&2
            exit 1
        }
        cp "$out/$2" "$out/${1}_ref.${2##*.}"
        cp "$3" "$out/$1.icc"
        rm -f "$out/$1.png"
        echo "$1" >> "$tests"
    }
    if [ -n "$have_icc" ]; then
        grok_icc lossless_grok_icc_jp2 photo.ppm "$icc_dir/sRGB.icc"
        grok_icc lossless_grok_icc_gray_jp2 gray.pgm "$icc_dir/Gray.icc"
    fi
else
    echo "$0: grk_compress not found (apt-get install grokj2k-tools): no Grok streams" >&2
fi

# ------------------------------------------------------------------ unsupported
# Two components of different sizes (raw) and chroma subsampled two ways (raw).
"$tools/make_image" --seed 6 noise 40 30 "$out/rgb40.ppm"
head -c 1500 "$out/rgb40.ppm" > "$out/two.raw"
head -c 2400 "$out/rgb40.ppm" > "$out/odd.raw"
# unsupported NAME INPUT [opj_compress options]
unsupported() {
    name=unsupported_$1 src=$2
    shift 2
    if opj_compress -i "$out/$src" -o "$out/$name.j2k" "$@" > "$out/opj.log" 2>&1; then
        echo "$name" >> "$tests"
    else
        echo "$0: opj_compress could not make $name: $(tail -n 1 "$out/opj.log")" >&2
    fi
}
unsupported two_components two.raw -n 3 -F 40,30,2,8,u@1x1:2x2
unsupported subsampling odd.raw -n 3 -F 40,30,3,8,u@1x1:2x1:1x2
# 65535 tiles of one pixel and 32 levels in 177 bytes (one tile-part, no packets):
# 2.2 million resolutions of tile-components, past the decoder's budget
# (J2K_MAX_TILE_RESOLUTIONS): refused before their gigabytes are allocated.
perl -e 'sub seg { pack("nn", $_[0], length($_[1]) + 2) . $_[1] }
         print pack("n", 0xFF4F),
               seg(0xFF51, pack("nN8n", 0, 255, 257, 0, 0, 1, 1, 0, 0, 1) . pack("C3", 7, 1, 1)),
               seg(0xFF52, pack("C9", 0, 0, 0, 1, 0, 32, 4, 4, 0) . pack("C", 1)),
               seg(0xFF5C, pack("C*", 0x40, (0x40) x 97)),
               seg(0xFF90, pack("nNCC", 0, 14, 0, 1)), pack("n2", 0xFF93, 0xFFD9)' \
    > "$out/unsupported_many_resolutions.j2k"
echo unsupported_many_resolutions >> "$tests"

# ------------------------------------------------------------------ components (PGX)
# Raw planar components from the photo (tests/tools/raw_components.pl) whose
# pictures no frame format holds: decoded to PGX files, one per component, as
# opj_decompress writes them (NAME_ref_C.pgx).
# components NAME DEPTH SUBSAMPLINGS TOLERANCE [opj_compress options]
components() {
    name=components_$1 depth=$2 subs=$3 tolerance=$4
    shift 4
    n=$(echo "$subs" | tr : '\n' | grep -c .)
    perl "$(dirname "$0")/tools/raw_components.pl" "$out/photo.ppm" "$out/$name.raw" "$depth" \
        $(echo "$subs" | tr : ' ')
    # opj_compress reads fewer samples of subsampled components than the picture has: it says so.
    opj_compress -i "$out/$name.raw" -o "$out/$name.j2k" -F "317,203,$n,$depth,u@$subs" "$@" \
        > "$out/opj.log" 2>&1 || {
        echo "$0: opj_compress $* failed: $(tail -n 1 "$out/opj.log")" >&2
        exit 1
    }
    rm -f "$out/$name.raw"
    opj_decompress -i "$out/$name.j2k" -o "$out/${name}_ref.pgx" > "$out/opj.log" 2>&1
    echo "$tolerance" > "$out/$name.tolerance"
    echo "$name" >> "$tests"
}
components two 8 1x1:2x2 0
components four12 12 1x1:2x1:1x2:2x2 0 -n 4
components five_rct 8 1x1:1x1:1x1:1x1:1x1 0 -mct 1
components four_lossy 8 1x1:1x1:2x2:2x2 2 -I -r 20
components three_ict 8 1x1:1x1:1x1 2 -I -mct 1 -r 10
# Sixteen (a multispectral picture's bands): PGX files NAME_10 to NAME_15, which a
# listing sorts before NAME_2. (opj_compress 2.5 refuses -F values whose bitwise AND
# is not 0: twelve 8-bit components of this size, for one.)
components sixteen 8 1x1:1x1:1x1:1x1:1x1:1x1:1x1:1x1:1x1:1x1:1x1:1x1:2x2:2x2:2x2:2x2 0
# A palette on component 0 of components_two, whose subsampled component 1 the map leaves out.
perl "$(dirname "$0")/tools/jp2_palette.pl" "$out/components_two.j2k" "$out/lossless_palette_sub_jp2.jp2"
opj_decompress -i "$out/lossless_palette_sub_jp2.jp2" -o "$out/lossless_palette_sub_jp2_ref.ppm" > "$out/opj.log" 2>&1
echo lossless_palette_sub_jp2 >> "$tests"

# ------------------------------------------------------------------ files of others
# j2k_file NAME FILE: a file of another encoder, decoded to PGX against opj_decompress,
# 5/3 bit for bit, 9/7 within 2 (8 past 12 bits) (components_NAME); where OpenJPEG cannot
# decode it, decoded or refused with a message (broken_NAME); components of more than 16
# bits, and HTJ2K, refused as unsupported (unsupported_NAME). tests/tools/j2k_facts.pl
# reads the header.
# The references are opj_decompress's of the codestream alone, as the components of a
# decode are: it applies a JP2 file's palette, ICC profile and colour space. Where it
# takes three components with subsampled chroma for sYCC, and converts them to RGB
# whatever the file says, it decodes them one at a time (-c), which it leaves as they are.
j2k_file() {
    ext=j2k suffix=
    if [ "$(head -c 12 "$2" | od -An -tx1 | tr -d ' \n')" = 0000000c6a5020200d0a870a ]; then
        ext=jp2 suffix=_jp2
    fi
    name=components_$1$suffix
    if ! opj_decompress -i "$2" -o "$out/${name}_ref.pgx" > "$out/opj.log" 2>&1 || [ ! -f "$out/${name}_ref_0.pgx" ] ||
        ! facts=$(perl "$(dirname "$0")/tools/j2k_facts.pl" "$2" "$out/$name.cs.j2k" 2> /dev/null); then
        name=broken_$1 ext=j2k
    else
        read -r reversible bits subsampled htj2k <<EOF
$facts
EOF
        if [ "$bits" -gt 16 ] || [ "$htj2k" = 1 ]; then
            name=unsupported_$1$suffix
        else
            rm -f "$out/$name"_ref*.pgx
            if [ "$subsampled" = 1 ]; then
                for k in 0 1 2; do
                    opj_decompress -i "$out/$name.cs.j2k" -o "$out/${name}_refc$k.pgx" -c $k > "$out/opj.log" 2>&1
                    mv "$out/${name}_refc${k}_0.pgx" "$out/${name}_ref_$k.pgx"
                done
            else
                opj_decompress -i "$out/$name.cs.j2k" -o "$out/${name}_ref.pgx" > "$out/opj.log" 2>&1
            fi
            # 9/7 of more than 12 bits: OpenJPEG's 2/K is 13318/8192, 3.3e-5 short, which
            # leaves its deep samples a few units from an exact transform's (and FFmpeg's)
            if [ "$reversible" = 1 ]; then
                echo 0 > "$out/$name.tolerance"
            elif [ "$bits" -gt 12 ]; then
                echo 8 > "$out/$name.tolerance"
            else
                echo 2 > "$out/$name.tolerance"
            fi
        fi
    fi
    case $name in components_*) ;; *) rm -f "$out/components_$1$suffix"_ref*.pgx ;; esac
    rm -f "$out/components_$1$suffix.cs.j2k"
    cp "$2" "$out/$name.$ext"
    echo "$name" >> "$tests"
}

# JP2 files of GDAL (gdal-bin's gdal_translate, whose JP2OpenJPEG driver writes around
# OpenJPEG's codestreams the boxes of geospatial files: reader requirements, GeoJP2's
# uuid, GMLJP2's asoc, lbl and xml boxes, bpcc for a 1-bit alpha, cdef, a colour table's
# pclr and cmap), of its options: tiles and tile-parts, code-block styles, 1 to 16 bits,
# signed samples, five bands, YCbCr 4:2:0 (colr sYCC). Each against OpenJPEG as the
# files of others are (components_gdal_*); the palette's picture too (lossless_gdal_*).
if command -v gdal_translate > /dev/null 2>&1 && gdal_translate --formats 2> /dev/null | grep -q JP2OpenJPEG; then
    mkdir -p "$out/gdal"
    # gdal NAME SOURCE OPTIONS...: gdal/NAME.jp2 (NAME.j2k with CODEC=J2K) of $out/SOURCE
    gdal() {
        n=$1 src=$2
        shift 2
        case " $* " in *CODEC=J2K*) f=$out/gdal/$n.j2k ;; *) f=$out/gdal/$n.jp2 ;; esac
        GDAL_PAM_ENABLED=NO gdal_translate -q -of JP2OpenJPEG "$@" "$out/$src" "$f" > "$out/opj.log" 2>&1 || {
            echo "$0: gdal_translate $* failed: $(tail -n 1 "$out/opj.log")" >&2
            exit 1
        }
    }
    colour_table=$(perl -e 'print map { sprintf(q(<Entry c1="%d" c2="%d" c3="%d" c4="255"/>), $_, 255 - $_, $_ * 7 & 255) } 0 .. 255')
    printf '<VRTDataset rasterXSize="317" rasterYSize="203"><VRTRasterBand dataType="Byte" band="1">%s%s%s</VRTRasterBand></VRTDataset>\n' \
        '<ColorInterp>Palette</ColorInterp>' "<ColorTable>$colour_table</ColorTable>" \
        '<SimpleSource><SourceFilename relativeToVRT="1">gray.pgm</SourceFilename><SourceBand>1</SourceBand></SimpleSource>' \
        > "$out/palette.vrt"
    gdal plain photo.ppm
    gdal geo photo.ppm -a_srs EPSG:4326 -a_ullr 10 50 11 49 -co GeoJP2=YES -co GMLJP2=YES
    gdal meta photo.ppm -mo GJ_TEST=yes -co WRITE_METADATA=YES -co MAIN_MD_DOMAIN_ONLY=NO
    gdal tiles photo.ppm -co BLOCKXSIZE=64 -co BLOCKYSIZE=48 -co PROGRESSION=RPCL -co RESOLUTIONS=4 \
        -co TILEPARTS=RESOLUTIONS -co QUALITY=20,40
    gdal styles photo.ppm -co REVERSIBLE=YES -co CODEBLOCK_WIDTH=16 -co CODEBLOCK_HEIGHT=32 \
        -co CODEBLOCK_STYLE=BYPASS,RESET,TERMALL,VSC,PREDICTABLE,SEGSYM -co "PRECINCTS={64,64},{32,32}"
    gdal markers photo.ppm -co CODEC=J2K -co SOP=YES -co EPH=YES -co PLT=YES -co TLM=YES
    gdal nbits1 gray.pgm -scale 0 255 0 1 -co NBITS=1 -co REVERSIBLE=YES
    gdal nbits12 photo.ppm -ot UInt16 -scale 0 255 0 4095 -co NBITS=12 -co REVERSIBLE=YES
    gdal int16 gray.pgm -ot Int16 -scale 0 255 -2000 2000 -co REVERSIBLE=YES
    gdal alpha1 photo.ppm -b 1 -b 2 -b 3 -b 1 -co ALPHA=YES -co 1BIT_ALPHA=YES
    gdal five photo.ppm -b 1 -b 2 -b 3 -b 2 -b 1
    gdal ycc420 photo.ppm -co YCBCR420=YES
    gdal palette palette.vrt -co REVERSIBLE=YES
    for f in "$out"/gdal/*; do
        f_base=$(basename "$f")
        j2k_file "gdal_${f_base%.*}" "$f"
    done
    cp "$out/gdal/palette.jp2" "$out/lossless_gdal_palette_jp2.jp2"
    opj_decompress -i "$out/gdal/palette.jp2" -o "$out/lossless_gdal_palette_jp2_ref.ppm" > "$out/opj.log" 2>&1
    echo lossless_gdal_palette_jp2 >> "$tests"
    rm -rf "$out/gdal" "$out/palette.vrt"
else
    echo "$0: gdal_translate with its JP2OpenJPEG driver not found (apt-get install gdal-bin): no GDAL files" >&2
fi

# Codestreams of medical scanners and toolkits: the JPEG 2000 test files of pydicom
# (python3-pydicom: 16-bit signed samples, lossless and 9/7, 13 bits, a JP2 file where a
# codestream belongs, GDCM's), or of any directory of DICOM files named so (GJ_DICOM_DIR:
# pydicom-data's from PyPI add 10- to 15-bit scanner pictures), their first frame taken
# out (tests/tools/dicom_j2k.pl). One whose SIZ holds a DICOM sequence delimiter is broken.
dicom_dir=${GJ_DICOM_DIR:-/usr/lib/python3/dist-packages/pydicom/data/test_files}
found=0
for f in "$dicom_dir"/*J2K*.dcm "$dicom_dir"/*jp2k*.dcm "$dicom_dir"/*jpeg_2k*.dcm "$dicom_dir"/JPEG2000*.dcm; do
    [ -f "$f" ] || continue
    found=1
    base=$(basename "$f" .dcm)
    name=dicom_$base
    [ "$base" = JPEG2000-embedded-sequence-delimiter ] && name=dicom_delimiter
    perl "$(dirname "$0")/tools/dicom_j2k.pl" "$f" "$out/$name.stream"
    j2k_file "$name" "$out/$name.stream"
    rm -f "$out/$name.stream"
done
[ "$found" = 1 ] ||
    echo "$0: no DICOM files in $dicom_dir (apt-get install python3-pydicom): no DICOM streams" >&2
# Any directory of JPEG 2000 files (GJ_J2K_FILES), such as Pillow's test images (the
# Tests/images of its source from PyPI): files_NAME, NAME the file's, in words.
for f in ${GJ_J2K_FILES:+"$GJ_J2K_FILES"/*}; do
    case $f in *.j2k | *.j2c | *.jpc | *.jp2 | *.jpf | *.jpx) ;; *) continue ;; esac
    f_base=$(basename "$f")
    j2k_file "files_$(echo "${f_base%.*}" | tr -c 'A-Za-z0-9\n' _)" "$f"
done

# ------------------------------------------------------------------ four components (RGBA)
{ printf 'P7\nWIDTH 67\nHEIGHT 45\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n'
  perl -e 'print pack("C*", map { ($_ * 7 + ($_ >> 7) * 13) & 255 } 0 .. 67 * 45 * 4 - 1)'; } > "$out/rgba.pam"
stream lossless rgba rgba.pam -n 3
stream lossy rgba rgba.pam -n 3 -I -r 8

# ------------------------------------------------------------------ broken streams
# Cut at many offsets (inside the main header, a tile-part header, packet headers
# and bodies) and single damaged bytes.
src=$out/lossless_prog_LRCP.j2k
size=$(wc -c < "$src")
for cut in 2 10 40 90 120 150 200 300 500 1000 3000 $((size / 2)) $((size - 3)); do
    head -c "$cut" "$src" > "$out/broken_cut_$cut.j2k"
    echo "broken_cut_$cut" >> "$tests"
done
for at in 50 60 100 130 170 250 400 800 2000 $((size / 3)); do
    cp "$src" "$out/broken_flip_$at.j2k"
    printf '\377' | dd of="$out/broken_flip_$at.j2k" bs=1 seek="$at" conv=notrunc 2> /dev/null
    echo "broken_flip_$at" >> "$tests"
done
# A libFuzzer find (fuzz_j2k_host, UBSan): a tile whose progression walks no packet,
# whose empty list T2 sorted (qsort of a null array). Among the fuzzer's seeds in CI.
echo '/0//UQAvAAAAAABIAAAAMAAAAAUAAAADAAAAIAAAABgAAAAAAAAAAAADB/8HB14BAYEB/1IADwECAAIBAgQEAAEiMkT/XAAKQEBISFBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAk4AAH/k4DB8gUBJ2tp59wgC349hf3/YKCgJXQc/0//UQAvAAAAAABIAAAAMAAAAAUA/ODA/5BOJ4iAx9QWDDupfvS23VinAgACAQIEBAABIjMqpAH/ghzgr9EAFtX94YBkwApE/1wACkBA+RFISI8=' |
    base64 -d > "$out/broken_fuzz_no_packets.j2k"
echo broken_fuzz_no_packets >> "$tests"
# Another (made smaller, tests/unit/j2k_tile_limits.c): 300 tiles of 906,300 packets each,
# one with a tile-part, whose packet marks every tile had kept (10 GB for 10,924 tiles).
echo '/0//UQAsAAIAAAAMAAAOEAAAAAQAAAAAAAAADAAAAAwAAAAEAAAAAAACBwEBBwEB/1IADgcCOwEAAQQEAAEAEf9TAAsBAQEEBAABESL/XAAHQEBISFD/ZAAtAAFDcmVhdG9yOiBBVi1KMksgKGMpIDIwMDAsMjAwMSBBbGdvIFZpc2lvbv+QAAoAAAAAAbIAAf+T/5EABAAAz7QU/5IN5nIoCP+RAAQAAc+0BAT/kgT/kQAEABGA/5L/kQAEABLPwAT/kgT/kQAEABPH2gcPqAofaBD/GoD/kv+RAAQAG8faCgD/kgFmGqEN/5EABAAcz8AE/5IE/5EABAAdgP+S/9k=' |
    base64 -d > "$out/broken_fuzz_many_packets.j2k"
echo broken_fuzz_many_packets >> "$tests"
# Many inputs in one run of the tool, and T1 launched during T2 (tests/j2k_check.sh).
echo batch >> "$tests"
echo early >> "$tests"
rm -f "$out/opj.log"
mv "$tests" "$out/tests.txt"
