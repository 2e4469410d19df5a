/*
 * The pinned software frames of jpeg2000_gpujpeg (its pinned option: frames in the
 * device's page-locked host memory) against FFmpeg's own buffers (pinned=0): the
 * same pictures, a picture at a time and in batches, through size changes (a new
 * pool and a new device while the old frames are held), and read after both
 * decoders are freed, so the frames must keep the device's memory alive.
 *
 * Usage: api-gpujpeg-pinned-test DEVICE BATCH FILE... (JPEG 2000 codestreams)
 * Prints each frame's size, format and Adler-32; exits 1 when the two differ.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavcodec/avcodec.h"
#include "libavutil/adler32.h"
#include "libavutil/file.h"
#include "libavutil/imgutils.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#define MAX_FRAMES 64

static int receive_all(AVCodecContext *ctx, AVFrame **frames, int *n)
{
    int ret;

    for (;;) {
        if (*n == MAX_FRAMES)
            return AVERROR(ENOSPC);
        if (!(frames[*n] = av_frame_alloc()))
            return AVERROR(ENOMEM);
        ret = avcodec_receive_frame(ctx, frames[*n]);
        if (ret < 0) {
            av_frame_free(&frames[*n]);
            return ret == AVERROR(EAGAIN) || ret == AVERROR_EOF ? 0 : ret;
        }
        (*n)++;
    }
}

/* Decodes the packets with pinned on or off; the frames outlive the decoder. */
static int decode_all(const char *device, int batch, int pinned, AVPacket **pkts, int nb_pkts,
                      AVFrame **frames, int *n)
{
    const AVCodec *codec = avcodec_find_decoder_by_name("jpeg2000_gpujpeg");
    AVCodecContext *ctx = codec ? avcodec_alloc_context3(codec) : NULL;
    int ret;

    *n = 0;
    if (!ctx)
        return AVERROR_DECODER_NOT_FOUND;
    ctx->thread_count = 1;
    if ((ret = av_opt_set(ctx->priv_data, "gpu_device", device, 0)) < 0 ||
        (ret = av_opt_set_int(ctx->priv_data, "batch", batch, 0)) < 0 ||
        (ret = av_opt_set_int(ctx->priv_data, "pinned", pinned, 0)) < 0 ||
        (ret = avcodec_open2(ctx, codec, NULL)) < 0)
        goto end;
    for (int i = 0; i <= nb_pkts; i++) {
        if ((ret = avcodec_send_packet(ctx, i < nb_pkts ? pkts[i] : NULL)) < 0 ||
            (ret = receive_all(ctx, frames, n)) < 0)
            goto end;
    }
end:
    avcodec_free_context(&ctx);
    return ret;
}

/* Rows of plane p of f's picture (chroma planes are 1 and 2). */
static int plane_rows(const AVFrame *f, int p)
{
    return p == 1 || p == 2 ? AV_CEIL_RSHIFT(f->height, av_pix_fmt_desc_get(f->format)->log2_chroma_h) : f->height;
}

static int same_picture(const AVFrame *a, const AVFrame *b)
{
    if (a->format != b->format || a->width != b->width || a->height != b->height)
        return 0;
    for (int p = 0; p < av_pix_fmt_count_planes(a->format); p++) {
        int bytes = av_image_get_linesize(a->format, a->width, p);

        for (int y = 0; y < plane_rows(a, p); y++)
            if (memcmp(a->data[p] + y * a->linesize[p], b->data[p] + y * b->linesize[p], bytes))
                return 0;
    }
    return 1;
}

static unsigned long checksum(const AVFrame *f)
{
    AVAdler sum = 1;

    for (int p = 0; p < av_pix_fmt_count_planes(f->format); p++) {
        int bytes = av_image_get_linesize(f->format, f->width, p);

        for (int y = 0; y < plane_rows(f, p); y++)
            sum = av_adler32_update(sum, f->data[p] + y * f->linesize[p], bytes);
    }
    return sum;
}

int main(int argc, char **argv)
{
    AVPacket *pkts[MAX_FRAMES] = { NULL };
    AVFrame *pinned[MAX_FRAMES] = { NULL }, *plain[MAX_FRAMES] = { NULL };
    int nb_pkts = argc - 3, n_pinned = 0, n_plain = 0, ret = 0, failed = 0;

    if (argc < 4 || nb_pkts > MAX_FRAMES) {
        fprintf(stderr, "usage: %s DEVICE BATCH FILE... (at most %d files)\n", argv[0], MAX_FRAMES);
        return 2;
    }
    for (int i = 0; i < nb_pkts; i++) {
        uint8_t *data;
        size_t size;

        if ((ret = av_file_map(argv[3 + i], &data, &size, 0, NULL)) < 0 ||
            !(pkts[i] = av_packet_alloc()) || av_new_packet(pkts[i], (int)size) < 0) {
            fprintf(stderr, "cannot read %s\n", argv[3 + i]);
            return 2;
        }
        memcpy(pkts[i]->data, data, size);
        av_file_unmap(data, size);
    }
    if ((ret = decode_all(argv[1], atoi(argv[2]), 1, pkts, nb_pkts, pinned, &n_pinned)) < 0 ||
        (ret = decode_all(argv[1], atoi(argv[2]), 0, pkts, nb_pkts, plain, &n_plain)) < 0) {
        fprintf(stderr, "decoding failed: %s\n", av_err2str(ret));
        failed = 1;
    }
    if (n_pinned != nb_pkts || n_plain != nb_pkts) {
        fprintf(stderr, "%d and %d frames of %d packets\n", n_pinned, n_plain, nb_pkts);
        failed = 1;
    }
    /* both decoders are gone: the pinned frames hold their device's memory */
    for (int i = 0; i < n_pinned && i < n_plain; i++) {
        int same = same_picture(pinned[i], plain[i]);

        printf("frame %d: %dx%d %s adler32 0x%08lx%s\n", i, pinned[i]->width, pinned[i]->height,
               av_get_pix_fmt_name(pinned[i]->format), checksum(pinned[i]), same ? "" : " differs from pinned=0");
        failed |= !same;
    }
    for (int i = 0; i < MAX_FRAMES; i++) {
        av_frame_free(&pinned[i]);
        av_frame_free(&plain[i]);
        av_packet_free(&pkts[i]);
    }
    return failed;
}
