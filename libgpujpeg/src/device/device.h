/*
 * The backend layer: one small table of operations per GPU API.
 *
 * Codec code calls only these operations; only device/cuda.c knows CUDA and only
 * device/opencl.c knows OpenCL. All operations are queued in order on the
 * device's one stream/queue; upload/download/fill are asynchronous with respect
 * to the host except where noted, so host memory passed to them must stay valid
 * until gj_dev_finish().
 */
#ifndef GJ_DEVICE_DEVICE_H
#define GJ_DEVICE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "gpujpeg/device.h"

/* Device memory: a CUdeviceptr or a cl_mem, plus its size. */
typedef struct gj_buffer {
    uintptr_t handle;
    size_t size;
} gj_buffer;

/* One kernel argument. Buffers go by handle; offsets into them are u64 arguments. */
enum gj_karg_type {
    GJ_KARG_BUF,
    GJ_KARG_U32,
    GJ_KARG_I32,
    GJ_KARG_U64,
};

typedef struct gj_karg {
    enum gj_karg_type type;
    union {
        uintptr_t buf;        /* gj_buffer.handle */
        uint32_t u32;
        int32_t i32;
        uint64_t u64;
    } v;
} gj_karg;

#define GJ_ARG_BUF(b) ((gj_karg){ .type = GJ_KARG_BUF, .v.buf = (b)->handle })
#define GJ_ARG_U32(x) ((gj_karg){ .type = GJ_KARG_U32, .v.u32 = (uint32_t)(x) })
#define GJ_ARG_I32(x) ((gj_karg){ .type = GJ_KARG_I32, .v.i32 = (int32_t)(x) })
#define GJ_ARG_U64(x) ((gj_karg){ .type = GJ_KARG_U64, .v.u64 = (uint64_t)(x) })

typedef struct gj_device_ops {
    enum gj_backend backend;
    enum gj_memory memory;

    void (*destroy)(gj_device *dev);

    /* Device memory. buffer_create of size 0 is allowed and yields a valid handle. */
    int (*buffer_create)(gj_device *dev, size_t size, gj_buffer *buf);
    void (*buffer_destroy)(gj_device *dev, gj_buffer *buf);

    /* Page-locked host memory for fast asynchronous copies (may fall back to malloc). */
    void *(*host_alloc)(gj_device *dev, size_t size);
    void (*host_free)(gj_device *dev, void *ptr);

    /* Queued copies. */
    int (*upload)(gj_device *dev, const gj_buffer *dst, size_t dst_offset,
                  const void *src, size_t size);
    int (*download)(gj_device *dev, void *dst, const gj_buffer *src, size_t src_offset,
                    size_t size);
    /* Rectangular copy of `height` rows of `width_bytes` between pitched layouts. */
    int (*download_2d)(gj_device *dev, void *dst, size_t dst_pitch,
                       const gj_buffer *src, size_t src_offset, size_t src_pitch,
                       size_t width_bytes, size_t height);
    /* Rectangular copy between device buffers (of this device or its siblings). */
    int (*copy_2d)(gj_device *dev, const gj_buffer *dst, size_t dst_offset, size_t dst_pitch,
                   const gj_buffer *src, size_t src_offset, size_t src_pitch,
                   size_t width_bytes, size_t height);
    int (*fill_zero)(gj_device *dev, const gj_buffer *buf, size_t offset, size_t size);

    /*
     * A view of `size` bytes of parent: a buffer that kernels, copies and fills take
     * like any other and whose bytes are the parent's (parent may be a plane of a
     * frame: a handle and the size known to be there). It starts at *start, the
     * first position from `offset` on that the device aligns views to (a multiple
     * of view_align in memory). Not an allocation: the device's byte count leaves
     * it out. When it does not fit in parent->size, or parent cannot have views
     * (an OpenCL image or read-only buffer), GJ_ERROR_UNSUPPORTED without a message:
     * the caller allocates instead. view_release may come while queued work still
     * uses the view.
     */
    int (*view_create)(gj_device *dev, const gj_buffer *parent, size_t offset, size_t size,
                       gj_buffer *view, size_t *start);
    void (*view_release)(gj_device *dev, gj_buffer *view);

    /*
     * Queues kernel `name` (a GJ_KERNEL of src/kernels) over `groups` work-groups
     * of `group_size` threads, one dimension.
     */
    int (*launch)(gj_device *dev, const char *name, size_t groups, size_t group_size,
                  const gj_karg *args, int nargs);

    /* Blocks until everything queued so far has completed. */
    int (*finish)(gj_device *dev);

    /*
     * A second device on the same GPU context with a queue of its own: work queued on
     * siblings may run at the same time, and buffers of one are valid in all. It may
     * be used from another thread than dev; dev must outlive it. An urgent sibling's
     * work-groups are started before those of queues opened otherwise wherever both
     * wait for room on the GPU (CUDA stream priorities; OpenCL has no portable way to
     * say so and opens a plain queue).
     */
    int (*open_sibling)(gj_device *dev, gj_device **sibling, int urgent);

    /* Work queued on dev from now on starts only once the work queued on other (a
     * sibling, or dev's parent) so far has completed; the host does not wait. */
    int (*wait_for)(gj_device *dev, gj_device *other);
} gj_device_ops;

