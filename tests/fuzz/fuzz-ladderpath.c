/* A ladder page's path (`referee serve --ladder`, server/ladder.h): what
 * follows /ladder/ in a request. */
#include <glib.h>

#include "fuzz.h"
#include "server/ladder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *path = g_strndup((const char *)data, size);
	ServeLadderPage p;
	GError *err = NULL;

	if (!serve_ladder_parse(path, &p, &err))
		g_error_free(err);
	else if (p.id < 0)
		__builtin_trap();
	return 0;
}
