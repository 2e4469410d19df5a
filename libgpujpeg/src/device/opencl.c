/*
 * The OpenCL backend: devices from the ICD loader, one in-order command queue per
 * device, and the kernels of src/kernels/opencl/kernels.cl (embedded as source)
 * built at the first launch, with the program binary cached on disk
 * (opencl_cache.c). Only OpenCL 1.2 API calls are used, so every 1.2 platform
 * works, PoCL on the CPU included.
 *
 * Thread-safety: a gj_device is used by one thread at a time. The kernel table
 * and the kernels' arguments (clSetKernelArg) are per-device state without locks.
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "device/device.h"
#include "device/opencl_cache.h"

/* clGetPlatformIDs' answer when the ICD loader finds no platform (cl_khr_icd). */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* The kernels are OpenCL C 1.2 (Debian 12's PoCL offers nothing newer). */
#define BUILD_OPTIONS "-cl-std=CL1.2"

/* Generated from src/kernels/opencl/kernels.cl by build-aux/embed-opencl.awk. */
extern const char gj_opencl_kernel_source[];

typedef struct opencl_kernel {
    char *name;
    cl_kernel kernel;
} opencl_kernel;

typedef struct opencl_device {
    gj_device pub;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_ulong max_alloc;
    cl_program program;         /* built at the first launch */
    int program_error;          /* set once the build failed: it is not retried */
    opencl_kernel *kernels;     /* created at their first launch, by name */
    int nb_kernels;
    int kernels_cap;
} opencl_device;

static const char *cl_error_name(cl_int err)
{
    switch (err) {
#define NAME(e) case e: return #e;
    NAME(CL_DEVICE_NOT_FOUND) NAME(CL_DEVICE_NOT_AVAILABLE) NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE) NAME(CL_OUT_OF_RESOURCES)
    NAME(CL_OUT_OF_HOST_MEMORY) NAME(CL_PROFILING_INFO_NOT_AVAILABLE) NAME(CL_MEM_COPY_OVERLAP)
    NAME(CL_IMAGE_FORMAT_MISMATCH) NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    NAME(CL_BUILD_PROGRAM_FAILURE) NAME(CL_MAP_FAILURE) NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) NAME(CL_COMPILE_PROGRAM_FAILURE)
    NAME(CL_LINKER_NOT_AVAILABLE) NAME(CL_LINK_PROGRAM_FAILURE) NAME(CL_DEVICE_PARTITION_FAILED)
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) NAME(CL_INVALID_VALUE) NAME(CL_INVALID_DEVICE_TYPE)
    NAME(CL_INVALID_PLATFORM) NAME(CL_INVALID_DEVICE) NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_QUEUE_PROPERTIES) NAME(CL_INVALID_COMMAND_QUEUE) NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT) NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    NAME(CL_INVALID_IMAGE_SIZE) NAME(CL_INVALID_SAMPLER) NAME(CL_INVALID_BINARY)
    NAME(CL_INVALID_BUILD_OPTIONS) NAME(CL_INVALID_PROGRAM) NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    NAME(CL_INVALID_KERNEL_NAME) NAME(CL_INVALID_KERNEL_DEFINITION) NAME(CL_INVALID_KERNEL)
    NAME(CL_INVALID_ARG_INDEX) NAME(CL_INVALID_ARG_VALUE) NAME(CL_INVALID_ARG_SIZE)
    NAME(CL_INVALID_KERNEL_ARGS) NAME(CL_INVALID_WORK_DIMENSION)
    NAME(CL_INVALID_WORK_GROUP_SIZE) NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_OFFSET) NAME(CL_INVALID_EVENT_WAIT_LIST) NAME(CL_INVALID_EVENT)
    NAME(CL_INVALID_OPERATION) NAME(CL_INVALID_GL_OBJECT) NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_MIP_LEVEL) NAME(CL_INVALID_GLOBAL_WORK_SIZE) NAME(CL_INVALID_PROPERTY)
    NAME(CL_INVALID_IMAGE_DESCRIPTOR) NAME(CL_INVALID_COMPILER_OPTIONS)
    NAME(CL_INVALID_LINKER_OPTIONS) NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    NAME(CL_PLATFORM_NOT_FOUND_KHR)
#undef NAME
    default: return "unknown error";
    }
}

static int cl_error_code(cl_int err)
{
    switch (err) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY:
        return GJ_ERROR_NOMEM;
    default:
        return GJ_ERROR_EXTERNAL;
    }
}

/* Logs "OpenCL: <what> failed (<err>, <name>) on <device>" and returns the gj code. */
static int cl_fail(const char *device_name, cl_int err, const char *what, ...) GJ_PRINTF(3, 4);

