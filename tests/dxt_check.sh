# The DXT tests, sourced by tests/check_one.sh for KIND dxt (its pass, fail,
# skip, run_gpujpeg and check_* helpers). FILE is DXT_CORPUS/NAME:
#   decode_FMT      random blocks: the GPU decoder equals the C reference decoder and
#                   FFmpeg's DDS decoder (texturedsp) bit for bit
#   kernel_FMT_Q    GPU blocks equal the host build of the same kernel (dxt_tool
#                   encode, under UBSan: dxt_tool_ubsan) on a photo and an odd-sized
#                   RGBA picture
#   jpeg_NAME       a JPEG decoded on the GPU and encoded from device memory (BC1
#                   balanced, YCoCg high) equals the host kernel (under UBSan) run on
#                   the same planar picture
#   psnr_photos     RGB-PSNR per photo: ours against FFmpeg's hap encoder and the
#                   C cluster fit; fast >= hap - 0.1 dB, balanced >= hap + 0.2 dB,
#                   high >= hap + 0.5 dB on every photo; the table is printed
#   psnr_synthetic  hard cases: high within 0.5 dB of the cluster fit (BC1), alpha
#                   and YCoCg sanity floors
#   bad_NAME        broken DDS files and options: refused with a message
dxt_corpus=$(dirname "$file")
case_name=$(basename "$file")
dxt_tool=$tools/dxt_tool
# The host blocks the GPU's must equal come from the UBSan build (tests/tests.mk).
dxt_host=$tools/dxt_tool_ubsan
[ -x "$dxt_host" ] || dxt_host=$dxt_tool
bc1_targets="fast:-0.1 balanced:0.2 high:0.5"

# encode FORMAT QUALITY IN OUT.dds: one GPU encode
encode() { run_gpujpeg dxt --device "$device" --format "$1" --quality "$2" "$3" "$4"; check_decoded; }
# psnr REF TEST [channels]
psnr() { "$dxt_tool" psnr "$@"; }
# at_least A B: whether A >= B (decimals)
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

case $case_name in
decode_*)
    fmt=${case_name#decode_}
    run_gpujpeg undxt --device "$device" "$dxt_corpus/random_$fmt.dds" "$tmp/gpu.pam"
    check_decoded
    "$dxt_tool" decode "$dxt_corpus/random_$fmt.dds" "$tmp/ref.pam" || fail "the C reference decoder failed"
    same "$tmp/gpu.pam" "$tmp/ref.pam"
    [ -f "$dxt_corpus/NO_FFMPEG" ] && pass "FFmpeg not installed: not compared with texturedsp"
    case $fmt in bc1 | ycocg) pf=rgb24 ;; bc3) pf=rgba ;; *) pf=gray ;; esac
    "${FFMPEG:-ffmpeg}" -v error -y -i "$dxt_corpus/random_$fmt.dds" -pix_fmt $pf -update 1 "$tmp/ffmpeg.pam" \
        || fail "FFmpeg could not decode the DDS file"
    same "$tmp/ffmpeg.pam" "$tmp/ref.pam"
    pass "GPU = C reference = FFmpeg"
    ;;
kernel_*)
    q=${case_name##*_}
    fmt=${case_name#kernel_}
    fmt=${fmt%_*}
    for in in "$dxt_corpus/synth_alpha-edge.pam" "$dxt_corpus/photo0.ppm"; do
        [ -f "$in" ] || continue
        encode "$fmt" "$q" "$in" "$tmp/gpu.dds"
        "$dxt_host" encode "$fmt" "$q" "$in" "$tmp/host.dds" || fail "dxt_tool encode failed"
        cmp -s "$tmp/gpu.dds" "$tmp/host.dds" || fail "$(basename "$in"): GPU blocks differ from the host build"
    done
    pass
    ;;
jpeg_*)
    j=$dxt_corpus/${case_name#jpeg_}.jpg
    # The tool hands 4:2:0, 4:2:2, 4:4:4 and gray to the encoder as decoded (planar),
    # other samplings as RGBA (which equals djpeg's RGB).
    case $case_name in
    *420*) pf=yuvj420p ;;
    *422*) pf=yuvj422p ;;
    *444*) pf=yuvj444p ;;
    *)     pf= ;;
    esac
    if [ -n "$pf" ]; then
        run_gpujpeg decode --device "$device" --format planar "$j" "$tmp/planes.yuv"
        check_decoded
        size=$(djpeg -pnm "$j" | sed -n 2p | tr ' ' x)
    else
        djpeg -pnm -outfile "$tmp/ref.pnm" "$j"
    fi
    for fq in bc1:balanced ycocg:high; do
        encode "${fq%:*}" "${fq#*:}" "$j" "$tmp/gpu.dds"
        if [ -n "$pf" ]; then
            "$dxt_host" encode-yuv "${fq%:*}" "${fq#*:}" "$size" "$pf" "$tmp/planes.yuv" "$tmp/host.dds" \
                || fail "dxt_tool failed"
        else
            "$dxt_host" encode "${fq%:*}" "${fq#*:}" "$tmp/ref.pnm" "$tmp/host.dds" || fail "dxt_tool failed"
        fi
        cmp -s "$tmp/gpu.dds" "$tmp/host.dds" ||
            fail "${fq%:*} ${fq#*:}: GPU blocks from the device picture differ from the host build"
    done
    pass "${pf:-via djpeg}"
    ;;
