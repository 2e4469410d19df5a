/*
 * What the kernels' host dialect (kernels/common.h) lacks for kernels that declare
 * local memory, wait at barriers or XOR atomically: one work-item in a work-group of
 * one, which waits for no other. Include after kernels/common.h, before the kernels.
 */
#ifndef GJ_TESTS_UNIT_ONE_ITEM_H
#define GJ_TESTS_UNIT_ONE_ITEM_H

#define GJ_LOCAL
#define GJ_LOCAL_DECL
#define gj_local_pin(p) (p)
#define gj_local_id() 0u
#define gj_group_id() 0u
#define gj_group_size() 1u
#define gj_barrier() ((void)0)
#define gj_atomic_xor_u32(p, v) (*(p) ^= (v))

#endif /* GJ_TESTS_UNIT_ONE_ITEM_H */
