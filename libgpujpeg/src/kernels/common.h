/*
 * The portable kernel dialect: every kernel body in src/kernels/ (the *.h files) is written once
 * with these macros and compiled as CUDA (kernels/cuda/kernels.cu, by nvcc) and as
 * OpenCL C 1.2 (kernels/opencl/kernels.cl, embedded as source). Host C may include
 * the *_params.h headers too: they use only the fixed-size types below.
 *
 * Rules for kernel code:
 *  - local (shared) arrays are declared at kernel scope (OpenCL requires it) and
 *    passed to helpers as GJ_LOCAL pointers;
 *  - helpers are GJ_FUNC, pointer arguments carry GJ_GLOBAL/GJ_LOCAL/GJ_CONST;
 *  - 1-D launches only: gj_group_id(), gj_local_id(), gj_group_size();
 *  - GJ_UNROLL before a loop of constant trip count unrolls it on the GPU, so
 *    the small arrays it indexes stay in registers; GJ_NO_UNROLL keeps a loop
 *    whose body is long rolled (one copy of the code: fewer instruction-cache
 *    misses), where it indexes no array;
 *  - integer arithmetic wraps: use unsigned types where an overflow is possible on
 *    hostile input, so both compilers agree bit for bit.
 */
#ifndef GJ_KERNELS_COMMON_H
#define GJ_KERNELS_COMMON_H

#if defined(__CUDACC__)
/* ---------------------------------------------------------------- CUDA */
#define GJ_KERNEL extern "C" __global__ void
/* A kernel launched in groups of at most `threads`, `groups` of which a multiprocessor
 * must hold at once (a register cap where ptxas would take more). */
#define GJ_KERNEL_BOUNDED(threads, groups) extern "C" __global__ void __launch_bounds__(threads, groups)
#define GJ_FUNC static __device__ __forceinline__
/* A helper kept as a call on CUDA (elsewhere as GJ_FUNC); see its use for why. */
#define GJ_FUNC_NOINLINE static __device__ __noinline__
#define GJ_GLOBAL
#define GJ_LOCAL
#define GJ_LOCAL_DECL __shared__
#define GJ_CONST const
#define GJ_CONST_DATA static __device__ const
#define GJ_RESTRICT __restrict__
typedef unsigned char gj_u8;
typedef signed char gj_i8;
typedef unsigned short gj_u16;
typedef short gj_i16;
typedef unsigned int gj_u32;
typedef int gj_i32;
typedef unsigned long long gj_u64;
typedef long long gj_i64;
#define gj_local_id() ((gj_u32)threadIdx.x)
#define gj_group_id() ((gj_u32)blockIdx.x)
#define gj_group_size() ((gj_u32)blockDim.x)
#define gj_num_groups() ((gj_u32)gridDim.x)
#define gj_global_id() ((gj_u64)blockIdx.x * blockDim.x + threadIdx.x)
#define gj_barrier() __syncthreads()
/* Orders this thread's global writes before its later ones for every work-group
 * (the last work-group of a launch reads what the others wrote: a ticket). */
#define gj_global_fence() __threadfence()
#define gj_atomic_add_u32(p, v) atomicAdd((p), (v))
#define gj_atomic_or_u32(p, v) atomicOr((p), (v))
#define gj_atomic_xor_u32(p, v) atomicXor((p), (v))
#define gj_atomic_max_u32(p, v) atomicMax((p), (v))
#define gj_clz64(x) ((gj_u32)__clzll((long long)(x)))
#define gj_popcount(x) ((gj_u32)__popc((gj_u32)(x)))
#define gj_ctz(x) ((gj_u32)__ffs((int)(x)) - 1u)       /* x != 0 */
#define gj_mulhi_u32(a, b) __umulhi((gj_u32)(a), (gj_u32)(b))
#define gj_min(a, b) min((a), (b))
#define gj_max(a, b) max((a), (b))
#define GJ_UNROLL _Pragma("unroll")
#define GJ_NO_UNROLL _Pragma("unroll 1")
/*
 * A local pointer whose address the compiler keeps in a register. A __shared__
 * array's address is a constant to nvcc, and on sm_90 ptxas rebuilds it at every
 * use (S2R SR_CgaCtaId and three more instructions); an address it cannot see
 * through is computed once. Elsewhere the pointer itself.
 */
template <typename T> static __device__ __forceinline__ T *gj_local_pin(T *p)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(p);

    asm volatile("" : "+r"(s));
    return (T *)__cvta_shared_to_generic(s);
}

