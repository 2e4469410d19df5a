# The names of the JPEG encoding tests (tests/gen_encode_corpus.sh), sourced by
# tests/encode_check.sh and tests/encode_compare.sh. Needs enc_corpus (the
# corpus directory).

# cjpeg's options for a sampling name.
cjpeg_sampling() {
    case $1 in
        420) echo "-sample 2x2" ;; 422) echo "-sample 2x1" ;; 444) echo "-sample 1x1" ;;
        440) echo "-sample 1x2" ;; gray) echo "-grayscale" ;;
    esac
}

# parse_case REST: sets in (input file), s, q, opt (0/1), r (restart MCUs or empty).
parse_case() {
    rest=$1 opt=0 r=
    case $rest in *_r[0-9]*) r=${rest##*_r}; rest=${rest%_r*} ;; esac
    case $rest in *_opt) opt=1; rest=${rest%_opt} ;; esac
    q=${rest##*_q}
    rest=${rest%_q*}
    s=${rest##*_}
    in=${rest%_*}
    case $in in *.*) in=$enc_corpus/$in ;; *) in=$enc_corpus/$in.ppm ;; esac
}


# gpujpeg encode's options for the parsed case.
encode_options() {
    echo "-q $q --sampling $s${r:+ --restart $r}$([ "$opt" = 1 ] && echo ' --optimize')"
}

# parse_ycc_case REST (ycc_ tests: IN_FMT_S): sets in (the Y4M file), s, q (85), opt, r.
parse_ycc_case() {
    s=${1##*_} q=85 opt=0 r=
    in=$enc_corpus/${1%_*}.y4m
}
