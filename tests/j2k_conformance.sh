# The JPEG 2000 conformance codestreams (T.803 / ISO/IEC 15444-4, profiles 0 and 1),
# sourced by tests/check_one.sh for KIND j2kconf when GJ_J2K_CONFORMANCE names their
# directory (input/pP_NN.j2k, reference/c1pP_NN_K.pgx: class-1 references). FILE is
# the codestream. Each component must be within the class-1 peak error and MSE of
# T.803 Tables C.6/C.7. Streams that no frame format holds decode to PGX files,
# a component each.
conf_dir=$(dirname "$(dirname "$file")")
stream=$(basename "$file" .j2k)

# Class-1 tolerances per codestream: peak errors, then MSEs, per component (":"-separated).
case $stream in
    p0_04) limits="5:4:6 0.776:0.626:1.070" ;;
    p0_05) limits="2:2:2:0 0.302:0.307:0.269:0" ;;
    p0_06) limits="635:403:378:0 11287:6124:3968:0" ;;
    p1_02) limits="5:4:6 0.765:0.616:1.051" ;;
    p1_03) limits="2:2:1:0 0.3:0.210:0.200:0" ;;
    p1_04) limits="624 3080" ;;
    p1_05) limits="40:40:40 8.458:9.816:10.154" ;;
    p1_06) limits="2:2:2 0.6:0.6:0.6" ;;
    *) limits="0:0:0:0 0:0:0:0" ;;   # the others decode exactly
esac
peaks=${limits% *}
mses=${limits#* }
# Class 1 decodes p0_08 at half size (T.803's reduced-resolution case).
reduce=0
[ "$stream" = p0_08 ] && reduce=1

refs=$(ls "$conf_dir/reference/c1${stream}_"*.pgx 2>/dev/null || true)
[ -n "$refs" ] || skip "no class-1 reference in $conf_dir/reference"
run_gpujpeg info "$file"
format=$(sed -n 's/^  native format: *//p' "$tmp/stdout.txt")
case $format in
    gray | gray16le) ext=pgm ;;
    rgb24 | rgb48le) ext=ppm ;;
    yuvj*) ext=yuv ;;
    *) ext=pgx ;;   # no frame format holds it: each component in a PGX file of its own
esac
run_gpujpeg decode --device "$device" --reduce $reduce "$file" "$tmp/ours.$ext"
check_decoded
planes=
if [ $ext = yuv ]; then
    for ref in $refs; do
        planes="$planes${planes:+,}$(head -n 1 "$ref" | awk '{ print $(NF - 1) "x" $NF }')"
    done
fi
k=0
for ref in $refs; do
    peak=$(echo "$peaks" | cut -d : -f $((k + 1)))
    mse=$(echo "$mses" | cut -d : -f $((k + 1)))
    ours=$tmp/ours.$ext
    [ $ext != pgx ] || [ ! -f "$tmp/ours_$k.pgx" ] || ours=$tmp/ours_$k.pgx
    perl "$(dirname "$0")/tools/pgx_compare.pl" "$ours" $k "$ref" "${peak:-0}" "${mse:-0}" $planes \
        >> "$tmp/compare.txt" 2>&1 || fail "$(tail -n 1 "$tmp/compare.txt")"
    k=$((k + 1))
done
pass "class 1: $(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $4 }' "$tmp/compare.txt" | sed 's/^/peak /')"
