/* The CPU's part of decoding a JPEG 2000 picture (host_decode.h), and the picture's description. */
#include <stdlib.h>
#include <string.h>

#include "gpujpeg/j2k.h"
#include "j2k/array.h"
#include "j2k/host_decode.h"
#include "j2k/jp2.h"
#include "j2k/t2.h"
#include "log.h"

/* Pictures larger than this many samples in all are refused (32-bit coefficient offsets). */
#define J2K_MAX_SAMPLES ((uint64_t)1 << 31)

/* A components decode's buffer: rows of this many bytes (the planes follow one another), */
#define J2K_COMPONENTS_ROW 16384
/* each plane starting on this boundary. */
#define J2K_COMPONENTS_ALIGN 256

int j2k_find_codestream(const uint8_t *data, size_t size, j2k_jp2 *boxes, const uint8_t **cs, size_t *cs_size)
{
    int ret;

    memset(boxes, 0, sizeof(*boxes));
    if (!j2k_is_jp2(data, size)) {
        *cs = data;
        *cs_size = size;
        return 0;
    }
    if ((ret = j2k_parse_jp2(data, size, boxes)) < 0)
        return ret;
    *cs = boxes->codestream;
    *cs_size = boxes->codestream_size;
    return 0;
}

/* A JP2 component map's channels (I.5.3.5): gray, RGB or RGBA of components or palette columns. */
static enum gj_pixel_format mapped_format(const gj_j2k_stream *s, const j2k_jp2 *boxes, const char **why)
{
    int deep = 0;

    for (int i = 0; i < boxes->nb_channels; i++) {
        int comp = boxes->channel_component[i], col = boxes->channel_column[i];

        if (comp >= s->nb_comps || comp >= GJ_J2K_MAX_OUT_COMPS) {
            *why = "a component map naming a component past the fourth";
            return GJ_PIX_FMT_NONE;
        }
        if (s->comps[comp].dx != s->comps[0].dx || s->comps[comp].dy != s->comps[0].dy) {
            *why = "a component map of subsampled components";
            return GJ_PIX_FMT_NONE;
        }
        deep |= (col >= 0 ? boxes->palette_depth[col] : s->comps[comp].precision) > 8;
    }
    switch (boxes->nb_channels) {
    case 1: return deep ? GJ_PIX_FMT_GRAY16 : GJ_PIX_FMT_GRAY8;
    case 3: return deep ? GJ_PIX_FMT_RGB48 : GJ_PIX_FMT_RGB24;
    case 4:
        if (!deep)
            return GJ_PIX_FMT_RGBA;
        break;
    }
    *why = "a component map of two channels, or of four deep ones";
    return GJ_PIX_FMT_NONE;
}

/* Planar formats of three 8-bit components whose chroma (1 and 2) is subsampled alike. */
static enum gj_pixel_format planar_format(const gj_j2k_stream *s)
{
    static const struct {
        int rx, ry;
        enum gj_pixel_format format;
    } formats[] = {
        { 2, 2, GJ_PIX_FMT_YUVJ420P }, { 2, 1, GJ_PIX_FMT_YUVJ422P },
        { 1, 2, GJ_PIX_FMT_YUVJ440P }, { 4, 1, GJ_PIX_FMT_YUVJ411P }, { 4, 4, GJ_PIX_FMT_YUV410P },
    };
    const j2k_component *c = s->comps;

    if (c[1].dx != c[2].dx || c[1].dy != c[2].dy || c[1].dx % c[0].dx || c[1].dy % c[0].dy)
        return GJ_PIX_FMT_NONE;
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (c[1].dx / c[0].dx == formats[i].rx && c[1].dy / c[0].dy == formats[i].ry)
            return formats[i].format;
    return GJ_PIX_FMT_NONE;
}

/*
 * The planar format FFmpeg's decoder picks for the layout `planar` (planar_format()'s
 * 8-bit one, or yuvj444p), with an alpha plane or not, and components of up to
 * `precision` bits: the first of its depths that holds them. It has 9 to 16 bits of
 * 4:2:0, 4:2:2 and 4:4:4, 9, 10 and 16 with alpha, and 8 bits alone of the others.
 */
