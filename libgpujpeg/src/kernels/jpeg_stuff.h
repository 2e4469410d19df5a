/*
 * The last step of the entropy-coded data (T.81 B.1.1.5, F.1.2.3): every 0xFF
 * byte of the packed segments is followed by a stuffed 0x00, and segment s > 0
 * is preceded by its RSTm marker, m = (s - 1) mod 8. Each thread owns
 * GJ_ENC_STUFF_BYTES raw bytes: it counts the bytes it adds, a prefix sum of the
 * counts places its output, and it copies its bytes there.
 */
#ifndef GJ_KERNELS_JPEG_STUFF_H
#define GJ_KERNELS_JPEG_STUFF_H

#include "jpeg_encode_params.h"

GJ_FUNC gj_u32 gj_enc_raw_byte(GJ_GLOBAL const gj_u32 *words, gj_u64 i)
{
    return (words[i >> 2] >> ((i & 3) * 8)) & 0xff;
}

/* The first segment s >= 1 starting at or after raw byte `byte` (seg_offsets: bits). */
GJ_FUNC gj_u32 gj_enc_next_segment(GJ_GLOBAL const gj_u64 *seg_offsets, gj_u32 num_segments, gj_u64 byte)
{
    gj_u32 lo = 1, hi = num_segments;

    while (lo < hi) {
        gj_u32 mid = (lo + hi) / 2;
        if (seg_offsets[mid] / 8 < byte)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* extra[i]: bytes chunk i adds (stuffed zeros, 2 per marker). raw_bytes = seg_offsets[num_segments] / 8. */
GJ_KERNEL gj_jpeg_enc_stuff_count(GJ_GLOBAL const gj_u32 *words, GJ_GLOBAL const gj_u64 *seg_offsets,
                                  gj_u32 num_segments, gj_u64 raw_bytes, GJ_GLOBAL gj_u64 *extra)
{
    gj_u64 chunk = gj_global_id(), i = chunk * GJ_ENC_STUFF_BYTES;
    gj_u64 end = gj_min(i + GJ_ENC_STUFF_BYTES, raw_bytes);
    gj_u32 s, n = 0;

    if (i >= raw_bytes)
        return;
    for (s = gj_enc_next_segment(seg_offsets, num_segments, i); s < num_segments && seg_offsets[s] / 8 < end; s++)
        n += 2;
    for (; i < end; i++)
        n += gj_enc_raw_byte(words, i) == 0xff;
    extra[chunk] = n;
}

/* Copies chunk i's raw bytes to out + i * GJ_ENC_STUFF_BYTES + extra_offsets[i], stuffed, markers inserted. */
GJ_KERNEL gj_jpeg_enc_stuff_write(GJ_GLOBAL const gj_u32 *words, GJ_GLOBAL const gj_u64 *seg_offsets,
                                  gj_u32 num_segments, gj_u64 raw_bytes, GJ_GLOBAL const gj_u64 *extra_offsets,
                                  GJ_GLOBAL gj_u8 *out)
{
    gj_u64 chunk = gj_global_id(), i = chunk * GJ_ENC_STUFF_BYTES, o;
    gj_u64 end = gj_min(i + GJ_ENC_STUFF_BYTES, raw_bytes);
    gj_u32 s;

    if (i >= raw_bytes)
        return;
    o = i + extra_offsets[chunk];
    s = gj_enc_next_segment(seg_offsets, num_segments, i);
    for (; i < end; i++) {
        gj_u32 v = gj_enc_raw_byte(words, i);
        if (s < num_segments && seg_offsets[s] / 8 == i) {
            out[o++] = 0xff;
            out[o++] = (gj_u8)(0xd0 + ((s - 1) & 7));
            s++;
        }
        out[o++] = (gj_u8)v;
        if (v == 0xff)
            out[o++] = 0;
    }
}

#endif /* GJ_KERNELS_JPEG_STUFF_H */
