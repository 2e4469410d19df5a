#!/bin/sh
# Runs the make-check corpus on another backend where the corpus cannot be made
# (the GPU machine has no cjpeg/djpeg): `record` on a machine where make check
# passed writes the md5 of every decode (rgb24 and planar) on the device that was
# checked against libjpeg-turbo; `check` decodes the same files on another device
# and compares. Equal sums mean bit-identical output, i.e. the same libjpeg-turbo
# conformance on that backend.
#
#   sh tests/backend_compare.sh record SUMS opencl-cpu tests/corpus ./gpujpeg
#   sh tests/backend_compare.sh check  SUMS cuda       CORPUS      ./gpujpeg
#
# Ends with "N passed, N failed". doc/testing.md describes the GPU-machine run.
set -eu

if [ $# -ne 5 ] || { [ "$1" != record ] && [ "$1" != check ]; }; then
    echo "usage: $0 record|check SUMS DEVICE CORPUS_DIR GPUJPEG" >&2
    exit 2
fi
mode=$1 sums=$2 device=$3 corpus=$4 gpujpeg=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per (file, format): "relative/path.jpg format exit-status md5".
decode_all() {
    find "$corpus" -name '*.jpg' | LC_ALL=C sort | while read -r f; do
        rel=${f#"$corpus"/}
        for fmt in rgb24 planar; do
            ext=ppm
            [ "$fmt" = planar ] && ext=yuv
            rm -f "$tmp/out.$ext"
            if "$gpujpeg" decode -q --device "$device" --format "$fmt" "$f" "$tmp/out.$ext" 2>/dev/null; then
                echo "$rel $fmt 0 $(md5sum < "$tmp/out.$ext" | cut -c1-32)"
            else
                echo "$rel $fmt 1 -"
            fi
        done
    done
}

if [ "$mode" = record ]; then
    decode_all > "$sums"
    echo "recorded $(wc -l < "$sums") decodes on $device into $sums"
    exit 0
fi
decode_all > "$tmp/now"
pass=0 fail=0
while read -r rel fmt rc md5; do
    got=$(grep -F "$rel $fmt " "$tmp/now" || true)
    if [ "$got" = "$rel $fmt $rc $md5" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $rel $fmt: expected '$rc $md5', got '${got#"$rel $fmt "}'"
    fi
done < "$sums"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
