/*
 * The JPEG decoder's shared state, between decoder.c (API, buffers, frames),
 * decode_entropy.c (Huffman decoding on the GPU) and decode_pixels.c (IDCT,
 * upsampling and colour conversion). Not part of the public API.
 */
#ifndef GJ_JPEG_DECODER_PRIVATE_H
#define GJ_JPEG_DECODER_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "jpeg/entropy_segments.h"
#include "jpeg/markers.h"
#include "kernels/jpeg_params.h"

#define SCAN_GROUP 256          /* kernels/scan.h GJ_SCAN_GROUP */
#define SCAN_LANES 5            /* kernels/scan.h GJ_SCAN_LANES == jpeg_huffman.h GJ_CHUNK_SUMS */
#define HUFF_GROUP 128          /* kernels/jpeg_huffman.h GJ_HUFF_GROUP */
#define HYP_GROUP 128           /* kernels/jpeg_huffman_hyp.h GJ_HYP_GROUP */
#define HYP_MARKS 6             /* kernels/jpeg_huffman.h GJ_HYP_MARKS */
#define PIXEL_GROUP 256
/* Chunk length: shorter chunks decode in parallel better, but cost more synchronisation.
 * Scans that use slot hypotheses (4:2:0, 4:2:2) do best a little longer than the others,
 * and their best length follows the scan's density and whether the picture has the GPU
 * to itself (decode_entropy.c chunk_bits_for(); measured on an H200, doc/benchmarks.md). */
#define CHUNK_BITS_PLAIN 256
#define CHUNK_BITS_HYPOTHESES 384
/* Parts of a chunk the writing kernel decodes, one thread each, and their least length
 * in bits: more than a symbol (32 bits) can be (decode_entropy.c write_part_shift()). */
#define WRITE_PARTS 4
#define MIN_PART_BITS 48
/* On lanes, scans of more work-groups of chunks than this write whole chunks: batches of
 * HD and 4K pictures (103 and 138 groups) decoded 10 % and 2 % faster in parts; 8K ones
 * (545 groups, the GPU full with their chunks) 4 % slower with parts and the links'
 * levels together, the parts' warp steps the likely cause (H200, doc/benchmarks.md). */
#define LANES_PARTS_MAX_GROUPS 256
/* Work-groups of chunks a scan keeps at least when lanes share the GPU (chunk_bits_for()). */
#define SHARED_MIN_GROUPS 100
/* Restart-rich scans decode one thread per segment from this many segments of at most
 * this many bits (decode_entropy.c restart_direct()). One thread decodes a segment
 * serially, so longer segments lose to chunked decoding: on an H200, 4K 4:2:0 q90
 * with a marker every 8 MCUs (3.4 Kbit) decodes 3% faster directly, every 30 MCUs
 * (12.6 Kbit) 2.5x slower, 4:2:2 every 30 (6.6 Kbit) 1.9x slower (doc/benchmarks.md,
 * fifth session); and fewer segments than that file's 16200 leave most of the GPU
 * idle: the chroma scans of GPUJPEG's 4K files, 4320 segments of 0.6 Kbit, took
 * 0.18 ms each directly (seventh session). */
#define DIRECT_MIN_SEGMENTS 8192
#define DIRECT_MAX_SEGMENT_BITS 4096
/* Synchronisation rounds (first pass included) queued at most; GJ_SYNC_ROUNDS sets
 * the rounds after the first pass, for tests of gj_huff_sync_finish and tuning. */
#define SYNC_MAX_ROUNDS 8

/* How the first synchronisation pass guesses chunk starts (kernels/jpeg_huffman_sync.h). */
enum { SYNC_AUTO, SYNC_PLAIN, SYNC_HYPOTHESES };

/* A scan's device buffers (gj_jpeg_scan_unit), kept across frames; each is reallocated
 * only when a frame needs more. Per chunk: its segment (4 bytes), its end state (8
 * bytes, packed), and per part of it that the writing kernel decodes, its sums, which
 * become its offsets in place (20 bytes), and where it begins (8 bytes, but for the
 * first part); per group of chunks, the last end state of two rounds
 * (decode_entropy.c upload_scan(), kernels/jpeg_huffman_sync.h). */
enum {
    BUF_SCAN_PARAMS, BUF_BYTES, BUF_SEGMENTS, BUF_CHUNK_SEG, BUF_STATES, BUF_BOUNDS,
    BUF_SUMS, BUF_PART_STATES, BUF_AGGR, BUF_AGGR_HEAD, BUF_CARRY, BUF_COUNTER, SCAN_BUFS
};
/* The decoder's own device buffers, shared by its scans. */
enum { BUF_HYP_SCRATCH, BUF_COEFS, BUF_IDCT_PARAMS, BUF_COLOR_PARAMS, BUF_COUNT };