#elif defined(__OPENCL_VERSION__)
/* ---------------------------------------------------------------- OpenCL C */
#define GJ_KERNEL __kernel void
#define GJ_KERNEL_BOUNDED(threads, groups) __kernel void
#define GJ_FUNC static inline
#define GJ_FUNC_NOINLINE static inline
#define GJ_GLOBAL __global
#define GJ_LOCAL __local
#define GJ_LOCAL_DECL __local
#define GJ_CONST __constant
#define GJ_CONST_DATA __constant
#define GJ_RESTRICT restrict
typedef uchar gj_u8;
typedef char gj_i8;
typedef ushort gj_u16;
typedef short gj_i16;
typedef uint gj_u32;
typedef int gj_i32;
typedef ulong gj_u64;
typedef long gj_i64;
#define gj_local_id() ((gj_u32)get_local_id(0))
#define gj_group_id() ((gj_u32)get_group_id(0))
#define gj_group_size() ((gj_u32)get_local_size(0))
#define gj_num_groups() ((gj_u32)get_num_groups(0))
#define gj_global_id() ((gj_u64)get_global_id(0))
#define gj_barrier() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define gj_global_fence() mem_fence(CLK_GLOBAL_MEM_FENCE)
#define gj_atomic_add_u32(p, v) atomic_add((p), (v))
#define gj_atomic_or_u32(p, v) atomic_or((p), (v))
#define gj_atomic_xor_u32(p, v) atomic_xor((p), (v))
#define gj_atomic_max_u32(p, v) atomic_max((p), (v))
#define gj_clz64(x) ((gj_u32)clz((ulong)(x)))
#define gj_popcount(x) ((gj_u32)popcount((uint)(x)))
#define gj_ctz(x) (31u - (gj_u32)clz((uint)(x) & (0u - (uint)(x))))    /* x != 0; OpenCL 1.2 has no ctz */
#define gj_mulhi_u32(a, b) mul_hi((uint)(a), (uint)(b))
#define gj_min(a, b) min((a), (b))
#define gj_max(a, b) max((a), (b))
#define GJ_UNROLL _Pragma("unroll")
#define GJ_NO_UNROLL _Pragma("unroll 1")
#define gj_local_pin(p) (p)

#else
/* ---------------------------------------------------------------- host C
 * The params headers, and kernels without barriers or local memory run on the CPU
 * (tests compare them with the GPU): the caller sets gj_global_id() before each
 * call of a kernel, one id at a time. */
#include <stdint.h>
typedef uint8_t gj_u8;
typedef int8_t gj_i8;
typedef uint16_t gj_u16;
typedef int16_t gj_i16;
typedef uint32_t gj_u32;
typedef int32_t gj_i32;
typedef uint64_t gj_u64;
typedef int64_t gj_i64;
#define GJ_CONST const
#define GJ_KERNEL static inline void
#define GJ_KERNEL_BOUNDED(threads, groups) static inline void
#define GJ_FUNC static inline
#define GJ_FUNC_NOINLINE static inline
#define GJ_GLOBAL
#define GJ_CONST_DATA static const
#define GJ_RESTRICT
static inline gj_u64 *gj_host_global_id(void)
{
    static _Thread_local gj_u64 id;
    return &id;
}
#define gj_global_id() (*gj_host_global_id())
#define gj_clz64(x) ((gj_u32)((x) ? __builtin_clzll(x) : 64))
#define gj_popcount(x) ((gj_u32)__builtin_popcount((gj_u32)(x)))
#define gj_ctz(x) ((gj_u32)__builtin_ctz((gj_u32)(x)))   /* x != 0 */
#define gj_mulhi_u32(a, b) ((gj_u32)((gj_u64)(gj_u32)(a) * (gj_u32)(b) >> 32))   /* the high word of a * b */
#define gj_min(a, b) ((a) < (b) ? (a) : (b))
#define gj_max(a, b) ((a) > (b) ? (a) : (b))
#define GJ_UNROLL
#define GJ_NO_UNROLL
#endif

/* Byte i of the result is byte (sel >> 4 i) & 3 of x: one instruction on CUDA. */
#if defined(__CUDACC__)
#define gj_byte_perm(x, sel) __byte_perm((x), 0u, (sel))
#else
GJ_FUNC gj_u32 gj_byte_perm(gj_u32 x, gj_u32 sel)
{
    return (x >> (8 * (sel & 3u)) & 255u) | (x >> (8 * (sel >> 4 & 3u)) & 255u) << 8 |
           (x >> (8 * (sel >> 8 & 3u)) & 255u) << 16 | (x >> (8 * (sel >> 12 & 3u)) & 255u) << 24;
}
#endif

/* Byte i of the result is byte (sel >> 4 i) & 7 of the eight bytes of x (0..3) and y (4..7). */
#if defined(__CUDACC__)
#define gj_byte_perm2(x, y, sel) __byte_perm((x), (y), (sel))
#else
GJ_FUNC gj_u32 gj_byte_perm2(gj_u32 x, gj_u32 y, gj_u32 sel)
{
    gj_u64 xy = (gj_u64)y << 32 | x;
    gj_u32 r = 0;
    int i;

    for (i = 0; i < 4; i++)
        r |= (gj_u32)(xy >> (8 * (sel >> (4 * i) & 7u)) & 255u) << (8 * i);
    return r;
}
#endif

