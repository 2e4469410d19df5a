/*
 * The on-disk cache of OpenCL program binaries (see opencl_cache.h).
 *
 * One file per program and device, named by a 64-bit FNV-1a key:
 * <dir>/opencl-<key>.bin = header + the driver's binary. The header repeats the
 * key and carries the payload's size and checksum, because a driver handed a
 * truncated or damaged binary may crash instead of failing cleanly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "device/opencl_cache.h"

#define CACHE_MAGIC "GJCLBIN1"
/* Far above any real program binary; a larger size means a damaged header. */
#define CACHE_MAX_BINARY ((uint64_t)512 << 20)

typedef struct cache_header {
    char magic[8];
    uint64_t key;
    uint64_t size;          /* payload bytes after the header */
    uint64_t checksum;      /* FNV-1a 64 of the payload */
} cache_header;

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t fnv1a(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *p = data;

    for (size_t i = 0; i < size; i++)
        hash = (hash ^ p[i]) * FNV_PRIME;
    return hash;
}

/* Each part is hashed with its length so that ("ab", "c") and ("a", "bc") differ. */
static uint64_t key_of(const char *const *parts, int nb_parts)
{
    static const char format[] = "libgpujpeg OpenCL program cache 1";
    uint64_t hash = fnv1a(FNV_OFFSET, format, sizeof(format));

    for (int i = 0; i < nb_parts; i++) {
        const char *s = parts[i] ? parts[i] : "";
        uint64_t len = strlen(s);

        hash = fnv1a(hash, &len, sizeof(len));
        hash = fnv1a(hash, s, len);
    }
    return hash;
}

/* The cache directory from the environment; 0 when caching is off. */
static int cache_dir(char *dir, size_t size)
{
    const char *env = getenv("GJ_OPENCL_CACHE");
    const char *base;
    int n;

    if (env && !strcmp(env, "0"))
        return 0;
    if ((base = getenv("GJ_OPENCL_CACHE_DIR")) && *base)
        n = snprintf(dir, size, "%s", base);
    else if ((base = getenv("XDG_CACHE_HOME")) && *base == '/')
        n = snprintf(dir, size, "%s/libgpujpeg", base);
    else if ((base = getenv("HOME")) && *base)
        n = snprintf(dir, size, "%s/.cache/libgpujpeg", base);
    else
        return 0;
    return n > 0 && (size_t)n < size;
}

void gj_opencl_cache_locate(gj_opencl_cache_entry *entry, const char *const *parts,
                            int nb_parts)
{
    char dir[sizeof(entry->path) - 64];
    int n;

    entry->key = key_of(parts, nb_parts);
    entry->path[0] = '\0';
    if (!cache_dir(dir, sizeof(dir))) {
        gj_log(GJ_LOG_VERBOSE, "OpenCL cache: off (GJ_OPENCL_CACHE=0 or no cache directory)");
        return;
    }
    n = snprintf(entry->path, sizeof(entry->path), "%s/opencl-%016" PRIx64 ".bin", dir,
                 entry->key);
    if (n < 0 || (size_t)n >= sizeof(entry->path))
        entry->path[0] = '\0';
}

/* Reads and validates the cached binary; NULL when there is none or it is damaged. */
static unsigned char *read_binary(const gj_opencl_cache_entry *entry, size_t *size)
{
    FILE *f = fopen(entry->path, "rb");
    cache_header h;
    unsigned char *bin = NULL;
    const char *problem = NULL;

    if (!f) {
        if (errno != ENOENT)
            gj_log(GJ_LOG_VERBOSE, "OpenCL cache: cannot open %s: %s", entry->path,
                   strerror(errno));
        return NULL;
    }
    if (fread(&h, sizeof(h), 1, f) != 1 || memcmp(h.magic, CACHE_MAGIC, sizeof(h.magic)))
        problem = "no cache header";
    else if (h.key != entry->key)
        problem = "the key does not match";
    else if (h.size == 0 || h.size > CACHE_MAX_BINARY)
        problem = "implausible binary size";
    else if (!(bin = malloc(h.size)))
        problem = "out of memory";
    else if (fread(bin, 1, h.size, f) != h.size || fgetc(f) != EOF)
        problem = "the file size does not match";
    else if (fnv1a(FNV_OFFSET, bin, h.size) != h.checksum)
        problem = "checksum mismatch";
    fclose(f);
    if (problem) {
        gj_log(GJ_LOG_VERBOSE, "OpenCL cache: ignoring %s: %s", entry->path, problem);
        free(bin);
        return NULL;
    }
    *size = h.size;
    return bin;
}

