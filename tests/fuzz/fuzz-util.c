/* fuzz-util: fuzz_file() for the harnesses. See fuzz.h. */
#include "fuzz.h"

#include <stdlib.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

static char *path;

static void remove_file(void)
{
	g_unlink(path);
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	if (!path) {
		GError *err = NULL;
		int fd = g_file_open_tmp("tetrarena-fuzz-XXXXXX", &path, &err);
		if (fd < 0)
			g_error("fuzz: %s", err->message);
		close(fd);
		atexit(remove_file);
	}
	if (!g_file_set_contents(path, (const char *)data, (gssize)size, NULL))
		g_error("fuzz: cannot write %s", path);
	return path;
}
