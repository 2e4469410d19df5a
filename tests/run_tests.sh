#!/bin/sh
# The test runner behind `make check`: one line per test (PASS/FAIL/SKIP), then
# "N passed, N failed, N skipped" as the last line; exit status 1 if any failed.
#
#   tests/run_tests.sh CORPUS_DIR        (from the top of the build tree)
#
# Environment:
#   GJ_TEST_DEVICE   device for every decode: auto, cuda, opencl, opencl-cpu
#                    (default opencl-cpu: PoCL, what CI has)
#   GJ_TEST_JOBS     tests run at once (default: the number of cores, at most 8)
#   GJ_TEST_FILTER   only tests whose KIND/NAME matches this extended regex
#   GJ_TEST_TIMEOUT  seconds one decode may take (default 60)
#   GJ_FUZZ          the libFuzzer binaries (empty: no fuzz test); GJ_FUZZ_SECONDS (60) each
#   GJ_UNIT_TESTS    unit test programs (exit 0 pass, 77 skip, else fail)
#   GJ_DXT_CORPUS    the DXT corpus (tests/gen_dxt_corpus.sh): its tests.txt lists the DXT tests
#   GJ_J2K_CORPUS    the JPEG 2000 corpus (tests/gen_j2k_corpus.sh): its tests.txt lists those tests
#   GJ_J2K_CONFORMANCE  optional: the JPEG 2000 conformance data (input/, reference/), e.g.
#                    /work/shared/data/j2k-conformance: adds the j2kconf/ tests
#   GJ_ENC_CORPUS    the encoding corpus (tests/gen_encode_corpus.sh): its tests.txt lists the encode tests
#   GJ_GPUJPEG       the tool (default ./gpujpeg); GJ_TEST_TOOLS (default tests/tools)
#   GJ_FFMPEG_BUILD  FFmpeg's build directory (default ffmpeg/build, made by
#                    `make ffmpeg`): its FATE tests run when it holds ffmpeg
#   GJ_FATE_SAMPLES  optional: FATE's SAMPLES (FFmpeg's fate-suite, or a directory laid out
#                    as it is) for the FATE tests that need it, the JPEG 2000 conformance
#                    codestreams; made of GJ_J2K_CONFORMANCE's where that is set
# Failing tests leave their files in tests/failed/ (GJ_TEST_FAILED_DIR).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:?usage: run_tests.sh CORPUS_DIR}
export GJ_TEST_DEVICE="${GJ_TEST_DEVICE:-opencl-cpu}"
export GJ_GPUJPEG="${GJ_GPUJPEG:-./gpujpeg}"
export GJ_TEST_TOOLS="${GJ_TEST_TOOLS:-tests/tools}"
export GJ_TEST_FAILED_DIR="${GJ_TEST_FAILED_DIR:-tests/failed}"
export GJ_FUZZ_SEEDS="$corpus"
export GJ_TEST_CORPUS="$corpus"
cores=$(nproc 2>/dev/null || echo 2)
jobs=${GJ_TEST_JOBS:-$((cores < 8 ? cores : 8))}
filter=${GJ_TEST_FILTER:-.}
fuzz=${GJ_FUZZ:-}

export GJ_FFMPEG_BUILD="${GJ_FFMPEG_BUILD:-ffmpeg/build}"
ffbuild=$GJ_FFMPEG_BUILD
# FFmpeg's make, not as a sub-make of ours (no jobserver to inherit)
make_ffmpeg() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ffbuild" "$@"; }
# The FATE inputs, and the host tools every FATE test depends on (FFmpeg's
# tests/Makefile FATE_UTILS), are made once, before the tests run in parallel:
# two FATE tests that both found the tools missing would link them at the same
# time, and one would read the other's half-written object.
if [ -x "$ffbuild/ffmpeg" ] &&
   ! make_ffmpeg -s tests/data/gpujpeg/.stamp tests/data/gpujpeg-enc/.stamp tests/data/gpujpeg-j2k/.stamp \
       tests/data/gpujpeg-hap/.stamp tests/base64 tests/tiny_psnr tests/tiny_ssim tests/audiomatch \
       tests/api/api-gpujpeg-pinned-test > /dev/null; then
    echo "FAIL fate: the FATE inputs or tools could not be made (tests/fate/gpujpeg_inputs.sh, gpujpeg_enc_inputs.sh, gpujpeg_j2k_inputs.sh, gpujpeg_hap_inputs.sh)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gj-run.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# FATE's SAMPLES of the conformance codestreams, where FFmpeg's jpeg2000dec tests read them
