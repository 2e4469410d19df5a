/*
 * The CUDA backend: gj_device operations on the driver API (see cuda_driver.h).
 *
 * Every operation makes the device's context current only for its own duration
 * (cuCtxPushCurrent ... cuCtxPopCurrent), so whatever context the calling thread
 * had current is restored: FFmpeg and other users share contexts with us.
 *
 * Threads: one gj_device is used by one thread at a time. Its module and kernel
 * cache belong to it alone, so they need no lock; different devices (siblings on
 * one context included) may be used from different threads at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/cuda_driver.h"
#include "device/device.h"
#include "log.h"

/* The kernels of src/kernels as one fatbin, embedded by cuda_fatbin.S. */
extern const unsigned char gj_cuda_fatbin[];

/* cuMemAlloc rejects 0 bytes; empty buffers get this much so their handle is valid. */
#define MIN_ALLOC 256
/* Kernel arguments per launch; our kernels take a handful. */
#define MAX_KARGS 32
/* CUDA's limits on a 1-D launch. */
#define MAX_GROUPS 0x7fffffffu
#define MAX_GROUP_SIZE 1024u

typedef struct cuda_kernel {
    char *name;
    CUfunction function;
} cuda_kernel;

typedef struct cuda_device {
    gj_device dev;
    const gj_cuda_driver *cu;
    CUdevice device;
    CUcontext ctx;
    CUstream stream;            /* NULL: the context's default stream (wrapped only) */
    int owns_ctx;               /* primary context retained by gj_cuda_open() */
    int owns_stream;
    CUmodule module;            /* gj_cuda_fatbin, loaded on the first launch */
    cuda_kernel *kernels;       /* functions looked up so far */
    int nb_kernels;
    int max_kernels;
} cuda_device;

static int push(cuda_device *cd)
{
    CUresult res = cd->cu->CtxPushCurrent(cd->ctx);

    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuCtxPushCurrent");
    return 0;
}

static void pop(cuda_device *cd)
{
    CUcontext ctx;
    CUresult res = cd->cu->CtxPopCurrent(&ctx);

    if (res != CUDA_SUCCESS)
        gj_cuda_fail(res, "cuCtxPopCurrent");
}

/* CUDA does not bounds-check copies: an offset bug would silently hit other allocations. */
static int check_range(const char *op, const gj_buffer *buf, size_t offset, size_t size)
{
    if (offset > buf->size || size > buf->size - offset)
        return gj_fail(GJ_ERROR_BUG, "CUDA: %s of %zu bytes at offset %zu exceeds the "
                       "%zu-byte buffer", op, size, offset, buf->size);
    return 0;
}

static void cuda_destroy(gj_device *dev)
{
    cuda_device *cd = dev->priv;
    CUresult res;
    int i;

    if ((cd->module || cd->owns_stream) && push(cd) == 0) {
        /* Queued kernels may still run code of the module, and releasing the primary
         * context may destroy it under queued work. */
        res = cd->cu->StreamSynchronize(cd->stream);
        if (res != CUDA_SUCCESS)
            gj_cuda_fail(res, "cuStreamSynchronize");
        if (cd->module && (res = cd->cu->ModuleUnload(cd->module)) != CUDA_SUCCESS)
            gj_cuda_fail(res, "cuModuleUnload");
        if (cd->owns_stream && (res = cd->cu->StreamDestroy(cd->stream)) != CUDA_SUCCESS)
            gj_cuda_fail(res, "cuStreamDestroy");
        pop(cd);
    }
    if (cd->owns_ctx && (res = cd->cu->DevicePrimaryCtxRelease(cd->device)) != CUDA_SUCCESS)
        gj_cuda_fail(res, "cuDevicePrimaryCtxRelease");
    for (i = 0; i < cd->nb_kernels; i++)
        free(cd->kernels[i].name);
    free(cd->kernels);
    free(cd);
}

