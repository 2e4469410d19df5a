/* Tag trees (T.800 B.10.2) and packet-header bits (B.10.1). */
#include <string.h>

#include "j2k/tag_tree.h"

void j2k_bits_init(j2k_bits *b, const uint8_t *data, size_t size)
{
    memset(b, 0, sizeof(*b));
    b->data = data;
    b->size = size;
}

/* The next byte's bits: 7 after an 0xFF, else 8. Past the end: zeros, flagged. */
void j2k_bits_next_byte(j2k_bits *b)
{
    int after_ff = b->byte == 0xFF;

    if (b->pos < b->size) {
        b->byte = b->data[b->pos++];
    } else {
        b->byte = 0;
        b->overrun = 1;
    }
    b->left = after_ff ? 7 : 8;
}

void j2k_bits_align(j2k_bits *b)
{
    if (b->byte == 0xFF && b->pos > 0) {
        if (b->pos < b->size)
            b->pos++;
        else
            b->overrun = 1;
        b->byte = 0;
    }
    b->left = 0;
}

size_t j2k_tag_tree_nodes(int w, int h)
{
    size_t count = 0;

    if (w <= 0 || h <= 0)
        return 0;
    for (;;) {
        count += (size_t)w * (size_t)h;
        if (w == 1 && h == 1)
            return count;
        w = (w + 1) / 2;
        h = (h + 1) / 2;
    }
}

void j2k_tag_tree_init(j2k_tag_tree *t, int w, int h, j2k_tag_node *nodes)
{
    memset(t, 0, sizeof(*t));
    if (w <= 0 || h <= 0)
        return;
    t->nodes = nodes;
    t->w = w;
    t->h = h;
    t->count = (int)j2k_tag_tree_nodes(w, h);
    j2k_tag_tree_reset(t);
}

void j2k_tag_tree_reset(j2k_tag_tree *t)
{
    for (int i = 0; i < t->count; i++)
        t->nodes[i] = (j2k_tag_node){ .value = J2K_TAG_UNKNOWN, .low = 0 };
}

int j2k_tag_tree_decode(j2k_tag_tree *t, j2k_bits *b, int x, int y, int32_t threshold)
{
    int32_t path[32], low = 0;
    int depth = 0, w = t->w, h = t->h, start = 0;

    /* Root first: each node's bound is at least its parent's (B.10.2). An ancestor
     * whose value is known reads no more bits and hands its value down as the bound:
     * the walk starts there (siblings share most of the path). One whose bound has
     * reached the threshold already reads none either, nor do the nodes below it:
     * the leaf is not below the threshold (most code-blocks of a DCI 4K picture's
     * packets, never included). Their bounds stay as they are; the next walk hands
     * the ancestor's down. A node's parent is the one over its 2 x 2 square on the
     * level above, the levels one after another from the leaves. */
    for (;;) {
        int n = start + y * w + x;

        path[depth++] = n;
        if (t->nodes[n].value != J2K_TAG_UNKNOWN)
            break;
        if (t->nodes[n].low >= threshold)
            return 0;
        if ((w == 1 && h == 1) || depth == 32)
            break;
        start += w * h;
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
        x >>= 1;
        y >>= 1;
    }
    while (depth-- > 0) {
        j2k_tag_node *node = &t->nodes[path[depth]];

        if (low > node->low)
            node->low = (uint16_t)low;
        else
            low = node->low;
        while (low < threshold && low < node->value) {
            if (j2k_bits_read_bit(b))
                node->value = (uint16_t)low;
            else
                low++;
            if (b->overrun)
                break;
        }
        node->low = (uint16_t)low;
    }
    return t->nodes[path[0]].value < threshold;
}
