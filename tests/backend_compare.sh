#!/bin/sh
# Runs the make-check corpus on another backend where the corpus cannot be made
# (the GPU machine has no cjpeg/djpeg): `record` on a machine where make check
# passed writes the md5 of every decode (rgb24 and planar) on the device that was
# checked against libjpeg-turbo; `check` decodes the same files on another device
# and compares. Equal sums mean bit-identical output, i.e. the same libjpeg-turbo
# conformance on that backend. Given the DXT corpus (tests/dxt-corpus), it
# encodes every input in every format and quality and decodes the random
# blocks instead: the design requires bit-identical blocks on every backend.
#
#   sh tests/backend_compare.sh record SUMS opencl-cpu tests/corpus ./gpujpeg
#   sh tests/backend_compare.sh check  SUMS cuda       CORPUS      ./gpujpeg
#   sh tests/backend_compare.sh record SUMS opencl-cpu tests/dxt-corpus ./gpujpeg
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
        run_to "$f" rgb24 "$tmp/out.ppm" decode --format rgb24
        run_to "$f" planar "$tmp/out.yuv" decode --format planar
    done
}

# One line per (input, format-quality) and per decoded random-block file.
dxt_all() {
    for f in "$corpus"/photo0.ppm "$corpus"/photo1.ppm "$corpus"/synth_*.pam "$corpus"/j*.jpg; do
        [ -f "$f" ] || continue
        for fmt in bc1 bc3 ycocg bc4; do
            for q in fast balanced high; do
                run_to "$f" "$fmt-$q" "$tmp/out.dds" dxt --format "$fmt" --quality "$q"
            done
        done
    done
    for f in "$corpus"/random_*.dds; do
        run_to "$f" undxt "$tmp/out.pam" undxt
    done
}

# run_to IN LABEL OUT COMMAND [OPTIONS]: one "name label exit-status md5" line.
run_to() {
    in=$1 label=$2 out=$3 cmd=$4
    shift 4
    rm -f "$out"
    if "$gpujpeg" "$cmd" -q --device "$device" "$@" "$in" "$out" 2>/dev/null; then
        echo "${in#"$corpus"/} $label 0 $(md5sum < "$out" | cut -c1-32)"
    else
        echo "${in#"$corpus"/} $label 1 -"
    fi
}

outputs_all() {
    if [ -f "$corpus/random_bc1.dds" ]; then
        dxt_all
    else
        decode_all
    fi
}

if [ "$mode" = record ]; then
    outputs_all > "$sums"
    echo "recorded $(wc -l < "$sums") outputs on $device into $sums"
    exit 0
fi
outputs_all > "$tmp/now"
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