static enum gj_pixel_format sized_planar_format(enum gj_pixel_format planar, int alpha, int precision)
{
    static const struct {
        enum gj_pixel_format planar;
        int alpha;
        enum gj_pixel_format by_depth[6];   /* ends at GJ_PIX_FMT_NONE where shorter */
    } formats[] = {
        { GJ_PIX_FMT_YUVJ420P, 0, { GJ_PIX_FMT_YUVJ420P, GJ_PIX_FMT_YUV420P9, GJ_PIX_FMT_YUV420P10,
                                    GJ_PIX_FMT_YUV420P12, GJ_PIX_FMT_YUV420P14, GJ_PIX_FMT_YUV420P16 } },
        { GJ_PIX_FMT_YUVJ422P, 0, { GJ_PIX_FMT_YUVJ422P, GJ_PIX_FMT_YUV422P9, GJ_PIX_FMT_YUV422P10,
                                    GJ_PIX_FMT_YUV422P12, GJ_PIX_FMT_YUV422P14, GJ_PIX_FMT_YUV422P16 } },
        { GJ_PIX_FMT_YUVJ444P, 0, { GJ_PIX_FMT_YUVJ444P, GJ_PIX_FMT_YUV444P9, GJ_PIX_FMT_YUV444P10,
                                    GJ_PIX_FMT_YUV444P12, GJ_PIX_FMT_YUV444P14, GJ_PIX_FMT_YUV444P16 } },
        { GJ_PIX_FMT_YUVJ440P, 0, { GJ_PIX_FMT_YUVJ440P, GJ_PIX_FMT_NONE } },
        { GJ_PIX_FMT_YUVJ411P, 0, { GJ_PIX_FMT_YUVJ411P, GJ_PIX_FMT_NONE } },
        { GJ_PIX_FMT_YUV410P, 0, { GJ_PIX_FMT_YUV410P, GJ_PIX_FMT_NONE } },
        { GJ_PIX_FMT_YUVJ420P, 1, { GJ_PIX_FMT_YUVA420P, GJ_PIX_FMT_YUVA420P9, GJ_PIX_FMT_YUVA420P10,
                                    GJ_PIX_FMT_YUVA420P16, GJ_PIX_FMT_NONE } },
        { GJ_PIX_FMT_YUVJ422P, 1, { GJ_PIX_FMT_YUVA422P, GJ_PIX_FMT_YUVA422P9, GJ_PIX_FMT_YUVA422P10,
                                    GJ_PIX_FMT_YUVA422P16, GJ_PIX_FMT_NONE } },
        { GJ_PIX_FMT_YUVJ444P, 1, { GJ_PIX_FMT_YUVA444P, GJ_PIX_FMT_YUVA444P9, GJ_PIX_FMT_YUVA444P10,
                                    GJ_PIX_FMT_YUVA444P16, GJ_PIX_FMT_NONE } },
    };

    for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
        for (int i = 0; formats[k].planar == planar && formats[k].alpha == alpha && i < 6 &&
                        formats[k].by_depth[i] != GJ_PIX_FMT_NONE; i++)
            if (gj_pixel_format_describe(formats[k].by_depth[i])->bits_per_sample >= precision)
                return formats[k].by_depth[i];
    return GJ_PIX_FMT_NONE;
}

/*
 * Signed samples are offset by 2^(precision - 1) into the unsigned range, as FFmpeg's
 * decoder stores them (the DC level shift of G.1.2 applied to every component).
 */
enum gj_pixel_format j2k_native_format(const gj_j2k_stream *s, const j2k_jp2 *boxes, const char **why)
{
    int nc = s->nb_comps > 4 ? 4 : s->nb_comps, deep = 0, same_size = 1, precision = 0;
    enum gj_pixel_format sized;

    if (boxes && boxes->nb_channels)
        return mapped_format(s, boxes, why);

