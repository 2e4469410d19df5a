/*
 * The JPEG encoder's pipeline on the GPU (kernels: jpeg_encode_blocks.h,
 * jpeg_huffman_encode.h, prefix_sum.h, jpeg_stuff.h):
 *   1. colour conversion, downsampling, FDCT and quantisation, block by block;
 *   2. with optimisation, symbol histograms -> optimal tables on the host (K.2);
 *   3. each block's coded length, a prefix sum of them (and of the byte-aligned
 *      restart segments) -> each block's bit offset;
 *   4. each block writes its codes there; byte stuffing and RSTn markers, placed by
 *      a second prefix sum;
 *   5. the headers are written on the host and the entropy-coded data downloaded
 *      after them.
 * Buffers are kept across calls and grow when a frame needs more.
 */
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "jpeg/encoder_private.h"
#include "jpeg/huffman_encode.h"
#include "jpeg/markers_write.h"
#include "kernels/prefix_sum.h"
#include "log.h"

enum {
    BUF_PARAMS, BUF_INPUT, BUF_YCC, BUF_COEFS, BUF_MASKS, BUF_CODES, BUF_HISTOGRAM, BUF_BITS, BUF_OFFSETS, BUF_TOTALS,
    BUF_SEG_BITS, BUF_SEG_OFFSETS, BUF_RAW, BUF_EXTRA, BUF_EXTRA_OFFSETS, BUF_OUT, BUF_COUNT
};

struct gj_jpeg_encoder {
    gj_device *dev;
    gj_buffer buf[BUF_COUNT];
    /* Read or written by queued copies: they live until the queue has run. */
    gj_enc_params params;
    gj_enc_huffman codes;
    uint32_t histogram[GJ_ENC_HISTOGRAM_WORDS];
    uint64_t total;
};

int gj_jpeg_encoder_create(gj_jpeg_encoder **out, gj_device *dev)
{
    gj_jpeg_encoder *enc;

    if (!out || !dev)
        return GJ_ERROR_INVAL;
    if (!(enc = calloc(1, sizeof(*enc))))
        return GJ_ERROR_NOMEM;
    enc->dev = dev;
    *out = enc;
    return 0;
}

void gj_jpeg_encoder_free(gj_jpeg_encoder **penc)
{
    gj_jpeg_encoder *enc;
    int i;

    if (!penc || !*penc)
        return;
    enc = *penc;
    enc->dev->ops->finish(enc->dev);
    for (i = 0; i < BUF_COUNT; i++)
        if (enc->buf[i].handle)
            enc->dev->ops->buffer_destroy(enc->dev, &enc->buf[i]);
    free(enc);
    *penc = NULL;
}

/* Owner of an output buffer the library allocated: page-locked memory of dev. */
typedef struct output_owner {
    gj_device *dev;
} output_owner;

void gj_jpeg_output_unref(gj_jpeg_output *out)
{
    output_owner *owner;

    if (!out)
        return;
    if ((owner = out->opaque_owner)) {
        owner->dev->ops->host_free(owner->dev, out->data);
        free(owner);
    }
    memset(out, 0, sizeof(*out));
}

static int ensure(gj_jpeg_encoder *enc, int which, size_t size)
{
    gj_buffer *b = &enc->buf[which];

    if (b->handle && b->size >= size)
        return 0;
    if (b->handle)
        enc->dev->ops->buffer_destroy(enc->dev, b);
    memset(b, 0, sizeof(*b));
    return enc->dev->ops->buffer_create(enc->dev, size ? size : 16, b);
}

static gj_karg arg_buf(gj_jpeg_encoder *enc, int which)
{
    return GJ_ARG_BUF(&enc->buf[which]);
}

/* Launches over `items` threads in groups of `group`. */
static int launch(gj_jpeg_encoder *enc, const char *kernel, uint64_t items, unsigned group, const gj_karg *args,
                  int nargs)
{
    return gj_dev_launch(enc->dev, kernel, (size_t)((items + group - 1) / group), group, args, nargs);
}

/* Plane `plane` starts `offset` bytes into its buffer, which starts at an address `base_align` aligns. */
static void set_offset(gj_enc_params *p, int plane, uint64_t offset, uint64_t base_align)
{
    p->plane_offset_lo[plane] = (gj_u32)offset;
    p->plane_offset_hi[plane] = (gj_u32)(offset >> 32);
    p->plane_aligned &= ~(1u << plane);
    if ((base_align | offset | p->pitch[plane]) % 4 == 0)
        p->plane_aligned |= 1u << plane;
}

