#!/bin/sh
# Runs one conformance test and prints exactly one line:
#   PASS KIND/NAME [(note)]  |  FAIL KIND/NAME: reason  |  SKIP KIND/NAME: reason
#
#   tests/check_one.sh KIND FILE
#
# KIND (what the corpus directory promises, see tests/gen_corpus.sh):
#   rgb          --format rgb24 .ppm equals `djpeg -ppm` (gray JPEGs: `djpeg -rgb -ppm`)
#   gray         --format gray .pgm equals `djpeg -pnm` (colour JPEGs: `djpeg -grayscale -pnm`)
#   planar       --format planar .yuv equals jpeg_raw_decode (libjpeg-turbo raw data);
#                where no planar format fits the sampling, failing with a message is right
#   rgba, bgra   .pam output equals `djpeg -ppm` plus alpha 255 (the tool writes
#                BGRA pictures in PAM's RGBA order)
#   png          rgb24 written as .png equals `djpeg -ppm`
#   y4m          planar written as .y4m carries the same planes as jpeg_raw_decode
#   sync-plain, sync-hyp
#                planar with no synchronisation round after the first pass
#                (GJ_SYNC_ROUNDS=0), plain or slot-hypothesis guesses: the walk of
#                gj_huff_sync_finish does all the rest; same planes as planar
#   direct       planar with every restart interval decoded by one thread
#                (GJ_DIRECT=1, what restart-rich files get); same planes as planar
#   unsupported  fails with a message saying "unsupported"
#   invalid      fails with a message
#   bad          fails with a message or decodes; never crashes or hangs
#   damaged      does what djpeg does: fails (with a message) where djpeg fails, else
#                decodes the same picture
#   corrupt      never crashes or hangs; a difference from djpeg is only noted
#   fuzz         FILE is a libFuzzer binary; runs it for GJ_FUZZ_SECONDS
#   unit         FILE is a unit test program: exit 0 passes, 77 skips
#   batch        FILE is a directory: all its JPEGs decoded by one process
#                (`-o DIR`: one decoder reused across sizes and samplings), each
#                output equal to djpeg's
#   cli          FILE names a case of the tool's own behaviour (see below)
#   fate         FILE is a FATE test name of FFmpeg's build tree (GJ_FFMPEG_BUILD)
#   ffmpeg       FILE is a FATE input clip: mjpeg_gpujpeg and the hwaccel output
#                equal tests/tools/jpeg_raw_decode's, frame by frame
#   ffmpeg-enc   FILE holds the encoder FATE clips (tests/ffmpeg/fate_enc_truth.sh)
#   ffmpeg-j2kconf  FILE is a conformance codestream of the FATE tests that take SAMPLES:
#                jpeg2000_gpujpeg's frames equal gpujpeg decode's (tests/ffmpeg/fate_truth_j2k_conf.sh)
#   ffmpeg-hap   FILE holds the HAP FATE clips: hap_gpujpeg's files, decoded by
#                FFmpeg's hap decoder, equal gpujpeg dxt's blocks (fate_truth_hap.sh)
#   ffmpeg-dxtf  FILE holds the same clips: the dxt_gpujpeg filter's frames hold
#                gpujpeg dxt's blocks (fate_truth_dxt_filter.sh)
#   dxt          FILE names a DXT test (tests/dxt_check.sh)
#   j2k          FILE names a JPEG 2000 test (tests/j2k_check.sh)
#   j2kconf      FILE is a JPEG 2000 conformance codestream (tests/j2k_conformance.sh)
#   encode       FILE names a JPEG encoding test (tests/encode_check.sh)
#   dist         FILE is the source tree, a git checkout: the distribution that `make dist`
#                packs (`make distdir` of the build tree in the current directory) holds
#                every file git tracks, but for git's and the CI's own
#
# Environment (set by tests/run_tests.sh): GJ_GPUJPEG, GJ_TEST_DEVICE, GJ_TEST_TOOLS,
# GJ_TEST_TIMEOUT, GJ_TEST_FAILED_DIR (where a failing test leaves its files),
# GJ_NULL_OUTPUT (set when the tool takes --null: no output file for bad/ files).
set -eu

