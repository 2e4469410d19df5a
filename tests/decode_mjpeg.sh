#!/bin/sh
# The README's first command ends here: makes a 4K MJPEG clip (3840x2160, 4:2:0,
# no restart markers) of Debian's wallpaper photographs with FFmpeg's mjpeg
# encoder, then decodes it with `ffmpeg -hwaccel` through libgpujpeg's hwaccel
# on the best device (CUDA when a GPU is there, else OpenCL: PoCL on the CPU)
# and prints frames/s. Run it from the top of the build tree after `make ffmpeg`.
set -eu

ffmpeg=${FFMPEG:-ffmpeg/build/ffmpeg}
clip=${1:-tests/photos-4k.avi}
frames=${FRAMES:-60}
[ -x "$ffmpeg" ] || { echo "$0: $ffmpeg not found (make ffmpeg)" >&2; exit 1; }

if [ ! -f "$clip" ]; then
    photos=$(find /usr/share/wallpapers -path '*/images/5120x2880.jpg' | sort | head -n 4)
    [ -n "$photos" ] || { echo "$0: no 5120x2880 wallpapers found (apt-get install plasma-workspace-wallpapers)" >&2; exit 1; }
    # One 4K JPEG per photo by FFmpeg's encoder, repeated to $frames frames.
    tmp=$clip.tmp
    rm -rf "$tmp" && mkdir -p "$tmp"
    i=0
    for p in $photos; do
        "$ffmpeg" -nostdin -hide_banner -loglevel error -i "$p" -vf scale=3840:2160,format=yuvj420p \
            -c:v mjpeg -q:v 2 -frames:v 1 "$tmp/photo$i.jpg"
        i=$((i + 1))
    done
    n=0
    while [ $n -lt "$frames" ]; do
        cp "$tmp/photo$((n % i)).jpg" "$tmp/$(printf %04d $n).jpg"
        n=$((n + 1))
    done
    "$ffmpeg" -nostdin -hide_banner -loglevel error -y -framerate 25 -i "$tmp/%04d.jpg" -c:v copy "$clip.tmp.avi"
    rm -rf "$tmp"
    mv "$clip.tmp.avi" "$clip"
fi

if nvidia-smi -L > /dev/null 2>&1; then hw=cuda; else hw=opencl; fi
log=$(mktemp "${TMPDIR:-/tmp}/gj-mjpeg.XXXXXX")
"$ffmpeg" -nostdin -hide_banner -loglevel verbose -benchmark -hwaccel "$hw" -hwaccel_output_format "$hw" \
    -i "$clip" -f null - > "$log" 2>&1 || { tail -n 5 "$log" >&2; rm -f "$log"; exit 1; }
device=$(sed -n 's/.*gpujpeg hwaccel: .* on \(.*\)/\1/p' "$log" | head -n 1)
n=$(sed -n 's/.*Input stream #0:0 (video): .* \([0-9]*\) frames decoded.*/\1/p' "$log" | tail -n 1)
rtime=$(sed -n 's/.*bench: .*rtime=\([0-9.]*\)s.*/\1/p' "$log" | tail -n 1)
rm -f "$log"
[ -n "$device" ] || { echo "$0: the gpujpeg hwaccel was not used" >&2; exit 1; }
echo "ffmpeg -hwaccel $hw -hwaccel_output_format $hw -i $clip -f null -"
awk -v n="$n" -v t="$rtime" -v d="$device" \
    'BEGIN { printf "decoded %d frames of 3840x2160 MJPEG in %.2f s: %.1f fps on %s\n", n, t, n / t, d }'
