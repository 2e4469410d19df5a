/*
 * T1's inputs in a device buffer and T1 over them (kernels/j2k_t1.h): the decoder's
 * launch (decoder.c) and the early one (early.c) lay them out and queue them alike.
 */
#ifndef GJ_J2K_T1_QUEUE_H
#define GJ_J2K_T1_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "j2k/layout.h"

static inline size_t j2k_align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* Bytes of T1's inputs from a 16-byte aligned start: the code-block table at 0, the
 * segments at *segments_at, the data at *data_at; the second for l's. */
size_t j2k_t1_input_offsets(size_t nb_cblks, size_t nb_segments, uint64_t data_size, uint64_t *segments_at,
                            uint64_t *data_at);
size_t j2k_t1_input_size(const j2k_layout *l, uint64_t *segments_at, uint64_t *data_at);

/* Uploads them to buf at `at` (16-byte aligned) and queues T1 over l's code-blocks into
 * coef (wide: 32-bit coefficients); the host's tables must live until it ran. */
int j2k_t1_queue(gj_device *dev, const gj_buffer *buf, uint64_t at, const j2k_layout *l, const gj_buffer *coef,
                 int wide);
/* The same in two steps: the upload, then launches over parts of the code-block table
 * (count of them from `first`), each with its width. */
int j2k_t1_upload(gj_device *dev, const gj_buffer *buf, uint64_t at, const j2k_layout *l);
int j2k_t1_launch(gj_device *dev, const gj_buffer *buf, uint64_t at, const j2k_layout *l, size_t first,
                  size_t count, const gj_buffer *coef, int wide);
/*
 * The same for batches (a table laid out and uploaded by the caller, ordered by work; max_words:
 * its largest code-block's state, GJ_J2K_T1_WORDS_OF):
 * the longest code-blocks a warp each, the rest two per warp, or four: code-blocks of up to
 * 32x32, and up to 64x64 in half-words where the launch has enough of them to fill the
 * device's compute units several times over (t1_queue.c).
 */
int j2k_t1_launch_batch(gj_device *dev, const gj_buffer *buf, uint64_t at, uint64_t segments_at, uint64_t data_at,
                        size_t first, size_t count, uint32_t max_words, const gj_buffer *coef, int wide);

#endif /* GJ_J2K_T1_QUEUE_H */
