/*
 * replay-json: the replay as JSON, for view --html and the live pages
 * (replay_json(), ReplayFeed; see replay.h), built by stepping through the
 * log as verify does (replay-int.h).
 */
#include <string.h>

#include <glib.h>

#include "drawing.h"
#include "game.h"
#include "json.h"
#include "protocol.h"
#include "replay-int.h"
#include "text.h"

/* ---- the replay as JSON, for view --html ------------------------------ */

/* Append the board (the variant's picture, with its colours) and scores. */
static void json_board(Replay *r, GString *s)
{
	int scores[VARIANT_MAX_PLAYERS];
	Text t;

	text_init(&t, r->text, sizeof(r->text));
	r->v->render(r->state, true, &t);
	g_string_append(s, "\"b\":");
	json_string(s, r->text);
	r->v->scores(r->state, scores);
	g_string_append(s, ",\"sc\":[");
	for (int p = 0; p < r->log->config.nplayers; p++)
		g_string_append_printf(s, "%s%d", p ? "," : "", scores[p]);
	g_string_append_c(s, ']');
	drawing_step(&r->drawing, r->v, r->state, s);
}

/* One note for the next step: what happened between two boards. */
static void json_note(GString *notes, int seat, const char *kind, const char *text)
{
	g_string_append_printf(notes, "%s{\"s\":%d,\"k\":\"%s\",\"t\":", notes->len ? "," : "", seat, kind);
	json_string(notes, text ? text : "");
	g_string_append_c(notes, '}');
}

/* chunks[at] = cur's text (NULL when empty); cur emptied. */
static void put_chunk(GPtrArray *chunks, int at, GString *cur)
{
	while ((int)chunks->len <= at)
		g_ptr_array_add(chunks, NULL);
	g_free(chunks->pdata[at]);
	chunks->pdata[at] = cur->len ? g_strdup(cur->str) : NULL;
	g_string_truncate(cur, 0);
}

/*
 * Seat p's stderr file beside the log (LOG.seatP.stderr), cut at its
 * BOT_STDERR_MARK lines: element K (char*, or NULL) is what it wrote for
 * its K-th `go`, element 0 what came before the first. NULL when there is
 * no file or it is empty.
 */
static GPtrArray *stderr_chunks(const GameLog *log, int p)
{
	g_autofree char *path = g_strdup_printf("%s.seat%d.stderr", log->path, p);
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!log->path || !g_file_get_contents(path, &text, &len, NULL) || len == 0)
		return NULL;
	GPtrArray *chunks = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) cur = g_string_new(NULL);
	int at = 0;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		int go = 0, end = 0;
		if (sscanf(lines[i], BOT_STDERR_MARK "%n", &go, &end) == 1 && end > 0 && !lines[i][end] &&
		    go > at && go < 1000000) {
			put_chunk(chunks, at, cur);
			at = go;
			continue;
		}
		if (!lines[i + 1] && !lines[i][0])
			break;	/* the newline that ends the file */
		g_string_append_printf(cur, "%s%s", cur->len ? "\n" : "", lines[i]);
	}
	put_chunk(chunks, at, cur);
	return chunks;
}

/* Notes of seat p's stderr chunks from *next up to `upto` (included). */
static void stderr_notes(GString *notes, GPtrArray *chunks, int p, int *next, int upto)
{
	for (; chunks && *next <= upto && *next < (int)chunks->len; (*next)++) {
		const char *t = g_ptr_array_index(chunks, *next);
		if (t)
			json_note(notes, p, "stderr", t);
	}
}

/* Append one step: what happened (kind, seat, notation), each seat's time
 * for it, the faults and notes since the last step, and the board after. */
