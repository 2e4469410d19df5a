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
static void next_byte(j2k_bits *b)
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

unsigned j2k_bits_read(j2k_bits *b, int n)
{
    unsigned v = 0;

    while (n-- > 0) {
        if (b->left == 0)
            next_byte(b);
        b->left--;
        v = v << 1 | ((b->byte >> b->left) & 1);
    }
    return v;
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
    int lw = w, lh = h, level_start = 0;

    memset(t, 0, sizeof(*t));
    if (w <= 0 || h <= 0)
        return;
    t->nodes = nodes;
    t->w = w;
    t->h = h;
    t->count = (int)j2k_tag_tree_nodes(w, h);
    for (;;) {
        int next_start = level_start + lw * lh;
        int nw = (lw + 1) / 2, root = lw == 1 && lh == 1;

        /* By rows and columns: no division per node */
        for (int y = 0; y < lh; y++)
            for (int i = 0; i < lw; i++)
                t->nodes[level_start + y * lw + i].parent = root ? -1 : next_start + (y / 2) * nw + i / 2;
        if (root)
            break;
        level_start = next_start;
        lw = nw;
        lh = (lh + 1) / 2;
    }
    j2k_tag_tree_reset(t);
}

void j2k_tag_tree_reset(j2k_tag_tree *t)
{
    for (int i = 0; i < t->count; i++) {
        t->nodes[i].value = INT32_MAX;
        t->nodes[i].low = 0;
    }
}

int j2k_tag_tree_decode(j2k_tag_tree *t, j2k_bits *b, int leaf, int32_t threshold)
{
    int32_t path[32], low = 0;
    int depth = 0, n = leaf;

    /* Root first: each node's bound is at least its parent's (B.10.2). An ancestor
     * whose value is known reads no more bits and hands its value down as the bound:
     * the walk starts there (siblings share most of the path). One whose bound has
     * reached the threshold already reads none either, nor do the nodes below it:
     * the leaf is not below the threshold (most code-blocks of a DCI 4K picture's
     * packets, never included). Their bounds stay as they are; the next walk hands
     * the ancestor's down. */
    while (n >= 0 && depth < 32) {
        path[depth++] = n;
        if (t->nodes[n].value != INT32_MAX)
            break;
        if (t->nodes[n].low >= threshold)
            return 0;
        n = t->nodes[n].parent;
    }
    while (depth-- > 0) {
        j2k_tag_node *node = &t->nodes[path[depth]];

        if (low > node->low)
            node->low = low;
        else
            low = node->low;
        while (low < threshold && low < node->value) {
            if (j2k_bits_read(b, 1))
                node->value = low;
            else
                low++;
            if (b->overrun)
                break;
        }
        node->low = low;
    }
    return t->nodes[leaf].value < threshold;
}