psnr_photos)
    [ -f "$dxt_corpus/NO_PHOTOS" ] && skip "no photographs (plasma-workspace-wallpapers)"
    [ -f "$dxt_corpus/NO_FFMPEG" ] && skip "FFmpeg with the hap encoder is not installed"
    table="photo     hap   fast  balanced  high  cluster-ref   (RGB-PSNR dB; BC1 640x400)"
    bad=
    for p in "$dxt_corpus"/photo?.ppm; do
        b=${p%.ppm}
        hap=$(psnr "$p" "${b}_hap.ppm")
        row=$(printf '%-7s %6.2f' "$(basename "$b")" "$hap")
        for t in $bc1_targets; do
            q=${t%%:*}
            encode bc1 "$q" "$p" "$tmp/$q.dds"
            "$dxt_tool" decode "$tmp/$q.dds" "$tmp/$q.ppm" || fail "decode failed"
            v=$(psnr "$p" "$tmp/$q.ppm")
            row="$row $(printf '%6.2f' "$v")"
            at_least "$v" "$(awk -v h="$hap" -v d="${t#*:}" 'BEGIN { print h + d }')" ||
                bad="$bad $(basename "$b"):$q=$v<hap$(printf '%+.1f' "${t#*:}")"
        done
        row="$row $(printf '%8.2f' "$(psnr "$p" "${b}_cluster.ppm")")"
        table="$table
$row"
    done
    for p in "$dxt_corpus"/photo?_hapq.ppm; do
        [ -f "$p" ] || continue
        src=${p%_hapq.ppm}.ppm
        encode ycocg high "$src" "$tmp/q.dds"
        "$dxt_tool" decode "$tmp/q.dds" "$tmp/q.ppm" || fail "decode failed"
        table="$table
$(basename "$src" .ppm) ycocg: hap_q $(printf '%.2f' "$(psnr "$src" "$p")"), ours (high) $(printf '%.2f' "$(psnr "$src" "$tmp/q.ppm")")"
    done
    printf '%s\n' "$table" > "$tmp/table.txt"
    cat "$tmp/table.txt"
    mkdir -p "$failed_dir" && cp "$tmp/table.txt" "$failed_dir/../dxt-psnr.txt" 2>/dev/null || true
    [ -z "$bad" ] || fail "below target:$bad"
    pass "targets met on every photo"
    ;;
psnr_synthetic)
    notes=
    for s in gradient hue solid two dark alpha-edge; do
        in=$dxt_corpus/synth_$s.pam
        encode bc1 high "$in" "$tmp/h.dds"
        "$dxt_tool" decode "$tmp/h.dds" "$tmp/h.ppm"
        "$dxt_tool" cluster "$in" "$tmp/c.dds"
        "$dxt_tool" decode "$tmp/c.dds" "$tmp/c.ppm"
        ours=$(psnr "$in" "$tmp/h.ppm") ref=$(psnr "$in" "$tmp/c.ppm")
        at_least "$ours" "$(awk -v r="$ref" 'BEGIN { print r - 0.5 }')" || fail "$s: bc1 high $ours dB, cluster fit $ref dB"
        notes="$notes $s:$ours/$ref"
    done
    encode bc3 high "$dxt_corpus/synth_alpha-edge.pam" "$tmp/a.dds"
    "$dxt_tool" decode "$tmp/a.dds" "$tmp/a.pam"
    alpha=$(psnr "$dxt_corpus/synth_alpha-edge.pam" "$tmp/a.pam" alpha)
    at_least "$alpha" 40 || fail "bc3 alpha edges: alpha PSNR $alpha dB < 40"
    encode bc4 high "$dxt_corpus/synth_alpha-edge.pam" "$tmp/b.dds"
    "$dxt_tool" decode "$tmp/b.dds" "$tmp/b.pgm"
    "$dxt_tool" psnr "$tmp/a.pam" "$tmp/b.pgm" gray > /dev/null || fail "bc4 decode failed"
    encode ycocg high "$dxt_corpus/synth_gradient.pam" "$tmp/y.dds"
    "$dxt_tool" decode "$tmp/y.dds" "$tmp/y.ppm"
    y=$(psnr "$dxt_corpus/synth_gradient.pam" "$tmp/y.ppm")
    at_least "$y" 38 || fail "ycocg gradient: $y dB < 38"
    pass "bc1 high/cluster-ref:$notes; bc3 alpha $alpha; ycocg gradient $y"
    ;;
bad_options)
    run_gpujpeg dxt --device "$device" --format bc7 "$dxt_corpus/synth_hue.pam" "$tmp/x.dds"
    check_refusal
    grep -q "bc7" "$tmp/stderr.txt" || fail "the message does not name the format: $(head -n 1 "$tmp/stderr.txt")"
    run_gpujpeg dxt --device "$device" --quality best "$dxt_corpus/synth_hue.pam" "$tmp/x.dds"
    check_refusal
    run_gpujpeg dxt --device "$device" "$dxt_corpus/bad_not_dds.dds" "$tmp/x.dds"
    check_refusal
    pass "$msg"
    ;;
bad_*)
    run_gpujpeg undxt --device "$device" "$dxt_corpus/$case_name.dds" "$tmp/x.png"
    check_refusal
    pass "$msg"
    ;;
*)
    echo "dxt_check.sh: unknown DXT test $case_name" >&2
    exit 2
    ;;
esac
