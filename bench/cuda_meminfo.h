/*
 * Free GPU memory on CUDA, for the benchmarks' memory figures: the driver API
 * loaded at run time (as the library does), so no CUDA is needed to build.
 */
#ifndef BENCH_CUDA_MEMINFO_H
#define BENCH_CUDA_MEMINFO_H

#include <stddef.h>

/* The driver's entry points; the library decodes in the device's primary context, and so
 * does cuMemGetInfo here. */
typedef struct cuda_meminfo {
    void *lib;
    void *ctx;
    int device;
    int (*mem_get_info)(size_t *free_bytes, size_t *total_bytes);
    int (*ctx_push)(void *ctx);
    int (*ctx_pop)(void **ctx);
    int (*primary_release)(int device);
} cuda_meminfo;

/* The CUDA ordinal of the device that `spec` names: the index-th CUDA device listed. */
int cuda_ordinal(const char *spec);
/* Opens the driver for cuMemGetInfo; 0 (nothing is reported) if it is not there. */
int cuda_meminfo_open(cuda_meminfo *m, int ordinal);
void cuda_meminfo_close(cuda_meminfo *m);
/* The device's free memory in bytes, or 0 when it cannot be read. */
size_t cuda_free_bytes(cuda_meminfo *m);

#endif /* BENCH_CUDA_MEMINFO_H */
