#!/bin/sh
# Makes the JPEG benchmark inputs from a real photograph (Debian's
# plasma-workspace-wallpapers: EveningGlow, 2560x1600, rowing boats at dusk).
#
#   bench/make_photos.sh OUTDIR
#
# The photo is cropped to 16:9 (2560x1440, centred) and scaled with pamscale's
# Lanczos filter to exactly 1920x1080 (hd), 3840x2160 (4k) and 7680x4320 (8k);
# no wallpaper photo is larger, so 4k and 8k are upscaled. cjpeg (libjpeg-turbo,
# islow DCT, standard Huffman tables) encodes:
#   hd, 4k: q75 and q90 x 4:2:0, 4:2:2, 4:4:4 x without restart markers and with
#           a restart marker every MCU row (cjpeg -restart 1)
#   8k:     q75 and q90, 4:2:0 only, with and without restart markers
# named SIZE-qQ-SAMPLING[-rst].jpg, about 40 MB in all (the 8k 4:2:2/4:4:4
# files would double it; it must travel to the GPU machine). MANIFEST.txt lists
# the files with their bits per pixel. Installs what it needs with apt-get
# when it is missing (Debian).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
out=$1
photo=${GJ_BENCH_PHOTO:-/usr/share/wallpapers/EveningGlow/contents/images/2560x1600.jpg}

missing=
command -v cjpeg >/dev/null 2>&1 || missing="$missing libjpeg-turbo-progs"
command -v pamscale >/dev/null 2>&1 || missing="$missing netpbm"
[ -f "$photo" ] || [ -n "${GJ_BENCH_PHOTO:-}" ] || missing="$missing plasma-workspace-wallpapers"
if [ -n "$missing" ]; then
    echo "$0: installing$missing" >&2
    apt-get install -y $missing >&2
fi
if [ ! -f "$photo" ]; then
    echo "$0: $photo not found (set GJ_BENCH_PHOTO to another 2560x1600 JPEG photo)" >&2
    exit 1
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

djpeg -ppm "$photo" | pamcut -left 0 -top 80 -width 2560 -height 1440 > "$tmp/crop.ppm"

# encode NAME PPM QUALITY SAMPLING: the file without and with restart markers
encode() {
    case $4 in
        420) sample=2x2 ;;
        422) sample=2x1 ;;
        444) sample=1x1 ;;
    esac
    cjpeg -quality "$3" -sample "$sample" -outfile "$out/$1.jpg" "$2"
    cjpeg -quality "$3" -sample "$sample" -restart 1 -outfile "$out/$1-rst.jpg" "$2"
}

for size in hd:1920x1080 4k:3840x2160 8k:7680x4320; do
    name=${size%%:*}
    dims=${size#*:}
    pamscale -filter=lanczos -width "${dims%x*}" -height "${dims#*x}" "$tmp/crop.ppm" > "$tmp/$name.ppm"
    for q in 75 90; do
        if [ "$name" = 8k ]; then
            encode "$name-q$q-420" "$tmp/$name.ppm" "$q" 420
        else
            for s in 420 422 444; do
                encode "$name-q$q-$s" "$tmp/$name.ppm" "$q" "$s"
            done
        fi
    done
    rm -f "$tmp/$name.ppm"
done

{
    echo "# bench/make_photos.sh from $(basename "$photo") ($(cjpeg -version 2>&1 | head -n 1))"
    echo "# file bytes bits/pixel"
    for f in "$out"/*.jpg; do
        bytes=$(wc -c < "$f")
        case $(basename "$f") in
            hd-*) px=2073600 ;;
            4k-*) px=8294400 ;;
            8k-*) px=33177600 ;;
        esac
        echo "$(basename "$f") $bytes $(awk "BEGIN { printf \"%.2f\", $bytes * 8 / $px }")"
    done
} > "$out/MANIFEST.txt"
echo "$0: $(ls "$out"/*.jpg | wc -l) files, $(du -sh "$out" | cut -f1) in $out"