static int cl_fail(const char *device_name, cl_int err, const char *what, ...)
{
    char call[256];
    va_list ap;

    va_start(ap, what);
    vsnprintf(call, sizeof(call), what, ap);
    va_end(ap);
    return gj_fail(cl_error_code(err), "OpenCL: %s failed (%d, %s) on %s", call, err,
                   cl_error_name(err), device_name);
}

/* A string property of a device, or of a platform when device is NULL; malloc'd. */
static char *info_string(cl_platform_id platform, cl_device_id device, cl_uint param)
{
    size_t size = 0;
    char *s;
    cl_int err = device ? clGetDeviceInfo(device, param, 0, NULL, &size)
                        : clGetPlatformInfo(platform, param, 0, NULL, &size);

    if (err != CL_SUCCESS || !(s = malloc(size + 1)))
        return NULL;
    err = device ? clGetDeviceInfo(device, param, size, s, NULL)
                 : clGetPlatformInfo(platform, param, size, s, NULL);
    if (err != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    s[size] = '\0';
    return s;
}

/* Some drivers pad names with spaces (Intel's CPU device has leading ones). */
static void copy_trimmed(char *dst, size_t size, const char *src)
{
    size_t len;

    src += strspn(src, " \t");
    len = strlen(src);
    while (len && (src[len - 1] == ' ' || src[len - 1] == '\t'))
        len--;
    if (len >= size)
        len = size - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static void fill_desc(gj_device_desc *desc, int platform_index, int device_index,
                      cl_platform_id platform, cl_device_id device)
{
    char *name = info_string(NULL, device, CL_DEVICE_NAME);
    char *platform_name = info_string(platform, NULL, CL_PLATFORM_NAME);
    cl_device_type type = 0;
    cl_ulong memory = 0;

    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
    clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(memory), &memory, NULL);
    memset(desc, 0, sizeof(*desc));
    desc->backend = GJ_BACKEND_OPENCL;
    desc->index = platform_index;
    desc->sub_index = device_index;
    desc->is_gpu = !!(type & CL_DEVICE_TYPE_GPU);
    desc->memory_bytes = (size_t)memory;
    copy_trimmed(desc->name, sizeof(desc->name), name ? name : "unknown device");
    copy_trimmed(desc->platform, sizeof(desc->platform),
                 platform_name ? platform_name : "unknown platform");
    free(name);
    free(platform_name);
}

/* Why the kernels cannot run on device, or NULL when they can. */
static const char *unusable_reason(cl_device_id device)
{
    char *version = info_string(NULL, device, CL_DEVICE_OPENCL_C_VERSION);
    cl_bool available = CL_FALSE, compiler = CL_FALSE;
    int major = 0, minor = 0;

    if (version)
        sscanf(version, "OpenCL C %d.%d", &major, &minor);
    free(version);
    if (clGetDeviceInfo(device, CL_DEVICE_AVAILABLE, sizeof(available), &available,
                        NULL) != CL_SUCCESS || !available)
        return "the device is not available";
    if (clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(compiler), &compiler,
                        NULL) != CL_SUCCESS || !compiler)
        return "the driver has no OpenCL C compiler";
    if (major < 1 || (major == 1 && minor < 2))
        return "the device does not support OpenCL C 1.2";
    return NULL;
}

/* All platforms, malloc'd; 0 without a message when the ICD loader finds none. */
static cl_uint get_platforms(cl_platform_id **platforms)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);

    *platforms = NULL;
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && !n))
        return 0;
    if (err == CL_SUCCESS && !(*platforms = malloc(n * sizeof(**platforms))))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = clGetPlatformIDs(n, *platforms, NULL);
    if (err == CL_SUCCESS)
        return n;
    gj_log(GJ_LOG_WARNING, "OpenCL: clGetPlatformIDs failed (%d, %s)", err, cl_error_name(err));
    free(*platforms);
    *platforms = NULL;
    return 0;
}

/* All devices of a platform, malloc'd. */
static cl_uint get_devices(cl_platform_id platform, cl_device_id **devices)
{
    cl_uint n = 0;
    cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n);

    *devices = NULL;
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && !n))
        return 0;
    if (err == CL_SUCCESS && !(*devices = malloc(n * sizeof(**devices))))
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, *devices, NULL);
    if (err == CL_SUCCESS)
        return n;
    gj_log(GJ_LOG_WARNING, "OpenCL: clGetDeviceIDs failed (%d, %s)", err, cl_error_name(err));
    free(*devices);
    *devices = NULL;
    return 0;
}

