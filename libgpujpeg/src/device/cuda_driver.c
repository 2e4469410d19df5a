/* Loading the CUDA driver API from libcuda.so.1 (see cuda_driver.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "device/cuda_driver.h"

static gj_cuda_driver driver;
static const gj_cuda_driver *driver_usable;    /* &driver once loaded and initialised */
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

/* cuGetProcAddress as CUDA 12.0+ drivers export it (with a status argument), or as 11.3+ do. */
static PFN_cuGetProcAddress_v12000 get_proc_address_v2;
static PFN_cuGetProcAddress_v11030 get_proc_address_v1;

static int get_proc(const char *symbol, int version, void **fn)
{
    CUdriverProcAddressQueryResult status;
    CUresult res;

    *fn = NULL;
    if (get_proc_address_v2)
        res = get_proc_address_v2(symbol, fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    else
        res = get_proc_address_v1(symbol, fn, version, CU_GET_PROC_ADDRESS_DEFAULT);
    return res == CUDA_SUCCESS && *fn;
}

/* Fills the table; returns the name of the first function the driver lacks, or NULL. */
static const char *resolve_functions(void)
{
#define GJ_CUDA_RESOLVE(name, version) \
    if (!get_proc("cu" #name, version, (void **)&driver.name)) \
        return "cu" #name;
    GJ_CUDA_FUNCTIONS(GJ_CUDA_RESOLVE)
#undef GJ_CUDA_RESOLVE
    return NULL;
}

static void error_name(CUresult res, char *buf, size_t size)
{
    const char *name = NULL;

    if (driver.GetErrorName(res, &name) == CUDA_SUCCESS && name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "CUresult %d", (int)res);
}

static void driver_load(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    const char *missing;
    char name[64];
    CUresult res;

    if (!lib) {
        gj_log(GJ_LOG_VERBOSE, "CUDA: backend unavailable: %s", dlerror());
        return;
    }
    get_proc_address_v2 = (PFN_cuGetProcAddress_v12000)dlsym(lib, "cuGetProcAddress_v2");
    if (!get_proc_address_v2)
        get_proc_address_v1 = (PFN_cuGetProcAddress_v11030)dlsym(lib, "cuGetProcAddress");
    if (!get_proc_address_v2 && !get_proc_address_v1) {
        gj_log(GJ_LOG_VERBOSE, "CUDA: backend unavailable: the driver predates CUDA 11.3 "
               "(no cuGetProcAddress)");
        dlclose(lib);
        return;
    }
    missing = resolve_functions();
    if (missing) {
        gj_log(GJ_LOG_VERBOSE, "CUDA: backend unavailable: the driver lacks %s", missing);
        dlclose(lib);
        return;
    }
    /* From here on libcuda stays loaded: cuInit may have started driver threads. */
    res = driver.Init(0);
    if (res != CUDA_SUCCESS) {
        error_name(res, name, sizeof(name));
        gj_log(res == CUDA_ERROR_NO_DEVICE ? GJ_LOG_VERBOSE : GJ_LOG_WARNING,
               "CUDA: backend unavailable: cuInit failed: %s", name);
        return;
    }
    res = driver.DriverGetVersion(&driver.version);
    if (res != CUDA_SUCCESS) {
        gj_cuda_fail(res, "cuDriverGetVersion");
        return;
    }
    driver_usable = &driver;
}

const gj_cuda_driver *gj_cuda_driver_get(void)
{
    pthread_once(&driver_once, driver_load);
    return driver_usable;
}

int gj_cuda_fail(CUresult res, const char *call_fmt, ...)
{
    char call[256], name[64];
    va_list ap;

    va_start(ap, call_fmt);
    vsnprintf(call, sizeof(call), call_fmt, ap);
    va_end(ap);
    error_name(res, name, sizeof(name));
    return gj_fail(res == CUDA_ERROR_OUT_OF_MEMORY ? GJ_ERROR_NOMEM : GJ_ERROR_EXTERNAL,
                   "CUDA: %s failed: %s", call, name);
}
