#!/bin/sh
# Makes the frames of bench/ffmpeg_mjpeg.sh's MJPEG clips from real photographs
# (Debian's plasma-workspace-wallpapers, as bench/make_photos.sh: EveningGlow,
# rowing boats at dusk, and FallenLeaf, 2560x1600 each), cropped to 16:9 and
# scaled with pamscale's Lanczos filter (4K is upscaled: no wallpaper photo is
# larger), encoded by FFmpeg's own mjpeg encoder at its best quality (-q:v 2),
# as MJPEG cameras and capture pipelines write them (no restart markers):
#
#   bench/make_clips.sh FFMPEG OUTDIR
#
#   photo-{1080p,4k}-{420,422}.jpg   EveningGlow (4K 4:2:2: 1.6 MB per frame)
#   photo-4k-422-leaf.jpg            FallenLeaf (4K 4:2:2: 0.7 MB per frame)
#
# Installs what it needs with apt-get when it is missing (Debian).
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 FFMPEG OUTDIR" >&2
    exit 2
fi
ffmpeg=$1 out=$2
walls=/usr/share/wallpapers
missing=
command -v djpeg >/dev/null 2>&1 || missing="$missing libjpeg-turbo-progs"
command -v pamscale >/dev/null 2>&1 || missing="$missing netpbm"
[ -f "$walls/EveningGlow/contents/images/2560x1600.jpg" ] || missing="$missing plasma-workspace-wallpapers"
if [ -n "$missing" ]; then
    echo "$0: installing$missing" >&2
    apt-get install -y $missing >&2
fi
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# frame PHOTO NAME WIDTH HEIGHT PIX_FMT: one -q:v 2 frame from the photo's 16:9 crop
frame() {
    djpeg -ppm "$walls/$1/contents/images/2560x1600.jpg" | pamcut -left 0 -top 80 -width 2560 -height 1440 |
        pamscale -filter=lanczos -width "$3" -height "$4" | pamtopnm > "$tmp/frame.ppm"
    # the frame as raw RGB: the PPM without its header ("P6\nW H\n255\n")
    tail -c $(($3 * $4 * 3)) "$tmp/frame.ppm" > "$tmp/frame.rgb"
    "$ffmpeg" -nostdin -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 -s "$3x$4" -i "$tmp/frame.rgb" \
        -vf "format=$5" -c:v mjpeg -q:v 2 -frames:v 1 "$out/photo-$2.jpg"
}

frame EveningGlow 1080p-420 1920 1080 yuvj420p
frame EveningGlow 1080p-422 1920 1080 yuvj422p
frame EveningGlow 4k-420 3840 2160 yuvj420p
frame EveningGlow 4k-422 3840 2160 yuvj422p
frame FallenLeaf 4k-422-leaf 3840 2160 yuvj422p
ls -l "$out"/photo-*.jpg