int gj_opencl_list(gj_device_desc *descs, int max)
{
    cl_platform_id *platforms;
    cl_uint nb_platforms = get_platforms(&platforms);
    int count = 0;

    for (cl_uint p = 0; p < nb_platforms; p++) {
        cl_device_id *devices;
        cl_uint nb_devices = get_devices(platforms[p], &devices);

        for (cl_uint d = 0; d < nb_devices; d++) {
            const char *why = unusable_reason(devices[d]);

            if (why) {
                gj_log(GJ_LOG_VERBOSE, "OpenCL: skipping device %u of platform %u: %s", d, p,
                       why);
                continue;
            }
            if (descs && count < max)
                fill_desc(&descs[count], (int)p, (int)d, platforms[p], devices[d]);
            count++;
        }
        free(devices);
    }
    free(platforms);
    return count;
}

static void release_handles(cl_context context, cl_device_id device, cl_command_queue queue)
{
    if (queue)
        clReleaseCommandQueue(queue);
    if (context)
        clReleaseContext(context);
    if (device)
        clReleaseDevice(device);
}

static void opencl_destroy(gj_device *dev)
{
    opencl_device *cl = dev->priv;

    /* Queued copies may still read or write host memory the caller frees next. */
    clFinish(cl->queue);
    for (int i = 0; i < cl->nb_kernels; i++) {
        clReleaseKernel(cl->kernels[i].kernel);
        free(cl->kernels[i].name);
    }
    free(cl->kernels);
    if (cl->program)
        clReleaseProgram(cl->program);
    release_handles(cl->context, cl->device, cl->queue);
    free(cl);
}

static int opencl_buffer_create(gj_device *dev, size_t size, gj_buffer *buf)
{
    opencl_device *cl = dev->priv;
    cl_int err;
    cl_mem mem;

    buf->handle = 0;
    buf->size = 0;
    if (size > cl->max_alloc)
        return gj_fail(GJ_ERROR_NOMEM, "OpenCL: a buffer of %zu bytes exceeds the largest "
                       "allocation of %s (%llu bytes)", size, dev->desc.name,
                       (unsigned long long)cl->max_alloc);
    /* OpenCL has no empty buffers, but callers may ask for one. */
    mem = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, size ? size : 1, NULL, &err);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clCreateBuffer of %zu bytes", size);
    buf->handle = (uintptr_t)mem;
    buf->size = size;
    gj_dev_count_buffer(dev, size, 1);
    return 0;
}

static void opencl_buffer_destroy(gj_device *dev, gj_buffer *buf)
{
    if (buf->handle) {
        clReleaseMemObject((cl_mem)buf->handle);
        gj_dev_count_buffer(dev, buf->size, 0);
    }
    buf->handle = 0;
    buf->size = 0;
}

/*
 * A sub-buffer. OpenCL makes none of a sub-buffer (a caller's plane may be one), so
 * such a parent gives way to its own parent, at its offset there, which is where
 * the alignment counts. The kernels read and write views: images and buffers that
 * are not read-write do not serve.
 */
static int opencl_view_create(gj_device *dev, const gj_buffer *parent, size_t offset, size_t size,
                              gj_buffer *view, size_t *start)
{
    cl_mem mem = (cl_mem)parent->handle, root = NULL;
    cl_mem_object_type type = 0;
    cl_mem_flags flags = 0;
    size_t mem_size = 0, root_offset = 0;
    cl_buffer_region region;
    cl_int err;

    view->handle = 0;
    view->size = 0;
    if (!size)
        return GJ_ERROR_UNSUPPORTED;
    err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof(type), &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof(flags), &flags, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(mem_size), &mem_size, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(root), &root, NULL);
    if (err == CL_SUCCESS && root)
        err = clGetMemObjectInfo(mem, CL_MEM_OFFSET, sizeof(root_offset), &root_offset, NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clGetMemObjectInfo of a view's parent");
    if (type != CL_MEM_OBJECT_BUFFER || (flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)))
        return GJ_ERROR_UNSUPPORTED;
    if (gj_dev_view_start(dev, root_offset, offset, size, parent->size < mem_size ? parent->size : mem_size,
                          start) < 0)
        return GJ_ERROR_UNSUPPORTED;
    region.origin = root_offset + *start;
    region.size = size;
    mem = clCreateSubBuffer(root ? root : mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clCreateSubBuffer of %zu bytes at offset %zu", size, region.origin);
    view->handle = (uintptr_t)mem;
    view->size = size;
    return 0;
}

