#!/bin/sh
# Checks that the references of the conformance FATE tests of tests/fate/gpujpeg_j2k.mak
# (with SAMPLES) are true: jpeg2000_gpujpeg's frames hold the picture `gpujpeg decode`
# makes of the codestream, in the same pixel format, which libgpujpeg's j2kconf tests
# hold to the suite's class-1 tolerances (tests/j2k_conformance.sh).
# Prints a PASS/FAIL ffmpeg/PATH-CLIP line like fate_truth.sh.
#
#   fate_truth_j2k_conf.sh FFMPEG CODESTREAM GPUJPEG GPU_DEVICE
set -u
ffmpeg=$1 clip=$2 gpujpeg=$3 device=$4
name=j2kconf-$(basename "$clip" .j2k)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-truth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ff() { timeout 300 "$ffmpeg" -nostdin -hide_banner -loglevel error -y "$@"; }

# at the info level, ffmpeg's description of the input names the decoder's pixel format
timeout 300 "$ffmpeg" -nostdin -hide_banner -c:v jpeg2000_gpujpeg -gpu_device "$device" -i "$clip" 2> "$tmp/probe.log"
fmt=$(sed -n 's/.*Video: jpeg2000[^,]*, \([a-z0-9]*\).*/\1/p' "$tmp/probe.log" | head -n 1)
case $fmt in
    gray | gray16le) ext=pgm ;;
    rgb24 | rgb48le) ext=ppm ;;
    *) echo "FAIL ffmpeg/dec-$name: a pixel format the check does not know: '$fmt'"; exit 0 ;;
esac
if ! timeout 300 "$gpujpeg" decode -q --device "$device" "$clip" "$tmp/tool.$ext" 2> "$tmp/tool.log"; then
    echo "FAIL ffmpeg/dec-$name: gpujpeg decode failed: $(tail -n 1 "$tmp/tool.log")"
elif ! perl -e 'local $/; my $d = <STDIN>;
                # the samples after the header, 16-bit ones (MAXVAL 65535) swapped to little-endian
                $d =~ s/\A(P[56])\s+\d+\s+\d+\s+(\d+)\s// or die "not a binary PGM or PPM\n";
                print $2 > 255 ? pack("v*", unpack("n*", $d)) : $d' < "$tmp/tool.$ext" > "$tmp/tool.raw" 2> "$tmp/pnm.log"; then
    echo "FAIL ffmpeg/dec-$name: gpujpeg's $ext: $(tail -n 1 "$tmp/pnm.log")"
elif ! ff -c:v jpeg2000_gpujpeg -gpu_device "$device" -i "$clip" -f rawvideo -pix_fmt "$fmt" "$tmp/dec.raw" \
        2> "$tmp/dec.log"; then
    echo "FAIL ffmpeg/dec-$name: ffmpeg failed: $(tail -n 1 "$tmp/dec.log")"
elif cmp -s "$tmp/dec.raw" "$tmp/tool.raw"; then
    echo "PASS ffmpeg/dec-$name ($(wc -c < "$tmp/dec.raw" | tr -d ' ') bytes of $fmt equal gpujpeg decode's)"
else
    echo "FAIL ffmpeg/dec-$name: differs from gpujpeg decode's: $(cmp "$tmp/dec.raw" "$tmp/tool.raw" 2>&1 | head -n 1)"
fi
