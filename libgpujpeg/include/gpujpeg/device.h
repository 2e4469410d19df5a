/*
 * libgpujpeg: GPU devices (CUDA or OpenCL).
 */
#ifndef GPUJPEG_DEVICE_H
#define GPUJPEG_DEVICE_H

#include <stddef.h>

#include "gpujpeg/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gj_device gj_device;

enum gj_backend {
    GJ_BACKEND_CUDA,
    GJ_BACKEND_OPENCL,
};

/* What gj_device_create() looks for. */
enum gj_device_kind {
    GJ_DEVICE_AUTO,        /* CUDA GPU, else OpenCL GPU, else OpenCL CPU */
    GJ_DEVICE_CUDA,        /* a CUDA GPU */
    GJ_DEVICE_OPENCL,      /* an OpenCL GPU, else any OpenCL device */
    GJ_DEVICE_OPENCL_GPU,  /* an OpenCL GPU only */
    GJ_DEVICE_OPENCL_CPU,  /* an OpenCL CPU device (PoCL) */
};

/* One device as gj_device_list() reports it. */
typedef struct gj_device_desc {
    enum gj_backend backend;
    int index;              /* CUDA ordinal, or OpenCL platform index */
    int sub_index;          /* OpenCL device index inside the platform; 0 for CUDA */
    int is_gpu;
    size_t memory_bytes;
    char name[128];
    char platform[128];     /* OpenCL platform name, or "CUDA <driver version>" */
} gj_device_desc;

/*
 * Fills up to max descriptions of the devices usable on this machine and returns
 * how many exist (which may exceed max). Backends that are not built in, or whose
 * driver is missing, contribute none.
 */
GJ_API int gj_device_list(gj_device_desc *descs, int max);

/* Which backends this build of the library contains. */
GJ_API int gj_backend_available(enum gj_backend backend);

/*
 * Creates a device of the given kind. index selects among the matching devices
 * in gj_device_list() order (0 = first). Returns GJ_ERROR_NODEV when none matches.
 */
GJ_API int gj_device_create(gj_device **dev, enum gj_device_kind kind, int index);

/*
 * Parses "auto", "cuda", "cuda:N", "opencl", "opencl:N", "opencl-gpu",
 * "opencl-cpu" and creates that device.
 */
GJ_API int gj_device_create_from_string(gj_device **dev, const char *spec);

/*
 * Wraps the caller's CUDA context (CUcontext) and stream (CUstream, may be NULL
 * for the default stream). The library pushes the context around its own calls
 * and always restores the caller's current context.
 */
GJ_API int gj_device_wrap_cuda(gj_device **dev, void *cu_context, void *cu_stream);

/* Wraps the caller's OpenCL context, device and in-order command queue. */
GJ_API int gj_device_wrap_opencl(gj_device **dev, void *cl_context, void *cl_device_id,
                          void *cl_command_queue);

GJ_API void gj_device_free(gj_device **dev);

GJ_API enum gj_backend gj_device_backend(const gj_device *dev);
/* The memory type of frames that live on this device. */
GJ_API enum gj_memory gj_device_memory(const gj_device *dev);
/* Human-readable, e.g. "CUDA: NVIDIA H100 80GB HBM3" */
GJ_API const char *gj_device_name(const gj_device *dev);

/*
 * Device memory the library holds in buffers created on dev (codecs' buffers and the
 * frames it allocates; not a sibling's): now, and the most at once since dev was
 * created or gj_device_reset_peak(). The figures a decoder's peak is checked by.
 */
GJ_API void gj_device_buffer_bytes(const gj_device *dev, size_t *current, size_t *peak);
GJ_API void gj_device_reset_peak(gj_device *dev);

/*
 * Host memory for pictures that go to or come from dev, which the device's copies
 * reach at the bus's speed (an H200's host: 53-55 GB/s, against 10-11 GB/s into
 * pageable memory): page-locked on CUDA, a mapped CL_MEM_ALLOC_HOST_PTR buffer on
 * OpenCL (ordinary memory where the platform makes none); 64-byte aligned. NULL when
 * out of memory. Free it with gj_device_host_free() on the same device (from any
 * thread), before the device.
 */
GJ_API void *gj_device_host_alloc(gj_device *dev, size_t size);
GJ_API void gj_device_host_free(gj_device *dev, void *ptr);

/* Waits until all work queued on the device by the library has finished. */
GJ_API int gj_device_synchronize(gj_device *dev);

#ifdef __cplusplus
}
#endif

#endif /* GPUJPEG_DEVICE_H */