static void json_step(Replay *r, GString *s, const char *kind, const GameLogEvent *e, double *ms,
		      GString *faults, GString *notes)
{
	const gboolean notation = e && e->text && e->kind != GAMELOG_HALT && e->kind != GAMELOG_JOINT;

	g_string_append_printf(s, "{\"k\":\"%s\",\"s\":%d,\"t\":", kind, e ? e->seat : -1);
	json_string(s, notation ? e->text : "");
	g_string_append(s, ",\"ms\":[");
	for (int p = 0; p < r->log->config.nplayers; p++) {
		if (p)
			g_string_append_c(s, ',');
		if (ms[p] < 0)
			g_string_append(s, "null");
		else
			json_double(s, ms[p], 3);
		ms[p] = -1;
	}
	g_string_append_printf(s, "],\"f\":[%s],\"n\":[%s],", faults->str, notes->str);
	g_string_truncate(faults, 0);
	g_string_truncate(notes, 0);
	json_board(r, s);
	g_string_append_c(s, '}');
}

struct ReplayFeed {
	Replay r;
	double ms[VARIANT_MAX_PLAYERS];
	GString *notes, *faults;
	GPtrArray *errs[VARIANT_MAX_PLAYERS];	/* stderr chunks, or NULL */
	int gos[VARIANT_MAX_PLAYERS], errnext[VARIANT_MAX_PLAYERS];
	char *result;		/* the result line's fields, once seen */
	gboolean failed;
};

ReplayFeed *replay_feed_new(const GameLog *log, gboolean with_stderr, char **header, char **start)
{
	const Variant *v = log->variant;
	const int n = log->config.nplayers;
	ReplayFeed *f = g_new0(ReplayFeed, 1);
	Replay *r = &f->r;
	GString *s = g_string_new(NULL);

	replay_init(r, log);
	f->notes = g_string_new(NULL);
	f->faults = g_string_new(NULL);
	g_string_append(s, "{\"variant\":");
	json_string(s, v->name);
	g_string_append(s, ",\"title\":");
	json_string(s, v->title);
	g_string_append(s, ",\"options\":\"");
	for (int i = 0; i < v->n_options; i++)
		g_string_append_printf(s, "%s%s=%d", i ? "," : "", v->options[i].key, log->config.opt[i]);
	g_string_append_printf(s, "\",\"seed\":\"%" G_GUINT64_FORMAT "\",\"players\":%d,\"policy\":\"%s\","
			       "\"lower_score_wins\":%s,\"log\":",
			       log->seed, n, gamelog_policy_name(log->policy), v->lower_score_wins ? "true" : "false");
	json_string(s, log->path);
	g_string_append(s, ",\"bots\":[");
	for (int p = 0; p < n; p++) {
		g_string_append(s, p ? ",{\"name\":" : "{\"name\":");
		json_string(s, log->name[p]);
		g_string_append(s, ",\"sha256\":");
		json_string(s, log->sha256[p]);
		g_string_append(s, ",\"command\":");
		json_string(s, log->command[p]);
		g_autofree char *tc = timectl_format(gamelog_seat_time(log, p));
		g_string_append(s, ",\"time\":");
		json_string(s, tc);
		g_string_append_c(s, '}');
	}
	g_string_append_c(s, ']');
	drawing_layout(v, r->state, s);
	drawing_init(&r->drawing, v, r->state);
	g_string_append_c(s, '}');
	*header = g_string_free(s, FALSE);
	s = g_string_new("{\"k\":\"start\",\"s\":-1,\"t\":\"\",");
	json_board(r, s);
	g_string_append_c(s, '}');
	*start = g_string_free(s, FALSE);
	for (int p = 0; p < n; p++) {
		f->ms[p] = -1;
		f->errs[p] = with_stderr ? stderr_chunks(log, p) : NULL;
	}
	return f;
}