/*
 * The minimum and maximum of three words per 16-bit half (two unsigned 16-bit
 * lanes): one instruction on sm_90 (VIMNMX3.U16x2), the DXT encoders' channel
 * bounds two channels at a time.
 */
#if defined(__CUDACC__)
#define gj_min3_u16x2(a, b, c) __vimin3_u16x2((a), (b), (c))
#define gj_max3_u16x2(a, b, c) __vimax3_u16x2((a), (b), (c))
#elif defined(__OPENCL_VERSION__)
#define gj_min3_u16x2(a, b, c) as_uint(min(min(as_ushort2((gj_u32)(a)), as_ushort2((gj_u32)(b))), as_ushort2((gj_u32)(c))))
#define gj_max3_u16x2(a, b, c) as_uint(max(max(as_ushort2((gj_u32)(a)), as_ushort2((gj_u32)(b))), as_ushort2((gj_u32)(c))))
#else
GJ_FUNC gj_u32 gj_min3_u16x2(gj_u32 a, gj_u32 b, gj_u32 c)
{
    gj_u32 lo = gj_min(gj_min(a & 0xffffu, b & 0xffffu), c & 0xffffu);

    return lo | gj_min(gj_min(a >> 16, b >> 16), c >> 16) << 16;
}

GJ_FUNC gj_u32 gj_max3_u16x2(gj_u32 a, gj_u32 b, gj_u32 c)
{
    gj_u32 lo = gj_max(gj_max(a & 0xffffu, b & 0xffffu), c & 0xffffu);

    return lo | gj_max(gj_max(a >> 16, b >> 16), c >> 16) << 16;
}
#endif

/*
 * max(a + b, c) per unsigned 16-bit lane (the sums must not pass 2^16): one
 * instruction on sm_90 (VIADDMNMX.U16x2), the DXT alpha encoder's distance of
 * two pixels to a palette entry.
 */
#if defined(__CUDACC__)
#define gj_addmax_u16x2(a, b, c) __viaddmax_u16x2((a), (b), (c))
#elif defined(__OPENCL_VERSION__)
#define gj_addmax_u16x2(a, b, c) as_uint(max(as_ushort2((gj_u32)(a)) + as_ushort2((gj_u32)(b)), as_ushort2((gj_u32)(c))))
#else
GJ_FUNC gj_u32 gj_addmax_u16x2(gj_u32 a, gj_u32 b, gj_u32 c)
{
    gj_u32 lo = gj_max(((a & 0xffffu) + (b & 0xffffu)) & 0xffffu, c & 0xffffu);

    return lo | gj_max(((a >> 16) + (b >> 16)) & 0xffffu, c >> 16) << 16;
}
#endif

/*
 * acc + the sum of the products of the four unsigned bytes of a and b, modulo
 * 2^32: one instruction (IDP4A) on CUDA. The DXT encoders measure a colour
 * against a palette entry with it (three channels and a zero byte).
 */
#if defined(__CUDACC__)
#define gj_dot4_u8(a, b, acc) ((gj_i32)__dp4a((gj_u32)(a), (gj_u32)(b), (gj_u32)(acc)))
#else
GJ_FUNC gj_i32 gj_dot4_u8(gj_u32 a, gj_u32 b, gj_i32 acc)
{
    return (gj_i32)((a & 255u) * (b & 255u) + (a >> 8 & 255u) * (b >> 8 & 255u) +
                    (a >> 16 & 255u) * (b >> 16 & 255u) + (a >> 24) * (b >> 24) + (gj_u32)acc);
}
#endif

#if defined(__CUDACC__) || defined(__OPENCL_VERSION__)
/*
 * Whether this work-group is the last of its launch to get here: *ticket (zero
 * before the launch) counts the groups. What every group wrote before the call is
 * visible to the last one after it, so that one can go on with a step that needs
 * all of them (a launch less on a chain of small ones). Every thread calls it, at
 * the top level (barriers).
 */
GJ_FUNC gj_u32 gj_last_group(GJ_GLOBAL gj_u32 *ticket, GJ_LOCAL gj_u32 *l_last)
{
    gj_barrier();
    if (gj_local_id() == 0) {
        gj_global_fence();
        *l_last = gj_atomic_add_u32(ticket, 1u) == gj_num_groups() - 1;
        gj_global_fence();
    }
    gj_barrier();
    return *l_last;
}
#endif

#endif /* GJ_KERNELS_COMMON_H */
