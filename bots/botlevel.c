/*
 * botlevel: the --level option. See botlevel.h for the contract.
 */
#include "botlevel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_level(const char *s, int *out)
{
	char *end = NULL;

	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < BOTLEVEL_MIN || v > BOTLEVEL_MAX)
		return false;
	*out = (int)v;
	return true;
}

bool botlevel_take(const char *name, int *argc, char **argv, int *level)
{
	int n = 0;

	*level = BOTLEVEL_DEFAULT;
	for (int i = 0; i < *argc; i++) {
		const char *value = NULL;
		if (i > 0 && !strcmp(argv[i], "--level"))
			value = i + 1 < *argc ? argv[++i] : "";
		else if (i > 0 && !strncmp(argv[i], "--level=", 8))
			value = argv[i] + 8;
		else {
			argv[n++] = argv[i];
			continue;
		}
		if (!parse_level(value, level)) {
			fprintf(stderr, "%s: bad --level '%s': want an integer from %d (weakest) to %d "
				"(strongest, the default)\n", name, value, BOTLEVEL_MIN, BOTLEVEL_MAX);
			return false;
		}
	}
	*argc = n;
	argv[n] = NULL;
	return true;
}

int botlevel_noise(Rng *rng, int amp)
{
	if (amp <= 0)
		return 0;
	return (int)rng_below(rng, (uint32_t)(2 * amp + 1)) - amp;
}
