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
unsigned j2k_bits_read(j2k_bits *b, int n);
/* Ends the header: skips the rest of the byte and a stuffed byte after 0xFF (B.10.1). */
void j2k_bits_align(j2k_bits *b);

typedef struct j2k_tag_node {
    int32_t parent;         /* -1 at the root */
    int32_t value;          /* INT32_MAX until known */
    int32_t low;            /* the lower bound established so far */
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
/* Reads bits until the leaf's value is known to be >= threshold or is known; returns value < threshold. */
int j2k_tag_tree_decode(j2k_tag_tree *t, j2k_bits *b, int leaf, int32_t threshold);

/* Every leaf's value is known to be >= threshold: no decode below it reads a bit. */
static inline int j2k_tag_tree_none_below(const j2k_tag_tree *t, int32_t threshold)
{
    return t->count && t->nodes[t->count - 1].low >= threshold;
}

#endif /* GJ_J2K_TAG_TREE_H */