static int cuda_buffer_create(gj_device *dev, size_t size, gj_buffer *buf)
{
    cuda_device *cd = dev->priv;
    CUdeviceptr ptr = 0;
    CUresult res;
    int ret;

    buf->handle = 0;
    buf->size = 0;
    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->MemAlloc(&ptr, size ? size : MIN_ALLOC);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuMemAlloc(%zu bytes)", size);
    buf->handle = (uintptr_t)ptr;
    buf->size = size;
    gj_dev_count_buffer(dev, size, 1);
    return 0;
}

static void cuda_buffer_destroy(gj_device *dev, gj_buffer *buf)
{
    cuda_device *cd = dev->priv;
    CUresult res;

    if (!buf->handle || push(cd) < 0)
        return;
    res = cd->cu->MemFree((CUdeviceptr)buf->handle);
    pop(cd);
    if (res != CUDA_SUCCESS)
        gj_cuda_fail(res, "cuMemFree");
    gj_dev_count_buffer(dev, buf->size, 0);
    buf->handle = 0;
    buf->size = 0;
}

/* Device pointers are plain addresses: a view is one inside the parent. */
static int cuda_view_create(gj_device *dev, const gj_buffer *parent, size_t offset, size_t size,
                            gj_buffer *view, size_t *start)
{
    int ret;

    view->handle = 0;
    view->size = 0;
    if ((ret = gj_dev_view_start(dev, parent->handle, offset, size, parent->size, start)) < 0)
        return ret;
    view->handle = parent->handle + *start;
    view->size = size;
    return 0;
}

static void cuda_view_release(gj_device *dev, gj_buffer *view)
{
    view->handle = 0;
    view->size = 0;
}

static void *cuda_host_alloc(gj_device *dev, size_t size)
{
    cuda_device *cd = dev->priv;
    void *ptr = NULL;
    CUresult res;

    if (push(cd) < 0)
        return NULL;
    res = cd->cu->MemAllocHost(&ptr, size ? size : 1);
    pop(cd);
    if (res != CUDA_SUCCESS) {
        gj_cuda_fail(res, "cuMemAllocHost(%zu bytes)", size);
        return NULL;
    }
    return ptr;
}

static void cuda_host_free(gj_device *dev, void *ptr)
{
    cuda_device *cd = dev->priv;
    CUresult res;

    if (!ptr || push(cd) < 0)
        return;
    res = cd->cu->MemFreeHost(ptr);
    pop(cd);
    if (res != CUDA_SUCCESS)
        gj_cuda_fail(res, "cuMemFreeHost");
}

static int cuda_upload(gj_device *dev, const gj_buffer *dst, size_t dst_offset,
                       const void *src, size_t size)
{
    cuda_device *cd = dev->priv;
    CUresult res;
    int ret;

    if ((ret = check_range("upload", dst, dst_offset, size)) < 0 || !size)
        return ret;
    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->MemcpyHtoDAsync((CUdeviceptr)(dst->handle + dst_offset), src, size,
                                  cd->stream);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuMemcpyHtoDAsync(%zu bytes)", size);
    return 0;
}

static int cuda_download(gj_device *dev, void *dst, const gj_buffer *src, size_t src_offset,
                         size_t size)
{
    cuda_device *cd = dev->priv;
    CUresult res;
    int ret;

    if ((ret = check_range("download", src, src_offset, size)) < 0 || !size)
        return ret;
    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->MemcpyDtoHAsync(dst, (CUdeviceptr)(src->handle + src_offset), size,
                                  cd->stream);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuMemcpyDtoHAsync(%zu bytes)", size);
    return 0;
}

static int queue_copy_2d(cuda_device *cd, const CUDA_MEMCPY2D *copy)
{
    CUresult res;
    int ret;

    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->Memcpy2DAsync(copy, cd->stream);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuMemcpy2DAsync(%zu x %zu bytes, pitches %zu/%zu)",
                            copy->WidthInBytes, copy->Height, copy->srcPitch, copy->dstPitch);
    return 0;
}

