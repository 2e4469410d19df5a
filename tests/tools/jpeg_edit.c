/*
 * jpeg_edit: rewrites the marker segments of a JPEG file, to craft the corpus's
 * unusual and invalid files (T.81 Annex B layout) from ones cjpeg made.
 *
 *   jpeg_edit IN.jpg OUT.jpg OPERATION...
 *   jpeg_edit --list IN.jpg      prints "OFFSET NAME LENGTH" per segment, where
 *                                OFFSET is the marker's and LENGTH counts
 *                                everything up to the next item (DATA: the
 *                                entropy-coded bytes)
 *
 * A SEGMENT is a marker name with an optional 0-based occurrence, e.g. SOF0,
 * SOS#1, APP0 (names: SOF0..SOF15, DHT, DAC, DQT, DRI, DNL, DHP, EXP, SOS, SOI,
 * EOI, APP0..APP15, COM, or a code such as 0xC3). Offsets count from the first
 * byte after the 2-byte length field. Operations, applied in order:
 *
 *   set SEGMENT OFFSET B[,B...]  overwrite payload bytes (decimal or 0x..)
 *   resize SEGMENT LENGTH        cut or zero-extend the payload (length field follows)
 *   recode SEGMENT CODE          change the marker code (e.g. SOF0 -> 0xC3)
 *   drop NAME                    remove every segment with that marker
 *   insert SEGMENT CODE HEX      insert a new segment (payload in hex, "" for
 *                                none) before SEGMENT
 *   move SEGMENT BEFORE          move SEGMENT to just before segment BEFORE
 *   merge NAME                   join each run of adjacent NAME segments into one
 *                                (one DHT/DQT holding several tables, as cameras write)
 *   fill SEGMENT N               write N fill bytes 0xFF before the marker (B.1.1.2)
 *   junk SEGMENT HEX             insert stray bytes before SEGMENT
 *   rst N CODE                   rewrite the N-th (0-based) restart marker's code
 *   flip SEED COUNT              flip one bit in COUNT pseudo-random bytes of the
 *                                entropy-coded data, never creating or touching
 *                                a marker (0xFF and the byte after it)
 *
 * Exit status 0, or 2 with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"

#define MAX_ITEMS 4096
#define DATA (-1)   /* an item of entropy-coded (or stray) bytes, not a segment */

typedef struct item {
    int marker;              /* second marker byte, or DATA */
    int has_length;          /* marker segment with a length field */
    int fill;                /* extra 0xFF bytes written before the marker */
    unsigned char *bytes;    /* payload after the length field, or the raw data */
    size_t size;
} item;

static item items[MAX_ITEMS];
static int num_items;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "jpeg_edit: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(2);
}

/* T.81 B.1.1.3 and Table B.1: markers without a length field. */
static int standalone(int m)
{
    return m == 0xD8 || m == 0xD9 || m == 0x01 || (m >= 0xD0 && m <= 0xD7);
}

static void add_item(int marker, int has_length, const unsigned char *bytes, size_t size)
{
    item *it;

    if (num_items == MAX_ITEMS)
        die("%s", "too many segments");
    it = &items[num_items++];
    it->marker = marker;
    it->has_length = has_length;
    it->fill = 0;
    it->size = size;
    it->bytes = malloc(size ? size : 1);
    if (size)
        memcpy(it->bytes, bytes, size);
}

/* Entropy-coded data ends at a marker other than RSTn (B.1.1.5: 0xFF00 is a stuffed byte). */
static size_t data_end(const unsigned char *d, size_t size, size_t pos)
{
    while (pos < size) {
        if (d[pos] == 0xFF && pos + 1 < size) {
            int next = d[pos + 1];
            if (next != 0x00 && !(next >= 0xD0 && next <= 0xD7))
                return pos;
        }
        pos++;
    }
    return size;
}

static void parse(const unsigned char *d, size_t size)
{
    size_t pos = 0;
    int fill = 0;

    while (pos < size) {
        if (d[pos] == 0xFF && pos + 1 < size && d[pos + 1] != 0x00 && d[pos + 1] != 0xFF) {
            int m = d[pos + 1];
            size_t len;

            pos += 2;
            if (standalone(m)) {
                add_item(m, 0, NULL, 0);
                items[num_items - 1].fill = fill;
                fill = 0;
                continue;
            }
            len = pos + 2 <= size ? (size_t)(d[pos] << 8 | d[pos + 1]) : 0;
            if (len < 2 || pos + len > size)
                die("%s", "input ends inside a marker segment: edit complete files only");
            add_item(m, 1, d + pos + 2, len - 2);
            items[num_items - 1].fill = fill;
            fill = 0;
            pos += len;
            if (m == 0xDA) {   /* SOS: the entropy-coded segment follows */
                size_t end = data_end(d, size, pos);
                add_item(DATA, 0, d + pos, end - pos);
                pos = end;
            }
        } else if (d[pos] == 0xFF && pos + 1 < size && d[pos + 1] == 0xFF) {
            pos++;   /* fill byte before a marker (B.1.1.2): kept with the marker */
            fill++;
        } else {
            size_t end = data_end(d, size, pos + 1);
            add_item(DATA, 0, d + pos, end - pos);
            pos = end;
        }
    }
}