/* The sub-buffer goes once the commands queued with it are done (OpenCL 1.2, 5.4.1). */
static void opencl_view_release(gj_device *dev, gj_buffer *view)
{
    if (view->handle)
        clReleaseMemObject((cl_mem)view->handle);
    view->handle = 0;
    view->size = 0;
}

/*
 * Host memory that copies reach at the bus's speed: a CL_MEM_ALLOC_HOST_PTR buffer kept
 * mapped (page-locked on GPU platforms, as their guides advise), ordinary memory where
 * the platform will not make one. The header before the memory handed out holds the
 * buffer (NULL: ordinary memory), so that it is freed without a list (FFmpeg frees
 * frames from any thread); both are 64-byte aligned, as CUDA's page-locked memory is
 * at least.
 */
#define HOST_HEADER 64

static void *opencl_host_alloc(gj_device *dev, size_t size)
{
    opencl_device *cl = dev->priv;
    size_t total = size + HOST_HEADER;
    cl_mem mem = NULL;
    uint8_t *base = NULL;
    cl_int err = CL_SUCCESS;

    if (size > SIZE_MAX - HOST_HEADER)
        return NULL;
    if (total <= cl->max_alloc)
        mem = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, total, NULL, &err);
    if (mem && err == CL_SUCCESS)
        base = clEnqueueMapBuffer(cl->queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, total, 0, NULL, NULL,
                                  &err);
    if (base && err == CL_SUCCESS && !((uintptr_t)base & (HOST_HEADER - 1))) {
        *(cl_mem *)base = mem;
        return base + HOST_HEADER;
    }
    if (base)
        clEnqueueUnmapMemObject(cl->queue, mem, base, 0, NULL, NULL);
    if (mem)
        clReleaseMemObject(mem);
    if (posix_memalign((void **)&base, HOST_HEADER, total))
        return NULL;
    *(cl_mem *)base = NULL;
    return base + HOST_HEADER;
}

static void opencl_host_free(gj_device *dev, void *ptr)
{
    opencl_device *cl = dev->priv;
    uint8_t *base;
    cl_mem mem;

    if (!ptr)
        return;
    base = (uint8_t *)ptr - HOST_HEADER;
    mem = *(cl_mem *)base;
    if (mem) {
        /* the buffer goes once the unmap is done (OpenCL 1.2, 5.4.1) */
        clEnqueueUnmapMemObject(cl->queue, mem, base, 0, NULL, NULL);
        clReleaseMemObject(mem);
    } else {
        free(base);
    }
}

static int opencl_upload(gj_device *dev, const gj_buffer *dst, size_t dst_offset,
                         const void *src, size_t size)
{
    opencl_device *cl = dev->priv;
    cl_int err;

    if (!size)
        return 0;
    err = clEnqueueWriteBuffer(cl->queue, (cl_mem)dst->handle, CL_FALSE, dst_offset, size, src,
                               0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clEnqueueWriteBuffer of %zu bytes at offset %zu",
                       size, dst_offset);
    return 0;
}

static int opencl_download(gj_device *dev, void *dst, const gj_buffer *src, size_t src_offset,
                           size_t size)
{
    opencl_device *cl = dev->priv;
    cl_int err;

    if (!size)
        return 0;
    err = clEnqueueReadBuffer(cl->queue, (cl_mem)src->handle, CL_FALSE, src_offset, size, dst,
                              0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clEnqueueReadBuffer of %zu bytes at offset %zu",
                       size, src_offset);
    return 0;
}

static int opencl_download_2d(gj_device *dev, void *dst, size_t dst_pitch,
                              const gj_buffer *src, size_t src_offset, size_t src_pitch,
                              size_t width_bytes, size_t height)
{
    opencl_device *cl = dev->priv;
    const size_t buffer_origin[3] = { src_offset, 0, 0 };
    const size_t host_origin[3] = { 0, 0, 0 };
    const size_t region[3] = { width_bytes, height, 1 };
    cl_int err;

    if (!width_bytes || !height)
        return 0;
    err = clEnqueueReadBufferRect(cl->queue, (cl_mem)src->handle, CL_FALSE, buffer_origin,
                                  host_origin, region, src_pitch, 0, dst_pitch, 0, dst, 0, NULL,
                                  NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clEnqueueReadBufferRect of %zux%zu bytes at "
                       "offset %zu (pitch %zu -> %zu)", width_bytes, height, src_offset,
                       src_pitch, dst_pitch);
    return 0;
}