static int check_linesize(const gj_frame *in, int plane)
{
    size_t row = gj_frame_plane_row_bytes(in->format, plane, in->width);

    if (in->linesize[plane] < 0 || (size_t)in->linesize[plane] < row)
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: plane %d's linesize %d is below its %zu-byte rows", plane,
                       in->linesize[plane], row);
    if (!in->data[plane])
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: the input frame has no plane %d", plane);
    return 0;
}

/* Bytes from a plane's first sample to its last, rows at the frame's linesize. */
static size_t plane_span(const gj_frame *in, int plane)
{
    int rows = gj_frame_plane_height(in->format, plane, in->height);

    return (size_t)in->linesize[plane] * (size_t)(rows - 1) + gj_frame_plane_row_bytes(in->format, plane, in->width);
}

/*
 * Host frame: each plane uploaded as it lies, padding between rows included
 * (no copy on the CPU: a frame in page-locked memory goes at the bus's speed).
 */
static int bind_host_input(gj_jpeg_encoder *enc, const gj_frame *in, int nb_planes, gj_karg *planes)
{
    gj_device *dev = enc->dev;
    size_t total = 0, pos = 0;
    int i, ret;

    for (i = 0; i < nb_planes; i++) {
        if ((ret = check_linesize(in, i)) < 0)
            return ret;
        total += (plane_span(in, i) + 15) & ~(size_t)15;
    }
    if ((ret = ensure(enc, BUF_INPUT, total)) < 0)
        return ret;
    for (i = 0; i < nb_planes; i++) {
        enc->params.pitch[i] = (gj_u32)in->linesize[i];
        set_offset(&enc->params, i, pos, 0);
        planes[i] = arg_buf(enc, BUF_INPUT);
        if ((ret = dev->ops->upload(dev, &enc->buf[BUF_INPUT], pos, in->data[i], plane_span(in, i))) < 0)
            return ret;
        pos += (plane_span(in, i) + 15) & ~(size_t)15;
    }
    return 0;
}

/* Device frame: the kernels read its planes where they are. */
static int bind_device_input(gj_jpeg_encoder *enc, const gj_frame *in, int nb_planes, gj_karg *planes)
{
    int i, ret;

    if (in->memory != enc->dev->ops->memory)
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: the input frame is in another device's memory");
    for (i = 0; i < nb_planes; i++) {
        gj_buffer b = { (uintptr_t)in->data[i], 0 };
        if ((ret = check_linesize(in, i)) < 0)
            return ret;
        enc->params.pitch[i] = (gj_u32)in->linesize[i];
        /* a CUDA plane is its address; an OpenCL one an offset into an aligned buffer */
        if (in->memory == GJ_MEMORY_OPENCL)
            set_offset(&enc->params, i, in->offset[i], 0);
        else
            set_offset(&enc->params, i, 0, (uintptr_t)in->data[i]);
        planes[i] = GJ_ARG_BUF(&b);
    }
    return 0;
}

/*
 * Packed RGB: every component converted and downsampled in one pass
 * (gj_jpeg_enc_rgb_to_planes) into planes of their own, each its whole MCU
 * columns wide and as many rows as it has before the bottom padding repeats the
 * last; the blocks then read those planes as they would planar input that needs
 * no downsampling.
 */
