/*
 * usage: what the --help texts share (see usage.h).
 */
#include "usage.h"

#include <string.h>

#include "game.h"
#include "variant.h"

void usage_describe(GOptionContext *ctx, const char *text, gboolean variants, gboolean time)
{
	g_autoptr(GString) s = g_string_new(text);

	if (variants) {
		g_string_append(s, "\n\nVariants (seats; options KEY=DEFAULT [MIN..MAX]):\n");
		for (const Variant *const *v = variant_all(); *v; v++) {
			gsize line = s->len;
			g_string_append_printf(s, "  %-8s %d-%d players", (*v)->name, (*v)->min_players,
					       (*v)->max_players);
			for (int i = 0; i < (*v)->n_options; i++) {
				const VariantOption *o = &(*v)->options[i];
				g_autofree char *item = g_strdup_printf("%s=%d [%d..%d]", o->key, o->def, o->min, o->max);
				g_string_append(s, i ? "," : ";");
				/* lines of at most 80 columns, continued under the first */
				if (s->len - line + 1 + strlen(item) > 80) {
					g_string_append(s, "\n           ");
					line = s->len - 12;
				}
				g_string_append_printf(s, " %s", item);
			}
			g_string_append_c(s, '\n');
		}
	}
	if (time)
		g_string_append_printf(s,
			"%sTime control (--time KEY:MS,...: any of these keys, in any order, each\n"
			"0..%" G_GINT64_FORMAT " ms; shown with its default):\n"
			"  bank:60000 inc:1000 move:5000 start:10000 grace:50 (at least %d)\n"
			"  game:0 (the whole game's limit, 0: none)\n",
			variants ? "\n" : "\n\n", G_GINT64_CONSTANT(1) << 40, GAME_GRACE_MIN);
	g_option_context_set_description(ctx, s->str);
}