static int marker_code(const char *name)
{
    static const struct { const char *name; int code; } named[] = {
        { "DHT", 0xC4 }, { "DAC", 0xCC }, { "SOI", 0xD8 }, { "EOI", 0xD9 }, { "SOS", 0xDA },
        { "DQT", 0xDB }, { "DNL", 0xDC }, { "DRI", 0xDD }, { "DHP", 0xDE }, { "EXP", 0xDF },
        { "COM", 0xFE },
    };
    char *end;
    long n;
    size_t i;

    for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
        if (!strcmp(name, named[i].name))
            return named[i].code;
    if (!strncmp(name, "SOF", 3) || !strncmp(name, "APP", 3)) {
        n = strtol(name + 3, &end, 10);
        if (!*end && end != name + 3 && n >= 0 && n <= 15)
            return (name[0] == 'S' ? 0xC0 : 0xE0) + (int)n;
    }
    n = strtol(name, &end, 0);
    if (!*end && n > 0 && n < 0xFF)
        return (int)n;
    die("unknown marker name %s", name);
    return 0;
}

/* Index of the item named "NAME[#N]". */
static int find(const char *spec)
{
    char name[32];
    const char *hash = strchr(spec, '#');
    int occurrence = hash ? atoi(hash + 1) : 0, code, i;

    snprintf(name, sizeof(name), "%.*s", hash ? (int)(hash - spec) : (int)strlen(spec), spec);
    code = marker_code(name);
    for (i = 0; i < num_items; i++)
        if (items[i].marker == code && occurrence-- == 0)
            return i;
    die("no segment %s in the input", spec);
    return -1;
}

static void set_bytes(item *it, const char *offset_arg, const char *list)
{
    size_t offset = strtoul(offset_arg, NULL, 0);
    char *copy = strdup(list), *tok, *save = NULL;

    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (offset >= it->size)
            die("set: offset %s is past the segment's end", offset_arg);
        it->bytes[offset++] = (unsigned char)strtoul(tok, NULL, 0);
    }
    free(copy);
}

static void resize(item *it, size_t size)
{
    it->bytes = realloc(it->bytes, size ? size : 1);
    if (size > it->size)
        memset(it->bytes + it->size, 0, size - it->size);
    it->size = size;
}

static void insert_at(int at, int code, const char *hex)
{
    unsigned char payload[1024];
    size_t n = 0;
    item added;

    while (hex[0] && hex[1] && n < sizeof(payload)) {
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1)
            die("bad hex payload %s", hex);
        payload[n++] = (unsigned char)v;
        hex += 2;
    }
    add_item(code, !standalone(code), payload, n);   /* appended: move it into place */
    added = items[num_items - 1];
    memmove(&items[at + 1], &items[at], (num_items - 1 - at) * sizeof(item));
    items[at] = added;
}

static void move_item(int from, int before)
{
    item it = items[from];

    memmove(&items[from], &items[from + 1], (num_items - from - 1) * sizeof(item));
    if (before > from)
        before--;
    memmove(&items[before + 1], &items[before], (num_items - 1 - before) * sizeof(item));
    items[before] = it;
}


static void flip(unsigned seed, int count)
{
    size_t total = 0, pick;
    int i, tries;

    for (i = 0; i < num_items; i++)
        if (items[i].marker == DATA)
            total += items[i].size;
    if (!total)
        die("%s", "flip: no entropy-coded data");
    rng_state = 0x9E3779B97F4A7C15ULL ^ seed;
    while (count > 0) {
        pick = ((size_t)rng_next() << 16 ^ rng_next()) % total;
        for (i = 0; pick >= items[i].size || items[i].marker != DATA; i++)
            if (items[i].marker == DATA)
                pick -= items[i].size;
        unsigned char *b = &items[i].bytes[pick];
        if (*b == 0xFF || (pick > 0 && b[-1] == 0xFF))
            continue;
        for (tries = 0; tries < 8; tries++) {
            unsigned char v = *b ^ (unsigned char)(1u << (rng_next() & 7));
            if (v != 0xFF) {
                *b = v;
                break;
            }
        }
        count--;
    }
}

static void merge(int code)
{
    int i, kept = 0;

    for (i = 0; i < num_items; i++) {
        item *last = kept ? &items[kept - 1] : NULL;
        if (last && last->marker == code && items[i].marker == code && last->has_length) {
            last->bytes = realloc(last->bytes, last->size + items[i].size);
            memcpy(last->bytes + last->size, items[i].bytes, items[i].size);
            last->size += items[i].size;
            free(items[i].bytes);
        } else {
            items[kept++] = items[i];
        }
    }
    num_items = kept;
}

static void rewrite_rst(int n, int code)
{
    int i;
    size_t k;

    for (i = 0; i < num_items; i++) {
        if (items[i].marker != DATA)
            continue;
        for (k = 0; k + 1 < items[i].size; k++)
            if (items[i].bytes[k] == 0xFF && items[i].bytes[k + 1] >= 0xD0 &&
                items[i].bytes[k + 1] <= 0xD7 && n-- == 0) {
                items[i].bytes[k + 1] = (unsigned char)code;
                return;
            }
    }
    die("%s", "rst: the file has fewer restart markers");
}