static int convert_packed_input(gj_jpeg_encoder *enc, gj_karg *planes)
{
    gj_enc_params *p = &enc->params;
    uint64_t offset = (uint64_t)p->plane_offset_hi[0] << 32 | p->plane_offset_lo[0], offsets[3] = { 0, 0, 0 };
    uint64_t total = 0;
    gj_u32 cells_x = p->mcus_x * p->comp[0].h * p->comp[0].factor_x, cells_y = 0, fy_max = 1, factors;
    gj_u32 format = p->pixel_bytes | (p->plane_aligned & 1) << 7 | (p->chan_r | p->chan_g << 8 | p->chan_b << 16) << 8;
    gj_karg a[16];
    int c, ret;

    /* cells_x: 8-column cells of the MCU columns' full-resolution picture */
    for (c = 0; c < (int)p->num_components; c++)
        fy_max = p->comp[c].factor_y > fy_max ? p->comp[c].factor_y : fy_max;
    factors = p->num_components << 24 | fy_max << 28;
    for (c = 0; c < (int)p->num_components; c++) {
        gj_enc_component *cp = &p->comp[c];
        gj_u32 out_w = cells_x * 8 / cp->factor_x, rows = cp->last_row + 1;
        gj_u32 cell_rows = (rows * cp->factor_y + fy_max - 1) / fy_max;

        factors |= (cp->factor_x | cp->factor_y << 2) << (8 * c);
        cells_y = cell_rows > cells_y ? cell_rows : cells_y;
        offsets[c] = total;
        total += ((uint64_t)out_w * rows + 15) & ~(uint64_t)15;
    }
    if ((ret = ensure(enc, BUF_YCC, total)) < 0)
        return ret;
    a[0] = planes[0], a[1] = GJ_ARG_U64(offset), a[2] = GJ_ARG_U32(p->pitch[0]), a[3] = GJ_ARG_U32(p->width);
    a[4] = GJ_ARG_U32(p->height), a[5] = GJ_ARG_U32(format), a[6] = GJ_ARG_U32(cells_x);
    a[7] = GJ_ARG_U32(cells_y), a[8] = GJ_ARG_U32(factors);
    for (c = 0; c < 3; c++) {
        a[9 + c] = GJ_ARG_U32(p->comp[c < (int)p->num_components ? c : 0].last_row);
        a[13 + c] = GJ_ARG_U64(offsets[c]);
    }
    a[12] = arg_buf(enc, BUF_YCC);
    if ((ret = launch(enc, "gj_jpeg_enc_rgb_to_planes", (uint64_t)cells_x * cells_y, GJ_PREFIX_GROUP, a, 16)) < 0)
        return ret;
    for (c = 0; c < (int)p->num_components; c++) {
        gj_enc_component *cp = &p->comp[c];
        gj_u32 out_w = cells_x * 8 / cp->factor_x;

        cp->plane = (gj_u32)c;
        cp->factor_x = cp->factor_y = 1;
        cp->src_w = out_w;
        cp->src_h = cp->last_row + 1;
        p->pitch[c] = out_w;
        set_offset(p, c, offsets[c], 0);
        planes[c] = arg_buf(enc, BUF_YCC);
    }
    p->layout = GJ_ENC_IN_PLANES;
    return 0;
}

/* out[i] = in[0] + ... + in[i - 1] for i < n, out[n] = the total (u64 buffers). */
static int prefix_sum(gj_jpeg_encoder *enc, int in, int out, uint32_t n)
{
    uint32_t groups = (n + GJ_PREFIX_GROUP - 1) / GJ_PREFIX_GROUP;
    gj_karg a[4];
    int ret;

    if ((ret = ensure(enc, BUF_TOTALS, (size_t)groups * 8)) < 0)
        return ret;
    a[0] = arg_buf(enc, in), a[1] = GJ_ARG_U32(n), a[2] = arg_buf(enc, out), a[3] = arg_buf(enc, BUF_TOTALS);
    if ((ret = launch(enc, "gj_prefix_sum_groups", n, GJ_PREFIX_GROUP, a, 4)) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_TOTALS), a[1] = GJ_ARG_U32(groups), a[2] = arg_buf(enc, out), a[3] = GJ_ARG_U32(n);
    if ((ret = gj_dev_launch(enc->dev, "gj_prefix_sum_totals", 1, GJ_PREFIX_GROUP, a, 4)) < 0)
        return ret;
    a[0] = arg_buf(enc, out), a[1] = GJ_ARG_U32(n), a[2] = arg_buf(enc, BUF_TOTALS);
    return launch(enc, "gj_prefix_sum_add", n, GJ_PREFIX_GROUP, a, 3);
}

/* Reads the u64 at element `index` of buffer `which` (waits for the queue). */
static int read_u64(gj_jpeg_encoder *enc, int which, uint64_t index, uint64_t *value)
{
    int ret = enc->dev->ops->download(enc->dev, &enc->total, &enc->buf[which], index * 8, 8);

    if (ret < 0 || (ret = gj_dev_finish(enc->dev)) < 0)
        return ret;
    *value = enc->total;
    return 0;
}

