# The JPEG 2000 tests, sourced by tests/check_one.sh for KIND j2k (its pass, fail,
# skip, run_gpujpeg and check_* helpers). FILE is J2K_CORPUS/NAME; the cases are
# described in tests/gen_j2k_corpus.sh.
j2k_corpus=$(dirname "$file")
case_name=$(basename "$file")
# The name the cases below match: a file from elsewhere (*_files_*, named after the file)
# as its kind alone, so that its own name (pr325_bad_icc_profile.jp2) picks no case.
case_kind=$case_name
case $case_name in *_files_*) case_kind=${case_name%%_files_*}_files ;; esac
# The largest difference allowed between our 9/7 decode (fixed point) and OpenJPEG's (float).
lossy_tolerance=2

# stream_of NAME: the stream file of a corpus name (JP2 files end in _jp2).
stream_of() {
    case $1 in
        *_jp2) echo "$j2k_corpus/$1.jp2" ;;
        *) echo "$j2k_corpus/$1.j2k" ;;
    esac
}

# check_warning: the warning NAME.warning names, where there is one, in the last decode's messages.
check_warning() {
    w=$j2k_corpus/$case_name.warning
    [ ! -f "$w" ] || grep -qF "$(cat "$w")" "$tmp/stderr.txt" || fail "no warning '$(cat "$w")': ${msg:-none}"
}

# ext_of NAME: the picture type of its reference.
ext_of() {
    for e in ppm pgm png; do
        [ -f "$j2k_corpus/${1}_ref.$e" ] && { echo $e; return; }
    done
    echo ppm
}

# j2k_decode STREAM OUT [options]: one decode on the test device.
j2k_decode() {
    in=$1 o=$2
    shift 2
    run_gpujpeg decode --device "$device" "$@" "$in" "$o"
}

# within OURS REF N [image_compare options]: every sample within N of the reference.
within() {
    ours=$1 ref=$2 n=$3
    shift 3
    diff=$("$tools/image_compare" "$@" "$ours" "$ref" 2>&1) && return 0
    max=$(echo "$diff" | sed -n 's/.*max |diff| \([0-9]*\).*/\1/p' | sort -n | tail -n 1)
    [ -n "$max" ] && [ "$max" -le "$n" ] || fail "differs from the reference beyond $n: $diff"
    note="max |diff| $max"
}

[ -f "$j2k_corpus/NO_OPENJPEG" ] && skip "opj_compress is not installed"
# The DCI profile streams: gpujpeg info names their profile (Rsiz 3, 4) and rgb48le
# (12 bits at the top of 16); the decode is checked below as any deep stream's.
case $case_kind in
*_dci2k | *_dci4k)
    rsiz=3
    [ "${case_name##*_}" = dci4k ] && rsiz=4
    run_gpujpeg info "$(stream_of "$case_name")"
    check_decoded
    grep -q "^  profile: *$rsiz " "$tmp/stdout.txt" ||
        fail "gpujpeg info: not profile $rsiz: $(grep profile "$tmp/stdout.txt")"
    grep -q "^  native format: *rgb48le$" "$tmp/stdout.txt" ||
        fail "gpujpeg info: not rgb48le: $(grep 'native format' "$tmp/stdout.txt")"
    ;;
esac
# A JP2 file's resolution box (tests/gen_j2k_corpus.sh): gpujpeg info gives its ratio;
# its palette (tests/tools/jp2_palette.pl): gpujpeg info describes it.
case $case_kind in
*_res_jp2)
    run_gpujpeg info "$(stream_of "$case_name")"
    check_decoded
    grep -q "^  sample aspect: *3:4 " "$tmp/stdout.txt" ||
        fail "gpujpeg info: not the sample aspect ratio 3:4: $(grep aspect "$tmp/stdout.txt")"
    ;;
*_palette_jp2 | *_palette_sub_jp2)
    run_gpujpeg info "$(stream_of "$case_name")"
    check_decoded
    grep -q "^  palette: *256 entries of 3 columns (8, 8, 8 bits; JP2 pclr box)$" "$tmp/stdout.txt" ||
        fail "gpujpeg info: not the palette: $(grep palette "$tmp/stdout.txt")"
    ;;
