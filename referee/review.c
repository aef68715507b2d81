/* review: our AI as a coach. See review.h. */
#include "review.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "botspec.h"
#include "position.h"
#include "protocol.h"
#include "variant.h"

#define REVIEW_WAIT_MS 60000	/* an analysis is awaited this long at most */

G_DEFINE_QUARK(tetrarena-review-error-quark, review_error)

/* Our AIs that analyse, by variant. */
static const struct {
	const char *variant, *program;
} review_ais[] = {
	{"link", "bot-link"},
	{"tetroll", "bot-tetroll"},
};

void review_step_free(ReviewStep *s)
{
	if (!s)
		return;
	g_free(s->played);
	g_free(s->choice);
	g_free(s->why);
	g_free(s);
}

void review_free(Review *r)
{
	if (!r)
		return;
	g_free(r->ai);
	g_free(r->unit);
	if (r->steps)
		g_ptr_array_unref(r->steps);
	g_free(r);
}

const char *review_variants(void)
{
	return "link, tetroll";
}

char *review_ai_command(const char *variant, const char *dir)
{
	for (size_t i = 0; i < G_N_ELEMENTS(review_ais); i++)
		if (!g_strcmp0(variant, review_ais[i].variant)) {
			g_autofree char *path = g_build_filename(dir, review_ais[i].program, NULL);
			g_autofree char *quoted = g_shell_quote(path);
			return g_strconcat(quoted, " --analyse", NULL);
		}
	return NULL;
}

/* The `info analyse` line among a decision's other lines, or NULL. */
static const char *analysis_line(const PositionStep *p)
{
	for (guint i = 0; i < p->said->len; i++) {
		const char *line = g_ptr_array_index(p->said, i);
		if (protocol_info_analysis(line))
			return line;
	}
	return NULL;
}

/*
 * Read the analysis of the decision p into s: the values of the AI's
 * choice and of the played move, parsed as moves of the `go`'s state so
 * that two notations of one move agree. *unit takes the line's unit (if
 * none yet). FALSE, with s->why, when it is missing or does not hold
 * both moves.
 */
static gboolean read_analysis(const GameLog *log, int seat, const PositionStep *p, ReviewStep *s, char **unit)
{
	const Variant *v = log->variant;
	const char *line = analysis_line(p), *st;
	long ms, bank;
	g_autofree void *state = g_malloc0(v->state_size);
	Move choice = 0, played = 0;

	if (!line) {
		s->why = g_strdup("the AI wrote no analysis");
		return FALSE;
	}
	if (!protocol_parse_go(p->go, &ms, &bank, &st) || !v->state_parse(state, &log->config, st)) {
		s->why = g_strdup("the `go` line's state does not parse");
		return FALSE;
	}
	gboolean have_choice = s->choice && v->move_parse(state, seat, s->choice, &choice);
	gboolean have_played = s->played && v->move_parse(state, seat, s->played, &played);
	gboolean choice_seen = FALSE, played_seen = FALSE;
	g_auto(GStrv) words = g_strsplit(protocol_info_analysis(line), " ", -1);
	g_autoptr(GArray) values = g_array_new(FALSE, FALSE, sizeof(double));
	for (int i = 0; words[i]; i++) {
		char *eq = strrchr(words[i], '=');
		if (!eq || eq == words[i])
			continue;
		*eq = '\0';
		if (!strcmp(words[i], "unit")) {
			if (!*unit && eq[1])
				*unit = g_strdup(eq + 1);
			continue;
		}
		char *end = NULL;
		errno = 0;
		double x = g_ascii_strtod(eq + 1, &end);
		Move m;
		if (errno || end == eq + 1 || *end || !isfinite(x) || !v->move_parse(state, seat, words[i], &m))
			continue;
		g_array_append_val(values, x);
		if (have_choice && m == choice && !choice_seen) {
			s->choice_value = x;
			choice_seen = TRUE;
		}
		if (have_played && m == played && !played_seen) {
			s->played_value = x;
			played_seen = TRUE;
		}
	}
	s->moves = (int)values->len;
	if (!choice_seen || !played_seen) {
		s->why = g_strdup(!have_played ? "no move was played"
				  : !played_seen ? "the AI did not value the played move"
						 : "the AI did not value its own choice");
		return FALSE;
	}
	s->valued = TRUE;
	s->cost = MAX(0.0, s->choice_value - s->played_value);
	s->rank = 1;
	for (guint i = 0; i < values->len; i++)
		s->rank += g_array_index(values, double, i) > s->played_value;
	return TRUE;
}

typedef struct {
	void (*progress)(int step, int count, void *data);
	void *data;
} Progress;

static void on_step(int step, int count, void *data)
{
	const Progress *p = data;

	if (p->progress)
		p->progress(step, count, p->data);
}

Review *review_run(const GameLog *log, int seat, const char *command, SandboxMode mode,
		   void (*progress)(int step, int count, void *data), void *data, GError **error)
{
	g_autoptr(BotSpec) bs = bot_spec_new(command, "coach", error);
	if (!bs)
		return NULL;
	Progress pr = {progress, data};
	PositionOptions opt = {.min_ms = REVIEW_WAIT_MS, .progress = on_step, .data = &pr};
	g_autoptr(GPtrArray) asked = position_run_with(log, seat, 0, bs, mode, &opt, error);
	if (!asked)
		return NULL;
	g_autoptr(Review) r = g_new0(Review, 1);
	r->seat = seat;
	r->ai = g_strdup(command);
	r->steps = g_ptr_array_new_with_free_func((GDestroyNotify)review_step_free);
	int valued = 0;
	g_autofree char *first_why = NULL;
	for (guint i = 0; i < asked->len; i++) {
		const PositionStep *p = g_ptr_array_index(asked, i);
		ReviewStep *s = g_new0(ReviewStep, 1);
		g_ptr_array_add(r->steps, s);
		s->step = p->step;
		s->lineno = p->lineno;
		s->played = g_strdup(p->played);
		s->choice = g_strdup(p->answer);
		if (!p->answer)
			s->why = g_strdup_printf("the AI gave no move: %s", p->why ? p->why : "?");
		else
			valued += read_analysis(log, seat, p, s, &r->unit);
		if (s->why && !first_why)
			first_why = g_strdup(s->why);
	}
	if (valued == 0) {
		g_set_error(error, review_error_quark(), 1, "%s: the AI (%s) valued none of seat %d's %u decisions%s%s",
			    log->path, command, seat, r->steps->len, first_why ? ": " : "", first_why ? first_why : "");
		return NULL;
	}
	return g_steal_pointer(&r);
}