static cl_program program_from_binary(const gj_opencl_cache_entry *entry, cl_context context,
                                      cl_device_id device, const char *options,
                                      const unsigned char *bin, size_t size)
{
    cl_int status = CL_SUCCESS, err;
    cl_program program = clCreateProgramWithBinary(context, 1, &device, &size, &bin, &status,
                                                   &err);

    if (err == CL_SUCCESS && status == CL_SUCCESS)
        err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    else if (err == CL_SUCCESS)
        err = status;
    if (err == CL_SUCCESS)
        return program;
    gj_log(GJ_LOG_VERBOSE, "OpenCL cache: the driver rejected %s (%d): rebuilding from source",
           entry->path, err);
    if (program)
        clReleaseProgram(program);
    return NULL;
}

cl_program gj_opencl_cache_load(const gj_opencl_cache_entry *entry, cl_context context,
                                cl_device_id device, const char *options)
{
    unsigned char *bin;
    size_t size;
    cl_program program;

    if (!entry->path[0] || !(bin = read_binary(entry, &size)))
        return NULL;
    program = program_from_binary(entry, context, device, options, bin, size);
    free(bin);
    return program;
}

/*
 * The binary of one device of a built program. A program created in a context of
 * several devices reports one binary per device; only ours is fetched.
 */
static unsigned char *program_binary(cl_program program, cl_device_id device, size_t *size)
{
    cl_uint n = 0, mine;
    cl_device_id *devices = NULL;
    size_t *sizes = NULL;
    unsigned char **bins = NULL, *bin = NULL;

    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n, NULL) != CL_SUCCESS ||
        !n || !(devices = calloc(n, sizeof(*devices))) || !(sizes = calloc(n, sizeof(*sizes))) ||
        !(bins = calloc(n, sizeof(*bins))) ||
        clGetProgramInfo(program, CL_PROGRAM_DEVICES, n * sizeof(*devices), devices,
                         NULL) != CL_SUCCESS ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, n * sizeof(*sizes), sizes,
                         NULL) != CL_SUCCESS)
        goto out;
    for (mine = 0; mine < n && devices[mine] != device; mine++)
        ;
    if (mine == n || !sizes[mine] || !(bin = malloc(sizes[mine])))
        goto out;
    bins[mine] = bin;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, n * sizeof(*bins), bins,
                         NULL) != CL_SUCCESS) {
        free(bin);
        bin = NULL;
        goto out;
    }
    *size = sizes[mine];
out:
    free(devices);
    free(sizes);
    free(bins);
    return bin;
}

/* Creates dir and its missing parents. */
static int make_dirs(const char *dir)
{
    char path[4096];
    size_t len = strlen(dir);

    if (len >= sizeof(path))
        return -1;
    memcpy(path, dir, len + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* Writes a temporary file beside the target and renames it over the target, so that
 * readers (other processes too) see either the old file or the complete new one. */
static void write_atomically(const gj_opencl_cache_entry *entry, const unsigned char *bin,
                             size_t size)
{
    cache_header h = { .key = entry->key, .size = size };
    char dir[sizeof(entry->path)], tmp[sizeof(entry->path) + 16];
    FILE *f;
    int fd, ok;

    memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
    h.checksum = fnv1a(FNV_OFFSET, bin, size);
    snprintf(dir, sizeof(dir), "%s", entry->path);
    *strrchr(dir, '/') = '\0';
    snprintf(tmp, sizeof(tmp), "%s/.tmp-XXXXXX", dir);
    if (make_dirs(dir) < 0 || (fd = mkstemp(tmp)) < 0) {
        gj_log(GJ_LOG_VERBOSE, "OpenCL cache: cannot write to %s: %s", dir, strerror(errno));
        return;
    }
    if (!(f = fdopen(fd, "wb"))) {
        close(fd);
        ok = 0;
    } else {
        ok = fwrite(&h, sizeof(h), 1, f) == 1 && fwrite(bin, 1, size, f) == size;
        ok = fclose(f) == 0 && ok;
    }
    if (ok && rename(tmp, entry->path) == 0) {
        gj_log(GJ_LOG_VERBOSE, "OpenCL cache: stored %s (%zu bytes)", entry->path, size);
        return;
    }
    gj_log(GJ_LOG_VERBOSE, "OpenCL cache: cannot write %s: %s", entry->path, strerror(errno));
    unlink(tmp);
}

void gj_opencl_cache_store(const gj_opencl_cache_entry *entry, cl_program program,
                           cl_device_id device)
{
    unsigned char *bin;
    size_t size;

    if (!entry->path[0])
        return;
    if (!(bin = program_binary(program, device, &size))) {
        gj_log(GJ_LOG_VERBOSE, "OpenCL cache: the driver offers no program binary");
        return;
    }
    write_atomically(entry, bin, size);
    free(bin);
}
