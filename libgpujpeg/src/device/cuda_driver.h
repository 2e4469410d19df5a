/*
 * The CUDA driver API, loaded from libcuda.so.1 at run time, so the library has no
 * link-time dependency on the driver and loads on machines without one. cuda.h and
 * cudaTypedefs.h of the toolkit supply the types only.
 */
#ifndef GJ_DEVICE_CUDA_DRIVER_H
#define GJ_DEVICE_CUDA_DRIVER_H

#include <cudaTypedefs.h>

#include "log.h"

/*
 * Every driver function the backend calls, with the CUDA version whose ABI we call:
 * the suffix of its PFN_ typedef in cudaTypedefs.h (a wrong number does not compile).
 * cuGetProcAddress is asked for exactly that version, so a driver older or newer
 * than the toolkit hands back the variant matching our prototype; asking for the
 * header's CUDA_VERSION instead would give a pre-13.0 driver's one-argument
 * cuCtxGetDevice where the 13.0 header declares two.
 */
#define GJ_CUDA_FUNCTIONS(X) \
    X(GetErrorName, 6000) \
    X(Init, 2000) \
    X(DriverGetVersion, 2020) \
    X(DeviceGetCount, 2000) \
    X(DeviceGet, 2000) \
    X(DeviceGetName, 2000) \
    X(DeviceTotalMem, 3020) \
    X(DeviceGetAttribute, 2000) \
    X(DevicePrimaryCtxRetain, 7000) \
    X(DevicePrimaryCtxRelease, 11000) \
    X(CtxPushCurrent, 4000) \
    X(CtxPopCurrent, 4000) \
    X(CtxGetDevice, 2000) \
    X(StreamCreate, 2000) \
    X(StreamCreateWithPriority, 5050) \
    X(CtxGetStreamPriorityRange, 5050) \
    X(StreamDestroy, 4000) \
    X(StreamSynchronize, 2000) \
    X(StreamWaitEvent, 3020) \
    X(EventCreate, 2000) \
    X(EventRecord, 2000) \
    X(EventDestroy, 4000) \
    X(ModuleLoadData, 2000) \
    X(ModuleUnload, 2000) \
    X(ModuleGetFunction, 2000) \
    X(MemAlloc, 3020) \
    X(MemFree, 3020) \
    X(MemAllocHost, 3020) \
    X(MemFreeHost, 2000) \
    X(MemcpyHtoDAsync, 3020) \
    X(MemcpyDtoHAsync, 3020) \
    X(Memcpy2DAsync, 3020) \
    X(MemsetD8Async, 3020) \
    X(LaunchKernel, 4000)

/*
 * Members drop the "cu" prefix (cu->MemAlloc for cuMemAlloc): cuda.h #defines many
 * of the prefixed names to versioned symbols, which would rename the members.
 */
typedef struct gj_cuda_driver {
#define GJ_CUDA_MEMBER(name, version) PFN_cu##name##_v##version name;
    GJ_CUDA_FUNCTIONS(GJ_CUDA_MEMBER)
#undef GJ_CUDA_MEMBER
    int version;        /* cuDriverGetVersion(), e.g. 13000 */
} gj_cuda_driver;

/*
 * Loads and initialises (cuInit) the driver on the first call, thread-safely.
 * Returns NULL when no usable driver or device exists; the reason is logged once,
 * at verbose level (warning level for a driver that is present but fails cuInit
 * for another reason than having no device).
 */
const gj_cuda_driver *gj_cuda_driver_get(void);

/*
 * Logs "CUDA: <call> failed: <error name>", call being printf-formatted, and
 * returns GJ_ERROR_NOMEM for CUDA_ERROR_OUT_OF_MEMORY, else GJ_ERROR_EXTERNAL.
 * Only valid once gj_cuda_driver_get() has succeeded.
 */
int gj_cuda_fail(CUresult res, const char *call_fmt, ...) GJ_PRINTF(2, 3);

#endif /* GJ_DEVICE_CUDA_DRIVER_H */
