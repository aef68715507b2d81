/* `referee check --json`'s report, as the ladder's admission reads it
 * back from its child (referee/check.h). */
#include <glib.h>

#include "fuzz.h"
#include "referee/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *stopped = NULL;
	CheckReport *r = check_report_from_json((const char *)data, size, &stopped, NULL);

	if (r) {
		/* what the ladder does with it: every item's text */
		char *again = check_report_json(r, NULL);
		g_free(again);
	}
	check_report_free(r);
	g_free(stopped);
	return 0;
}
