#!/bin/sh
# The README's first command ends here: makes a few 4K JPEGs (3840x2160, 4:2:0,
# quality 90, no restart markers) from Debian's wallpapers and decodes them on
# the best device, printing images/s. Run it from the top of the build tree.
set -eu

photos=${1:-tests/photos}
if [ ! -d "$photos" ]; then
    mkdir -p "$photos.tmp"
    i=0
    for f in $(find /usr/share/wallpapers -path '*/images/5120x2880.jpg' | sort | head -n 4); do
        djpeg -scale 3/4 -ppm -outfile "$photos.tmp/4k.ppm" "$f"
        cjpeg -quality 90 -sample 2x2 -outfile "$photos.tmp/photo$i-3840x2160.jpg" "$photos.tmp/4k.ppm"
        i=$((i + 1))
    done
    rm -f "$photos.tmp/4k.ppm"
    if [ $i -eq 0 ]; then
        echo "$0: no 5120x2880 wallpapers found (apt-get install plasma-workspace-wallpapers)" >&2
        exit 1
    fi
    mv "$photos.tmp" "$photos"
fi
./gpujpeg info
./gpujpeg decode --null --repeat 20 "$photos"/*.jpg