struct gj_device {
    const gj_device_ops *ops;
    void *priv;                 /* backend state */
    gj_device_desc desc;
    char display_name[192];     /* "CUDA: <name>" / "OpenCL: <name> (<platform>)" */
    size_t buffer_bytes, peak_bytes;    /* held in buffers now, and at most (gj_device_buffer_bytes) */
    size_t view_align;          /* views start on multiples of this in memory (a power of two) */
    int compute_units;          /* multiprocessors (CUDA) or compute units (OpenCL); 0 when unknown */
};

/* The backends' buffer_create and buffer_destroy report each buffer's size here.
 * Atomically: the lanes of a batch allocate output frames on their parent device
 * from their own threads. */
static inline void gj_dev_count_buffer(gj_device *dev, size_t size, int created)
{
    size_t now = __atomic_load_n(&dev->buffer_bytes, __ATOMIC_RELAXED), next, peak;

    do
        next = created ? now + size : now - (size < now ? size : now);
    while (!__atomic_compare_exchange_n(&dev->buffer_bytes, &now, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    peak = __atomic_load_n(&dev->peak_bytes, __ATOMIC_RELAXED);
    while (next > peak &&
           !__atomic_compare_exchange_n(&dev->peak_bytes, &peak, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* The backends' view_create: where a view of `size` bytes placed from `offset` on
 * starts, aligned to view_align, in a parent of `room` bytes whose byte 0 lies at
 * `base` (an address, or an offset in the allocation that alignment counts from);
 * GJ_ERROR_UNSUPPORTED, without a message, when it does not fit. */
static inline int gj_dev_view_start(const gj_device *dev, uint64_t base, size_t offset, size_t size,
                                    size_t room, size_t *start)
{
    size_t skip = (size_t)(-(base + offset) & (dev->view_align - 1));

    if (offset > room || skip > room - offset || size > room - offset - skip)
        return GJ_ERROR_UNSUPPORTED;
    *start = offset + skip;
    return 0;
}

/* Backend entry points (device/cuda.c, device/opencl.c). Without the backend built
 * in, the stubs in device/device.c report 0 devices / GJ_ERROR_NODEV. */
int gj_cuda_list(gj_device_desc *descs, int max);
int gj_cuda_open(gj_device **dev, int ordinal);
int gj_cuda_wrap(gj_device **dev, void *cu_context, void *cu_stream);

int gj_opencl_list(gj_device_desc *descs, int max);
int gj_opencl_open(gj_device **dev, int platform, int device);
int gj_opencl_wrap(gj_device **dev, void *context, void *device_id, void *queue);

/* Shorthands for codec code. */
static inline int gj_dev_launch(gj_device *dev, const char *name, size_t groups,
                                size_t group_size, const gj_karg *args, int nargs)
{
    return dev->ops->launch(dev, name, groups, group_size, args, nargs);
}

static inline int gj_dev_open_sibling(gj_device *dev, gj_device **sibling)
{
    return dev->ops->open_sibling(dev, sibling, 0);
}

static inline int gj_dev_open_urgent_sibling(gj_device *dev, gj_device **sibling)
{
    return dev->ops->open_sibling(dev, sibling, 1);
}

static inline int gj_dev_finish(gj_device *dev)
{
    return dev->ops->finish(dev);
}

/* (Re)creates *buf when it is smaller than size; contents are not kept. */
static inline int gj_dev_ensure_buffer(gj_device *dev, gj_buffer *buf, size_t size)
{
    if (buf->handle && buf->size >= size)
        return 0;
    if (buf->handle)
        dev->ops->buffer_destroy(dev, buf);
    buf->handle = 0;
    buf->size = 0;
    return dev->ops->buffer_create(dev, size ? size : 16, buf);
}

#endif /* GJ_DEVICE_DEVICE_H */
