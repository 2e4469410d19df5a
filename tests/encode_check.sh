# The JPEG encoding tests, sourced by tests/check_one.sh for KIND encode (its
# pass, fail, skip, run_gpujpeg and check_* helpers). FILE is ENCODE_CORPUS/NAME:
#   cjpeg_IN_S_qQ[_opt][_rN]  gpujpeg encode -q Q --sampling S [--optimize] [--restart N]
#                             equals cjpeg -dct int -quality Q -sample ... [-optimize]
#                             [-restart NB] byte for byte (IN: IN.ppm, or IN as named)
#   ycc_IN_FMT_S              planar Y4M input equals libjpeg-turbo given the same
#                             planes (tests/tools/jpeg_ycc_encode)
#   input_pam, input_png      RGBA PAM and PNG inputs give the PPM's file
#   decode_IN_S_qQ...         our file decodes in djpeg without a warning, in our decoder
#                             to djpeg's picture, and in FFmpeg
#   sizes_photos              per photo: size and PSNR at q90 4:2:0, with and without
#                             optimised tables, against cjpeg's (within 1%)
#   bad_*                     refusals with a message
enc_corpus=$(dirname "$file")
case_name=$(basename "$file")

. "$(dirname "$0")/encode_cases.sh"

# encode_both OURS REF: our file and cjpeg's for the parsed case.
encode_both() {
    ours=$1 ref=$2
    run_gpujpeg encode --device "$device" $(encode_options) "$in" "$ours"
    check_decoded
    cjpeg -dct int -quality "$q" $(cjpeg_sampling "$s") ${r:+-restart "${r}B"} \
        $([ "$opt" = 1 ] && echo -optimize) -outfile "$ref" "$in" 2> "$tmp/cjpeg.txt" || fail "cjpeg failed"
}

case $case_name in
cjpeg_*)
    parse_case "${case_name#cjpeg_}"
    encode_both "$tmp/ours.jpg" "$tmp/cjpeg.jpg"
    cmp -s "$tmp/ours.jpg" "$tmp/cjpeg.jpg" ||
        fail "differs from cjpeg's file ($(wc -c < "$tmp/ours.jpg") and $(wc -c < "$tmp/cjpeg.jpg") bytes): $(cmp "$tmp/ours.jpg" "$tmp/cjpeg.jpg" 2>&1 | head -n 1)"
    pass "$(wc -c < "$tmp/ours.jpg") bytes"
    ;;
ycc_*)
    parse_ycc_case "${case_name#ycc_}"
    run_gpujpeg encode --device "$device" $(encode_options) "$in" "$tmp/ours.jpg"
    check_decoded
    "$tools/jpeg_ycc_encode" "$q" "$s" "$in" "$tmp/ref.jpg" || fail "jpeg_ycc_encode failed"
    cmp -s "$tmp/ours.jpg" "$tmp/ref.jpg" || fail "differs from libjpeg-turbo's file of the same planes"
    pass
    ;;
input_*)
    run_gpujpeg encode --device "$device" -q 90 "$enc_corpus/photo0.${case_name#input_}" "$tmp/ours.jpg"
    check_decoded
    cjpeg -dct int -quality 90 -outfile "$tmp/ref.jpg" "$enc_corpus/photo0.ppm"
    cmp -s "$tmp/ours.jpg" "$tmp/ref.jpg" || fail "differs from cjpeg's file of the PPM"
    pass
    ;;