esac
# A JP2 file's ICC profile (tests/gen_j2k_corpus.sh; NAME.icc, none where no profile
# counts): gpujpeg info tells it, and the PNG files of a decode carry it, one picture at
# a time and in a batch of two; where a colr box of JPX's method 3 comes first, the
# sRGB box after it counts.
case $case_kind in
*_icc*_jp2)
    stream=$(stream_of "$case_name")
    expected=$j2k_corpus/$case_name.icc
    run_gpujpeg info "$stream"
    check_decoded
    if [ -f "$expected" ]; then
        line="ICC profile, $(wc -c < "$expected" | tr -d ' ') bytes (JP2 colr box)"
    else
        line="sRGB (JP2 colr box)"
    fi
    grep -q "^  colour: *$line$" "$tmp/stdout.txt" ||
        fail "gpujpeg info: not '$line': $(grep colour "$tmp/stdout.txt")"
    mkdir -p "$tmp/icc"
    cp "$stream" "$tmp/icc/a.jp2"
    cp "$stream" "$tmp/icc/b.jp2"
    j2k_decode "$stream" "$tmp/icc/one.png"
    check_decoded
    run_gpujpeg decode --device "$device" --output-format png -o "$tmp/icc" "$tmp/icc/a.jp2" "$tmp/icc/b.jp2"
    check_decoded
    for p in one a b; do
        if perl "$(dirname "$0")/tools/png_icc.pl" read "$tmp/icc/$p.png" > "$tmp/icc/$p.icc"; then
            [ -f "$expected" ] || fail "$p.png has an ICC profile where the file's counts none"
            cmp -s "$tmp/icc/$p.icc" "$expected" || fail "$p.png's ICC profile is not the file's"
        else
            [ ! -f "$expected" ] || fail "$p.png has no ICC profile"
        fi
    done
    ;;
esac
# Grok's POC streams (tests/gen_j2k_corpus.sh): the decode says whose orders it kept.
case $case_kind in
*_grok_poc*)
    j2k_decode "$(stream_of "$case_name")" "$tmp/poc.$(ext_of "$case_name")"
    check_decoded
    grep -q "Grok's encoder before its fix): the main header's orders are kept" "$tmp/stderr.txt" ||
        fail "no warning of the tile-part POC that repeats the main header's: $msg"
    ;;
esac
case $case_kind in
lossy_saturate*)
    # Past the optimistic fractions (tests/gen_j2k_corpus.sh): the decode says it went
    # again, and gives the bytes of the worst case's fractions from the start.
    e=$(ext_of "$case_name")
    GJ_J2K_WORST_CASE=1 j2k_decode "$(stream_of "$case_name")" "$tmp/worst.$e" -v -v
    check_decoded
    again=32-bit
    grep -q "(worst-case bound)" "$tmp/stderr.txt" && again="16-bit worst-case fractions"
    j2k_decode "$(stream_of "$case_name")" "$tmp/ours.$e" -v
    check_decoded
    grep -q "saturated with the optimistic fractions" "$tmp/stderr.txt" || fail "no second decode: $msg"
    cmp -s "$tmp/ours.$e" "$tmp/worst.$e" || fail "differs from the decode with GJ_J2K_WORST_CASE=1"
    ref=$j2k_corpus/${case_name}_ref.$e
    ;;
lossless_* | lossy_*)
    e=$(ext_of "$case_name")
    j2k_decode "$(stream_of "$case_name")" "$tmp/ours.$e"
    check_decoded
    ref=$j2k_corpus/${case_name}_ref.$e
    check_warning
    # The output kernels made for a shape (j2k_output.h) give the general one's bytes:
    # the 9/7 streams' tolerance below would hide a rounding of their own.
    case $case_kind in
    lossy_*)
        GJ_J2K_OUTPUT_GENERAL=1 j2k_decode "$(stream_of "$case_name")" "$tmp/general.$e"
        check_decoded
        cmp -s "$tmp/ours.$e" "$tmp/general.$e" || fail "differs from the general output kernel's decode"
        ;;
    esac
    ;;