    for (int c = 0; c < nc; c++) {
        if (s->comps[c].precision > 16) {
            *why = "components of more than 16 bits";
            return GJ_PIX_FMT_NONE;
        }
        deep |= s->comps[c].precision > 8;
        precision = s->comps[c].precision > precision ? s->comps[c].precision : precision;
        same_size &= s->comps[c].dx == s->comps[0].dx && s->comps[c].dy == s->comps[0].dy;
    }
    /* A JP2 file's sYCC (colr 18) in three or four components of one size: planar YUV
     * 4:4:4, with alpha, as FFmpeg's decoder reports it, where no component transform
     * makes them RGB first. */
    if (boxes && boxes->colour_method == 1 && boxes->enum_cs == 18 && (s->nb_comps == 3 || s->nb_comps == 4) &&
        same_size && !s->cod.mct)
        return sized_planar_format(GJ_PIX_FMT_YUVJ444P, s->nb_comps == 4, precision);
    if (s->nb_comps == 1)
        return deep ? GJ_PIX_FMT_GRAY16 : GJ_PIX_FMT_GRAY8;
    if (s->nb_comps == 3 && same_size)
        return deep ? GJ_PIX_FMT_RGB48 : GJ_PIX_FMT_RGB24;
    if (s->nb_comps == 4 && same_size)
        return deep ? GJ_PIX_FMT_RGBA64 : GJ_PIX_FMT_RGBA;
    if (s->nb_comps == 2 && same_size)
        return deep ? GJ_PIX_FMT_YA16 : GJ_PIX_FMT_YA8;
    if (s->nb_comps == 3 && (sized = sized_planar_format(planar_format(s), 0, precision)) != GJ_PIX_FMT_NONE)
        return sized;
    /* subsampled chroma and a full-size alpha (component 3 of component 0's size) */
    if (s->nb_comps == 4 && s->comps[3].dx == s->comps[0].dx && s->comps[3].dy == s->comps[0].dy &&
        (sized = sized_planar_format(planar_format(s), 1, precision)) != GJ_PIX_FMT_NONE)
        return sized;
    *why = s->nb_comps == 2 ? "two components of different sizes" : s->nb_comps > 4 ? "more than four components" :
           s->nb_comps == 4 ? "four components subsampled unlike YUV 4:2:0 or 4:2:2 with alpha" :
           deep ? "components of more than 8 bits subsampled unlike 4:2:0 and 4:2:2" :
                  "components subsampled unlike any planar format";
    return GJ_PIX_FMT_NONE;
}

/* The planes of a planar picture must have the sizes its format gives them (FFmpeg's AV_CEIL_RSHIFT). */
static int check_planes(const j2k_layout *l)
{
    for (int c = 1; c < gj_pixel_format_describe(l->native_format)->nb_planes; c++) {
        int w = gj_frame_plane_width(l->native_format, c, l->out_width);
        int h = gj_frame_plane_height(l->native_format, c, l->out_height);

        if (l->planes[c].width != w || l->planes[c].height != h)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: component %d is %dx%d where %s has %dx%d",
                           c, l->planes[c].width, l->planes[c].height,
                           gj_pixel_format_describe(l->native_format)->name, w, h);
    }
    return 0;
}

/* Components 0-2 of one size: the component transform applies to them (G.2, G.3). */
static int transform_group(const gj_j2k_stream *s)
{
    const j2k_component *c = s->comps;

    return s->nb_comps >= 3 && c[1].dx == c[0].dx && c[1].dy == c[0].dy && c[2].dx == c[0].dx &&
           c[2].dy == c[0].dy;
}

/* The main header asks for the component transform on components that cannot take it: OpenJPEG leaves it out too. */
static void warn_lost_transform(const gj_j2k_stream *s)
{
    if (s->cod.mct && !transform_group(s))
        gj_log(GJ_LOG_WARNING, "codestream: components 0-2 differ in size: no component transform");
}

/*
 * A JP2 file's image header box (I.5.3.1) that does not describe its codestream: the
 * codestream is decoded (as FFmpeg decodes it; OpenJPEG refuses the file), and said.
 */
static void warn_header_mismatch(const gj_j2k_stream *s, const j2k_jp2 *boxes)
{
    uint32_t w = s->x1 - s->x0, h = s->y1 - s->y0;

    if (boxes->codestream && (boxes->width != w || boxes->height != h || boxes->nb_comps != s->nb_comps))
        gj_log(GJ_LOG_WARNING, "JP2: ihdr says %ux%u, %d components; the codestream's SIZ %ux%u, %d: "
               "decoding the codestream's", boxes->width, boxes->height, boxes->nb_comps, w, h, s->nb_comps);
}

