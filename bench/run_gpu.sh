#!/bin/sh
# The JPEG decoding benchmark, all peers in one run on the GPU machine.
#
#   sh bench/run_gpu.sh            (from the top of the checkout)
#
# Expects what was made on a Debian machine and carried along (doc/benchmarks.md):
#   .carry/photos/*.jpg          bench/make_photos.sh .carry/photos
#   .carry/bin/bench_turbo       bench_turbo built against Debian's libjpeg-turbo
#   .carry/lib/libjpeg.so.62     its library (cp -L)
#   .carry/gpujpeg-src.tar       optional: `git archive` of CESNET GPUJPEG (.tar.gz too)
#   .carry/nvjpeg/{include,lib}  optional: nvjpeg.h and libnvjpeg.so.* (pip package
#                                nvidia-nvjpeg) where the CUDA toolkit lacks nvJPEG
#   .carry/opencl/include/CL/    optional, with .carry/lib/libOpenCL.so.1: OpenCL headers
#                                and ICD loader where the GPU machine lacks them
# Builds libgpujpeg (autoreconf, configure, make; the library alone when libpng
# is missing), bench_decode, bench_nvjpeg and CESNET GPUJPEG (in the background),
# makes GPUJPEG's own restart-rich files from the photos, then measures on every
# file: libgpujpeg on CUDA (device and host output, single and batches of 32),
# libgpujpeg on OpenCL on the NVIDIA GPU (4k files), nvJPEG (default backend
# single, hardware engines batched), libjpeg-turbo (1 thread, all cores) and
# GPUJPEG. Everything goes to $OUT/bench.log, the result lines of all tools to
# $OUT/results.txt; the terminal gets progress and a summary table at the end.
#
# Environment: OUT (default /tmp/gjbench-out), GJ_BENCH_WORK (build folder for
# the bench programs and GPUJPEG, default /tmp/gjbench), GJ_BENCH_FILES (the
# inputs instead of .carry/photos/*.jpg), GJ_BENCH_SECONDS (time budget per file
# and mode, default 1), GJ_BENCH_DEVICE (ours: default cuda), GJ_BENCH_RECONFIGURE
# (set: configure again even when the tree is already built), CUDA_HOME.
set -eu

if [ ! -f configure.ac ] || [ ! -f bench/bench_decode.c ]; then
    echo "$0: run from the top of the libgpujpeg checkout" >&2
    exit 2
fi
top=$(pwd)
carry=$top/.carry
out=${OUT:-/tmp/gjbench-out}
work=${GJ_BENCH_WORK:-/tmp/gjbench}
secs=${GJ_BENCH_SECONDS:-1}
ours_device=${GJ_BENCH_DEVICE:-cuda}
jobs=$(nproc)
mkdir -p "$out" "$work"
log=$out/bench.log
results=$out/results.txt
: > "$results"
t_start=$(date +%s)
exec 3>&1 > "$log" 2>&1

# progress: to the log and to the terminal
say() {
    line=$(printf '[%4ss] %s' $(($(date +%s) - t_start)) "$*")
    echo "$line"
    echo "$line" >&3
}

# ---------------------------------------------------------------- the machine
nvcc=$(command -v nvcc 2>/dev/null || true)
for c in "${CUDA_HOME:-}" /usr/local/cuda; do
    if [ -z "$nvcc" ] && [ -n "$c" ] && [ -x "$c/bin/nvcc" ]; then
        nvcc=$c/bin/nvcc
    fi
done
cuda_home=${CUDA_HOME:-$(dirname "$(dirname "${nvcc:-/usr/local/cuda/bin/nvcc}")")}
cuda_lib=$cuda_home/lib64
[ -d "$cuda_lib" ] || cuda_lib=$cuda_home/targets/x86_64-linux/lib
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. ' || true)
gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n 1 || true)
say "machine: ${gpu:-no nvidia-smi}, sm_${arch:-?}, $jobs cores, nvcc ${nvcc:-not found}"
nvidia-smi || true
"${nvcc:-nvcc}" --version || true

