/*
 * fuzz-main: the replayer. Without libFuzzer a harness is linked with
 * this main(), which runs LLVMFuzzerTestOneInput() once on each file
 * named, and on each file in each directory named. `make check` runs it
 * over tests/fuzz/corpus/NAME/; a crash or a sanitizer report fails it.
 */
#include <stdio.h>

#include <glib.h>

#include "fuzz.h"

static int run(const char *path)
{
	g_autofree char *data = NULL;
	gsize len;
	g_autoptr(GError) err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		fprintf(stderr, "fuzz-main: %s\n", err->message);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	return 0;
}

int main(int argc, char **argv)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
			if (run(argv[i]))
				return 1;
			n++;
			continue;
		}
		g_autoptr(GDir) dir = g_dir_open(argv[i], 0, NULL);
		const char *name;
		while (dir && (name = g_dir_read_name(dir))) {
			g_autofree char *path = g_build_filename(argv[i], name, NULL);
			if (run(path))
				return 1;
			n++;
		}
	}
	printf("%s: %d inputs replayed\n", argv[0], n);
	return 0;
}
