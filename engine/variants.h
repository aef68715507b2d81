/*
 * variants: the table of every game the engine knows, so that C bots and
 * tests can name one directly. The registry in variants.c lists them in the
 * same order.
 */
#ifndef TETRARENA_ENGINE_VARIANTS_H
#define TETRARENA_ENGINE_VARIANTS_H

#include "variant.h"

extern const Variant variant_link;
extern const Variant variant_tetroll;
extern const Variant variant_matrix;
extern const Variant variant_rush;

#endif