planar_*)
    j2k_decode "$(stream_of "$case_name")" "$tmp/ours.yuv" $(case $case_kind in *_reduce1) echo --reduce 1 ;; esac)
    check_decoded
    note=identical
    within "$tmp/ours.yuv" "$j2k_corpus/${case_name}_ref.yuv" "$(cat "$j2k_corpus/$case_name.tolerance")" \
        --planes "$(cat "$j2k_corpus/$case_name.planes")"
    # The packed formats PNG holds (8- and 16-bit): the PNG file read back by FFmpeg
    # holds the same samples.
    pixfmt=$(cat "$j2k_corpus/$case_name.pixfmt" 2> /dev/null || true)
    case $pixfmt in
    ya8 | ya16le | rgba64le)
        if command -v "${FFMPEG:-ffmpeg}" > /dev/null 2>&1; then
            j2k_decode "$(stream_of "$case_name")" "$tmp/ours.png"
            check_decoded
            "${FFMPEG:-ffmpeg}" -v error -y -i "$tmp/ours.png" -f rawvideo -pix_fmt "$pixfmt" "$tmp/png.raw" ||
                fail "FFmpeg could not read our PNG"
            cmp -s "$tmp/png.raw" "$tmp/ours.yuv" || fail "the PNG file's samples differ from the raw output's"
            note="$note, PNG too"
        fi
        ;;
    esac
    pass "FFmpeg's decoder: $note"
    ;;
reduce_* | layers_*)
    what=${case_name%%_*}
    rest=${case_name#*_}
    k=${rest%%_*}
    n=${rest#*_}
    j2k_decode "$(stream_of "$n")" "$tmp/ours.ppm" --$what "$k"
    check_decoded
    ref=$j2k_corpus/${n}_$what$k.ppm
    ;;
components_*)
    # PGX files as opj_decompress writes them: NAME_C.pgx per component.
    j2k_decode "$(stream_of "$case_name")" "$tmp/ours.pgx"
    check_decoded
    t=$(cat "$j2k_corpus/$case_name.tolerance")
    k=0
    # (ours.pgx alone for one component; opj_decompress numbers even that one)
    [ -f "$tmp/ours.pgx" ] && mv "$tmp/ours.pgx" "$tmp/ours_0.pgx"
    # by number: a glob puts NAME_10 before NAME_2
    while [ -f "$j2k_corpus/${case_name}_ref_$k.pgx" ]; do
        perl "$(dirname "$0")/tools/pgx_compare.pl" "$tmp/ours_$k.pgx" $k "$j2k_corpus/${case_name}_ref_$k.pgx" "$t" 1 \
            > "$tmp/compare.txt" 2>&1 || fail "$(tail -n 1 "$tmp/compare.txt")"
        k=$((k + 1))
    done
    [ "$k" -gt 0 ] || fail "no components of opj_decompress's to compare"
    [ ! -f "$tmp/ours_$k.pgx" ] || fail "more components written than opj_decompress's $k"
    pass "$k components, opj_decompress's within $t"
    ;;
unsupported_*)
    j2k_decode "$(stream_of "$case_name")" "$tmp/ours.pgm"
    check_refusal
    echo "$msg" | grep -qi unsupported || fail "refused without saying unsupported: $msg"
    pass
    ;;
batch)
    # Several inputs in one run decode through gj_j2k_decode_batch(): each picture as
    # alone (5/3: OpenJPEG's), broken ones among them refused by name, alone.
    set -- lossless_rgb lossless_tiles lossless_noise lossless_prog_RPCL lossless_cblk_4x4 lossless_plt_tlm \
        lossless_roi lossless_sop_eph lossless_tile_parts lossless_precincts lossless_ppm_tiles
    mkdir -p "$tmp/out"
    limit=$((limit * 3))
    run_gpujpeg decode --device "$device" --quiet -o "$tmp/out" "$j2k_corpus/broken_cut_10.j2k" \
        $(for n; do stream_of "$n"; done) "$j2k_corpus/broken_cut_90.j2k"
    check_alive
    [ "$rc" -eq 1 ] || fail "exit status $rc with two broken inputs"
    for b in broken_cut_10 broken_cut_90; do
        grep -q "$b.j2k: " "$tmp/stderr.txt" || fail "$b is not reported by name: $(cat "$tmp/stderr.txt")"
        [ ! -f "$tmp/out/$b.ppm" ] || fail "$b.ppm written"
    done
    [ "$(grep -c . "$tmp/stderr.txt")" -eq 2 ] || fail "messages beyond the two refusals: $(cat "$tmp/stderr.txt")"
    for n; do
        same "$tmp/out/$n.ppm" "$j2k_corpus/${n}_ref.ppm"
    done
    pass "$# pictures as OpenJPEG, 2 broken ones refused"
    ;;