static int opencl_copy_2d(gj_device *dev, const gj_buffer *dst, size_t dst_offset, size_t dst_pitch,
                          const gj_buffer *src, size_t src_offset, size_t src_pitch,
                          size_t width_bytes, size_t height)
{
    opencl_device *cl = dev->priv;
    const size_t src_origin[3] = { src_offset, 0, 0 };
    const size_t dst_origin[3] = { dst_offset, 0, 0 };
    const size_t region[3] = { width_bytes, height, 1 };
    cl_int err;

    if (!width_bytes || !height)
        return 0;
    err = clEnqueueCopyBufferRect(cl->queue, (cl_mem)src->handle, (cl_mem)dst->handle, src_origin, dst_origin,
                                  region, src_pitch, 0, dst_pitch, 0, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clEnqueueCopyBufferRect of %zux%zu bytes (offsets %zu -> %zu, "
                       "pitches %zu -> %zu)", width_bytes, height, src_offset, dst_offset, src_pitch, dst_pitch);
    return 0;
}

static int opencl_fill_zero(gj_device *dev, const gj_buffer *buf, size_t offset, size_t size)
{
    static const unsigned char zero[16];
    opencl_device *cl = dev->priv;
    size_t pattern = sizeof(zero);
    cl_int err;

    if (!size)
        return 0;
    /* Offset and size must be multiples of the pattern size: take the widest that fits. */
    while (pattern > 1 && ((offset | size) & (pattern - 1)))
        pattern >>= 1;
    err = clEnqueueFillBuffer(cl->queue, (cl_mem)buf->handle, zero, pattern, offset, size, 0,
                              NULL, NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clEnqueueFillBuffer of %zu bytes at offset %zu",
                       size, offset);
    return 0;
}

/* Logs the build log line by line (drivers write many), capped. */
static void log_build_log(opencl_device *cl, cl_program program, int level)
{
    enum { MAX_LINES = 40 };
    char *log = NULL, *line, *save = NULL;
    size_t size = 0;
    int n = 0;

    if (clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &size) != CL_SUCCESS || !(log = malloc(size + 1)) ||
        clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, size, log,
                              NULL) != CL_SUCCESS) {
        free(log);
        return;
    }
    log[size] = '\0';
    for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (n++ < MAX_LINES)
            gj_log(level, "OpenCL build log: %s", line);
    }
    if (n > MAX_LINES)
        gj_log(level, "OpenCL build log: (%d more lines)", n - MAX_LINES);
    free(log);
}

static int build_from_source(opencl_device *cl, cl_program *out)
{
    const char *source = gj_opencl_kernel_source;
    double start = gj_time_ms();
    cl_int err;
    cl_program program = clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);

    if (err != CL_SUCCESS)
        return cl_fail(cl->pub.desc.name, err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &cl->device, BUILD_OPTIONS, NULL, NULL);
    if (err != CL_SUCCESS) {
        gj_log(GJ_LOG_ERROR, "OpenCL: clBuildProgram failed (%d, %s) on %s; the build log "
               "follows", err, cl_error_name(err), cl->pub.desc.name);
        log_build_log(cl, program, GJ_LOG_ERROR);
        clReleaseProgram(program);
        return cl_error_code(err);
    }
    log_build_log(cl, program, GJ_LOG_DEBUG);
    gj_log(GJ_LOG_VERBOSE, "OpenCL: built the kernels for %s from source in %.0f ms",
           cl->pub.desc.name, gj_time_ms() - start);
    *out = program;
    return 0;
}

/* The program from the binary cache, else from source (then cached). */
static int build_program(opencl_device *cl)
{
    enum { NB_INFOS = 5 };
    char *infos[NB_INFOS] = {
        info_string(cl->platform, NULL, CL_PLATFORM_NAME),
        info_string(cl->platform, NULL, CL_PLATFORM_VERSION),
        info_string(NULL, cl->device, CL_DEVICE_NAME),
        info_string(NULL, cl->device, CL_DEVICE_VERSION),
        info_string(NULL, cl->device, CL_DRIVER_VERSION),
    };
    const char *parts[2 + NB_INFOS] = { gj_opencl_kernel_source, BUILD_OPTIONS };
    gj_opencl_cache_entry entry;
    double start = gj_time_ms();
    int ret = 0;

    for (int i = 0; i < NB_INFOS; i++)
        parts[2 + i] = infos[i];
    gj_opencl_cache_locate(&entry, parts, 2 + NB_INFOS);
    for (int i = 0; i < NB_INFOS; i++)
        free(infos[i]);
    cl->program = gj_opencl_cache_load(&entry, cl->context, cl->device, BUILD_OPTIONS);
    if (cl->program)
        gj_log(GJ_LOG_VERBOSE, "OpenCL: loaded the kernels for %s from %s in %.0f ms",
               cl->pub.desc.name, entry.path, gj_time_ms() - start);
    else if ((ret = build_from_source(cl, &cl->program)) == 0)
        gj_opencl_cache_store(&entry, cl->program, cl->device);
    return ret;
}

