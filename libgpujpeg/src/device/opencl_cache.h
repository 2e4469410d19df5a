/*
 * The on-disk cache of OpenCL program binaries.
 *
 * Building the embedded kernel source takes seconds (PoCL) to tens of seconds
 * (some GPU drivers), so the binary a driver produces is kept in
 * $GJ_OPENCL_CACHE_DIR, else $XDG_CACHE_HOME/libgpujpeg, else
 * $HOME/.cache/libgpujpeg; GJ_OPENCL_CACHE=0 turns the cache off.
 *
 * Nothing here is fatal: a missing, unreadable, corrupt or rejected cache file
 * is a miss (the caller builds from source and stores the result), and an
 * unwritable directory means no cache. Both are logged at GJ_LOG_VERBOSE only.
 */
#ifndef GJ_DEVICE_OPENCL_CACHE_H
#define GJ_DEVICE_OPENCL_CACHE_H

#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

typedef struct gj_opencl_cache_entry {
    uint64_t key;
    char path[4096];        /* the cache file; "" when caching is off */
} gj_opencl_cache_entry;

/*
 * Derives the entry for a program from the strings that identify it: they must
 * cover the source, the build options and everything that makes a binary
 * specific to one driver and device (names and versions).
 */
void gj_opencl_cache_locate(gj_opencl_cache_entry *entry, const char *const *parts,
                            int nb_parts);

/* The cached program, built for device with options; NULL on a miss. */
cl_program gj_opencl_cache_load(const gj_opencl_cache_entry *entry, cl_context context,
                                cl_device_id device, const char *options);

/* Stores device's binary of a built program, replacing the file atomically. */
void gj_opencl_cache_store(const gj_opencl_cache_entry *entry, cl_program program,
                           cl_device_id device);

#endif /* GJ_DEVICE_OPENCL_CACHE_H */