/* Appends component c's plane at 1/2^reduce (its place in a components buffer set apart). */
static int add_plane(j2k_layout *l, const gj_j2k_stream *s, int c, int reduce, uint32_t shift, uint32_t bytes)
{
    const j2k_component *comp = &s->comps[c];
    j2k_out_plane *p;
    int ret;

    if ((ret = J2K_GROW(l->planes, l->nb_planes, l->planes_cap, 1)) < 0)
        return ret;
    p = &l->planes[l->nb_planes++];
    memset(p, 0, sizeof(*p));
    p->comp = c;
    p->width = (int)j2k_reduced_extent(s->x0, s->x1, comp->dx, reduce);
    p->height = (int)j2k_reduced_extent(s->y0, s->y1, comp->dy, reduce);
    p->precision = (uint32_t)comp->precision;
    p->is_signed = comp->is_signed;
    p->shift = shift;
    p->bytes = bytes;
    return 0;
}

/*
 * A components decode: every component in a plane of its own, 8- or 16-bit samples
 * as they are, one after another in a gray8 buffer of J2K_COMPONENTS_ROW-byte rows
 * (l->out_width x l->out_height); components 0-2 of one size go through the
 * interleaved stage (with the component transform) with one sample size.
 */
static int lay_out_components(const gj_j2k_stream *s, int reduce, j2k_layout *l)
{
    gj_j2k_out_params *o = &l->out;
    int group = transform_group(s), ret;
    uint32_t group_bytes = 1;
    uint64_t at = 0;

    memset(o, 0, sizeof(*o));
    warn_lost_transform(s);
    for (int c = 0; c < s->nb_comps; c++) {
        if (s->comps[c].precision > 16)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: component %d of %d bits (at most 16)",
                           c, s->comps[c].precision);
        if (group && c < 3 && s->comps[c].precision > 8)
            group_bytes = 2;
    }
    for (int c = 0; c < s->nb_comps; c++) {
        j2k_out_plane *p;

        if ((ret = add_plane(l, s, c, reduce, 0, group && c < 3 ? group_bytes :
                             s->comps[c].precision > 8 ? 2 : 1)) < 0)
            return ret;
        p = &l->planes[l->nb_planes - 1];
        p->linesize = p->width * (int)p->bytes;
        p->offset = at;
        at += (uint64_t)p->linesize * (uint64_t)p->height;
        at = (at + J2K_COMPONENTS_ALIGN - 1) & ~(uint64_t)(J2K_COMPONENTS_ALIGN - 1);
    }
    if (group) {
        /* The interleaved stage writes channel c at c x channel_step past plane 0's sample. */
        o->nb_comps = o->nb_channels = 3;
        o->read_mask = 7;
        o->bytes_per_sample = group_bytes;
        o->pixel_stride = group_bytes;
        o->pitch = (gj_u32)l->planes[0].linesize;
        o->channel_step = (gj_u32)(l->planes[1].offset - l->planes[0].offset);
        for (gj_u32 c = 0; c < 3; c++) {
            o->precision[c] = (gj_u32)s->comps[c].precision;
            o->is_signed[c] = (gj_u32)s->comps[c].is_signed;
            o->channel_comp[c] = c;
            o->channel_column[c] = GJ_J2K_DIRECT;
            l->planes[c].interleaved = 1;
        }
    }
    l->out_width = J2K_COMPONENTS_ROW;
    l->out_height = (int)((at + J2K_COMPONENTS_ROW - 1) / J2K_COMPONENTS_ROW);
    return 0;
}

static int check_size(const gj_j2k_stream *s)
{
    uint64_t samples = 0;

    for (int c = 0; c < s->nb_comps; c++) {
        const j2k_component *comp = &s->comps[c];

        samples += (uint64_t)(j2k_ceil_div(s->x1, (uint32_t)comp->dx) - j2k_ceil_div(s->x0, (uint32_t)comp->dx)) *
                   (j2k_ceil_div(s->y1, (uint32_t)comp->dy) - j2k_ceil_div(s->y0, (uint32_t)comp->dy));
        if (samples > J2K_MAX_SAMPLES)
            return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: more than 2^31 samples (%ux%u, %d components)",
                           s->x1 - s->x0, s->y1 - s->y0, s->nb_comps);
    }
    return 0;
}

