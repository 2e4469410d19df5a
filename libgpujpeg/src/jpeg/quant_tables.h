/* Quantisation tables of the encoder: T.81 K.1/K.2, libjpeg's quality scaling, divisors for the kernels. */
#ifndef GJ_JPEG_QUANT_TABLES_H
#define GJ_JPEG_QUANT_TABLES_H

#include <stdint.h>

#include "kernels/jpeg_encode_params.h"

/* Largest table value: libjpeg-turbo divides by value * 8 in 16 bits. */
#define GJ_QUANT_MAX 8191

/*
 * Table `id` (0 luma, 1 chroma) for `quality` 1..100 in natural order, as
 * libjpeg's jpeg_set_quality(quality, force_baseline) makes it.
 */
void gj_quant_table_for_quality(int id, int quality, int force_baseline, uint16_t table[64]);

/* The kernels' reciprocal divisors of table `id` (values 1..GJ_QUANT_MAX). */
void gj_quant_divisors(const uint16_t table[64], int id, gj_enc_params *p);

#endif /* GJ_JPEG_QUANT_TABLES_H */