static int get_kernel(opencl_device *cl, const char *name, cl_kernel *out)
{
    opencl_kernel *k;
    cl_int err;

    for (int i = 0; i < cl->nb_kernels; i++) {
        if (!strcmp(cl->kernels[i].name, name)) {
            *out = cl->kernels[i].kernel;
            return 0;
        }
    }
    if (cl->program_error)
        return gj_fail(cl->program_error, "OpenCL: cannot launch %s: the kernels failed to "
                       "build for %s", name, cl->pub.desc.name);
    if (!cl->program && (cl->program_error = build_program(cl)) < 0)
        return cl->program_error;
    if (cl->nb_kernels == cl->kernels_cap) {
        int cap = cl->kernels_cap ? 2 * cl->kernels_cap : 16;

        if (!(k = realloc(cl->kernels, cap * sizeof(*k))))
            return gj_fail(GJ_ERROR_NOMEM, "OpenCL: out of memory for kernel %s", name);
        cl->kernels = k;
        cl->kernels_cap = cap;
    }
    k = &cl->kernels[cl->nb_kernels];
    if (!(k->name = strdup(name)))
        return gj_fail(GJ_ERROR_NOMEM, "OpenCL: out of memory for kernel %s", name);
    k->kernel = clCreateKernel(cl->program, name, &err);
    if (err != CL_SUCCESS) {
        free(k->name);
        return cl_fail(cl->pub.desc.name, err, "clCreateKernel(%s)", name);
    }
    cl->nb_kernels++;
    *out = k->kernel;
    return 0;
}

static int set_args(opencl_device *cl, cl_kernel kernel, const char *name,
                    const gj_karg *args, int nargs)
{
    for (int i = 0; i < nargs; i++) {
        const gj_karg *a = &args[i];
        cl_mem mem;
        const void *value;
        size_t size;
        cl_int err;

        switch (a->type) {
        case GJ_KARG_BUF:
            mem = (cl_mem)a->v.buf;
            value = &mem;
            size = sizeof(mem);
            break;
        case GJ_KARG_U32: value = &a->v.u32; size = sizeof(cl_uint);  break;
        case GJ_KARG_I32: value = &a->v.i32; size = sizeof(cl_int);   break;
        case GJ_KARG_U64: value = &a->v.u64; size = sizeof(cl_ulong); break;
        default:
            return gj_fail(GJ_ERROR_BUG, "OpenCL: kernel %s argument %d has unknown type %d",
                           name, i, (int)a->type);
        }
        err = clSetKernelArg(kernel, (cl_uint)i, size, value);
        if (err != CL_SUCCESS)
            return cl_fail(cl->pub.desc.name, err, "clSetKernelArg(%s, argument %d)", name, i);
    }
    return 0;
}

