/*
 * game-result: the end of a game: the result line built and logged, said
 * to every bot with `quit` (or not, for a healthy `multi` bot handed back),
 * the bots given a moment to exit, and the GameResult filled. An aborted
 * game (game.h, abort_fd) logs its result as the state stands and tells
 * the bots nothing: game_run() kills them.
 */
#include <string.h>

#include "game-int.h"

void game_finish(Game *g, GameResult *result)
{
	const GameSpec *spec = g->spec;
	int scores[VARIANT_MAX_PLAYERS], ranks[VARIANT_MAX_PLAYERS];
	int live = 0;

	g->v->scores(g->state, scores);
	g->v->ranking(g->state, ranks);
	for (int p = 0; p < g->n; p++)
		if (!g->seat[p].out)
			live++;
	if (result->end == GAME_END_RULES && live == 0)
		result->end = GAME_END_FAULTS;
	const char *faults[VARIANT_MAX_PLAYERS];
	for (int p = 0; p < g->n; p++)
		faults[p] = g->seat[p].first_fault < 0 ? NULL : protocol_fault_name(g->seat[p].first_fault);
	char extra[1024] = "";
	if (g->v->result_extra) {
		Text t;
		text_init(&t, extra, sizeof(extra));
		g->v->result_extra(g->state, &t);
	}
	g_autofree char *fields = protocol_result_fields(g->n, ranks, scores, faults, extra,
							 game_end_name(result->end));
	g_autofree char *line = protocol_result_line(fields);
	game_log_event(g, GAMELOG_RESULT, -1, fields);

	gint64 deadline = g_get_monotonic_time() + GAME_QUIT_GRACE_MS * 1000;
	gboolean keep[VARIANT_MAX_PLAYERS] = {0};
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		/* aborted: nothing more is said; the bots are killed (game_run) */
		if (!s->bot || g->aborted)
			continue;
		game_queue(g, p, line);
		keep[p] = spec->keep_bots && bot_multi(s->bot) && s->first_fault < 0 && !s->awaiting &&
			  s->stale == 0;
		if (!keep[p])
			game_queue(g, p, protocol_quit());
		/* The last lines may wait for room until the grace runs out. */
		if (game_flush(g, p) && s->pending->len &&
		    bot_write(s->bot, s->pending->str, s->pending->len, deadline) == BOT_WRITE_OK)
			g_string_truncate(s->pending, 0);
	}
	/* Let the bots exit on their own, then kill whatever is left. */
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].bot && !keep[p] && !g->aborted)
			bot_wait_exit(g->seat[p].bot, deadline);
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].info_dropped)
			gamelog_write_comment(g->log, "seat %d: %d info lines over %d per move not logged", p,
				   g->seat[p].info_dropped, GAME_INFO_MAX);
	for (int p = 0; p < g->n; p++)
		if (g->seat[p].text_dropped)
			gamelog_write_comment(g->log, "seat %d: %d lines past the %d bytes of bot text a game logs, not logged",
				   p, g->seat[p].text_dropped, GAME_TEXT_MAX);
	gamelog_write_end(g->log);

	result->nseats = g->n;
	result->plies = g->plies;
	result->log_path = g_strdup(spec->log_path);
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		GameSeatResult *r = &result->seat[p];
		r->name = g_strdup(s->name);
		r->hello = g_strdup(s->hello);
		r->score = scores[p];
		r->rank = ranks[p];
		memcpy(r->faults, s->faults, sizeof(r->faults));
		r->first_fault = s->first_fault;
		r->moves = s->moves;
		r->mean_ms = s->moves ? s->total_ms / s->moves : 0;
		r->max_ms = s->max_ms;
		r->cpu_ms = s->cpu_ms;
		if (keep[p]) {
			r->bot = s->bot;
			s->bot = NULL;
		}
	}
}

void game_result_clear(GameResult *result)
{
	for (int i = 0; i < result->nseats; i++) {
		g_free(result->seat[i].name);
		g_free(result->seat[i].hello);
		bot_free(result->seat[i].bot);
	}
	g_free(result->log_path);
	memset(result, 0, sizeof(*result));
}
