#!/bin/sh
# The encoding corpus on a machine without cjpeg (the lent GPU machines): record
# the md5 of every cjpeg_* and ycc_* test's file where `make check` passed (there
# each file equals libjpeg-turbo's), check them on another device here or there.
#
#   tests/encode_compare.sh record SUMS DEVICE CORPUS GPUJPEG
#   tests/encode_compare.sh check SUMS DEVICE CORPUS GPUJPEG
#
# CORPUS: tests/encode-corpus (tests/gen_encode_corpus.sh). check prints a FAIL
# line per difference and ends with "N passed, N failed".
set -eu

mode=${1:?usage: encode_compare.sh record|check SUMS DEVICE CORPUS GPUJPEG}
sums=$2 device=$3 enc_corpus=$4 gpujpeg=$5
. "$(dirname "$0")/encode_cases.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-enc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passed=0 failed=0
[ "$mode" = record ] && : > "$sums"
for name in $(grep -E '^(cjpeg|ycc)_' "$enc_corpus/tests.txt"); do
    case $name in
        cjpeg_*) parse_case "${name#cjpeg_}" ;;
        *) parse_ycc_case "${name#ycc_}" ;;
    esac
    sum=failed
    if "$gpujpeg" encode --quiet --device "$device" $(encode_options) "$in" "$tmp/out.jpg"; then
        sum=$(md5sum < "$tmp/out.jpg" | cut -d ' ' -f 1)
    fi
    if [ "$mode" = record ]; then
        echo "$name $sum" >> "$sums"
    elif grep -q "^$name $sum\$" "$sums"; then
        passed=$((passed + 1))
    else
        echo "FAIL $name: $sum, expected $(grep "^$name " "$sums" | cut -d ' ' -f 2)"
        failed=$((failed + 1))
    fi
done
[ "$mode" = record ] && exit 0
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