static int cuda_download_2d(gj_device *dev, void *dst, size_t dst_pitch,
                            const gj_buffer *src, size_t src_offset, size_t src_pitch,
                            size_t width_bytes, size_t height)
{
    CUDA_MEMCPY2D copy;
    int ret;

    if (!width_bytes || !height)
        return 0;
    ret = check_range("2-D download", src, src_offset, (height - 1) * src_pitch + width_bytes);
    if (ret < 0)
        return ret;
    memset(&copy, 0, sizeof(copy));
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = (CUdeviceptr)(src->handle + src_offset);
    copy.srcPitch = src_pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    copy.dstHost = dst;
    copy.dstPitch = dst_pitch;
    copy.WidthInBytes = width_bytes;
    copy.Height = height;
    return queue_copy_2d(dev->priv, &copy);
}

static int cuda_copy_2d(gj_device *dev, const gj_buffer *dst, size_t dst_offset, size_t dst_pitch,
                        const gj_buffer *src, size_t src_offset, size_t src_pitch,
                        size_t width_bytes, size_t height)
{
    CUDA_MEMCPY2D copy;
    int ret;

    if (!width_bytes || !height)
        return 0;
    if ((ret = check_range("2-D copy", src, src_offset, (height - 1) * src_pitch + width_bytes)) < 0 ||
        (ret = check_range("2-D copy", dst, dst_offset, (height - 1) * dst_pitch + width_bytes)) < 0)
        return ret;
    memset(&copy, 0, sizeof(copy));
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = (CUdeviceptr)(src->handle + src_offset);
    copy.srcPitch = src_pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = (CUdeviceptr)(dst->handle + dst_offset);
    copy.dstPitch = dst_pitch;
    copy.WidthInBytes = width_bytes;
    copy.Height = height;
    return queue_copy_2d(dev->priv, &copy);
}

static int cuda_fill_zero(gj_device *dev, const gj_buffer *buf, size_t offset, size_t size)
{
    cuda_device *cd = dev->priv;
    CUresult res;
    int ret;

    if ((ret = check_range("fill", buf, offset, size)) < 0 || !size)
        return ret;
    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->MemsetD8Async((CUdeviceptr)(buf->handle + offset), 0, size, cd->stream);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuMemsetD8Async(%zu bytes)", size);
    return 0;
}