/* T2 of every tile, then the tables. The tiles' states stay in l for the next picture (tile.h). */
static int lay_out_tiles(gj_j2k_stream *s, int reduce, int max_layers, j2k_layout *l, int *truncated,
                         const j2k_t2_watch *watch)
{
    int nb_tiles = s->tiles_x * s->tiles_y, missing = 0, ret = 0, t;
    uint64_t resolutions = 0;
    size_t packets = 0, cblks = 0;
    j2k_tile_state *tiles;

    for (t = 0; t < nb_tiles; t++) {
        if (!s->tiles[t].seen) {
            /* A truncated codestream: the tile decodes as one whose packets are empty (its
             * coefficients 0: mid-grey), so that a tile cut before its data and one cut
             * before its header look alike. OpenJPEG 2.5 leaves the latter 0 (black). */
            if (!missing++)
                gj_log(GJ_LOG_WARNING, "codestream: tile %d has no tile-part", t);
            if ((ret = j2k_tile_defaults(s, &s->tiles[t])) < 0)
                return ret;
        }
        resolutions += j2k_tile_resolutions(&s->tiles[t], s->nb_comps);
    }
    if (missing > 1)
        gj_log(GJ_LOG_WARNING, "codestream: %d of %d tiles have no tile-part", missing, nb_tiles);
    *truncated |= missing > 0;
    if (resolutions > J2K_MAX_TILE_RESOLUTIONS)
        return gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: %llu resolutions of tile-components in all (at most %u)",
                       (unsigned long long)resolutions, J2K_MAX_TILE_RESOLUTIONS);
    if ((ret = j2k_tile_cache_get(&l->tile_cache, nb_tiles, &tiles)) < 0)
        return ret;
    /* A tile without a tile-part has no packets to read: its code-blocks stay empty. */
    for (t = 0; t < nb_tiles && ret >= 0; t++) {
        if ((ret = j2k_tile_init(&tiles[t], s, t)) < 0)
            break;
        if ((packets += tiles[t].nb_packets) > J2K_MAX_PACKETS)
            ret = gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: tiles 0-%d have more than %zu packets", t,
                          J2K_MAX_PACKETS);
        else if ((cblks += (size_t)tiles[t].nb_cblks) > J2K_MAX_CBLKS)
            ret = gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: tiles 0-%d have more than %zu code-blocks", t,
                          J2K_MAX_CBLKS);
        else if (s->tiles[t].tile_parts_seen)
            ret = j2k_t2_decode_tile(&tiles[t], max_layers ? max_layers : 65535, watch);
        if (ret < 0)
            break;
        *truncated |= tiles[t].truncated;
    }
    if (ret >= 0)
        ret = j2k_layout_build(l, s, tiles, reduce);
    return ret;
}

/*
 * A JP2 channel definition box's order (I.5.3.6): from[p] is the channel shown at place
 * p, a colour channel at its association's place and the opacity of the whole image
 * (association 0) last, as OpenJPEG and FFmpeg's decoder place them. Without the box,
 * or where its associations do not place each channel once, the channels' own order.
 */
static void channel_order(const j2k_jp2 *boxes, int n, int *from)
{
    int to[J2K_JP2_MAX_CHANNELS], taken = 0;

    for (int c = 0; c < n; c++)
        from[c] = c;
    if (!boxes->has_cdef)
        return;
    for (int c = 0; c < n; c++) {
        int a = boxes->channel_association[c];

        to[c] = a >= 1 && a <= n ? a - 1 : a == 0 ? n - 1 : -1;
        if (to[c] < 0 || (taken >> to[c] & 1)) {
            gj_log(GJ_LOG_WARNING, "JP2: cdef does not place each of %d channels once: channels in their order", n);
            return;
        }
        taken |= 1 << to[c];
    }
    for (int c = 0; c < n; c++)
        from[to[c]] = c;
}

