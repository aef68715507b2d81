/* A request file queued in a ladder's inbox (ladder/inbox.h). */
#include <glib.h>

#include "fuzz.h"
#include "ladder/inbox.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	LadderRequest *r = ladder_request_read(fuzz_file(data, size), NULL);

	ladder_request_free(r);
	return 0;
}
