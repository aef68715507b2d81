/* humanview, the terminal player's text: the first line is a `go` state
 * (described for every variant and every seat 0-3), the second a `moves`
 * list (grouped, each group written, the pieces drawn), the rest a board
 * picture (fitted to 1 to 30 lines); everything escaped. */
#include <string.h>

#include <glib.h>

#include "fuzz.h"
#include "referee/humanview.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = g_strndup((const char *)data, size);
	char *moves = strchr(text, '\n');
	char *pic = moves ? strchr(moves + 1, '\n') : NULL;

	if (moves)
		*moves++ = '\0';
	if (pic)
		*pic++ = '\0';
	g_autoptr(GString) out = g_string_new(NULL);
	for (const Variant *const *v = variant_all(); *v; v++)
		for (int seat = 0; seat < 4; seat++)
			humanview_describe(out, *v, seat, text);
	g_auto(GStrv) mv = g_strsplit(moves ? moves : "", " ", -1);
	int n = (int)g_strv_length(mv);
	GArray *groups = humanview_groups(mv, n, NULL);
	for (guint i = 0; i < groups->len; i++)
		humanview_group_line(out, mv, &g_array_index(groups, HumanGroup, i), 20 + (int)i % 100);
	humanview_pictures(out, (const HumanGroup *)(void *)groups->data, (int)groups->len, 80);
	g_array_unref(groups);
	for (int lines = 1; lines <= 30; lines += 7)
		g_free(humanview_fit(pic ? pic : "", lines));
	g_free(humanview_escape(text));
	return 0;
}