gboolean replay_feed_event(ReplayFeed *f, const GameLogEvent *e, char **step, GError **error)
{
	Replay *r = &f->r;
	GString *notes = f->notes;
	const char *kind = NULL;

	*step = NULL;
	if (f->failed || !replay_step(r, e, error)) {
		if (!f->failed && error && !*error)
			g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INVALID, "the game does not replay");
		f->failed = TRUE;
		return FALSE;
	}
	switch (e->kind) {
	case GAMELOG_CHANCE: kind = "chance"; break;
	case GAMELOG_MOVE: kind = gamelog_kind_name(e->kind); f->ms[e->seat] = e->wall_ms; break;
	case GAMELOG_RANDOM: kind = "random"; break;
	case GAMELOG_JOINT: kind = "round"; break;
	case GAMELOG_HALT: kind = "halt"; break;
	case GAMELOG_SUBMIT:
		f->ms[e->seat] = e->wall_ms;
		json_note(notes, e->seat, "submit", e->text);
		break;
	case GAMELOG_SUBMIT_RANDOM: json_note(notes, e->seat, "submit-random", e->text); break;
	case GAMELOG_MISSING: json_note(notes, e->seat, "missing", ""); break;
	case GAMELOG_REJECTED: json_note(notes, e->seat, gamelog_kind_name(e->kind), e->text); break;
	case GAMELOG_RETIRE: json_note(notes, e->seat, "retire", ""); break;
	case GAMELOG_OUT: json_note(notes, e->seat, "out", ""); break;
	case GAMELOG_SIDE: json_note(notes, e->seat, "side", e->text); break;
	case GAMELOG_FAULT:
		json_note(notes, e->seat, "fault", e->text);
		g_string_append_printf(f->faults, "%s%d", f->faults->len ? "," : "", e->seat);
		break;
	case GAMELOG_SENT:
		if (protocol_verb(e->text) == PROTOCOL_GO)
			f->gos[e->seat]++;
		break;
	case GAMELOG_RECEIVED:
		if (protocol_verb(e->text) == PROTOCOL_INFO && e->text[4] == ' ')
			json_note(notes, e->seat, protocol_verb_name(PROTOCOL_INFO), e->text);
		/* what it wrote on stderr up to this answer goes with it */
		if (protocol_verb(e->text) == PROTOCOL_MOVE)
			stderr_notes(notes, f->errs[e->seat], e->seat, &f->errnext[e->seat], f->gos[e->seat]);
		break;
	case GAMELOG_RESULT:
		g_free(f->result);
		f->result = g_strdup(e->text);
		break;
	default:
		break;
	}
	if (kind) {
		GString *s = g_string_new(NULL);
		json_step(r, s, kind, e, f->ms, f->faults, notes);
		*step = g_string_free(s, FALSE);
	}
	return TRUE;
}

char *replay_feed_end(ReplayFeed *f)
{
	for (int p = 0; p < f->r.log->config.nplayers; p++)
		stderr_notes(f->notes, f->errs[p], p, &f->errnext[p], G_MAXINT);
	if (f->failed || (!f->notes->len && !f->faults->len))
		return NULL;
	GString *s = g_string_new(NULL);
	json_step(&f->r, s, "end", NULL, f->ms, f->faults, f->notes);
	return g_string_free(s, FALSE);
}

const char *replay_feed_result(const ReplayFeed *f)
{
	return f->result;
}

void replay_feed_free(ReplayFeed *f)
{
	if (!f)
		return;
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++)
		if (f->errs[p])
			g_ptr_array_unref(f->errs[p]);
	replay_release(&f->r);
	g_string_free(f->notes, TRUE);
	g_string_free(f->faults, TRUE);
	g_free(f->result);
	g_free(f);
}

char *replay_json(const GameLog *log, GError **error)
{
	char *header = NULL, *start = NULL;
	ReplayFeed *f = replay_feed_new(log, TRUE, &header, &start);
	GString *s = g_string_new(header);
	gboolean ok = TRUE;

	g_string_truncate(s, s->len - 1);	/* the header's '}': the steps follow */
	g_string_append(s, ",\"steps\":[");
	g_string_append(s, start);
	g_free(header);
	g_free(start);
	for (guint i = 0; ok && i < log->events->len; i++) {
		char *step = NULL;
		ok = replay_feed_event(f, g_ptr_array_index(log->events, i), &step, error);
		if (step) {
			g_string_append_c(s, ',');
			g_string_append(s, step);
			g_free(step);
		}
	}
	char *last = ok ? replay_feed_end(f) : NULL;
	if (last) {
		g_string_append_c(s, ',');
		g_string_append(s, last);
		g_free(last);
	}
	g_string_append(s, "],\"result\":");
	json_string(s, f->result);
	if (ok)
		ok = replay_finish(&f->r, error);
	replay_feed_free(f);
	if (!ok) {
		g_string_free(s, TRUE);
		return NULL;
	}
	g_string_append_c(s, '}');
	return g_string_free(s, FALSE);
}