/* The output stage's components and channels: the components, or a JP2 file's mapped channels. */
static int describe_output(const gj_j2k_stream *s, const j2k_jp2 *boxes, j2k_layout *l)
{
    gj_j2k_out_params *o = &l->out;
    const gj_pixel_format_desc *d = gj_pixel_format_describe(l->native_format);
    /* Samples are aligned to the most significant bit of the output's 8 or 16 bits, but
     * in deep planar YUV (with alpha or not) and ya16le, which hold them at the widest
     * component's bits (as FFmpeg's decoder: an 11-bit picture in yuv420p12le keeps
     * 11-bit values). */
    int deep = d->bits_per_sample > 8, top = deep ? 16 : 8, from[J2K_JP2_MAX_CHANNELS];

    memset(o, 0, sizeof(*o));
    o->nb_comps = (gj_u32)(s->nb_comps > GJ_J2K_MAX_OUT_COMPS ? GJ_J2K_MAX_OUT_COMPS : s->nb_comps);
    for (gj_u32 c = 0; c < o->nb_comps; c++) {
        o->precision[c] = (gj_u32)s->comps[c].precision;
        o->is_signed[c] = (gj_u32)s->comps[c].is_signed;
        if (s->comps[c].dx == s->comps[0].dx && s->comps[c].dy == s->comps[0].dy)
            o->read_mask |= 1u << c;
    }
    if (deep && (d->nb_planes >= 3 || l->native_format == GJ_PIX_FMT_YA16)) {
        top = 0;
        for (gj_u32 c = 0; c < o->nb_comps; c++)
            top = s->comps[c].precision > top ? s->comps[c].precision : top;
    }
    o->nb_channels = boxes->nb_channels ? (gj_u32)boxes->nb_channels : o->nb_comps;
    channel_order(boxes, (int)o->nb_channels, from);
    for (gj_u32 c = 0; c < o->nb_channels; c++) {
        int ch = from[c], col = boxes->nb_channels ? boxes->channel_column[ch] : -1;

        o->channel_comp[c] = boxes->nb_channels ? (gj_u32)boxes->channel_component[ch] : (gj_u32)ch;
        o->channel_column[c] = col >= 0 ? (gj_u32)col : GJ_J2K_DIRECT;
        o->shift[c] = (gj_u32)(top - (col >= 0 ? boxes->palette_depth[col] : s->comps[o->channel_comp[c]].precision));
    }
    o->bytes_per_sample = deep ? 2 : 1;
    free(l->palette);
    l->palette = NULL;
    if (boxes->palette_entries) {
        size_t n = (size_t)boxes->palette_entries * (size_t)boxes->palette_columns;

        if (!(l->palette = malloc(n * sizeof(*l->palette))))
            return GJ_ERROR_NOMEM;
        memcpy(l->palette, boxes->palette, n * sizeof(*l->palette));
        o->palette_entries = (gj_u32)boxes->palette_entries;
        o->palette_columns = (gj_u32)boxes->palette_columns;
    }
    return 0;
}

int j2k_host_decode(const uint8_t *data, size_t size, int reduce, int max_layers, j2k_layout *l,
                    int *truncated, const j2k_t2_watch *watch)
{
    const uint8_t *cs;
    size_t cs_size;
    gj_j2k_stream s;
    j2k_jp2 boxes;
    const char *why = "";
    int ret;

    *truncated = 0;
    if ((ret = j2k_find_codestream(data, size, &boxes, &cs, &cs_size)) < 0)
        return ret;
    if ((ret = j2k_parse_codestream(cs, cs_size, &s)) < 0) {
        j2k_jp2_free(&boxes);
        return ret;
    }
    /* tile-parts out of their order may have been read wrong: the picture is flagged as a cut one is */
    *truncated = s.truncated || s.misordered_parts;
    l->nb_planes = 0;
    if (l->components) {
        l->native_format = GJ_PIX_FMT_GRAY8;
        l->planar = 1;
        free(l->palette);
        l->palette = NULL;
        ret = lay_out_components(&s, reduce, l);
    } else {
        l->native_format = j2k_native_format(&s, &boxes, &why);
        if (l->native_format == GJ_PIX_FMT_NONE) {
            ret = gj_fail(GJ_ERROR_UNSUPPORTED, "unsupported: J2K output of %s", why);
            goto out;
        }
        l->planar = gj_pixel_format_describe(l->native_format)->nb_planes > 1;
        /* Before T2: the decoder's early T1 launch (early.h) places its work in the picture. */
        l->out_width = (int)j2k_reduced_extent(s.x0, s.x1, s.comps[0].dx, reduce);
        l->out_height = (int)j2k_reduced_extent(s.y0, s.y1, s.comps[0].dy, reduce);
        warn_lost_transform(&s);
        warn_header_mismatch(&s, &boxes);
        if ((ret = describe_output(&s, &boxes, l)) >= 0 && l->planar) {
            for (int c = 0; c < gj_pixel_format_describe(l->native_format)->nb_planes && ret >= 0; c++)
                ret = add_plane(l, &s, (int)l->out.channel_comp[c], reduce, l->out.shift[c],
                                l->out.bytes_per_sample);
        }
    }
    if (ret >= 0 && (ret = check_size(&s)) >= 0 &&
        (ret = lay_out_tiles(&s, reduce, max_layers, l, truncated, watch)) >= 0 && l->planar && !l->components)
        ret = check_planes(l);
out:
    j2k_stream_free(&s);
    j2k_jp2_free(&boxes);
    return ret;
}

