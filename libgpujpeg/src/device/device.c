/* Device selection and the public gj_device_* calls; backends live in cuda.c/opencl.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "device/device.h"
#include "log.h"

#ifndef HAVE_CUDA
int gj_cuda_list(gj_device_desc *descs, int max) { return 0; }
int gj_cuda_open(gj_device **dev, int ordinal) { return GJ_ERROR_NODEV; }
int gj_cuda_wrap(gj_device **dev, void *cu_context, void *cu_stream)
{
    return gj_fail(GJ_ERROR_NODEV, "this libgpujpeg was built without the CUDA backend");
}
#endif

#ifndef HAVE_OPENCL
int gj_opencl_list(gj_device_desc *descs, int max) { return 0; }
int gj_opencl_open(gj_device **dev, int platform, int device) { return GJ_ERROR_NODEV; }
int gj_opencl_wrap(gj_device **dev, void *context, void *device_id, void *queue)
{
    return gj_fail(GJ_ERROR_NODEV, "this libgpujpeg was built without the OpenCL backend");
}
#endif

#define MAX_DEVICES 64

int gj_backend_available(enum gj_backend backend)
{
#ifdef HAVE_CUDA
    if (backend == GJ_BACKEND_CUDA)
        return 1;
#endif
#ifdef HAVE_OPENCL
    if (backend == GJ_BACKEND_OPENCL)
        return 1;
#endif
    return 0;
}

int gj_device_list(gj_device_desc *descs, int max)
{
    int n_cuda, n_cl;

    if (max < 0)
        max = 0;
    n_cuda = gj_cuda_list(descs, max);
    n_cl = gj_opencl_list(descs ? descs + (n_cuda < max ? n_cuda : max) : NULL,
                          n_cuda < max ? max - n_cuda : 0);
    return n_cuda + n_cl;
}

static int kind_matches(enum gj_device_kind kind, const gj_device_desc *d)
{
    switch (kind) {
    case GJ_DEVICE_CUDA:       return d->backend == GJ_BACKEND_CUDA;
    case GJ_DEVICE_OPENCL:     return d->backend == GJ_BACKEND_OPENCL;
    case GJ_DEVICE_OPENCL_GPU: return d->backend == GJ_BACKEND_OPENCL && d->is_gpu;
    case GJ_DEVICE_OPENCL_CPU: return d->backend == GJ_BACKEND_OPENCL && !d->is_gpu;
    default:                   return 1;
    }
}

/* The order `auto` and `opencl` prefer: CUDA GPUs, then OpenCL GPUs, then the rest. */
static int preference(const gj_device_desc *d)
{
    if (d->backend == GJ_BACKEND_CUDA)
        return 0;
    return d->is_gpu ? 1 : 2;
}

static int open_desc(gj_device **dev, const gj_device_desc *d)
{
    if (d->backend == GJ_BACKEND_CUDA)
        return gj_cuda_open(dev, d->index);
    return gj_opencl_open(dev, d->index, d->sub_index);
}

int gj_device_create(gj_device **dev, enum gj_device_kind kind, int index)
{
    gj_device_desc descs[MAX_DEVICES];
    int n, pass, seen = 0, i;

    if (!dev || index < 0)
        return GJ_ERROR_INVAL;
    *dev = NULL;
    n = gj_device_list(descs, MAX_DEVICES);
    if (n > MAX_DEVICES)
        n = MAX_DEVICES;
    /* Explicit kinds count devices in list order; auto/opencl walk them by preference. */
    for (pass = 0; pass <= 2; pass++) {
        for (i = 0; i < n; i++) {
            if (!kind_matches(kind, &descs[i]))
                continue;
            if ((kind == GJ_DEVICE_AUTO || kind == GJ_DEVICE_OPENCL) && preference(&descs[i]) != pass)
                continue;
            if (seen++ == index)
                return open_desc(dev, &descs[i]);
        }
        if (kind != GJ_DEVICE_AUTO && kind != GJ_DEVICE_OPENCL)
            break;
    }
    return gj_fail(GJ_ERROR_NODEV, "no %s device%s found (%d device%s on this machine)",
                   kind == GJ_DEVICE_CUDA ? "CUDA" :
                   kind == GJ_DEVICE_OPENCL_GPU ? "OpenCL GPU" :
                   kind == GJ_DEVICE_OPENCL_CPU ? "OpenCL CPU" :
                   kind == GJ_DEVICE_OPENCL ? "OpenCL" : "GPU",
                   index ? " with that index" : "", n, n == 1 ? "" : "s");
}

