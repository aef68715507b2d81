/* A submitted bot directory's manifest.ini (ladder/manifest.h). */
#include <glib.h>

#include "fuzz.h"
#include "ladder/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	LadderManifest *m = ladder_manifest_read(fuzz_file(data, size), NULL);

	ladder_manifest_free(m);
	return 0;
}