decode_*)
    parse_case "${case_name#decode_}"
    encode_both "$tmp/ours.jpg" "$tmp/cjpeg.jpg"
    djpeg -ppm -outfile "$tmp/djpeg.pnm" "$tmp/ours.jpg" 2> "$tmp/djpeg.txt" || fail "djpeg failed: $(head -n 1 "$tmp/djpeg.txt")"
    [ -s "$tmp/djpeg.txt" ] && fail "djpeg warns: $(head -n 1 "$tmp/djpeg.txt")"
    if [ "$s" = gray ]; then djpeg -rgb -ppm -outfile "$tmp/djpeg.ppm" "$tmp/ours.jpg"; else mv "$tmp/djpeg.pnm" "$tmp/djpeg.ppm"; fi
    file=$tmp/ours.jpg
    decode rgb24 "$tmp/gpu.ppm"
    check_decoded
    same "$tmp/gpu.ppm" "$tmp/djpeg.ppm"
    [ -f "$enc_corpus/NO_FFMPEG" ] && pass "djpeg, gpujpeg; FFmpeg not installed"
    "${FFMPEG:-ffmpeg}" -v error -xerror -y -i "$tmp/ours.jpg" -update 1 "$tmp/ffmpeg.ppm" 2> "$tmp/ffmpeg.txt" ||
        fail "FFmpeg cannot decode it: $(head -n 1 "$tmp/ffmpeg.txt")"
    [ -s "$tmp/ffmpeg.txt" ] && fail "FFmpeg complains: $(head -n 1 "$tmp/ffmpeg.txt")"
    pass "djpeg, gpujpeg, FFmpeg"
    ;;
sizes_photos)
    # The table goes to tests/encode-sizes.txt; the targets: size within 1% of cjpeg's at the same
    # settings, PSNR no lower (identical files give both exactly).
    bad=
    for p in "$enc_corpus"/photo[0-9].ppm; do
        for o in "" opt; do
            q=90 s=420 opt=0 r=
            [ "$o" = opt ] && opt=1
            in=$p
            encode_both "$tmp/ours.jpg" "$tmp/ref.jpg"
            djpeg -ppm -outfile "$tmp/ours.ppm" "$tmp/ours.jpg"
            djpeg -ppm -outfile "$tmp/ref.ppm" "$tmp/ref.jpg"
            a=$(wc -c < "$tmp/ours.jpg") b=$(wc -c < "$tmp/ref.jpg")
            pa=$("$tools/dxt_tool" psnr "$p" "$tmp/ours.ppm") pb=$("$tools/dxt_tool" psnr "$p" "$tmp/ref.ppm")
            echo "$(basename "$p") q90 4:2:0 ${o:-std}: $a bytes $pa dB (cjpeg $b bytes $pb dB)" >> "$tmp/table.txt"
            awk -v a="$a" -v b="$b" -v pa="$pa" -v pb="$pb" 'BEGIN { exit !(a <= b * 1.01 && pa + 0 >= pb - 0.001) }' ||
                bad="$bad $(basename "$p")${o:+-opt}"
        done
    done
    mkdir -p "$failed_dir" && cp "$tmp/table.txt" "$failed_dir/../encode-sizes.txt" 2>/dev/null || true
    [ -z "$bad" ] || fail "size or PSNR off target:$bad"
    pass "$(awk '{ n++; s += $5 } END { printf "%d files, mean %.0f bytes", n, s / n }' "$tmp/table.txt"); all within 1% of cjpeg"
    ;;
bad_options)
    for args in "-q 0" "-q 101" "--sampling 411" "--restart -1" "--restart 70000"; do
        run_gpujpeg encode --device "$device" $args "$enc_corpus/photo0.ppm" "$tmp/x.jpg"
        check_alive
        [ "$rc" -eq 2 ] || fail "encode $args: exit status $rc, expected 2 (usage)"
        grep -q -- "${args%% *}" "$tmp/stderr.txt" || fail "encode $args: the message does not name the option"
    done
    pass
    ;;
bad_upsampling)
    run_gpujpeg encode --device "$device" --sampling 444 "$enc_corpus/photo0_yuvj420p.y4m" "$tmp/x.jpg"
    check_refusal
    grep -q unsupported "$tmp/stderr.txt" || fail "the message does not say unsupported: $msg"
    pass "$msg"
    ;;
bad_*)
    for f in "$enc_corpus/$case_name".*; do
        run_gpujpeg encode --device "$device" "$f" "$tmp/x.jpg"
        check_refusal
        [ ! -s "$tmp/x.jpg" ] || fail "wrote an output file"
    done
    pass "$msg"
    ;;
*)
    fail "unknown encode test"
    ;;
esac