/* Optimal tables (K.2) from the symbol counts of the quantised blocks. */
static int optimize_tables(gj_jpeg_encoder *enc, gj_jpeg_tables *t)
{
    gj_device *dev = enc->dev;
    const gj_enc_params *p = &enc->params;
    gj_karg a[4];
    int ret, i;

    if ((ret = ensure(enc, BUF_HISTOGRAM, sizeof(enc->histogram))) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_PARAMS), a[1] = arg_buf(enc, BUF_COEFS), a[2] = arg_buf(enc, BUF_MASKS);
    a[3] = arg_buf(enc, BUF_HISTOGRAM);
    if ((ret = dev->ops->fill_zero(dev, &enc->buf[BUF_HISTOGRAM], 0, sizeof(enc->histogram))) < 0 ||
        (ret = launch(enc, "gj_jpeg_enc_histogram", p->num_blocks, GJ_ENC_GROUP, a, 4)) < 0 ||
        (ret = dev->ops->download(dev, enc->histogram, &enc->buf[BUF_HISTOGRAM], 0, sizeof(enc->histogram))) < 0 ||
        (ret = gj_dev_finish(dev)) < 0)
        return ret;
    for (i = 0; i < t->count; i++) {
        gj_huffman_optimal(enc->histogram + i * 256, &t->dc[i]);
        gj_huffman_optimal(enc->histogram + (2 + i) * 256, &t->ac[i]);
    }
    return 0;
}

/* Steps 1-3: coefficients, tables, every block's bit offset. Returns the padded size in bits. */
static int code_lengths(gj_jpeg_encoder *enc, const gj_jpeg_encode_params *s, gj_jpeg_tables *t,
                        const gj_karg *planes, uint64_t *total_bits)
{
    gj_device *dev = enc->dev;
    gj_enc_params *p = &enc->params;
    gj_karg a[6];
    int ret, i;

    if ((ret = ensure(enc, BUF_PARAMS, sizeof(*p))) < 0 ||
        (ret = ensure(enc, BUF_COEFS, (size_t)p->num_blocks * 64 * sizeof(int16_t))) < 0 ||
        (ret = ensure(enc, BUF_MASKS, (size_t)p->num_blocks * 2 * sizeof(uint32_t))) < 0 ||
        (ret = ensure(enc, BUF_CODES, sizeof(enc->codes))) < 0 ||
        (ret = ensure(enc, BUF_BITS, (size_t)p->num_blocks * 8)) < 0 ||
        (ret = ensure(enc, BUF_OFFSETS, ((size_t)p->num_blocks + 1) * 8)) < 0 ||
        (ret = ensure(enc, BUF_SEG_BITS, (size_t)p->num_segments * 8)) < 0 ||
        (ret = ensure(enc, BUF_SEG_OFFSETS, ((size_t)p->num_segments + 1) * 8)) < 0 ||
        (ret = dev->ops->upload(dev, &enc->buf[BUF_PARAMS], 0, p, sizeof(*p))) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_PARAMS), a[1] = planes[0], a[2] = planes[1], a[3] = planes[2];
    a[4] = arg_buf(enc, BUF_COEFS), a[5] = arg_buf(enc, BUF_MASKS);
    if ((ret = launch(enc, "gj_jpeg_enc_fdct", (uint64_t)p->num_blocks * 8, GJ_ENC_GROUP, a, 6)) < 0)
        return ret;
    if (s->optimize && (ret = optimize_tables(enc, t)) < 0)
        return ret;
    memset(&enc->codes, 0, sizeof(enc->codes));
    for (i = 0; i < t->count; i++) {
        gj_huffman_codes(&t->dc[i], enc->codes.dc[i]);
        gj_huffman_codes(&t->ac[i], enc->codes.ac[i]);
    }
    if ((ret = dev->ops->upload(dev, &enc->buf[BUF_CODES], 0, &enc->codes, sizeof(enc->codes))) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_PARAMS), a[1] = arg_buf(enc, BUF_COEFS), a[2] = arg_buf(enc, BUF_MASKS);
    a[3] = arg_buf(enc, BUF_CODES), a[4] = arg_buf(enc, BUF_BITS);
    if ((ret = launch(enc, "gj_jpeg_enc_block_bits", p->num_blocks, GJ_ENC_GROUP, a, 5)) < 0 ||
        (ret = prefix_sum(enc, BUF_BITS, BUF_OFFSETS, p->num_blocks)) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_PARAMS), a[1] = arg_buf(enc, BUF_OFFSETS), a[2] = arg_buf(enc, BUF_SEG_BITS);
    a[3] = arg_buf(enc, BUF_SEG_OFFSETS);
    if ((ret = launch(enc, "gj_jpeg_enc_segment_bits", p->num_segments, GJ_ENC_GROUP, a, 4)) < 0 ||
        (p->num_segments > 1 && (ret = prefix_sum(enc, BUF_SEG_BITS, BUF_SEG_OFFSETS, p->num_segments)) < 0))
        return ret;
    return read_u64(enc, BUF_SEG_OFFSETS, p->num_segments, total_bits);
}

