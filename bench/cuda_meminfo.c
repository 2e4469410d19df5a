/* Free GPU memory on CUDA (cuda_meminfo.h). */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpujpeg/gpujpeg.h>

#include "cuda_meminfo.h"

/* The CUDA ordinal of the device that `spec` names: the index-th CUDA device listed. */
int cuda_ordinal(const char *spec)
{
    gj_device_desc descs[32];
    const char *colon = strchr(spec, ':');
    int wanted = colon ? atoi(colon + 1) : 0, n, i;

    n = gj_device_list(descs, 32);
    for (i = 0; i < n && i < 32; i++) {
        if (descs[i].backend == GJ_BACKEND_CUDA && wanted-- == 0)
            return descs[i].index;
    }
    return 0;
}

/* Opens the driver for cuMemGetInfo; 0 (nothing is reported) if it is not there. */
int cuda_meminfo_open(cuda_meminfo *m, int ordinal)
{
    int (*init)(unsigned flags);
    int (*device_get)(int *device, int ordinal);
    int (*primary_retain)(void **ctx, int device);

    memset(m, 0, sizeof(*m));
    if (!(m->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)))
        return 0;
    *(void **)&init = dlsym(m->lib, "cuInit");
    *(void **)&device_get = dlsym(m->lib, "cuDeviceGet");
    *(void **)&primary_retain = dlsym(m->lib, "cuDevicePrimaryCtxRetain");
    *(void **)&m->primary_release = dlsym(m->lib, "cuDevicePrimaryCtxRelease_v2");
    *(void **)&m->mem_get_info = dlsym(m->lib, "cuMemGetInfo_v2");
    *(void **)&m->ctx_push = dlsym(m->lib, "cuCtxPushCurrent_v2");
    *(void **)&m->ctx_pop = dlsym(m->lib, "cuCtxPopCurrent_v2");
    if (!init || !device_get || !primary_retain || !m->primary_release || !m->mem_get_info ||
        !m->ctx_push || !m->ctx_pop || init(0) != 0 || device_get(&m->device, ordinal) != 0 ||
        primary_retain(&m->ctx, m->device) != 0) {
        fprintf(stderr, "GPU memory will not be reported: the CUDA driver API is incomplete\n");
        dlclose(m->lib);
        memset(m, 0, sizeof(*m));
        return 0;
    }
    return 1;
}

void cuda_meminfo_close(cuda_meminfo *m)
{
    if (!m->ctx)
        return;
    m->primary_release(m->device);
    dlclose(m->lib);
    memset(m, 0, sizeof(*m));
}

/* The device's free memory in bytes, or 0 when it cannot be read. */
size_t cuda_free_bytes(cuda_meminfo *m)
{
    size_t free_bytes = 0, total_bytes = 0;
    void *popped;

    if (!m->ctx || m->ctx_push(m->ctx) != 0)
        return 0;
    if (m->mem_get_info(&free_bytes, &total_bytes) != 0)
        free_bytes = 0;
    m->ctx_pop(&popped);
    return free_bytes;
}