if [ -z "${GJ_FATE_SAMPLES:-}" ] && [ -d "${GJ_J2K_CONFORMANCE:-}/input" ]; then
    conformance_input=$(cd "$GJ_J2K_CONFORMANCE/input" && pwd)
    for p in 0 1; do
        mkdir -p "$work/fate-suite/jpeg2000/itu-iso/codestreams_profile$p"
        for f in "$conformance_input/p${p}"_*.j2k; do
            if [ -f "$f" ]; then
                ln -s "$f" "$work/fate-suite/jpeg2000/itu-iso/codestreams_profile$p/"
            fi
        done
    done
    GJ_FATE_SAMPLES=$work/fate-suite
fi
export GJ_FATE_SAMPLES="${GJ_FATE_SAMPLES:-}"
rm -rf "$GJ_TEST_FAILED_DIR"

# ------------------------------------------------------------------ the list
# "KIND FILE" per test. The fuzzer goes first: it runs longest and uses one core
# while the decodes share the other.
list_tests() {
    for f in $fuzz; do
        echo "fuzz $f"
    done
    for t in ${GJ_UNIT_TESTS:-}; do
        echo "unit $t"
    done
    # the release tarball's files (a build tree of a git checkout)
    [ -f Makefile ] && echo "dist $(cd "$(dirname "$0")/.." && pwd)"
    if [ -f "${GJ_DXT_CORPUS:-}/tests.txt" ]; then
        sed "s|^|dxt $GJ_DXT_CORPUS/|" "$GJ_DXT_CORPUS/tests.txt"
    fi
    if [ -f "${GJ_J2K_CORPUS:-}/tests.txt" ]; then
        sed "s|^|j2k $GJ_J2K_CORPUS/|" "$GJ_J2K_CORPUS/tests.txt"
    fi
    if [ -n "${GJ_J2K_CONFORMANCE:-}" ]; then
        for f in "$GJ_J2K_CONFORMANCE"/input/p[01]_*.j2k; do
            echo "j2kconf $f"
        done
    fi
    if [ -f "${GJ_ENC_CORPUS:-}/tests.txt" ]; then
        sed "s|^|encode $GJ_ENC_CORPUS/|" "$GJ_ENC_CORPUS/tests.txt"
    fi
    for f in "$corpus"/good/*.jpg; do
        base=$(basename "$f" .jpg)
        echo "rgb $f"
        echo "planar $f"
        # Luma-only output of colour files, alpha formats and the other writers
        # on a sample of shapes (each output path once is enough).
        case $base in
            cmyk* | ycck*) ;;   # libjpeg-turbo has no CMYK -> gray conversion
            gray_* | size_* | sample_* | photo_*_q75 | scans_* | rgb_* | photo_420_no_jfif) echo "gray $f" ;;
        esac
        case $base in
            photo_420_q75 | size_7x9_444 | size_17x1_420 | cmyk_q90 | gray_q75 | rgb_444_q90) echo "rgba $f" ;;
        esac
        case $base in
            photo_444_q75 | size_33x65_411 | gray_q75 | ycck_q90) echo "bgra $f" ;;
        esac
        case $base in
            photo_422_q75 | size_15x15_420 | gray_q90_optimize) echo "png $f" ;;
        esac
        # Pictures of many chunk groups, so that the first pass leaves work across groups.
        case $base in
            photo_420_q90 | photo_422_q75 | photo_444_q90 | photo_420_q75) echo "sync-plain $f"; echo "sync-hyp $f" ;;
        esac
        # Restart intervals, one thread each
        case $base in
            photo_420_q75_rst7B | photo_440_q90_rst1B | photo_411_q90_rst100B | photo_420_q85_rst5B_637x397 | \
            photo_420_q90_rst1row | gray_q90_rst1row) echo "direct $f" ;;
        esac
        case $base in
            photo_420_q75 | photo_422_q90 | photo_444_q90 | photo_411_q75 | photo_440_q75 | \
            size_1x1_gray | size_15x15_420) echo "y4m $f" ;;
        esac
    done
    # FFmpeg's wrappers (`make ffmpeg`): the FATE tests and the truth of their references
    if [ -x "$ffbuild/ffmpeg" ]; then
        for t in $(make_ffmpeg -s fate-gpujpeg-list ${GJ_FATE_SAMPLES:+SAMPLES="$GJ_FATE_SAMPLES"}); do
            echo "fate $t"
            # the conformance codestreams' (fate_truth_j2k_conf.sh)
            case $t in
                fate-gpujpeg-j2k-conf-p*)
                    n=${t#fate-gpujpeg-j2k-conf-}
                    profile=${n%%_*}
                    echo "ffmpeg-j2kconf $GJ_FATE_SAMPLES/jpeg2000/itu-iso/codestreams_profile${profile#p}/$n.j2k"
                    ;;
            esac
        done
        for clip in "$ffbuild"/tests/data/gpujpeg/*.avi; do
            echo "ffmpeg $clip"
        done
        # the lossless JPEG 2000 inputs (fate_truth_j2k.sh)
        for clip in ff_rgb_lossless.mov ff_gray12.mxf ff_yuv422.avi ff_yuv422p10.mxf ff_yuv420p12.avi ff_yuv410.avi \
                    ff_yuv444.avi ff_yuv444p12.mov ff_ya8.avi ff_rgba64.mov ff_yuva420p.avi ff_yuva422p10.mov \
                    ff_yuva444p.mov \
                    dci-%03d.j2k mix-%03d.j2k res-%03d.jp2 pal-%03d.jp2 icc-%03d.jp2; do
            echo "ffmpeg $ffbuild/tests/data/gpujpeg-j2k/$clip"
        done
        echo "ffmpeg-enc $ffbuild/tests/data/gpujpeg-enc"
        echo "ffmpeg-hap $ffbuild/tests/data/gpujpeg-hap"
        echo "ffmpeg-dxtf $ffbuild/tests/data/gpujpeg-hap"
    else
        echo "ffmpeg not-built"
    fi
    echo "batch $corpus/good"
    for case in missing_input unwritable_output format_not_in_file info null_repeat some_inputs_fail; do
        echo "cli $corpus/$case"
    done
    for kind in unsupported invalid bad damaged corrupt; do
        for f in "$corpus/$kind"/*.jpg; do
            echo "$kind $f"
        done
    done
}
list_tests | awk '{ n = $2; sub(/.*\//, "", n); sub(/\.jpg$/, "", n); print $1 "/" n, $0 }' |
    grep -E -- "^[^ ]*($filter)" | cut -d ' ' -f 2- > "$work/list" || true
total=$(wc -l < "$work/list")

# ------------------------------------------------------------------ the device
# Without the tool nothing can run; without a CUDA GPU the CUDA run is skipped.
device_ok=yes skip_reason=
if [ ! -x "$GJ_GPUJPEG" ]; then
    echo "FAIL gpujpeg: $GJ_GPUJPEG was not built"
    device_ok=no skip_reason="no gpujpeg tool"
elif [ "$GJ_TEST_DEVICE" = cuda ] && ! nvidia-smi -L > /dev/null 2>&1; then
    device_ok=no skip_reason="no CUDA device (nvidia-smi finds none)"
else
    # One decode first, alone: the first use of a device builds and caches its
    # kernels, which should not happen in two processes at once.
    probe=$corpus/good/size_16x16_420.jpg
    if ! timeout 600 "$GJ_GPUJPEG" decode --device "$GJ_TEST_DEVICE" --format rgb24 \
            "$probe" "$work/probe.ppm" > "$work/probe.log" 2>&1; then
        echo "note: the first decode on $GJ_TEST_DEVICE failed: $(tail -n 1 "$work/probe.log")"
    fi
fi
# The tool's --null (decode, write nothing) keeps huge bad/ frames off the disk.
if [ "$device_ok" = yes ] && "$GJ_GPUJPEG" decode --help 2>&1 | grep -q -- --null; then
    export GJ_NULL_OUTPUT=yes
fi

# ------------------------------------------------------------------ the run
if [ -f "$corpus/NO_PHOTOS" ]; then
    echo "note: plasma-workspace-wallpapers is not installed: the photo_* files are synthetic"
fi
if [ "$device_ok" = yes ]; then
    start=$(date +%s)
    xargs -P "$jobs" -n 2 sh "$here/check_one.sh" < "$work/list" | tee "$work/results"
    echo "($(($(date +%s) - start)) s on $GJ_TEST_DEVICE, $jobs at a time)"
else
    # The fuzzer and the unit tests need no tool (units skip themselves without a device).
    grep -E '^(fuzz|unit) ' "$work/list" | xargs -n 2 sh "$here/check_one.sh" | tee "$work/results" || true
    skipped=$(grep -vcE '^(fuzz|unit) ' "$work/list" || true)
    echo "SKIP $skipped decode tests: $skip_reason"
fi

passed=$(grep -c '^PASS ' "$work/results" || true)
failed=$(grep -c '^FAIL ' "$work/results" || true)
skipped=$((total - passed - failed))
[ -x "$GJ_GPUJPEG" ] || failed=$((failed + 1))
if [ "$failed" -ne 0 ]; then
    echo "Failed tests:"
    grep '^FAIL ' "$work/results" | sed 's/^FAIL /  /' | cut -c 1-160
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