/* Step 4: the entropy-coded data in BUF_OUT (queued; its size follows into enc->total: the extra bytes). */
static int pack(gj_jpeg_encoder *enc, uint64_t raw_bytes)
{
    gj_device *dev = enc->dev;
    const gj_enc_params *p = &enc->params;
    uint64_t words = (raw_bytes + 3) / 4, chunks = (raw_bytes + GJ_ENC_STUFF_BYTES - 1) / GJ_ENC_STUFF_BYTES;
    gj_karg a[7];
    int ret;

    if ((ret = ensure(enc, BUF_RAW, words * 4)) < 0 || (ret = ensure(enc, BUF_EXTRA, chunks * 8)) < 0 ||
        (ret = ensure(enc, BUF_EXTRA_OFFSETS, (chunks + 1) * 8)) < 0 ||
        (ret = ensure(enc, BUF_OUT, 2 * raw_bytes + 2 * (uint64_t)p->num_segments)) < 0 ||
        (ret = dev->ops->fill_zero(dev, &enc->buf[BUF_RAW], 0, words * 4)) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_PARAMS), a[1] = arg_buf(enc, BUF_COEFS), a[2] = arg_buf(enc, BUF_MASKS);
    a[3] = arg_buf(enc, BUF_CODES), a[4] = arg_buf(enc, BUF_OFFSETS), a[5] = arg_buf(enc, BUF_SEG_OFFSETS);
    a[6] = arg_buf(enc, BUF_RAW);
    if ((ret = launch(enc, "gj_jpeg_enc_pack", p->num_blocks, GJ_ENC_GROUP, a, 7)) < 0)
        return ret;
    a[0] = arg_buf(enc, BUF_RAW), a[1] = arg_buf(enc, BUF_SEG_OFFSETS), a[2] = GJ_ARG_U32(p->num_segments);
    a[3] = GJ_ARG_U64(raw_bytes), a[4] = arg_buf(enc, BUF_EXTRA);
    if ((ret = launch(enc, "gj_jpeg_enc_stuff_count", chunks, GJ_ENC_GROUP, a, 5)) < 0 ||
        (ret = prefix_sum(enc, BUF_EXTRA, BUF_EXTRA_OFFSETS, (uint32_t)chunks)) < 0)
        return ret;
    a[4] = arg_buf(enc, BUF_EXTRA_OFFSETS), a[5] = arg_buf(enc, BUF_OUT);
    if ((ret = launch(enc, "gj_jpeg_enc_stuff_write", chunks, GJ_ENC_GROUP, a, 6)) < 0)
        return ret;
    return dev->ops->download(dev, &enc->total, &enc->buf[BUF_EXTRA_OFFSETS], chunks * 8, 8);
}

/* Makes out hold `size` bytes, keeping its first `keep` bytes. */
static int grow_output(gj_jpeg_encoder *enc, gj_jpeg_output *out, size_t size, size_t keep)
{
    gj_device *dev = enc->dev;
    output_owner *owner = out->opaque_owner, *old = owner;
    uint8_t *data;

    if (out->data && out->capacity >= size)
        return 0;
    if (out->data && !owner)
        return gj_fail(GJ_ERROR_INVAL, "JPEG encoder: the output buffer holds %zu bytes, the JPEG needs %zu",
                       out->capacity, size);
    size += size / 8;   /* room for a stream's later, slightly larger frames */
    if (!(data = dev->ops->host_alloc(dev, size)))
        return gj_fail(GJ_ERROR_NOMEM, "out of host memory for a %zu-byte JPEG", size);
    if (!owner && !(owner = calloc(1, sizeof(*owner)))) {
        dev->ops->host_free(dev, data);
        return GJ_ERROR_NOMEM;
    }
    if (keep)
        memcpy(data, out->data, keep);
    if (out->data)
        old->dev->ops->host_free(old->dev, out->data);
    owner->dev = dev;
    out->data = data;
    out->capacity = size;
    out->opaque_owner = owner;
    return 0;
}

/*
 * Step 5: headers, the downloaded data, EOI. The data's size is known only once
 * the queue has run: the download of a guess (stuffing adds a byte per 0xFF,
 * about 0.4% of Huffman-coded bytes) goes with it, the rest, if any, after.
 */
