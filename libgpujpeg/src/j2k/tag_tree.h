/*
 * Tag trees (T.800 B.10.2) and the packet-header bit reader (B.10.1) they read from.
 */
#ifndef GJ_J2K_TAG_TREE_H
#define GJ_J2K_TAG_TREE_H

#include <stddef.h>
#include <stdint.h>

/* Packet-header bits: MSB first; after an 0xFF byte only 7 bits follow (bit stuffing). */
typedef struct j2k_bits {
    const uint8_t *data;
    size_t size, pos;
    unsigned byte;          /* the current byte */
    int left;               /* bits left in it */
    int overrun;            /* read past the end: the header is truncated */
} j2k_bits;

void j2k_bits_init(j2k_bits *b, const uint8_t *data, size_t size);
/* Loads the next byte's bits, the current one spent. */
void j2k_bits_next_byte(j2k_bits *b);

/* The next bit. */
static inline unsigned j2k_bits_read_bit(j2k_bits *b)
{
    if (b->left == 0)
        j2k_bits_next_byte(b);
    return (b->byte >> --b->left) & 1;
}

/* The next n (at most 32) bits, a byte's worth at a time: the packet headers' hot loop. */
static inline unsigned j2k_bits_read(j2k_bits *b, int n)
{
    unsigned v = 0;

    while (n > 0) {
        int take;

        if (b->left == 0)
            j2k_bits_next_byte(b);
        take = n < b->left ? n : b->left;
        b->left -= take;
        n -= take;
        v = v << take | ((b->byte >> b->left) & ((1u << take) - 1));
    }
    return v;
}

/* Ends the header: skips the rest of the byte and a stuffed byte after 0xFF (B.10.1). */
void j2k_bits_align(j2k_bits *b);

/*
 * A decode's threshold is at most 65535 (a layer number + 1, or 75 missing
 * bit-planes); values stay below it and bounds reach it at most: 16 bits each
 * keep a DCI 4K picture's 70,000 nodes in 280 KB. A node's parent follows from
 * its place (j2k_tag_tree_decode()).
 */
#define J2K_TAG_UNKNOWN 0xFFFF

typedef struct j2k_tag_node {
    uint16_t value;         /* J2K_TAG_UNKNOWN until known */
    uint16_t low;           /* the lower bound established so far */
} j2k_tag_node;

typedef struct j2k_tag_tree {
    j2k_tag_node *nodes;    /* leaves first (w x h, row-major), then each coarser level */
    int w, h, count;
} j2k_tag_tree;

/* The nodes a w x h tree takes (0 for an empty one). */
size_t j2k_tag_tree_nodes(int w, int h);
/*
 * A w x h tree on `nodes` (j2k_tag_tree_nodes(w, h) of them, which the caller owns:
 * a tile keeps every tree's nodes in one array), every value unknown.
 */
void j2k_tag_tree_init(j2k_tag_tree *t, int w, int h, j2k_tag_node *nodes);
/* Every value unknown again, the shape kept (the next picture's packets). */
void j2k_tag_tree_reset(j2k_tag_tree *t);
/*
 * Reads bits until the value of leaf (x, y) is known to be >= threshold (at most
 * 65535) or is known; returns value < threshold.
 */
int j2k_tag_tree_decode(j2k_tag_tree *t, j2k_bits *b, int x, int y, int32_t threshold);

/* Every leaf's value is known to be >= threshold: no decode below it reads a bit. */
static inline int j2k_tag_tree_none_below(const j2k_tag_tree *t, int32_t threshold)
{
    return t->count && t->nodes[t->count - 1].low >= threshold;
}

#endif /* GJ_J2K_TAG_TREE_H */