/* Stage timing for tuning: with GJ_PROFILE=1 each mark waits for the device; with
 * GJ_PROFILE=2 it does not, and the times are the host's (the stream's decodes on
 * lanes are reported, per decode, when the decoder is freed). */
enum { ST_WAIT, ST_PARSE, ST_LAYOUT, ST_UPLOAD, ST_HYPOTHESES, ST_FIRST_PASS, ST_SYNC, ST_PREFIX, ST_WRITE, ST_PIXELS, ST_DOWNLOAD, ST_JOIN, ST_COUNT };

/* Decoders on sibling devices (decode_lanes.c) that overlap on the GPU. On an H200
 * (16-core host), batches of 4K pictures: 8 lanes 2994 pictures/s, 10 lanes 3245,
 * 12 3184, 16 3028 (q90 4:2:0, batches of 64; doc/benchmarks.md, sixth session). */
#define MAX_LANES 16
#define DEFAULT_LANES 10

/*
 * A queue that decodes scans and the buffers they use (decode_entropy.c): unit 0 is
 * the decoder's own queue; a picture of several scans (one per component, as GPUJPEG
 * writes them) decodes its scans at the same time on sibling queues, units 1 to 3
 * (decode_scan_units.c), since each scan alone leaves most of the GPU idle.
 */
typedef struct gj_jpeg_scan_unit {
    gj_device *dev;
    int owns_dev;
    int busy;                        /* holds work of this decode that unit 0 has not waited for */
    gj_buffer buf[SCAN_BUFS];        /* the unit's own buffers, or views (frame_views) */
    gj_buffer parked[SCAN_BUFS];     /* its own buffer i while buf[i] is a view into the borrowed frame */
    uint32_t frame_views;            /* bit i: buf[i] is a view */
    gj_entropy_layout *layout;       /* the current scan's layout and params */
    gj_scan_params *scan_params;
    uint32_t hyps;                   /* slot hypotheses of the current scan (0: none) */
    int hyp_scratch;                 /* the decoder's buffer holding their arrays */
} gj_jpeg_scan_unit;

struct gj_jpeg_decoder {
    gj_device *dev;
    gj_device *frame_dev;            /* allocates output frames: the caller's device, for lanes too */
    int owns_dev;                    /* a lane's sibling device, destroyed with it */
    int pending;                     /* work queued without waiting (a lane's async decode) */
    int stage_device_output;         /* a lane's async decode: device pictures go to staging */
    int shares_gpu;                  /* a lane among several: other pictures decode at once */
    struct gj_jpeg_decoder *lanes[MAX_LANES];
    int num_lanes, next_lane;
    int lanes_wanted;                /* GJ_LANES, else DEFAULT_LANES, until gj_jpeg_decoder_set_lanes() */
    int profile;                     /* GJ_PROFILE: 0, 1 (device stages) or 2 (host time) */
    uint32_t profile_decodes;
    double profile_last;
    double profile_ms[ST_COUNT];
    uint32_t profile_rounds;
    gj_buffer buf[BUF_COUNT];
    gj_jpeg_scan_unit units[GJ_JPEG_MAX_SCANS];
    int scan_units_wanted;           /* GJ_SCAN_UNITS=0 keeps every scan on unit 0 (for tuning) */
    int scans_at_once;               /* this decode's scans run on units of their own */
    /* The output frame's memory that the current decode's scans may use (decode_scan_buffers.c):
     * from borrowed_offset to borrowed.size in borrowed (no handle: none); borrowed_free is
     * where the next scan's views may start. */
    gj_buffer borrowed;
    uint64_t borrowed_offset, borrowed_free;
    gj_jpeg_stream stream;
    /* Host copies of what is uploaded: they must live until the queue has run. Each
     * scan has its own, so the host lays out the next scan while the GPU decodes
     * this one. */
    gj_entropy_layout layouts[GJ_JPEG_MAX_SCANS];
    gj_scan_params *scan_params_of[GJ_JPEG_MAX_SCANS];
    gj_color_params color_params;
    gj_idct_params idct_params;
    gj_frame staging;                /* device picture for host-memory output */
    uint32_t chunk_bits_override;    /* GJ_CHUNK_BITS, for tuning; 0: chosen per scan */
    int sync_mode;                   /* GJ_SYNC, for tuning: SYNC_AUTO, SYNC_PLAIN or SYNC_HYPOTHESES */
    int sync_rounds_override;        /* GJ_SYNC_ROUNDS, for tests: rounds after the first pass; -1: chosen */
    int direct_mode;                 /* GJ_DIRECT, for tuning: 0 never, 1 for every restart scan; -1: chosen */
};

/* A plane of an output frame as a device buffer and a byte offset. */
typedef struct plane_ref {
    gj_buffer buf;
    uint64_t offset;
    uint32_t pitch;
} plane_ref;