# ---------------------------------------------------------------- CESNET GPUJPEG (background)
gpujpeg_src=$(ls "$carry"/gpujpeg-src.tar* 2>/dev/null | head -n 1 || true)
gpujpeg_pid=
if [ -n "$gpujpeg_src" ]; then
    say "GPUJPEG: building from $gpujpeg_src in the background"
    CUDA_ARCH=${arch:-} sh bench/gpujpeg_cesnet.sh build "$gpujpeg_src" "$work/gpujpeg" \
        > "$work/gpujpeg-build.log" 2>&1 &
    gpujpeg_pid=$!
else
    say "GPUJPEG: no $carry/gpujpeg-src.tar*: skipped"
fi

# ---------------------------------------------------------------- libgpujpeg
# Without OpenCL headers and loader here, carried ones let configure build the
# OpenCL backend: .carry/opencl/include/CL/*.h and .carry/lib/libOpenCL.so.1.
opencl_cflags=
opencl_libs=
if ! printf '#include <CL/cl.h>\n' | gcc -E - > /dev/null 2>&1 &&
   [ -f "$carry/opencl/include/CL/cl.h" ] && [ -f "$carry/lib/libOpenCL.so.1" ]; then
    mkdir -p "$work/opencl"
    ln -sf "$carry/lib/libOpenCL.so.1" "$work/opencl/libOpenCL.so"
    opencl_cflags="-I$carry/opencl/include"
    opencl_libs="-L$work/opencl -lOpenCL"
    LD_LIBRARY_PATH=$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
    say "OpenCL: using the carried headers and ICD loader"
fi

# configure ARGS...: CUDA_ARCHS limits the fatbin to this GPU (the build is faster).
configure_ours() {
    set -- ${arch:+CUDA_ARCHS=$arch} "$@"
    if [ -n "$opencl_libs" ]; then
        ./configure "$@" OPENCL_CFLAGS="$opencl_cflags" OPENCL_LIBS="$opencl_libs"
    else
        ./configure "$@"
    fi
}