static int opencl_launch(gj_device *dev, const char *name, size_t groups, size_t group_size,
                         const gj_karg *args, int nargs)
{
    opencl_device *cl = dev->priv;
    size_t global, local = group_size;
    cl_kernel kernel = NULL;
    cl_int err;
    int ret;

    if (!groups)
        return 0;
    if (!group_size || groups > SIZE_MAX / group_size)
        return gj_fail(GJ_ERROR_BUG, "OpenCL: kernel %s: invalid launch of %zu groups of %zu",
                       name, groups, group_size);
    global = groups * group_size;
    if ((ret = get_kernel(cl, name, &kernel)) < 0 ||
        (ret = set_args(cl, kernel, name, args, nargs)) < 0)
        return ret;
    err = clEnqueueNDRangeKernel(cl->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return cl_fail(dev->desc.name, err, "clEnqueueNDRangeKernel(%s, %zu groups of %zu)",
                       name, groups, group_size);
    return 0;
}

static int opencl_finish(gj_device *dev)
{
    opencl_device *cl = dev->priv;
    cl_int err = clFinish(cl->queue);

    return err == CL_SUCCESS ? 0 : cl_fail(dev->desc.name, err, "clFinish");
}

static int opencl_open_sibling(gj_device *dev, gj_device **sibling, int urgent);
static int opencl_wait_for(gj_device *dev, gj_device *other);

static const gj_device_ops opencl_ops = {
    .backend        = GJ_BACKEND_OPENCL,
    .memory         = GJ_MEMORY_OPENCL,
    .destroy        = opencl_destroy,
    .buffer_create  = opencl_buffer_create,
    .buffer_destroy = opencl_buffer_destroy,
    .host_alloc     = opencl_host_alloc,
    .host_free      = opencl_host_free,
    .upload         = opencl_upload,
    .download       = opencl_download,
    .download_2d    = opencl_download_2d,
    .copy_2d        = opencl_copy_2d,
    .fill_zero      = opencl_fill_zero,
    .view_create    = opencl_view_create,
    .view_release   = opencl_view_release,
    .launch         = opencl_launch,
    .finish         = opencl_finish,
    .open_sibling   = opencl_open_sibling,
    .wait_for       = opencl_wait_for,
};

/* Takes over one reference to each of context, device and queue, also on failure. */
static int device_create(gj_device **out, cl_platform_id platform, cl_device_id device,
                         cl_context context, cl_command_queue queue, int platform_index,
                         int device_index)
{
    opencl_device *cl = calloc(1, sizeof(*cl));
    cl_uint align_bits = 0, units = 0;

    if (!cl) {
        release_handles(context, device, queue);
        return gj_fail(GJ_ERROR_NOMEM, "OpenCL: out of memory for a device");
    }
    cl->pub.ops = &opencl_ops;
    cl->pub.priv = cl;
    cl->platform = platform;
    cl->device = device;
    cl->context = context;
    cl->queue = queue;
    clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl->max_alloc),
                    &cl->max_alloc, NULL);
    /* Sub-buffers start on the device's base address alignment (in bits): at least
     * 16 bytes, so that the kernels' widest loads stay aligned, and 512 when unknown. */
    if (clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits, NULL) != CL_SUCCESS ||
        !align_bits || (align_bits & (align_bits - 1)))
        align_bits = 4096;
    cl->pub.view_align = align_bits / 8 < 16 ? 16 : align_bits / 8;
    fill_desc(&cl->pub.desc, platform_index, device_index, platform, device);
    if (clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, NULL) == CL_SUCCESS)
        cl->pub.compute_units = units > INT_MAX ? INT_MAX : (int)units;
    snprintf(cl->pub.display_name, sizeof(cl->pub.display_name), "OpenCL: %.*s (%.*s)", 120,
             cl->pub.desc.name, 60, cl->pub.desc.platform);
    *out = &cl->pub;
    return 0;
}

static int open_device(gj_device **dev, cl_platform_id platform, cl_device_id device,
                       int platform_index, int device_index)
{
    const cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0
    };
    const char *why = unusable_reason(device);
    gj_device_desc desc;
    cl_context context;
    cl_command_queue queue;
    cl_int err;

    fill_desc(&desc, platform_index, device_index, platform, device);
    if (why)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "OpenCL: cannot use %s: %s", desc.name, why);
    context = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return cl_fail(desc.name, err, "clCreateContext");
    queue = clCreateCommandQueue(context, device, 0, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(context);
        return cl_fail(desc.name, err, "clCreateCommandQueue");
    }
    /* A no-op for root devices; it keeps destroy the same for opened and wrapped ones. */
    clRetainDevice(device);
    return device_create(dev, platform, device, context, queue, platform_index, device_index);
}

int gj_opencl_open(gj_device **dev, int platform_index, int device_index)
{
    cl_platform_id *platforms;
    cl_device_id *devices = NULL;
    cl_uint nb_platforms = get_platforms(&platforms), nb_devices = 0;
    int ret;

    if (platform_index < 0 || (cl_uint)platform_index >= nb_platforms)
        ret = gj_fail(GJ_ERROR_NODEV, "OpenCL: no platform %d (%u found)", platform_index,
                      nb_platforms);
    else if (device_index < 0 || (cl_uint)device_index >=
             (nb_devices = get_devices(platforms[platform_index], &devices)))
        ret = gj_fail(GJ_ERROR_NODEV, "OpenCL: platform %d has no device %d (%u found)",
                      platform_index, device_index, nb_devices);
    else
        ret = open_device(dev, platforms[platform_index], devices[device_index],
                          platform_index, device_index);
    free(devices);
    free(platforms);
    return ret;
}

/* gj_opencl_list()'s indices of a device, or -1 (a sub-device has none). */
static void find_indices(cl_platform_id platform, cl_device_id device, int *platform_index,
                         int *device_index)
{
    cl_platform_id *platforms;
    cl_uint nb_platforms = get_platforms(&platforms);

    *platform_index = *device_index = -1;
    for (cl_uint p = 0; p < nb_platforms; p++) {
        cl_device_id *devices;
        cl_uint nb_devices;

        if (platforms[p] != platform)
            continue;
        *platform_index = (int)p;
        nb_devices = get_devices(platform, &devices);
        for (cl_uint d = 0; d < nb_devices; d++) {
            if (devices[d] == device)
                *device_index = (int)d;
        }
        free(devices);
    }
    free(platforms);
}