static const char *marker_name(int m, char *buf, size_t len)
{
    static const char *fixed[] = { "SOI", "EOI", "SOS", "DQT", "DNL", "DRI", "DHP", "EXP" };

    if (m == DATA)
        return "DATA";
    if (m == 0xC4)
        return "DHT";
    if (m == 0xCC)
        return "DAC";
    if (m == 0xFE)
        return "COM";
    if (m >= 0xD8 && m <= 0xDF)
        return fixed[m - 0xD8];
    if (m >= 0xC0 && m <= 0xCF)
        snprintf(buf, len, "SOF%d", m - 0xC0);
    else if (m >= 0xE0 && m <= 0xEF)
        snprintf(buf, len, "APP%d", m - 0xE0);
    else
        snprintf(buf, len, "0x%02X", m);
    return buf;
}

static void list(void)
{
    size_t offset = 0, size;
    char name[16];
    int i;

    for (i = 0; i < num_items; i++) {
        const item *it = &items[i];
        size = it->size + (it->marker != DATA ? 2 + it->fill : 0) + (it->has_length ? 2 : 0);
        printf("%zu %s %zu\n", offset + it->fill, marker_name(it->marker, name, sizeof(name)), size);
        offset += size;
    }
}

static void write_out(const char *path)
{
    FILE *f = fopen(path, "wb");
    int i;

    if (!f)
        die("cannot write %s", path);
    for (i = 0; i < num_items; i++) {
        const item *it = &items[i];
        for (int k = 0; k < it->fill; k++)
            putc(0xFF, f);
        if (it->marker != DATA) {
            putc(0xFF, f);
            putc(it->marker, f);
        }
        if (it->has_length) {
            putc((int)((it->size + 2) >> 8), f);
            putc((int)((it->size + 2) & 0xFF), f);
        }
        fwrite(it->bytes, 1, it->size, f);
    }
    if (fclose(f))
        die("cannot write %s", path);
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n;

    if (!f)
        die("cannot open %s", path);
    *size = 0;
    do {
        if (*size == cap)
            buf = realloc(buf, cap = cap ? cap * 2 : 65536);
        n = fread(buf + *size, 1, cap - *size, f);
        *size += n;
    } while (n);
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    size_t size;
    unsigned char *input;
    int a;

    if (argc == 3 && !strcmp(argv[1], "--list")) {
        input = read_all(argv[2], &size);
        parse(input, size);
        list();
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: jpeg_edit IN.jpg OUT.jpg OPERATION... (see the source's header)\n");
        return 2;
    }
    input = read_all(argv[1], &size);
    parse(input, size);
    for (a = 3; a < argc;) {
        const char *op = argv[a];
        int left = argc - a - 1;

        if (!strcmp(op, "set") && left >= 3) {
            set_bytes(&items[find(argv[a + 1])], argv[a + 2], argv[a + 3]);
            a += 4;
        } else if (!strcmp(op, "resize") && left >= 2) {
            resize(&items[find(argv[a + 1])], strtoul(argv[a + 2], NULL, 0));
            a += 3;
        } else if (!strcmp(op, "recode") && left >= 2) {
            items[find(argv[a + 1])].marker = marker_code(argv[a + 2]);
            a += 3;
        } else if (!strcmp(op, "drop") && left >= 1) {
            int code = marker_code(argv[a + 1]), i, kept = 0;
            for (i = 0; i < num_items; i++)
                if (items[i].marker != code)
                    items[kept++] = items[i];
            num_items = kept;
            a += 2;
        } else if (!strcmp(op, "insert") && left >= 3) {
            insert_at(find(argv[a + 1]), marker_code(argv[a + 2]), argv[a + 3]);
            a += 4;
        } else if (!strcmp(op, "move") && left >= 2) {
            move_item(find(argv[a + 1]), find(argv[a + 2]));
            a += 3;
        } else if (!strcmp(op, "merge") && left >= 1) {
            merge(marker_code(argv[a + 1]));
            a += 2;
        } else if (!strcmp(op, "fill") && left >= 2) {
            items[find(argv[a + 1])].fill = atoi(argv[a + 2]);
            a += 3;
        } else if (!strcmp(op, "junk") && left >= 2) {
            int at = find(argv[a + 1]);
            insert_at(at, 0, argv[a + 2]);
            items[at].marker = DATA;
            items[at].has_length = 0;
            a += 3;
        } else if (!strcmp(op, "rst") && left >= 2) {
            rewrite_rst(atoi(argv[a + 1]), (int)strtol(argv[a + 2], NULL, 0));
            a += 3;
        } else if (!strcmp(op, "flip") && left >= 2) {
            flip((unsigned)strtoul(argv[a + 1], NULL, 0), atoi(argv[a + 2]));
            a += 3;
        } else {
            die("bad or incomplete operation %s", op);
        }
    }
    write_out(argv[2]);
    free(input);
    return 0;
}
