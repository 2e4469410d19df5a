# The summary table of bench/run_gpu.sh, from its results.txt: one line per
# result, "TOOL FILE SIZE SAMPLING RESTART MODE MEDIAN_MS MIN_MS IMG/S MPIX/S [NOTES]"
# (or "... MODE failed: why"). Run as: awk -v cores=16 -f bench/summary.awk results.txt
# POSIX awk only (the GPU machine may have mawk).

function column(tool, mode, kind, head) {
    ncol++
    col_tool[ncol] = tool
    col_mode[ncol] = mode
    col_kind[ncol] = kind   # ms: median ms/image; rate: 1000 / (img/s); mem: extra B/px
    col_head[ncol] = head
}

# extra=X.XXB/px from a line's notes, or "" when absent
function extra_bytes(    i) {
    for (i = 11; i <= NF; i++) {
        if ($i ~ /^extra=/) {
            return substr($i, 7, length($i) - 10)
        }
    }
    return ""
}

# A column's mode may list alternatives, "a|b": the first one measured counts.
function cell(file, c,    n, alt, i, k) {
    n = split(col_mode[c], alt, "|")
    for (i = 1; i <= n; i++) {
        k = col_tool[c] SUBSEP alt[i] SUBSEP file
        if (col_kind[c] == "mem")
            k = k SUBSEP "mem"
        if (k in val)
            return val[k]
    }
    return "-"
}

function value(tool, modes, file, what,    n, alt, i, k) {
    n = split(modes, alt, "|")
    for (i = 1; i <= n; i++) {
        k = tool SUBSEP alt[i] SUBSEP file
        if (k in ok)
            return what == "rate" ? ips[k] : med[k]
    }
    return ""
}

# 2 bytes per coefficient (one 16-bit buffer) + 1 byte per pixel, by sampling
function memory_limit(sampling) {
    if (sampling == "4:2:0") return 2 * 1.5 + 1
    if (sampling == "4:2:2" || sampling == "4:4:0") return 2 * 2 + 1
    if (sampling == "4:4:4") return 2 * 3 + 1
    if (sampling == "gray") return 2 * 1 + 1
    return ""
}

function ratio(a, b) {
    return (a != "" && b != "" && a > 0) ? sprintf("%.1fx", b / a) : "n/a"
}

function show(x, unit) {
    return x == "" ? "n/a" : sprintf("%.3f%s", x, unit)
}

BEGIN {
    column("ours", "dev-planar", "ms", "dev")
    column("ours", "dev-rgb24", "ms", "devRGB")
    column("ours", "host-rgb24", "ms", "hostRGB")
    column("ours", "dev-planar-b32|dev-planar-b8", "ms", "batch")
    column("ours", "host-rgb24-b32", "ms", "hRGBb32")
    column("ours-ocl", "dev-planar", "ms", "ocl")
    column("nvjpeg", "dev-planar", "ms", "nvj")
    column("nvjpeg", "dev-rgb24", "ms", "nvjRGB")
    column("nvjpeg", "hw-planar-b32", "ms", "nvjHW32")
    column("turbo", "rgb24-1t", "ms", "turbo1")
    column("turbo", "rgb24-" cores "t", "rate", "turbo" cores)
    column("gpujpeg", "host-rgb24", "ms", "gjHost")
    column("gpujpeg", "gpuonly-rgb24", "ms", "gjGPU")
    column("ours", "dev-planar", "mem", "memOurs")
    column("nvjpeg", "dev-planar", "mem", "memNvj")
}

{
    tool = $1; file = $2; mode = $6
    if (!(file in seen)) {
        seen[file] = 1
        order[++nfiles] = file
        sampling[file] = $4
        restart[file] = $5
    }
    k = tool SUBSEP mode SUBSEP file
    if ($7 == "failed:") {
        val[k] = "fail"
        next
    }
    ok[k] = 1
    med[k] = $7
    ips[k] = $9
    val[k] = sprintf("%.3f", $7)
    for (c = 1; c <= ncol; c++) {
        if (col_kind[c] == "rate" && col_tool[c] == tool && col_mode[c] == mode && $9 > 0)
            val[k] = sprintf("%.3f", 1000 / $9)
    }
    if ((x = extra_bytes()) != "")
        val[k SUBSEP "mem"] = sprintf("%.2f", x)
}

