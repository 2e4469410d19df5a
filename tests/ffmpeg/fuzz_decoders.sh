#!/bin/sh
# Fuzzes the FFmpeg decoders jpeg2000_gpujpeg and mjpeg_gpujpeg through FFmpeg's own
# harness (tools/target_dec_fuzzer.c, libFuzzer): the wrappers' batching, flushing,
# size changes, lowres and frame pools, and the library under them on OpenCL (PoCL),
# with AddressSanitizer and UndefinedBehaviorSanitizer in every host file. Not part
# of `make check` (two sanitizer builds take a quarter of an hour on two cores).
#
#   tests/ffmpeg/fuzz_decoders.sh OUT SECONDS J2K_CORPUS JPEG_CORPUS
#
# OUT: a work directory (OUT/lib: libgpujpeg built with clang and the sanitizers,
# OUT/lib/ffmpeg: FFmpeg by ffmpeg-patches/build-ffmpeg.sh with the same, the
# fuzzers in its build/tools/). Each fuzzer runs SECONDS with the decoder's defaults
# (a picture at a time: FFmpeg's API default) and SECONDS with other options, through
# GJ_FUZZ_OPTIONS, which the harness here learns to read: jpeg2000_gpujpeg in batches
# of 3, mjpeg_gpujpeg into FFmpeg's own frame buffers (pinned=0); from seeds made
# of the corpora's small files: each alone, and runs of them as the harness's
# packets (fuzz_seeds.py). FFMPEG_SOURCE and FFNVCODEC_PREFIX go to build-ffmpeg.sh.
# Prints one PASS/FAIL line per run; a finding's input is left in OUT/findings.
set -eu
out=$1 seconds=$2 j2k=$3 jpeg=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
sanitize=-fsanitize=address,undefined
mkdir -p "$out/lib" "$out/findings"
out=$(cd "$out" && pwd)

if [ ! -f "$out/lib/.libs/libgpujpeg.so" ]; then
    (cd "$out/lib" && CC=clang CFLAGS="-O1 -g -fno-omit-frame-pointer $sanitize -fsanitize=fuzzer-no-link" \
        LDFLAGS="$sanitize" "$src/configure" --disable-cuda > configure.log 2>&1 &&
        make -j"$(nproc)" > make.log 2>&1) || { echo "FAIL fuzz-ffmpeg/build: libgpujpeg (see $out/lib)"; exit 1; }
fi
# FFmpeg's configure takes CFLAGS from the environment: with a sanitizer there,
# --enable-ossfuzz adds no coverage flags of its own (trace-pc-guard, which
# libFuzzer no longer reads). The iterate API goes with ossfuzz, so build-ffmpeg.sh's
# check of `ffmpeg -decoders` fails by design: the libraries are there.
(cd "$out/lib" && CFLAGS="$sanitize -fsanitize=fuzzer-no-link" \
    FFMPEG_CONFIGURE_EXTRA="--cc=clang --cxx=clang++ --enable-ossfuzz --libfuzzer=-fsanitize=fuzzer --extra-ldflags=$sanitize" \
    GJ_SRCDIR="$src" GJ_BUILDDIR="$out/lib" sh "$src/ffmpeg-patches/build-ffmpeg.sh" > "$out/ffmpeg.log" 2>&1) || true
ff=$out/lib/ffmpeg
[ -f "$ff/build/libavcodec/libavcodec.a" ] || { echo "FAIL fuzz-ffmpeg/build: FFmpeg (see $out/ffmpeg.log)"; exit 1; }
harness=$ff/src/tools/target_dec_fuzzer.c
grep -q GJ_FUZZ_OPTIONS "$harness" ||
    sed -i 's|^\( *\)int res = avcodec_open2(ctx, &c->p, &opts);|\1if (getenv("GJ_FUZZ_OPTIONS"))\n\1    av_dict_parse_string(\&opts, getenv("GJ_FUZZ_OPTIONS"), "=", ":", 0);\n&|' "$harness"
grep -q GJ_FUZZ_OPTIONS "$harness" || { echo "FAIL fuzz-ffmpeg/build: FFmpeg's harness changed"; exit 1; }
mkdir -p "$ff/build/tools"
make -C "$ff/build" tools/target_dec_jpeg2000_gpujpeg_fuzzer tools/target_dec_mjpeg_gpujpeg_fuzzer \
    > "$out/fuzzers.log" 2>&1 || { echo "FAIL fuzz-ffmpeg/build: the fuzzers (see $out/fuzzers.log)"; exit 1; }

# NAME DECODER OPTIONS
run() {
    name=$1 seeds=$out/seeds-$2 corpus=$out/corpus-$2
    mkdir -p "$corpus"
    log=$out/$name.log
    # PoCL's own allocations outlive the process's end: no leak report
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    GJ_FUZZ_OPTIONS=$3 timeout $((seconds + 300)) "$ff/build/tools/target_dec_$2_fuzzer" -max_total_time="$seconds" \
        -timeout=60 -rss_limit_mb=6000 -artifact_prefix="$out/findings/$name-" "$corpus" "$seeds" > "$log" 2>&1 &&
        echo "PASS fuzz-ffmpeg/$name ($(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log") runs)" ||
        echo "FAIL fuzz-ffmpeg/$name: $(grep -m 1 -E 'ERROR|runtime error|SUMMARY' "$log") (see $log)"
}
python3 "$src/tests/ffmpeg/fuzz_seeds.py" "$j2k" "$out/seeds-jpeg2000_gpujpeg" j2k,jp2 30000
python3 "$src/tests/ffmpeg/fuzz_seeds.py" "$jpeg" "$out/seeds-mjpeg_gpujpeg" jpg,jpeg 60000
run jpeg2000_gpujpeg jpeg2000_gpujpeg ""
run jpeg2000_gpujpeg-batch3 jpeg2000_gpujpeg batch=3
run mjpeg_gpujpeg mjpeg_gpujpeg ""
run mjpeg_gpujpeg-pinned0 mjpeg_gpujpeg pinned=0