int gj_device_create_from_string(gj_device **dev, const char *spec)
{
    static const struct { const char *name; enum gj_device_kind kind; } names[] = {
        { "auto", GJ_DEVICE_AUTO },
        { "cuda", GJ_DEVICE_CUDA },
        { "opencl-gpu", GJ_DEVICE_OPENCL_GPU },
        { "opencl-cpu", GJ_DEVICE_OPENCL_CPU },
        { "opencl", GJ_DEVICE_OPENCL },
    };
    size_t i, len;

    if (!spec || !*spec)
        spec = "auto";
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        len = strlen(names[i].name);
        if (strncmp(spec, names[i].name, len))
            continue;
        if (spec[len] == '\0')
            return gj_device_create(dev, names[i].kind, 0);
        if (spec[len] == ':') {
            char *end;
            long index = strtol(spec + len + 1, &end, 10);
            if (*end || end == spec + len + 1 || index < 0 || index > 1000)
                break;
            return gj_device_create(dev, names[i].kind, (int)index);
        }
    }
    return gj_fail(GJ_ERROR_INVAL, "unknown device '%s' (use auto, cuda[:N], opencl[:N], "
                   "opencl-gpu[:N] or opencl-cpu[:N])", spec);
}

int gj_device_wrap_cuda(gj_device **dev, void *cu_context, void *cu_stream)
{
    if (!dev || !cu_context)
        return GJ_ERROR_INVAL;
    return gj_cuda_wrap(dev, cu_context, cu_stream);
}

int gj_device_wrap_opencl(gj_device **dev, void *cl_context, void *cl_device_id,
                          void *cl_command_queue)
{
    if (!dev || !cl_context || !cl_device_id || !cl_command_queue)
        return GJ_ERROR_INVAL;
    return gj_opencl_wrap(dev, cl_context, cl_device_id, cl_command_queue);
}

void gj_device_free(gj_device **dev)
{
    if (!dev || !*dev)
        return;
    (*dev)->ops->destroy(*dev);
    *dev = NULL;
}

enum gj_backend gj_device_backend(const gj_device *dev)
{
    return dev->ops->backend;
}

enum gj_memory gj_device_memory(const gj_device *dev)
{
    return dev->ops->memory;
}

const char *gj_device_name(const gj_device *dev)
{
    return dev->display_name;
}

void gj_device_buffer_bytes(const gj_device *dev, size_t *current, size_t *peak)
{
    if (current)
        *current = __atomic_load_n(&dev->buffer_bytes, __ATOMIC_RELAXED);
    if (peak)
        *peak = __atomic_load_n(&dev->peak_bytes, __ATOMIC_RELAXED);
}

void gj_device_reset_peak(gj_device *dev)
{
    __atomic_store_n(&dev->peak_bytes, __atomic_load_n(&dev->buffer_bytes, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

void *gj_device_host_alloc(gj_device *dev, size_t size)
{
    return dev ? dev->ops->host_alloc(dev, size) : NULL;
}

void gj_device_host_free(gj_device *dev, void *ptr)
{
    if (dev && ptr)
        dev->ops->host_free(dev, ptr);
}

int gj_device_synchronize(gj_device *dev)
{
    return dev->ops->finish(dev);
}