build_ours() {
    if [ -f Makefile ] && [ -f libgpujpeg.la ] && [ -z "${GJ_BENCH_RECONFIGURE:-}" ]; then
        say "libgpujpeg: tree already configured: make"
    else
        say "libgpujpeg: autoreconf -fi && ./configure && make"
        # A checkout carried with its generated configure needs no autotools here.
        [ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
        if ! configure_ours; then
            if grep -q 'libpng not found' config.log; then
                say "libgpujpeg: configure failed: libpng (libpng-dev) is missing; configuring" \
                    "without it and building the library only (the gpujpeg tool needs libpng)"
                configure_ours PNG_CFLAGS=' ' PNG_LIBS=' '
            else
                say "libgpujpeg: configure failed (see $log)"
                return 1
            fi
        fi
    fi
    make -j"$jobs" libgpujpeg.la
}

if ! build_ours; then
    say "libgpujpeg: build failed; the tail of $log:"
    tail -n 30 "$log" >&3
    exit 1
fi
grep -E 'CUDA backend|OpenCL backend' config.log | head -n 4 || true
gcc -O2 -std=gnu11 -Ilibgpujpeg/include bench/bench_decode.c bench/bench_util.c \
    -o "$work/bench_decode" -L.libs -lgpujpeg -ldl -Wl,-rpath,"$top/.libs"
say "libgpujpeg: built; bench_decode: $work/bench_decode"

# ---------------------------------------------------------------- nvJPEG
# The first folder holding include/nvjpeg.h and a libnvjpeg.so next to it.
find_nvjpeg() {
    sites=$(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null || true)
    for d in "$cuda_home" "$cuda_home/targets/x86_64-linux" /usr/local/cuda /usr "$carry/nvjpeg" \
             $(for s in $sites; do echo "$s/nvidia/cu13 $s/nvidia/nvjpeg $s/nvidia/cu12"; done); do
        [ -f "$d/include/nvjpeg.h" ] || continue
        for l in "$d"/lib64/libnvjpeg.so "$d"/lib/libnvjpeg.so "$d"/lib/x86_64-linux-gnu/libnvjpeg.so \
                 "$d"/lib64/libnvjpeg.so.* "$d"/lib/libnvjpeg.so.* "$d"/lib/x86_64-linux-gnu/libnvjpeg.so.*; do
            if [ -f "$l" ]; then
                nvjpeg_inc=$d/include
                nvjpeg_lib=$l
                return 0
            fi
        done
    done
    return 1
}

have_nvjpeg=
if find_nvjpeg && gcc -O2 -std=gnu11 -I"$nvjpeg_inc" -I"$cuda_home/include" bench/bench_nvjpeg.c \
        bench/bench_util.c -o "$work/bench_nvjpeg" "$nvjpeg_lib" -L"$cuda_lib" -lcudart \
        -Wl,-rpath,"$(dirname "$nvjpeg_lib")" -Wl,-rpath,"$cuda_lib"; then
    have_nvjpeg=1
    say "nvJPEG: $nvjpeg_lib; bench_nvjpeg: $work/bench_nvjpeg"
else
    say "nvJPEG: nvjpeg.h + libnvjpeg not found or bench_nvjpeg did not build: skipped"
fi

# ---------------------------------------------------------------- libjpeg-turbo
turbo=
turbo_libs=
if [ -x "$carry/bin/bench_turbo" ] && LD_LIBRARY_PATH="$carry/lib" "$carry/bin/bench_turbo" --help > /dev/null; then
    turbo=$carry/bin/bench_turbo
    turbo_libs=$carry/lib
elif printf '#include <stdio.h>\n#include <jpeglib.h>\n' | gcc -E - > /dev/null 2>&1 &&
     gcc -O2 -std=gnu11 bench/bench_turbo.c bench/bench_util.c -o "$work/bench_turbo" -ljpeg -lpthread; then
    turbo=$work/bench_turbo
    say "libjpeg-turbo: the carried bench_turbo did not run; built against this machine's libjpeg"
fi
[ -n "$turbo" ] || say "libjpeg-turbo: no runnable bench_turbo and no jpeglib.h: skipped"

# ---------------------------------------------------------------- inputs
files=${GJ_BENCH_FILES:-$(ls "$carry"/photos/*.jpg 2>/dev/null || true)}
if [ -z "$files" ]; then
    say "no inputs: make them with bench/make_photos.sh .carry/photos (doc/benchmarks.md)"
    exit 1
fi

gpujpeg_tool=
if [ -n "$gpujpeg_pid" ]; then
    if wait "$gpujpeg_pid"; then
        gpujpeg_tool=$(tail -n 1 "$work/gpujpeg-build.log")
        say "GPUJPEG: built: $gpujpeg_tool"
    else
        say "GPUJPEG: build failed (log: $work/gpujpeg-build.log, copied into $log); skipped"
    fi
    cat "$work/gpujpeg-build.log"
fi

# GPUJPEG's own files: its encoder, its default restart interval, non-interleaved scans.
rich=
if [ -n "$gpujpeg_tool" ]; then
    mkdir -p "$work/gpujpeg-files"
    for spec in hd-q90-420:4:2:0 4k-q90-420:4:2:0 4k-q90-444:4:4:4 8k-q90-420:4:2:0; do
        name=${spec%%:*}
        src=
        for f in $files; do
            if [ "$(basename "$f")" = "${name%-*}-420.jpg" ]; then
                src=$f
            fi
        done
        dst=$work/gpujpeg-files/gpujpeg-$name.jpg
        [ -n "$src" ] || continue
        if sh bench/gpujpeg_cesnet.sh encode "$gpujpeg_tool" "$src" "$dst" 90 "${spec#*:}"; then
            rich="$rich $dst"
        else
            say "GPUJPEG: could not make $(basename "$dst") (see $log)"
        fi
    done
    say "GPUJPEG: restart-rich files:$(for f in $rich; do printf ' %s' "$(basename "$f")"; done)"
fi
all="$files$rich"
k4=$(for f in $all; do case $(basename "$f") in 4k-*|gpujpeg-4k-*) echo "$f" ;; esac; done)
small=$(for f in $all; do case $(basename "$f") in *8k-*) ;; *) echo "$f" ;; esac; done)
big=$(for f in $all; do case $(basename "$f") in *8k-*) echo "$f" ;; esac; done)
say "inputs: $(echo $all | wc -w) files"

# ---------------------------------------------------------------- measuring
# step TOOL COMMAND...: runs a benchmark program; its output into the log, its
# result lines (tagged with TOOL) into $results. Returns the program's status.
step() {
    tool=$1
    shift
    say "$tool: $(for a in "$@"; do case $a in *.jpg|env|*=*) ;; */*) basename "$a" ;; *) echo "$a" ;; esac; done |
        tr '\n' ' ')($(for a in "$@"; do case $a in *.jpg) echo "$a" ;; esac; done | wc -l) files)"
    rc=0
    "$@" > "$work/step.txt" || rc=$?
    cat "$work/step.txt"
    grep -v '^#' "$work/step.txt" | sed "s|^|$tool |" >> "$results" || true
    grep '^# hardware backend' "$work/step.txt" >&3 || true
    [ $rc -eq 0 ] || say "$tool: exited with status $rc"
    return $rc
}