early)
    # T1 of the lowest resolutions while T2 goes on (libgpujpeg/src/j2k/early.h): the
    # same bytes as without (GJ_J2K_EARLY=0), and a launch on the streams that put
    # those resolutions before the end of T2 (every order but a single packet's);
    # lossy_saturate_wide's second decode (its fractions saturated) launches again.
    launched=0
    for n in lossless_prog_LRCP lossless_prog_RLCP lossless_prog_RPCL lossless_prog_PCRL lossless_prog_CPRL \
        lossless_tiles lossless_tile_parts lossless_roi lossless_modes_63 lossless_precincts lossless_poc \
        lossless_deep16 lossy_layers lossy_rgb lossy_tiles lossy_saturate_wide broken_cut_3000 \
        "reduce 1 lossless_prog_LRCP" "layers 1 lossy_layers"; do
        set -- $n
        opt=
        [ $# -eq 3 ] && { opt="--$1 $2"; n=$3; }
        e=$(ext_of "$n")
        GJ_J2K_EARLY=0 j2k_decode "$(stream_of "$n")" "$tmp/off.$e" $opt
        [ "$rc" -eq 0 ] || [ "${n#broken}" != "$n" ] || fail "$n without the early launch: exit status $rc: $msg"
        GJ_PROFILE=2 j2k_decode "$(stream_of "$n")" "$tmp/on.$e" -v $opt
        check_alive
        grep -q "early T1 of" "$tmp/stderr.txt" && launched=$((launched + 1))
        [ ! -f "$tmp/off.$e" ] || cmp -s "$tmp/on.$e" "$tmp/off.$e" ||
            fail "$n $opt: differs from the decode without the early launch"
        rm -f "$tmp/on.$e" "$tmp/off.$e"
    done
    [ "$launched" -ge 12 ] || fail "only $launched of 19 decodes launched T1 early"
    pass "19 decodes as without, $launched with an early launch"
    ;;
broken_*)
    # PAM holds every layout of up to four components: the stream gets past the output's checks
    j2k_decode "$j2k_corpus/$case_name.j2k" "$tmp/ours.pam"
    check_alive
    [ "$rc" -eq 0 ] || [ -n "$msg" ] || fail "exit status $rc without a message"
    check_warning
    if [ -f "$j2k_corpus/$case_name.message" ]; then
        check_refusal
        echo "$msg" | grep -qF "$(cat "$j2k_corpus/$case_name.message")" ||
            fail "refused without '$(cat "$j2k_corpus/$case_name.message")': $msg"
    fi
    [ "$rc" -eq 0 ] && pass "decoded" || pass "refused: $msg"
    ;;
*)
    fail "unknown JPEG 2000 test"
    ;;
esac
# 5/3 streams must equal OpenJPEG bit for bit; 9/7 ones come within the tolerance.
# Deep samples (references aligned to 16 bits) go through tests/tools/pnm16.pl.
case $case_kind in
*_deep*)
    t=$(cat "$j2k_corpus/$case_name.tolerance")
    diff=$(perl "$(dirname "$0")/tools/pnm16.pl" compare "$tmp/ours.${ref##*.}" "$ref" "$t" 2>&1) ||
        fail "differs from opj_decompress beyond $t (16-bit units): $diff"
    pass "opj_decompress: within $t in 16-bit units"
    ;;
*lossy_*)
    note=identical
    within "$tmp/ours.${ref##*.}" "$ref" $lossy_tolerance
    pass "opj_decompress: $note${again:+; decoded again, as GJ_J2K_WORST_CASE=1: $again}"
    ;;
*)
    same "$tmp/ours.${ref##*.}" "$ref"
    # (opj_decompress applies an ICC profile: the Grok ICC streams' reference is the encoder's source)
    case $case_kind in
        *_grok_icc*) what="the source" ;;
        *_none_palette_jp2) what="the palette picture, as FFmpeg reads it" ;;
        *) what=opj_decompress ;;
    esac
    [ -f "$j2k_corpus/$case_name.icc" ] && what="$what, the ICC profile in PNG files"
    pass "equals $what"
    ;;
esac
