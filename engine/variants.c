/*
 * variants: the registry of every game the engine knows, in the order of
 * variants.h (variant_all and variant_find, declared in variant.h for every
 * caller of the tables).
 */
#include "variants.h"

#include <string.h>

static const Variant *const registry[] = {
	&variant_link,
	&variant_tetroll,
	&variant_matrix,
	&variant_rush,
	NULL,
};

const Variant *const *variant_all(void)
{
	return registry;
}

const Variant *variant_find(const char *name)
{
	for (int i = 0; registry[i]; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}
