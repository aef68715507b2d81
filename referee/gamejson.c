/*
 * gamejson: a game's result as JSON. See gamejson.h.
 */
#include "gamejson.h"

#include "json.h"

char *gamejson_result(const GameSpec *spec, const GameResult *result)
{
	g_autoptr(GString) s = g_string_new(NULL);

	g_string_append_printf(s, "{\"variant\":\"%s\",\"seed\":%" G_GUINT64_FORMAT ",\"reason\":\"%s\",\"seats\":[",
			       spec->variant->name, spec->seed, game_end_name(result->end));
	for (int p = 0; p < result->nseats; p++) {
		const GameSeatResult *r = &result->seat[p];
		g_string_append_printf(s, "%s{\"seat\":%d,\"name\":", p ? "," : "", p);
		json_string(s, r->name);
		g_string_append_printf(s, ",\"score\":%d,\"rank\":%d,\"faults\":{", r->score, r->rank);
		gboolean first = TRUE;
		for (int f = 0; f < GAME_FAULT_COUNT; f++)
			if (r->faults[f]) {
				g_string_append_printf(s, "%s\"%s\":%d", first ? "" : ",", game_fault_name(f),
						       r->faults[f]);
				first = FALSE;
			}
		g_string_append(s, "},\"moves\":");
		g_string_append_printf(s, "%d,\"mean_ms\":", r->moves);
		json_double(s, r->mean_ms, 3);
		g_string_append(s, ",\"max_ms\":");
		json_double(s, r->max_ms, 3);
		g_string_append_c(s, '}');
	}
	g_string_append(s, "],\"log\":");
	json_string(s, result->log_path);
	g_string_append_c(s, '}');
	return g_string_free(g_steal_pointer(&s), FALSE);
}
