/* timectl: time controls. */
#include "timectl.h"

#include <string.h>

G_DEFINE_QUARK(tetrarena-timectl-error-quark, timectl_error)

void timectl_default(TimeControl *tc)
{
	tc->bank = 60000;
	tc->inc = 1000;
	tc->move = 5000;
	tc->start = 10000;
	tc->grace = 50;
	tc->game = 0;
}

gboolean timectl_parse(TimeControl *tc, const char *spec, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(spec, ",", -1);

	for (int i = 0; parts[i]; i++) {
		const char *colon = strchr(parts[i], ':');
		if (!colon)
			colon = strchr(parts[i], '=');
		if (!colon) {
			g_set_error(error, TIMECTL_ERROR, TIMECTL_ERROR_PARSE,
				    "time control '%s': expected KEY:MS in '%s'", spec, parts[i]);
			return FALSE;
		}
		g_autofree char *key = g_strndup(parts[i], (gsize)(colon - parts[i]));
		gint64 v;
		g_autoptr(GError) err = NULL;
		if (!g_ascii_string_to_signed(colon + 1, 10, 0, G_GINT64_CONSTANT(1) << 40, &v, &err)) {
			g_set_error(error, TIMECTL_ERROR, TIMECTL_ERROR_PARSE,
				    "time control '%s': %s: %s", spec, key, err->message);
			return FALSE;
		}
		if (strcmp(key, "bank") == 0)
			tc->bank = v;
		else if (strcmp(key, "inc") == 0)
			tc->inc = v;
		else if (strcmp(key, "move") == 0)
			tc->move = v;
		else if (strcmp(key, "start") == 0)
			tc->start = v;
		else if (strcmp(key, "grace") == 0)
			tc->grace = v;
		else if (strcmp(key, "game") == 0)
			tc->game = v;
		else {
			g_set_error(error, TIMECTL_ERROR, TIMECTL_ERROR_PARSE,
				    "time control '%s': unknown key '%s' (bank, inc, move, start, grace, game)",
				    spec, key);
			return FALSE;
		}
	}
	return TRUE;
}

char *timectl_format(const TimeControl *tc)
{
	return g_strdup_printf("bank:%" G_GINT64_FORMAT ",inc:%" G_GINT64_FORMAT ",move:%" G_GINT64_FORMAT
			       ",start:%" G_GINT64_FORMAT, tc->bank, tc->inc, tc->move, tc->start);
}

char *timectl_format_full(const TimeControl *tc)
{
	g_autofree char *base = timectl_format(tc);

	return g_strdup_printf("%s,grace:%" G_GINT64_FORMAT ",game:%" G_GINT64_FORMAT, base, tc->grace,
			       tc->game);
}

void timectl_scale(TimeControl *tc, double scale)
{
	tc->bank = (gint64)(tc->bank * scale);
	tc->inc = (gint64)(tc->inc * scale);
	tc->move = (gint64)(tc->move * scale);
	tc->start = (gint64)(tc->start * scale);
	tc->grace = (gint64)(tc->grace * scale);
	tc->game = (gint64)(tc->game * scale);
}