int gj_j2k_read_info(const uint8_t *data, size_t size, gj_j2k_info *info)
{
    const uint8_t *cs;
    size_t cs_size;
    gj_j2k_stream s;
    j2k_jp2 boxes;
    const char *why = NULL;
    int ret;

    if (!data || !info)
        return GJ_ERROR_INVAL;
    memset(info, 0, sizeof(*info));
    if ((ret = j2k_find_codestream(data, size, &boxes, &cs, &cs_size)) < 0)
        return ret;
    if ((ret = j2k_parse_main_header(cs, cs_size, &s)) < 0) {
        j2k_jp2_free(&boxes);
        return ret;
    }
    info->width = (int)(s.x1 - s.x0);
    info->height = (int)(s.y1 - s.y0);
    info->x0 = (int)s.x0;
    info->y0 = (int)s.y0;
    info->profile = s.capabilities;
    info->num_components = s.nb_comps;
    for (int c = 0; c < s.nb_comps && c < GJ_J2K_MAX_INFO_COMPONENTS; c++) {
        info->precision[c] = s.comps[c].precision;
        info->is_signed[c] = s.comps[c].is_signed;
        info->dx[c] = s.comps[c].dx;
        info->dy[c] = s.comps[c].dy;
    }
    info->tiles_x = s.tiles_x;
    info->tiles_y = s.tiles_y;
    info->levels = s.comps[0].coding.levels;
    info->layers = s.cod.layers;
    info->reversible = s.comps[0].coding.reversible;
    info->mct = s.cod.mct;
    info->jp2 = boxes.codestream != NULL;
    info->sar_num = boxes.sar_num;
    info->sar_den = boxes.sar_den;
    info->colour_space = boxes.colour_method == 1 ? boxes.enum_cs : 0;
    if (boxes.icc) {
        info->icc_offset = (size_t)(boxes.icc - data);
        info->icc_size = boxes.icc_size;
    }
    info->native_format = j2k_native_format(&s, &boxes, &why);
    j2k_stream_free(&s);
    j2k_jp2_free(&boxes);
    return 0;
}

_Static_assert(J2K_JP2_MAX_CHANNELS <= GJ_J2K_MAX_INFO_COMPONENTS && J2K_JP2_MAX_ENTRIES <= GJ_J2K_MAX_PALETTE_ENTRIES,
               "a parsed palette fits gj_j2k_palette");

int gj_j2k_read_palette(const uint8_t *data, size_t size, gj_j2k_palette *palette)
{
    const uint8_t *cs;
    size_t cs_size;
    j2k_jp2 boxes;
    int ret;

    if (!data || !palette)
        return GJ_ERROR_INVAL;
    memset(palette, 0, sizeof(*palette));
    if ((ret = j2k_find_codestream(data, size, &boxes, &cs, &cs_size)) < 0)
        return ret;
    palette->entries = boxes.palette_entries;
    palette->columns = boxes.palette_columns;
    for (int c = 0; c < boxes.palette_columns; c++) {
        palette->depth[c] = boxes.palette_depth[c];
        for (int e = 0; e < boxes.palette_entries; e++)
            palette->values[e][c] = boxes.palette[e * boxes.palette_columns + c];
    }
    j2k_jp2_free(&boxes);
    return 0;
}

int gj_j2k_output_size(const gj_j2k_info *info, int reduce, int *width, int *height)
{
    uint32_t x0, y0;

    if (!info || !width || !height || reduce < 0 || reduce > 32 || info->dx[0] < 1 || info->dy[0] < 1)
        return GJ_ERROR_INVAL;
    x0 = (uint32_t)info->x0;
    y0 = (uint32_t)info->y0;
    *width = (int)j2k_reduced_extent(x0, x0 + (uint32_t)info->width, info->dx[0], reduce);
    *height = (int)j2k_reduced_extent(y0, y0 + (uint32_t)info->height, info->dy[0], reduce);
    return *width > 0 && *height > 0 ? 0 : GJ_ERROR_INVAL;
}