static int write_file(gj_jpeg_encoder *enc, const gj_jpeg_encode_params *s, const gj_jpeg_tables *t,
                      uint64_t raw_bytes, gj_jpeg_output *out)
{
    gj_device *dev = enc->dev;
    const gj_enc_params *p = &enc->params;
    uint64_t bound = 2 * raw_bytes + 2 * (uint64_t)p->num_segments, data_size;
    uint64_t guess = raw_bytes + raw_bytes / 64 + 2 * (uint64_t)p->num_segments + 64;
    uint8_t header[GJ_JPEG_HEADER_MAX];
    gj_jpeg_header h = { .width = (int)p->width, .height = (int)p->height,
                         .num_components = (int)p->num_components, .restart_interval = s->restart_interval };
    size_t header_size;
    int c, ret;

    for (c = 0; c < (int)p->num_components; c++) {
        h.h[c] = (int)p->comp[c].h;
        h.v[c] = (int)p->comp[c].v;
    }
    for (c = 0; c < t->count; c++) {
        h.quant[c] = t->quant[c];
        h.dc[c] = &t->dc[c];
        h.ac[c] = &t->ac[c];
    }
    header_size = gj_jpeg_write_headers(header, &h);
    guess = guess < bound ? guess : bound;
    if (out->data && !out->opaque_owner && out->capacity >= header_size + GJ_JPEG_TRAILER_SIZE &&
        out->capacity - header_size - GJ_JPEG_TRAILER_SIZE < guess)
        guess = out->capacity - header_size - GJ_JPEG_TRAILER_SIZE;   /* the caller's buffer */
    if ((ret = grow_output(enc, out, header_size + guess + GJ_JPEG_TRAILER_SIZE, 0)) < 0 ||
        (ret = dev->ops->download(dev, out->data + header_size, &enc->buf[BUF_OUT], 0, guess)) < 0 ||
        (ret = gj_dev_finish(dev)) < 0)
        return ret;
    data_size = raw_bytes + enc->total;
    if (data_size > guess &&
        ((ret = grow_output(enc, out, header_size + data_size + GJ_JPEG_TRAILER_SIZE, header_size + guess)) < 0 ||
         (ret = dev->ops->download(dev, out->data + header_size + guess, &enc->buf[BUF_OUT], guess,
                                   data_size - guess)) < 0 ||
         (ret = gj_dev_finish(dev)) < 0))
        return ret;
    memcpy(out->data, header, header_size);
    gj_jpeg_write_trailer(out->data + header_size + data_size);
    out->size = header_size + data_size + GJ_JPEG_TRAILER_SIZE;
    return 0;
}

int gj_jpeg_encode(gj_jpeg_encoder *enc, const gj_frame *in, const gj_jpeg_encode_params *s, gj_jpeg_output *out)
{
    gj_jpeg_tables tables;
    gj_karg planes[3];
    uint64_t total_bits;
    int nb_planes, i, ret;

    if (!enc || !in || !s || !out)
        return GJ_ERROR_INVAL;
    /* Queued copies of an earlier failed call may still use the parameters. */
    if ((ret = gj_dev_finish(enc->dev)) < 0 || (ret = gj_jpeg_encode_setup(in, s, &enc->params, &tables)) < 0)
        return ret;
    nb_planes = enc->params.layout == GJ_ENC_IN_PACKED_RGB ? 1 : (int)enc->params.num_components;
    ret = in->memory == GJ_MEMORY_HOST ? bind_host_input(enc, in, nb_planes, planes)
                                       : bind_device_input(enc, in, nb_planes, planes);
    if (ret < 0)
        return ret;
    for (i = nb_planes; i < 3; i++)
        planes[i] = planes[0];     /* planes the layout does not read */
    if (enc->params.layout == GJ_ENC_IN_PACKED_RGB && (ret = convert_packed_input(enc, planes)) < 0)
        return ret;
    if ((ret = code_lengths(enc, s, &tables, planes, &total_bits)) < 0 || (ret = pack(enc, total_bits / 8)) < 0)
        return ret;
    return write_file(enc, s, &tables, total_bits / 8, out);
}

int gj_jpeg_encode_batch(gj_jpeg_encoder *enc, const gj_frame *const *ins, int n, const gj_jpeg_encode_params *s,
                         gj_jpeg_output *outs, int *results)
{
    int i, first = 0;

    if (!enc || n < 0 || (n && (!ins || !outs)))
        return GJ_ERROR_INVAL;
    for (i = 0; i < n; i++) {
        int ret = gj_jpeg_encode(enc, ins[i], s, &outs[i]);
        if (results)
            results[i] = ret;
        if (ret < 0 && !first)
            first = ret;
    }
    return first;
}