/* Every operation assumes in-order execution on the caller's queue. */
static int check_queue(cl_command_queue queue, cl_context context, cl_device_id device)
{
    cl_context queue_context = NULL;
    cl_device_id queue_device = NULL;
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(queue_context),
                                       &queue_context, NULL);

    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(queue_device), &queue_device,
                                    NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL);
    if (err != CL_SUCCESS)
        return cl_fail("the caller's queue", err, "clGetCommandQueueInfo");
    if (queue_context != context || queue_device != device)
        return gj_fail(GJ_ERROR_INVAL, "OpenCL: the command queue to wrap belongs to another "
                       "context or device");
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return gj_fail(GJ_ERROR_INVAL, "OpenCL: the command queue to wrap is out-of-order; "
                       "libgpujpeg needs an in-order queue");
    return 0;
}

/* A NULL queue means a new in-order queue of our own on the caller's context. */
int gj_opencl_wrap(gj_device **dev, void *context_ptr, void *device_ptr, void *queue_ptr)
{
    cl_context context = context_ptr;
    cl_device_id device = device_ptr;
    cl_command_queue queue = queue_ptr;
    cl_platform_id platform = NULL;
    int platform_index, device_index, ret;
    const char *why;
    cl_int err;

    if (!context || !device)
        return gj_fail(GJ_ERROR_INVAL, "OpenCL: wrapping needs a context and a device");
    err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, NULL);
    if (err != CL_SUCCESS)
        return cl_fail("the caller's device", err, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
    if ((why = unusable_reason(device)))
        return gj_fail(GJ_ERROR_UNSUPPORTED, "OpenCL: cannot use the caller's device: %s", why);
    if (queue) {
        if ((ret = check_queue(queue, context, device)) < 0)
            return ret;
        clRetainCommandQueue(queue);
    } else {
        queue = clCreateCommandQueue(context, device, 0, &err);
        if (err != CL_SUCCESS)
            return cl_fail("the caller's device", err, "clCreateCommandQueue");
    }
    clRetainContext(context);
    clRetainDevice(device);
    find_indices(platform, device, &platform_index, &device_index);
    return device_create(dev, platform, device, context, queue, platform_index, device_index);
}

/* The sibling shares the parent's program (programs are thread-safe; kernels, which
 * hold arguments, are not, so it creates its own). */
static int opencl_open_sibling(gj_device *dev, gj_device **sibling, int urgent)
{
    opencl_device *parent = dev->priv, *cl;
    cl_command_queue queue;
    cl_int err;
    int ret;

    (void)urgent;
    *sibling = NULL;
    /* Built once, here, rather than by each sibling in its own thread. */
    if (!parent->program && !parent->program_error && (parent->program_error = build_program(parent)) < 0)
        return parent->program_error;
    queue = clCreateCommandQueue(parent->context, parent->device, 0, &err);
    if (err != CL_SUCCESS)
        return cl_fail(parent->pub.desc.name, err, "clCreateCommandQueue");
    clRetainContext(parent->context);
    clRetainDevice(parent->device);
    ret = device_create(sibling, parent->platform, parent->device, parent->context, queue,
                        parent->pub.desc.index, parent->pub.desc.sub_index);
    if (ret < 0)
        return ret;
    cl = (*sibling)->priv;
    clRetainProgram(parent->program);
    cl->program = parent->program;
    return 0;
}

static int opencl_wait_for(gj_device *dev, gj_device *other)
{
    opencl_device *cl = dev->priv, *ol = other->priv;
    cl_event marker;
    cl_int err = clEnqueueMarkerWithWaitList(ol->queue, 0, NULL, &marker);

    if (err != CL_SUCCESS)
        return cl_fail(cl->pub.desc.name, err, "clEnqueueMarkerWithWaitList");
    /* The other queue must reach the device, or the wait could last for ever. */
    err = clFlush(ol->queue);
    if (err == CL_SUCCESS)
        err = clEnqueueBarrierWithWaitList(cl->queue, 1, &marker, NULL);
    clReleaseEvent(marker);
    if (err != CL_SUCCESS)
        return cl_fail(cl->pub.desc.name, err, "clEnqueueBarrierWithWaitList");
    return 0;
}