kind=$1 file=$2
name=$kind/$(basename "$file" .jpg)
gpujpeg=${GJ_GPUJPEG:-./gpujpeg}
device=${GJ_TEST_DEVICE:-opencl-cpu}
tools=${GJ_TEST_TOOLS:-tests/tools}
limit=${GJ_TEST_TIMEOUT:-60}
failed_dir=${GJ_TEST_FAILED_DIR:-tests/failed}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gj-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS $name${1:+ ($1)}"; exit 0; }
skip() { echo "SKIP $name: $1"; exit 0; }
# A failing test keeps its input, outputs and messages for whoever looks into it.
fail() {
    keep=$failed_dir/$kind-$(basename "$file" .jpg)
    rm -rf "$keep"
    mkdir -p "$keep"
    cp "$tmp"/* "$keep"/ 2>/dev/null || true
    cp "$file" "$keep"/input.jpg 2>/dev/null || true
    echo "FAIL $name: $1 [files: $keep]"
    exit 0
}

# truth_verdict PREFIX SUFFIX: the verdict of a truth script's PASS/FAIL lines in
# $tmp/truth.log (tests/ffmpeg/): its failures, or the paths that passed (less
# PREFIX) followed by SUFFIX.
truth_verdict() {
    grep -q '^FAIL' "$tmp/truth.log" && fail "$(grep '^FAIL' "$tmp/truth.log" | cut -d ' ' -f 2- | tr '\n' ' ' | cut -c 1-200)"
    grep -q '^PASS' "$tmp/truth.log" || fail "no result: $(tail -n 1 "$tmp/truth.log")"
    pass "$(grep '^PASS' "$tmp/truth.log" | cut -d ' ' -f 2 | sed "s|$1||" | tr '\n' ' ')$2"
}

# run_gpujpeg ARGS...: sets rc and msg (the tool's last line on stderr).
run_gpujpeg() {
    rc=0
    timeout -k 5 "$limit" "$gpujpeg" "$@" 2> "$tmp/stderr.txt" > "$tmp/stdout.txt" || rc=$?
    msg=$(grep . "$tmp/stderr.txt" | tail -n 1 | cut -c 1-200 || true)
}

# decode FORMAT OUT: one decode of the input on the test device.
decode() { run_gpujpeg decode --device "$device" --format "$1" "$file" "$2"; }

# A crash or hang is a failure whatever the input was.
check_alive() {
    case $rc in
        124 | 137) fail "timed out after ${limit}s" ;;
    esac
    case $rc in
        126 | 127) fail "could not run $gpujpeg (exit status $rc)" ;;
    esac
    if [ "$rc" -gt 128 ]; then
        fail "crashed: signal $((rc - 128))${msg:+: $msg}"
    fi
}

# A refusal must say why (issue 2, part 7: a one-line reason).
check_refusal() {
    check_alive
    [ "$rc" -ne 0 ] || fail "decoded (exit 0) a file it must refuse"
    [ -n "$msg" ] || fail "exit status $rc without a message"
}

check_decoded() {
    check_alive
    [ "$rc" -eq 0 ] || fail "exit status $rc: ${msg:-no message}"
}

# same OURS REFERENCE [image_compare options]: fails with where they differ.
same() {
    ours=$1 ref=$2
    shift 2
    if ! diff=$("$tools/image_compare" "$@" "$ours" "$ref" 2>&1); then
        fail "differs from the reference: $diff"
    fi
}

jpeg_raw_decode_info() { "$tools/jpeg_raw_decode" --info "$1" 2>/dev/null || echo unknown; }
info() { jpeg_raw_decode_info "$file"; }

# djpeg_ref OUT [djpeg options]: sets ref_rc (0 decoded, 2 decoded with warnings, 1 refused).
djpeg_ref() {
    out=$1
    shift
    ref_rc=0
    djpeg "$@" -outfile "$out" "$file" 2> "$tmp/djpeg-stderr.txt" || ref_rc=$?
}

# djpeg_rgb_ref OUT: the reference for rgb24 output (gray JPEGs: R = G = B = Y).
djpeg_rgb_ref() {
    set -- "$1" $(info)
    if [ "$2" = gray ]; then djpeg_ref "$1" -rgb -ppm; else djpeg_ref "$1" -ppm; fi
}

case $kind in
rgb | rgba | bgra | png)
    format=rgb24 ext=ppm
    case $kind in
        rgba | bgra) format=$kind ext=pam ;;
        png) ext=png ;;
    esac
    djpeg_rgb_ref "$tmp/ref.ppm"
    decode $format "$tmp/ours.$ext"
    check_decoded
    same "$tmp/ours.$ext" "$tmp/ref.ppm"
    pass
    ;;
gray)
    set -- $(info)
    if [ "$1" = gray ]; then djpeg_ref "$tmp/ref.pgm" -pnm; else djpeg_ref "$tmp/ref.pgm" -grayscale -pnm; fi
    decode gray "$tmp/ours.pgm"
    check_decoded
    same "$tmp/ours.pgm" "$tmp/ref.pgm"
    pass
    ;;
sync-plain | sync-hyp | direct)
    set -- $(info)
    "$tools/jpeg_raw_decode" "$file" "$tmp/ref.yuv"
    if [ "$kind" = direct ]; then
        GJ_DIRECT=1 decode planar "$tmp/ours.yuv"
    else
        GJ_SYNC_ROUNDS=0 GJ_SYNC=${kind#sync-} decode planar "$tmp/ours.yuv"
    fi
    check_decoded
    same "$tmp/ours.yuv" "$tmp/ref.yuv" --planes "$2"
    pass "$1"
    ;;
planar | y4m)
    set -- $(info)
    format=$1 planes=$2
    "$tools/jpeg_raw_decode" "$file" "$tmp/ref.yuv"
    ext=yuv
    [ "$kind" = y4m ] && ext=y4m
    decode planar "$tmp/ours.$ext"
    if [ "$format" = none ] && [ "$rc" -ne 0 ]; then
        check_refusal
        pass "no planar format for this sampling: refused"
    fi
    check_decoded
    if [ "$kind" = y4m ]; then
        # YUV4MPEG2 header line, "FRAME" line, then the planes: compare the planes.
        head -n 1 "$tmp/ours.y4m" | grep -q '^YUV4MPEG2 ' || fail "no YUV4MPEG2 header"
        bytes=$(wc -c < "$tmp/ref.yuv")
        header=$(head -n 2 "$tmp/ours.y4m" | wc -c)
        [ "$(wc -c < "$tmp/ours.y4m")" -eq $((header + bytes)) ] ||
            fail "size $(wc -c < "$tmp/ours.y4m") is not header $header + FRAME + planes $bytes"
        tail -c "$bytes" "$tmp/ours.y4m" > "$tmp/ours.yuv"
    fi
    same "$tmp/ours.yuv" "$tmp/ref.yuv" --planes "$planes"
    pass "$format"
    ;;
unsupported)
    decode rgb24 "$tmp/ours.ppm"
    check_refusal
    echo "$msg" | grep -qi unsupported || fail "the message does not say \"unsupported\": $msg"
    pass
    ;;
invalid)
    decode rgb24 "$tmp/ours.ppm"
    check_refusal
    pass
    ;;
bad)
    # Huge frames would make huge files: decode without output when the tool can.
    if [ -n "${GJ_NULL_OUTPUT:-}" ]; then
        run_gpujpeg decode --device "$device" --null "$file"
    else
        decode rgb24 "$tmp/ours.ppm"
    fi
    check_alive
    rm -f "$tmp/ours.ppm"
    [ "$rc" -eq 0 ] && pass "decoded"
    check_refusal
    pass "refused: $msg"
    ;;
damaged)
    djpeg_rgb_ref "$tmp/ref.ppm"
    decode rgb24 "$tmp/ours.ppm"
    if [ "$ref_rc" -eq 1 ]; then
        check_refusal
        pass "refused like djpeg: $msg"
    fi
    # A cut inside a marker segment after the first scan: djpeg's recovery from the
    # fake EOI it reads there is incidental, so a clean refusal is fine as well.
    case $name in
        *_in_*) if [ "$rc" -ne 0 ]; then check_refusal; pass "refused: $msg"; fi ;;
    esac
    check_decoded
    same "$tmp/ours.ppm" "$tmp/ref.ppm"
    pass "same as djpeg"
    ;;
corrupt)
    djpeg_rgb_ref "$tmp/ref.ppm"
    decode rgb24 "$tmp/ours.ppm"
    check_alive
    if [ "$rc" -ne 0 ]; then
        check_refusal
        pass "refused: $msg"
    fi
    [ "$ref_rc" -eq 1 ] && pass "decoded; djpeg refused"
    if diff=$("$tools/image_compare" "$tmp/ours.ppm" "$tmp/ref.ppm" 2>&1); then
        pass "same as djpeg"
    fi
    pass "differs from djpeg: $diff"
    ;;
batch)
    mkdir -p "$tmp/out"
    limit=$((limit * 5))   # one process for the whole directory
    run_gpujpeg decode --device "$device" --quiet -o "$tmp/out" --output-format ppm "$file"/*.jpg
    check_decoded
    for f in "$file"/*.jpg; do
        base=$(basename "$f" .jpg)
        case $(jpeg_raw_decode_info "$f") in
            gray*) djpeg -rgb -ppm -outfile "$tmp/ref.ppm" "$f" ;;
            *) djpeg -ppm -outfile "$tmp/ref.ppm" "$f" ;;
        esac
        if ! diff=$("$tools/image_compare" "$tmp/out/$base.ppm" "$tmp/ref.ppm" 2>&1); then
            fail "$base: $diff"
        fi
        rm -f "$tmp/out/$base.ppm"
    done
    pass "$(ls "$file"/*.jpg | wc -l) files in one run"
    ;;
cli)
    # The tool's contract (doc/cli.md): a refusal is one line and a non-zero exit.
    good=$(dirname "$file")/good
    case $(basename "$file") in
    missing_input)
        decode rgb24 "$tmp/ours.ppm" ;;
    unwritable_output)
        file=$good/size_16x16_420.jpg
        decode rgb24 "$tmp/no/such/dir/ours.ppm" ;;
    format_not_in_file)
        file=$good/size_16x16_420.jpg
        decode rgba "$tmp/ours.ppm" ;;
    info)
        run_gpujpeg info
        check_decoded
        grep -q "$device" "$tmp/stdout.txt" || fail "\`gpujpeg info\` does not list $device"
        pass ;;
    null_repeat)
        run_gpujpeg decode --device "$device" --null --repeat 3 "$good/size_16x16_420.jpg" \
            "$good/photo_444_q75.jpg" "$good/gray_q75.jpg"
        check_decoded
        grep -q '^decoded 9 images (0 failed)' "$tmp/stdout.txt" ||
            fail "summary is not \"decoded 9 images (0 failed) ...\": $(head -n 1 "$tmp/stdout.txt")"
        pass ;;
    some_inputs_fail)
        run_gpujpeg decode --device "$device" --null "$good/size_16x16_420.jpg" \
            "$(dirname "$file")/invalid/not_jpeg_text.jpg"
        check_refusal
        grep -q '^decoded 1 images\{0,1\} (1 failed)' "$tmp/stdout.txt" ||
            fail "summary does not count the failure: $(head -n 1 "$tmp/stdout.txt")"
        pass ;;
    *)
        echo "check_one.sh: unknown cli case $file" >&2
        exit 2 ;;
    esac
    check_refusal
    pass "$msg"
    ;;
unit)
    rc=0
    GJ_TEST_DEVICE=$device timeout -k 5 $((limit * 5)) "$file" > "$tmp/unit.log" 2>&1 || rc=$?
    msg=$(grep . "$tmp/unit.log" | tail -n 1 | cut -c 1-200 || true)
    [ "$rc" -eq 77 ] && skip "${msg:-skipped}"
    check_decoded
    pass
    ;;
dist)
    name=dist/files
    git -C "$file" rev-parse --git-dir > /dev/null 2>&1 || skip "$file is not a git checkout"
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout -k 5 "$limit" make --no-print-directory distdir \
        distdir="$tmp/dist" > "$tmp/distdir.log" 2>&1 || fail "make distdir: $(tail -n 1 "$tmp/distdir.log")"
    git -C "$file" ls-files | grep -v -e '^\.ci/' -e '\.gitignore$' > "$tmp/tracked.txt"
    missing=$(while read -r f; do [ -e "$tmp/dist/$f" ] || echo "$f"; done < "$tmp/tracked.txt")
    [ -z "$missing" ] || fail "make dist leaves out $(echo $missing | cut -c 1-200)"
    pass "$(wc -l < "$tmp/tracked.txt" | tr -d ' ') files tracked by git, all in the distribution"
    ;;
fate)
    # FILE is a FATE test of FFmpeg's build tree (tests/fate/gpujpeg.mak)
    hwaccel=opencl
    [ "$device" = cuda ] && hwaccel=cuda
    # A bare `make check` after a reference changed: FFmpeg's tree still has the old copy.
    ref=$(dirname "$0")/../ffmpeg-patches/tests/ref/fate/${file#fate-}
    [ ! -f "$ref" ] || cmp -s "$ref" "$GJ_FFMPEG_BUILD/../src/tests/ref/fate/${file#fate-}" ||
        fail "FFmpeg's tree has an older tests/ref/fate/${file#fate-} than ffmpeg-patches/: run make ffmpeg"
    rc=0
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout -k 5 $((limit * 5)) make --no-print-directory \
        -C "$GJ_FFMPEG_BUILD" "$file" GPUJPEG_HWACCEL=$hwaccel GPUJPEG_DEVICE="$device" \
        ${GJ_FATE_SAMPLES:+SAMPLES="$GJ_FATE_SAMPLES"} > "$tmp/fate.log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || fail "$(grep -v '^TEST' "$tmp/fate.log" | tail -n 4 | tr '\n' ' ' | cut -c 1-200)"
    pass "$hwaccel"
    ;;
ffmpeg)
    # FILE is a FATE input clip: our decoders' output equals libjpeg-turbo's
    [ "$file" = not-built ] && skip "FFmpeg is not built (make ffmpeg)"
    name=ffmpeg/$(basename "$file" .avi)
    hwaccel=opencl
    [ "$device" = cuda ] && hwaccel=cuda
    case $file in
        */gpujpeg-j2k/*)
            sh "$(dirname "$0")/ffmpeg/fate_truth_j2k.sh" "$GJ_FFMPEG_BUILD/ffmpeg" "$file" "$hwaccel" "$device" \
                > "$tmp/truth.log" 2>&1
            truth_verdict ffmpeg/ "equal the native jpeg2000 decoder"
            ;;
    esac
    sh "$(dirname "$0")/ffmpeg/fate_truth.sh" "$GJ_FFMPEG_BUILD/ffmpeg" "$file" "$hwaccel" "$device" \
        "$tools/jpeg_raw_decode" > "$tmp/truth.log" 2>&1
    truth_verdict ffmpeg/ "equal libjpeg-turbo$(grep -q 'native.*differs' "$tmp/truth.log" && echo '; the native mjpeg decoder does not')"
    ;;
ffmpeg-j2kconf)
    # FILE is a conformance codestream of the SAMPLES FATE tests: jpeg2000_gpujpeg's frames hold gpujpeg decode's
    name=ffmpeg/$(basename "$file" .j2k)
    sh "$(dirname "$0")/ffmpeg/fate_truth_j2k_conf.sh" "$GJ_FFMPEG_BUILD/ffmpeg" "$file" "$gpujpeg" "$device" \
        > "$tmp/truth.log" 2>&1
    truth_verdict ffmpeg/ "equal gpujpeg decode's, which j2kconf/ holds to the class-1 tolerances"
    ;;
ffmpeg-enc)
    # FILE holds the encoder FATE tests' raw clips: mjpeg_gpujpeg's packets equal libjpeg-turbo's
    sh "$(dirname "$0")/ffmpeg/fate_enc_truth.sh" "$GJ_FFMPEG_BUILD/ffmpeg" "$file" "$device" \
        "$tools/jpeg_ycc_encode" > "$tmp/truth.log" 2>&1
    truth_verdict ffmpeg-enc/ pass
    ;;
ffmpeg-hap)
    # FILE holds the HAP FATE tests' raw clips: FFmpeg's hap decoder reads gpujpeg dxt's blocks
    hwaccel=opencl
    [ "$device" = cuda ] && hwaccel=cuda
    sh "$(dirname "$0")/ffmpeg/fate_truth_hap.sh" "$GJ_FFMPEG_BUILD/ffmpeg" "$file" "$gpujpeg" "$device" "$hwaccel" \
        > "$tmp/truth.log" 2>&1
    truth_verdict ffmpeg-hap/ "equal gpujpeg dxt's blocks"
    ;;
ffmpeg-dxtf)
    # FILE holds the HAP FATE tests' raw clips: the DXT filter's frames hold gpujpeg dxt's blocks
    hwaccel=opencl
    [ "$device" = cuda ] && hwaccel=cuda
    sh "$(dirname "$0")/ffmpeg/fate_truth_dxt_filter.sh" "$GJ_FFMPEG_BUILD/ffmpeg" "$file" "$gpujpeg" "$device" \
        "$hwaccel" > "$tmp/truth.log" 2>&1
    truth_verdict ffmpeg-dxtf/ "equal gpujpeg dxt's blocks"
    ;;
fuzz)
    seconds=${GJ_FUZZ_SECONDS:-60}
    seeds=$tmp/corpus
    mkdir -p "$seeds" "$failed_dir"
    # Small seeds of every kind; libFuzzer adds what it finds to the copy.
    # fuzz_CODEC_host takes CODEC's seeds and the dictionary CODEC.dict beside GJ_FUZZ_DICT.
    codec=$(basename "$file" | sed 's/^fuzz_\(.*\)_host.*/\1/')
    dict=${GJ_FUZZ_DICT:+$(dirname "$GJ_FUZZ_DICT")/$codec.dict}
    case $codec in
        j2k) seed_files=$(ls -S "${GJ_J2K_CORPUS:-tests/j2k-corpus}"/*.j2k 2>/dev/null | tail -n 40) ;;
        *) seed_files=$(ls -S "$GJ_FUZZ_SEEDS"/*/*.jpg | tail -n 40) ;;
    esac
    for f in $seed_files; do cp "$f" "$seeds/"; done
    rc=0
    timeout -k 10 $((seconds + 120)) "$file" -max_total_time="$seconds" -rss_limit_mb=2048 \
        -timeout=10 -max_len=65536 -print_final_stats=1 ${dict:+-dict="$dict"} \
        -artifact_prefix="$failed_dir/fuzz-$codec-" "$seeds" > "$tmp/fuzz.log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
    [ "$rc" -eq 0 ] || fail "libFuzzer exit status $rc: $(grep -E 'ERROR|SUMMARY|breaks' "$tmp/fuzz.log" | head -n 2 | tr '\n' ' ')"
    pass "${runs:-?} inputs in ${seconds}s"
    ;;
dxt)
    # FILE names a case of the DXT corpus (tests/gen_dxt_corpus.sh).
    . "$(dirname "$0")/dxt_check.sh"
    ;;
j2k)
    # FILE names a case of the JPEG 2000 corpus (tests/gen_j2k_corpus.sh).
    . "$(dirname "$0")/j2k_check.sh"
    ;;
j2kconf)
    . "$(dirname "$0")/j2k_conformance.sh"
    ;;
encode)
    # FILE names a case of the encoding corpus (tests/gen_encode_corpus.sh).
    . "$(dirname "$0")/encode_check.sh"
    ;;
*)
    echo "check_one.sh: unknown test kind $kind" >&2
    exit 2
    ;;
esac