/* Looks `name` up in the module, loading the module first; the context is current. */
static int find_kernel(cuda_device *cd, const char *name, CUfunction *function)
{
    cuda_kernel *kernels;
    CUresult res;
    int i, max;

    for (i = 0; i < cd->nb_kernels; i++) {
        if (!strcmp(cd->kernels[i].name, name)) {
            *function = cd->kernels[i].function;
            return 0;
        }
    }
    if (!cd->module && (res = cd->cu->ModuleLoadData(&cd->module, gj_cuda_fatbin)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuModuleLoadData(kernels)");
    if ((res = cd->cu->ModuleGetFunction(function, cd->module, name)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuModuleGetFunction(\"%s\")", name);
    if (cd->nb_kernels == cd->max_kernels) {
        max = cd->max_kernels ? 2 * cd->max_kernels : 16;
        kernels = realloc(cd->kernels, max * sizeof(*kernels));
        if (!kernels)
            return GJ_ERROR_NOMEM;
        cd->kernels = kernels;
        cd->max_kernels = max;
    }
    if (!(cd->kernels[cd->nb_kernels].name = strdup(name)))
        return GJ_ERROR_NOMEM;
    cd->kernels[cd->nb_kernels++].function = *function;
    return 0;
}

static int cuda_launch(gj_device *dev, const char *name, size_t groups, size_t group_size,
                       const gj_karg *args, int nargs)
{
    cuda_device *cd = dev->priv;
    /* cuLaunchKernel reads each argument through a pointer: these hold the values. */
    union {
        CUdeviceptr ptr;
        uint32_t u32;
        int32_t i32;
        uint64_t u64;
    } values[MAX_KARGS];
    void *params[MAX_KARGS];
    CUfunction function;
    CUresult res;
    int i, ret;

    if (nargs < 0 || nargs > MAX_KARGS || groups > MAX_GROUPS ||
        !group_size || group_size > MAX_GROUP_SIZE)
        return gj_fail(GJ_ERROR_BUG, "CUDA: %s: %d arguments, %zu groups of %zu threads "
                       "exceed the launch limits", name, nargs, groups, group_size);
    if (!groups)
        return 0;
    for (i = 0; i < nargs; i++) {
        switch (args[i].type) {
        case GJ_KARG_BUF: values[i].ptr = (CUdeviceptr)args[i].v.buf; break;
        case GJ_KARG_U32: values[i].u32 = args[i].v.u32; break;
        case GJ_KARG_I32: values[i].i32 = args[i].v.i32; break;
        case GJ_KARG_U64: values[i].u64 = args[i].v.u64; break;
        }
        params[i] = &values[i];
    }
    if ((ret = push(cd)) < 0)
        return ret;
    ret = find_kernel(cd, name, &function);
    if (ret == 0) {
        res = cd->cu->LaunchKernel(function, (unsigned)groups, 1, 1, (unsigned)group_size, 1, 1,
                                   0, cd->stream, params, NULL);
        if (res != CUDA_SUCCESS)
            ret = gj_cuda_fail(res, "cuLaunchKernel(%s, %zu groups of %zu)",
                               name, groups, group_size);
    }
    pop(cd);
    return ret;
}

static int cuda_finish(gj_device *dev)
{
    cuda_device *cd = dev->priv;
    CUresult res;
    int ret;

    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->StreamSynchronize(cd->stream);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuStreamSynchronize");
    return 0;
}

static int cuda_open_sibling(gj_device *dev, gj_device **sibling, int urgent);
static int cuda_wait_for(gj_device *dev, gj_device *other);

static const gj_device_ops cuda_ops = {
    .backend = GJ_BACKEND_CUDA,
    .memory = GJ_MEMORY_CUDA,
    .destroy = cuda_destroy,
    .buffer_create = cuda_buffer_create,
    .buffer_destroy = cuda_buffer_destroy,
    .host_alloc = cuda_host_alloc,
    .host_free = cuda_host_free,
    .upload = cuda_upload,
    .download = cuda_download,
    .download_2d = cuda_download_2d,
    .copy_2d = cuda_copy_2d,
    .fill_zero = cuda_fill_zero,
    .view_create = cuda_view_create,
    .view_release = cuda_view_release,
    .launch = cuda_launch,
    .finish = cuda_finish,
    .open_sibling = cuda_open_sibling,
    .wait_for = cuda_wait_for,
};

static int describe(const gj_cuda_driver *cu, int ordinal, gj_device_desc *desc)
{
    CUdevice device;
    size_t memory;
    CUresult res;

    if ((res = cu->DeviceGet(&device, ordinal)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuDeviceGet(%d)", ordinal);
    memset(desc, 0, sizeof(*desc));
    desc->backend = GJ_BACKEND_CUDA;
    desc->index = ordinal;
    desc->is_gpu = 1;
    if ((res = cu->DeviceGetName(desc->name, sizeof(desc->name), device)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuDeviceGetName(%d)", ordinal);
    if ((res = cu->DeviceTotalMem(&memory, device)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuDeviceTotalMem(%d)", ordinal);
    desc->memory_bytes = memory;
    snprintf(desc->platform, sizeof(desc->platform), "CUDA driver %d.%d",
             cu->version / 1000, cu->version % 1000 / 10);
    return 0;
}

static int device_count(const gj_cuda_driver *cu, int *count)
{
    CUresult res = cu->DeviceGetCount(count);

    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuDeviceGetCount");
    return 0;
}

int gj_cuda_list(gj_device_desc *descs, int max)
{
    const gj_cuda_driver *cu = gj_cuda_driver_get();
    gj_device_desc desc;
    int i, count, n = 0;

    if (!cu || device_count(cu, &count) < 0)
        return 0;
    for (i = 0; i < count; i++) {
        if (describe(cu, i, &desc) < 0)
            continue;
        if (n < max)
            descs[n] = desc;
        n++;
    }
    return n;
}

static cuda_device *device_alloc(const gj_cuda_driver *cu)
{
    cuda_device *cd = calloc(1, sizeof(*cd));

    if (!cd)
        return NULL;
    cd->cu = cu;
    cd->dev.ops = &cuda_ops;
    cd->dev.priv = cd;
    /* cuMemAlloc's own alignment: the kernels' widest loads stay aligned in a view. */
    cd->dev.view_align = 256;
    return cd;
}

/* Fills desc and display_name of a device whose ordinal is known. */
static int device_describe(cuda_device *cd, int ordinal)
{
    int ret = describe(cd->cu, ordinal, &cd->dev.desc);
    CUdevice device;

    if (ret < 0)
        return ret;
    snprintf(cd->dev.display_name, sizeof(cd->dev.display_name), "CUDA: %s",
             cd->dev.desc.name);
    /* Only a hint for choosing kernels: unknown (0) where the driver does not say. */
    if (cd->cu->DeviceGet(&device, ordinal) != CUDA_SUCCESS ||
        cd->cu->DeviceGetAttribute(&cd->dev.compute_units, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) !=
        CUDA_SUCCESS)
        cd->dev.compute_units = 0;
    return 0;
}

/* urgent: the context's greatest priority (a plain stream has its least). */
static int create_stream(cuda_device *cd, int urgent)
{
    int ret, least, greatest;
    CUresult res;

    if ((ret = push(cd)) < 0)
        return ret;
    /* Non-blocking: our work must not serialise with the legacy default stream of
     * other users of the context (FFmpeg, the application). */
    if (urgent && cd->cu->CtxGetStreamPriorityRange(&least, &greatest) == CUDA_SUCCESS)
        res = cd->cu->StreamCreateWithPriority(&cd->stream, CU_STREAM_NON_BLOCKING, greatest);
    else
        res = cd->cu->StreamCreate(&cd->stream, CU_STREAM_NON_BLOCKING);
    pop(cd);
    if (res != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuStreamCreate");
    cd->owns_stream = 1;
    return 0;
}

static int open_primary(cuda_device *cd, int ordinal)
{
    CUresult res;
    int ret;

    if ((ret = device_describe(cd, ordinal)) < 0)
        return ret;
    if ((res = cd->cu->DeviceGet(&cd->device, ordinal)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuDeviceGet(%d)", ordinal);
    if ((res = cd->cu->DevicePrimaryCtxRetain(&cd->ctx, cd->device)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuDevicePrimaryCtxRetain(%d)", ordinal);
    cd->owns_ctx = 1;
    return create_stream(cd, 0);
}

int gj_cuda_open(gj_device **dev, int ordinal)
{
    const gj_cuda_driver *cu = gj_cuda_driver_get();
    cuda_device *cd;
    int count, ret;

    *dev = NULL;
    if (!cu)
        return GJ_ERROR_NODEV;
    if ((ret = device_count(cu, &count)) < 0)
        return ret;
    if (ordinal < 0 || ordinal >= count)
        return gj_fail(GJ_ERROR_NODEV, "CUDA: no device %d (%d found)", ordinal, count);
    if (!(cd = device_alloc(cu)))
        return GJ_ERROR_NOMEM;
    if ((ret = open_primary(cd, ordinal)) < 0) {
        cuda_destroy(&cd->dev);
        return ret;
    }
    *dev = &cd->dev;
    return 0;
}

/* The ordinal of the current context's device, or a negative error code
 * (CUdevice handles need not equal ordinals). */
static int current_ordinal(const gj_cuda_driver *cu)
{
    CUdevice device, other;
    CUresult res;
    int i, count, ret;

    if ((res = cu->CtxGetDevice(&device)) != CUDA_SUCCESS)
        return gj_cuda_fail(res, "cuCtxGetDevice");
    if ((ret = device_count(cu, &count)) < 0)
        return ret;
    for (i = 0; i < count; i++) {
        if ((res = cu->DeviceGet(&other, i)) != CUDA_SUCCESS)
            return gj_cuda_fail(res, "cuDeviceGet(%d)", i);
        if (other == device)
            return i;
    }
    return gj_fail(GJ_ERROR_EXTERNAL, "CUDA: the wrapped context's device is not enumerated");
}

int gj_cuda_wrap(gj_device **dev, void *cu_context, void *cu_stream)
{
    const gj_cuda_driver *cu = gj_cuda_driver_get();
    cuda_device *cd;
    int ret;

    *dev = NULL;
    if (!cu)
        return GJ_ERROR_NODEV;
    if (!cu_context)
        return gj_fail(GJ_ERROR_INVAL, "CUDA: wrapping needs a CUcontext");
    if (!(cd = device_alloc(cu)))
        return GJ_ERROR_NOMEM;
    cd->ctx = cu_context;
    cd->stream = cu_stream;
    if ((ret = push(cd)) == 0) {
        ret = current_ordinal(cu);
        pop(cd);
    }
    if (ret >= 0)
        ret = device_describe(cd, ret);
    if (ret < 0) {
        free(cd);       /* it owns nothing yet */
        return ret;
    }
    *dev = &cd->dev;
    return 0;
}

/* The sibling loads the module again: CUmodule handles are per device here, so a
 * sibling needs no lock shared with its parent. */
static int cuda_open_sibling(gj_device *dev, gj_device **sibling, int urgent)
{
    cuda_device *parent = dev->priv, *cd;
    CUresult res;
    int ret;

    *sibling = NULL;
    if (!(cd = device_alloc(parent->cu)))
        return GJ_ERROR_NOMEM;
    cd->dev.desc = parent->dev.desc;
    cd->dev.compute_units = parent->dev.compute_units;
    memcpy(cd->dev.display_name, parent->dev.display_name, sizeof(cd->dev.display_name));
    cd->device = parent->device;
    cd->ctx = parent->ctx;
    if (parent->owns_ctx) {
        if ((res = cd->cu->DevicePrimaryCtxRetain(&cd->ctx, cd->device)) != CUDA_SUCCESS) {
            free(cd);
            return gj_cuda_fail(res, "cuDevicePrimaryCtxRetain");
        }
        cd->owns_ctx = 1;
    }
    if ((ret = create_stream(cd, urgent)) < 0) {
        cuda_destroy(&cd->dev);
        return ret;
    }
    *sibling = &cd->dev;
    return 0;
}

static int cuda_wait_for(gj_device *dev, gj_device *other)
{
    cuda_device *cd = dev->priv, *od = other->priv;
    CUevent event;
    CUresult res;
    int ret;

    if ((ret = push(cd)) < 0)
        return ret;
    res = cd->cu->EventCreate(&event, CU_EVENT_DISABLE_TIMING);
    if (res != CUDA_SUCCESS) {
        pop(cd);
        return gj_cuda_fail(res, "cuEventCreate");
    }
    if ((res = cd->cu->EventRecord(event, od->stream)) != CUDA_SUCCESS)
        ret = gj_cuda_fail(res, "cuEventRecord");
    else if ((res = cd->cu->StreamWaitEvent(cd->stream, event, 0)) != CUDA_SUCCESS)
        ret = gj_cuda_fail(res, "cuStreamWaitEvent");
    /* Released once the wait is over; destroying it now is allowed. */
    cd->cu->EventDestroy(event);
    pop(cd);
    return ret;
}