/* Work-groups of `group` threads that cover `threads`. */
static inline size_t gj_jpeg_groups(size_t threads, size_t group)
{
    return (threads + group - 1) / group;
}

/* decoder.c */
void gj_jpeg_profile_mark(gj_jpeg_decoder *dec, int stage);
/* Queues the whole decode of one JPEG into out without waiting for the device
 * (gj_jpeg_decode() = this + waiting); out->decode_error_flags is set. */
int gj_jpeg_decode_queue(gj_jpeg_decoder *dec, const uint8_t *data, size_t size, gj_frame *out);
/* b holds at least size bytes on dev (pending: queued work may still use the old one). */
int gj_jpeg_ensure_device_buffer(gj_device *dev, gj_buffer *b, size_t size, int pending);
/* The same for the decoder's buffer `which`. */
int gj_jpeg_ensure_buffer(gj_jpeg_decoder *dec, int which, size_t size);

/* decode_lanes.c */
void gj_jpeg_lanes_free(gj_jpeg_decoder *dec);

/* decode_entropy.c: queues the decoding of scan `index` (its coefficients into
 * BUF_COEFS), whose data the parse unstuffed into layouts[index], without waiting
 * for the device, on the unit that gj_jpeg_scan_unit_for() picks; *damaged is set
 * when its data was cut short or its restart markers were wrong. The first scan
 * zeroes BUF_COEFS (unless gj_jpeg_scan_units_start() did), which serves it as
 * scratch memory until then. */
int gj_jpeg_decode_scan(gj_jpeg_decoder *dec, const gj_jpeg_scan *scan, int index,
                        int *damaged);

/* decode_scan_units.c */
void gj_jpeg_scan_units_init(gj_jpeg_decoder *dec);
/* At the first scan of a decode: whether its scans run at once (dec->scans_at_once),
 * and then the coefficients zeroed on unit 0 and the other units' queues after it. */
int gj_jpeg_scan_units_start(gj_jpeg_decoder *dec);
/* The unit for scan `index`, whose scan buffers need `sizes` (SCAN_BUFS entries). */
int gj_jpeg_scan_unit_for(gj_jpeg_decoder *dec, int index, const size_t *sizes, gj_jpeg_scan_unit **unit);
/* Unit 0's queue waits for every other unit's work of this decode (also the work that a
 * failed decode left there, before unit 0's queue is waited for). */
int gj_jpeg_scan_units_join(gj_jpeg_decoder *dec);
void gj_jpeg_scan_units_free(gj_jpeg_decoder *dec);

/* decode_scan_buffers.c */
/* The decode's scans may use target's memory until the pixels are written; chosen
 * before the first scan is queued. */
void gj_jpeg_borrow_frame(gj_jpeg_decoder *dec, const gj_frame *target);
/* Whether the buffers of a scan (sizes) that may be views fit in the borrowed frame from
 * borrowed_free on. */
int gj_jpeg_scan_buffers_fit(const gj_jpeg_decoder *dec, const gj_device *dev, const size_t *sizes);
/* Binds u->buf[i] for each scan buffer i to sizes[i] bytes: a view into the borrowed
 * frame from borrowed_free on where it fits (borrowed_free moves past it), else the
 * unit's own buffer. The unit's last scan's views are released first: its queued
 * work keeps what it uses. */
int gj_jpeg_scan_buffers(gj_jpeg_decoder *dec, gj_jpeg_scan_unit *u, const size_t *sizes);
/* Releases unit u's views. */
void gj_jpeg_scan_views_release(gj_jpeg_scan_unit *u);
/* The end of a decode, or of a decoder: no view stays, the frame is the caller's again. */
void gj_jpeg_return_frame(gj_jpeg_decoder *dec);

/* decode_pixels.c */
/* Where component c's blocks start in the coefficient buffer; c = num_components: all blocks. */
uint64_t gj_jpeg_block_offset(const gj_jpeg_stream *s, int c);
/* Bytes of the coefficient buffer: every block of every component. */
uint64_t gj_jpeg_coef_bytes(const gj_jpeg_stream *s);
int gj_jpeg_upsample_method(const gj_jpeg_stream *s, int c, uint32_t *fx, uint32_t *fy);
plane_ref gj_jpeg_frame_plane(const gj_frame *f, int i);
/* The native planar format: the IDCT writes the frame's cropped planes directly. */
int gj_jpeg_write_planar(gj_jpeg_decoder *dec, const gj_frame *out);
/* Packed formats and gray: IDCT over the coefficients (block-major), then upsample + convert. */
int gj_jpeg_write_packed(gj_jpeg_decoder *dec, const gj_frame *out);

#endif /* GJ_JPEG_DECODER_PRIVATE_H */