END {
    printf "%-22s %-5s %-6s", "file", "samp", "rst"
    for (c = 1; c <= ncol; c++)
        printf " %7s", col_head[c]
    printf "\n"
    for (i = 1; i <= nfiles; i++) {
        f = order[i]
        printf "%-22s %-5s %-6s", f, sampling[f], restart[f]
        for (c = 1; c <= ncol; c++)
            printf " %7s", cell(f, c)
        printf "\n"
    }
    print "dev/devRGB/hostRGB: libgpujpeg on CUDA to device planar / device rgb24 / host rgb24;"
    print "batch: batches of 32 to device planar (8k: of 8); hRGBb32: batches of 32 to host rgb24;"
    print "ocl: libgpujpeg on OpenCL on the NVIDIA GPU, device planar;"
    print "nvj/nvjRGB: nvJPEG default backend (YUV / RGBI); nvjHW32: nvJPEG hardware engines, batches of 32;"
    print "turbo1: libjpeg-turbo 1 thread; turbo" cores ": " cores " threads (1000 / total img/s);"
    print "gjHost/gjGPU: GPUJPEG host to host / GPU part only; memOurs/memNvj: GPU memory beyond the outputs, B/px."

    print ""
    print "== acceptance (issue 2)"
    f = "4k-q90-420.jpg"
    a = value("ours", "dev-planar", f); b = value("nvjpeg", "dev-planar", f)
    printf "%s single, device: ours %s (target <= 1.0 ms), nvJPEG %s: %s faster\n", f,
           show(a, " ms"), show(b, " ms"), ratio(a, b)
    a = value("ours", "dev-planar-b32", f, "rate"); b = value("nvjpeg", "hw-planar-b32", f, "rate")
    printf "%s batched: ours %s img/s (target >= 3000), nvJPEG hardware %s img/s\n", f,
           a == "" ? "n/a" : sprintf("%.0f", a), b == "" ? "n/a" : sprintf("%.0f", b)
    split("hd-q90-420.jpg 8k-q90-420.jpg", scaled, " ")
    for (j = 1; j <= 2; j++) {
        f = scaled[j]
        a = value("ours", "dev-planar", f); b = value("nvjpeg", "dev-planar", f)
        c1 = value("ours", "dev-planar-b32|dev-planar-b8", f, "rate")
        c2 = value("nvjpeg", "hw-planar-b32", f, "rate")
        printf "%s: ours %s vs nvJPEG %s (%s); batched ours %s vs hardware %s img/s\n", f,
               show(a, " ms"), show(b, " ms"), ratio(a, b),
               c1 == "" ? "n/a" : sprintf("%.0f", c1), c2 == "" ? "n/a" : sprintf("%.0f", c2)
    }
    for (i = 1; i <= nfiles; i++) {
        f = order[i]
        if (f !~ /^gpujpeg-/)
            continue
        printf "%s (GPUJPEG's own): host->host ours %s vs GPUJPEG %s; device ours %s vs GPUJPEG " \
               "without copies %s, GPU part %s\n", f,
               show(value("ours", "host-rgb24", f), ""), show(value("gpujpeg", "host-rgb24", f), ""),
               show(value("ours", "dev-rgb24", f), ""), show(value("gpujpeg", "nocopy-rgb24", f), ""),
               show(value("gpujpeg", "gpuonly-rgb24", f), "")
    }
    worst = ""
    for (i = 1; i <= nfiles; i++) {
        f = order[i]
        k = "ours" SUBSEP "dev-planar" SUBSEP f SUBSEP "mem"
        lim = memory_limit(sampling[f])
        if (!(k in val) || lim == "")
            continue
        if (worst == "" || val[k] - lim > worst_over) {
            worst = f
            worst_over = val[k] - lim
            worst_val = val[k]
            worst_lim = lim
        }
    }
    if (worst != "")
        printf "memory beyond the output frame: worst %s B/px on %s (limit %s B/px: a 16-bit " \
               "coefficient buffer + 1 B/px)%s\n", worst_val, worst, worst_lim,
               (worst_over > 0 ? "  OVER" : "")
    else
        print "memory: not reported (CUDA runs missing?)"
}