bd=$work/bench_decode
# Batches: 32 images up to 4k, 8 of 8k (memory, and time if a decoder is slow).
ours="$bd --device $ours_device --seconds $secs"
if step ours $ours --iters 50 $all; then
    step ours $ours --iters 30 --format rgb24 $all || true
    step ours $ours --iters 30 --host --format rgb24 $all || true
    [ -z "$small" ] || step ours $ours --iters 5 --batch 32 $small || true
    [ -z "$big" ] || step ours $ours --iters 5 --batch 8 $big || true
    [ -z "$small" ] || step ours $ours --iters 5 --batch 32 --host --format rgb24 $small || true
fi

# OpenCL on the NVIDIA GPU, through the ICD loader and NVIDIA's own ICD.
ocl_lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1 / { print $NF; exit }')
ocl_lib=${ocl_lib:-libnvidia-opencl.so.1}
if [ -n "$k4" ]; then
    mkdir -p "$work/icd"
    echo "$ocl_lib" > "$work/icd/nvidia.icd"
    ocl="env OCL_ICD_VENDORS=$work/icd $bd --device opencl-gpu --seconds $secs"
    if step ours-ocl $ocl --iters 30 $k4; then
        step ours-ocl $ocl --iters 20 --host --format rgb24 $k4 || true
        step ours-ocl $ocl --iters 5 --batch 32 $k4 || true
    else
        say "ours-ocl: no OpenCL GPU device through $ocl_lib (OpenCL backend built? see $log)"
    fi
fi

if [ -n "$have_nvjpeg" ]; then
    step nvjpeg "$work/bench_nvjpeg" --seconds "$secs" --iters 30 --batch 32 $all || true
    if [ -n "$k4" ]; then
        step nvjpeg "$work/bench_nvjpeg" --seconds "$secs" --iters 30 --batch 32 --format rgb24 $k4 || true
    fi
fi

if [ -n "$turbo" ]; then
    step turbo env LD_LIBRARY_PATH="$turbo_libs" "$turbo" --seconds 0.5 --iters 30 --threads "$jobs" \
        $all || true
fi

if [ -n "$gpujpeg_tool" ]; then
    step gpujpeg sh bench/gpujpeg_cesnet.sh decode "$gpujpeg_tool" 15 $all || true
fi

# ---------------------------------------------------------------- summary
{
    echo
    echo "== results: ms per image (median; batches: per image), $(date -u '+%Y-%m-%d %H:%M UTC')"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 || true
    awk -v cores="$jobs" -f bench/summary.awk "$results"
    echo "== all result lines: $results; full log: $log"
} > "$work/summary.txt"
cat "$work/summary.txt"
cat "$work/summary.txt" >&3
say "done"
