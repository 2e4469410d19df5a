#!/bin/sh
# Checks that the generated corpus means what its directories say, using
# libjpeg-turbo itself: every good/ file decodes cleanly with djpeg and with
# jpeg_raw_decode, and djpeg rejects every invalid/ file. A generator change
# that silently makes a "good" file corrupt (or an "invalid" one valid) stops here.
#
#   tests/verify_corpus.sh CORPUS_DIR      (GJ_TEST_TOOLS: the built test tools)
set -eu
corpus=$1
tools=${GJ_TEST_TOOLS:-tests/tools}
problems=0 checked=0

for f in "$corpus"/good/*.jpg; do
    checked=$((checked + 1))
    if ! err=$(djpeg -ppm -outfile /dev/null "$f" 2>&1) || [ -n "$err" ]; then
        echo "verify_corpus: good file $f: djpeg: ${err:-failed}" >&2
        problems=$((problems + 1))
    elif ! err=$("$tools/jpeg_raw_decode" "$f" /dev/null 2>&1) || [ -n "$err" ]; then
        echo "verify_corpus: good file $f: jpeg_raw_decode: ${err:-failed}" >&2
        problems=$((problems + 1))
    fi
done
for f in "$corpus"/invalid/*.jpg; do
    checked=$((checked + 1))
    rc=0
    djpeg -ppm -outfile /dev/null "$f" 2>/dev/null || rc=$?
    if [ $rc -ne 1 ]; then
        echo "verify_corpus: invalid file $f: djpeg exits $rc, not 1" >&2
        problems=$((problems + 1))
    fi
done
if [ $problems -ne 0 ]; then
    echo "verify_corpus: $problems of $checked files are not what their directory says" >&2
    exit 1
fi
echo "verify_corpus: $checked files checked against libjpeg-turbo"
