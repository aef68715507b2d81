/*
 * standings: totals, ratings, crosstable and their three renderings (see
 * standings.h).
 */
#include "tournaments/standings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/variant.h"

#define FAULTED_SHOWN 20	/* faulted games listed in the text */

static int nbots_of(const JournalHeader *h)
{
	return (int)g_strv_length(h->bots);
}

/* Add "kind:n+kind:n" to a bot's fault counts. */
static int add_faults(StandingsBot *b, const char *list)
{
	g_auto(GStrv) items = NULL;
	int total = 0;

	if (!list[0])
		return 0;
	items = g_strsplit(list, "+", -1);
	for (int i = 0; items[i]; i++) {
		char *colon = strrchr(items[i], ':');
		guint64 n = 1;

		if (colon) {
			*colon = '\0';
			if (!g_ascii_string_to_unsigned(colon + 1, 10, 1, 1000000, &n, NULL))
				n = 1;
		}
		g_hash_table_replace(b->fault_kinds, g_strdup(items[i]),
				     GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(b->fault_kinds, items[i])) + (int)n));
		total += (int)n;
	}
	return total;
}

/* Solo play: one virtual game per round, ranked by score. */
static GArray *solo_rankings(const Standings *s, gboolean lower_wins)
{
	GArray *out = g_array_new(FALSE, TRUE, sizeof(RatingsGame));
	g_autoptr(GHashTable) by_round = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_autoptr(GArray) rounds = g_array_new(FALSE, FALSE, sizeof(int));

	for (guint i = 0; i < s->games->len; i++) {
		const JournalGame *g = g_ptr_array_index(s->games, i);
		GPtrArray *list = g_hash_table_lookup(by_round, GINT_TO_POINTER(g->round + 1));

		if (!list) {
			list = g_ptr_array_new();
			g_hash_table_insert(by_round, GINT_TO_POINTER(g->round + 1), list);
			g_array_append_val(rounds, g->round);
		}
		g_ptr_array_add(list, (gpointer)g);
	}
	/* Rounds in ascending order: the games came sorted by id, and ids run
	 * round-major. */
	for (guint r = 0; r < rounds->len; r++) {
		GPtrArray *list = g_hash_table_lookup(by_round, GINT_TO_POINTER(g_array_index(rounds, int, r) + 1));
		/* A round of more than VARIANT_MAX_PLAYERS bots is split into
		 * chunks of consecutive games. */
		for (guint start = 0; start < list->len; start += VARIANT_MAX_PLAYERS) {
			RatingsGame rg = { 0 };

			for (guint k = start; k < list->len && k < start + VARIANT_MAX_PLAYERS; k++) {
				const JournalGame *g = g_ptr_array_index(list, k);

				rg.bot[rg.n++] = g->bot[0];
			}
			for (int a = 0; a < rg.n; a++) {
				const JournalGame *ga = g_ptr_array_index(list, start + a);

				rg.rank[a] = 1;
				for (int b = 0; b < rg.n; b++) {
					const JournalGame *gb = g_ptr_array_index(list, start + b);

					if (lower_wins ? gb->seat[0].score < ga->seat[0].score
						       : gb->seat[0].score > ga->seat[0].score)
						rg.rank[a]++;
				}
			}
			if (rg.n >= 2)
				g_array_append_val(out, rg);
		}
		g_ptr_array_free(list, TRUE);
	}
	return out;
}

static void crosstable_add(Standings *s, const RatingsGame *rg)
{
	int n = s->nbots;

	for (int a = 0; a < rg->n; a++)
		for (int b = 0; b < rg->n; b++) {
			int i = rg->bot[a], j = rg->bot[b];
			double share;

			if (a == b)
				continue;
			share = rg->rank[a] < rg->rank[b] ? 1.0 : rg->rank[a] == rg->rank[b] ? 0.5 : 0.0;
			s->x_games[i * n + j]++;
			s->x_share[i * n + j] += share;
			/* at more seats: ahead of, level with, behind */
			if (share == 1.0)
				s->x_win[i * n + j]++;
			else if (share == 0.5)
				s->x_draw[i * n + j]++;
			else
				s->x_loss[i * n + j]++;
		}
}

static gint cmp_bots(gconstpointer pa, gconstpointer pb, gpointer data)
{
	const Standings *s = data;
	int a = *(const int *)pa, b = *(const int *)pb;
	double ea = s->ratings->elo[a], eb = s->ratings->elo[b];

	if (fabs(ea - eb) > 1e-9)
		return ea > eb ? -1 : 1;
	if (s->bot[a].points != s->bot[b].points)
		return s->bot[a].points > s->bot[b].points ? -1 : 1;
	return strcmp(s->bot[a].name, s->bot[b].name);
}

Standings *standings_new(const JournalHeader *header, GPtrArray *games, int bootstrap)
{
	Standings *s = g_new0(Standings, 1);

	s->notes = g_ptr_array_new_with_free_func(g_free);
	const Variant *v = variant_find(header->variant);
	gboolean lower_wins = v ? v->lower_score_wins : FALSE;
	gboolean two = header->nseats == 2;
	g_autoptr(GArray) rated = g_array_new(FALSE, TRUE, sizeof(RatingsGame));
	g_autofree double *ms_sum = NULL;
	g_autofree double *rank_sum = NULL;
	g_autofree double *score_sum = NULL;
	int n;

	journal_header_copy(&s->header, header);
	n = s->nbots = nbots_of(header);
	s->games = g_ptr_array_ref(games);
	s->ngames = (int)games->len;
	s->bot = g_new0(StandingsBot, n);
	s->x_win = g_new0(int, n * n);
	s->x_draw = g_new0(int, n * n);
	s->x_loss = g_new0(int, n * n);
	s->x_share = g_new0(double, n * n);
	s->x_games = g_new0(int, n * n);
	s->seat_score = g_new0(double, header->nseats);
	ms_sum = g_new0(double, n);
	rank_sum = g_new0(double, n);
	score_sum = g_new0(double, n);
	for (int i = 0; i < n; i++) {
		s->bot[i].name = s->header.bots[i];
		s->bot[i].fault_kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	}
	for (guint gi = 0; gi < games->len; gi++) {
		const JournalGame *g = g_ptr_array_index(games, gi);
		RatingsGame rg = { .n = g->nseats };

		if (g->sandbox >= 0 && g->sandbox < JOURNAL_SANDBOX_COUNT)
			s->sandbox[g->sandbox]++;

		for (int k = 0; k < g->nseats; k++) {
			const JournalSeat *seat = &g->seat[k];
			StandingsBot *b;

			if (g->bot[k] < 0 || g->bot[k] >= n)
				continue;
			b = &s->bot[g->bot[k]];
			b->games++;
			rank_sum[g->bot[k]] += seat->rank;
			score_sum[g->bot[k]] += seat->score;
			b->moves += seat->moves;
			ms_sum[g->bot[k]] += seat->mean_ms * seat->moves;
			b->max_ms = MAX(b->max_ms, seat->max_ms);
			b->faults += add_faults(b, seat->faults);
			rg.bot[k] = g->bot[k];
			rg.rank[k] = seat->rank;
			if (g->nseats >= 2) {
				double beaten = 0;

				for (int o = 0; o < g->nseats; o++)
					if (o != k)
						beaten += seat->rank < g->seat[o].rank ? 1.0 :
							  seat->rank == g->seat[o].rank ? 0.5 : 0.0;
				b->points += two ? beaten : beaten / (g->nseats - 1);
				if (two) {
					b->wins += beaten == 1.0;
					b->draws += beaten == 0.5;
					b->losses += beaten == 0.0;
				}
			}
		}
		if (g->nseats >= 2) {
			g_array_append_val(rated, rg);
			crosstable_add(s, &rg);
		}
	}
	for (int i = 0; i < n; i++) {
		StandingsBot *b = &s->bot[i];

		if (b->games) {
			b->mean_rank = rank_sum[i] / b->games;
			b->mean_score = score_sum[i] / b->games;
		}
		if (b->moves)
			b->mean_ms = ms_sum[i] / b->moves;
	}
	if (header->nseats >= 2) {
		ratings_seat_scores((RatingsGame *)rated->data, (int)rated->len,
				    header->nseats, s->seat_score);
	} else {
		g_autoptr(GArray) solo = solo_rankings(s, lower_wins);

		g_array_set_size(rated, 0);
		g_array_append_vals(rated, solo->data, solo->len);
		for (guint i = 0; i < solo->len; i++)
			crosstable_add(s, &g_array_index(solo, RatingsGame, i));
		for (int i = 0; i < n; i++)
			s->bot[i].points = 0;
		for (guint i = 0; i < solo->len; i++) {
			const RatingsGame *rg = &g_array_index(solo, RatingsGame, i);

			for (int a = 0; a < rg->n; a++) {
				double beaten = 0;

				for (int b = 0; b < rg->n; b++)
					if (a != b)
						beaten += rg->rank[a] < rg->rank[b] ? 1.0 :
							  rg->rank[a] == rg->rank[b] ? 0.5 : 0.0;
				s->bot[rg->bot[a]].points += beaten / (rg->n - 1);
			}
		}
		s->seat_score[0] = 0.5;
	}
	s->ratings = ratings_fit(n, (RatingsGame *)rated->data, (int)rated->len,
				 bootstrap, header->seed);
	s->order = g_new(int, n);
	for (int i = 0; i < n; i++)
		s->order[i] = i;
	g_qsort_with_data(s->order, n, sizeof(int), cmp_bots, s);
	if (header->sprt && n == 2 && header->nseats == 2) {
		SprtParams p;

		s->has_sprt = sprt_parse(header->sprt, &p, NULL);
		if (s->has_sprt) {
			g_autoptr(GArray) pairs = sprt_pairs(games);

			sprt_run(&p, (SprtPair *)pairs->data, (int)pairs->len, &s->sprt);
		}
	}
	return s;
}

void standings_add_note(Standings *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(s->notes, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

void standings_free(Standings *s)
{
	if (!s)
		return;
	g_ptr_array_unref(s->notes);
	for (int i = 0; i < s->nbots; i++)
		g_hash_table_unref(s->bot[i].fault_kinds);
	g_free(s->bot);
	g_free(s->order);
	ratings_free(s->ratings);
	g_free(s->seat_score);
	g_free(s->x_win);
	g_free(s->x_draw);
	g_free(s->x_loss);
	g_free(s->x_share);
	g_free(s->x_games);
	g_ptr_array_unref(s->games);
	journal_header_clear(&s->header);
	g_free(s);
}

/* "timeout:2 illegal:1", kinds sorted; "-" when none. */
static char *faults_text(const StandingsBot *b, const char *sep)
{
	g_autoptr(GList) keys = g_hash_table_get_keys(b->fault_kinds);
	GString *out = g_string_new(NULL);

	keys = g_list_sort(keys, (GCompareFunc)strcmp);
	for (GList *l = keys; l; l = l->next)
		g_string_append_printf(out, "%s%s:%d", out->len ? sep : "", (char *)l->data,
				       GPOINTER_TO_INT(g_hash_table_lookup(b->fault_kinds, l->data)));
	if (!out->len)
		g_string_append(out, "-");
	return g_string_free(out, FALSE);
}

static int name_width(const Standings *s)
{
	int w = 3;

	for (int i = 0; i < s->nbots; i++)
		w = MAX(w, (int)strlen(s->bot[i].name));
	return MIN(w, 24);
}

char *standings_sandbox_text(const Standings *s)
{
	const int *c = s->sandbox;
	int bare = c[JOURNAL_SANDBOX_OFF] + c[JOURNAL_SANDBOX_UNAVAILABLE];
	GString *t = g_string_new(NULL);

	if (bare) {
		g_string_append(t, "off");
		if (bare < s->ngames)
			g_string_append_printf(t, " in %d of %d games", bare, s->ngames);
		g_string_append(t, " (bots ran without a jail: ");
		if (c[JOURNAL_SANDBOX_UNAVAILABLE])
			g_string_append(t, "sandbox auto found no working bwrap");
		if (c[JOURNAL_SANDBOX_UNAVAILABLE] && c[JOURNAL_SANDBOX_OFF])
			g_string_append(t, "; ");
		if (c[JOURNAL_SANDBOX_OFF])
			g_string_append(t, "sandbox off was asked for");
		g_string_append(t, ")");
		if (c[JOURNAL_SANDBOX_ON])
			g_string_append_printf(t, ", on in %d", c[JOURNAL_SANDBOX_ON]);
	} else if (c[JOURNAL_SANDBOX_ON]) {
		g_string_append(t, "on (each bot in its own bwrap jail)");
		if (c[JOURNAL_SANDBOX_ON] < s->ngames)
			g_string_append_printf(t, " in %d of %d games", c[JOURNAL_SANDBOX_ON], s->ngames);
	} else {
		g_string_append(t, s->ngames ? "not recorded" : "no games yet");
	}
	if (c[JOURNAL_SANDBOX_UNKNOWN] && c[JOURNAL_SANDBOX_UNKNOWN] < s->ngames)
		g_string_append_printf(t, ", not recorded in %d", c[JOURNAL_SANDBOX_UNKNOWN]);
	return g_string_free(t, FALSE);
}

char *standings_text(const Standings *s, const char *outdir, const char *referee)
{
	GString *t = g_string_new(NULL);
	int n = s->nbots, w = name_width(s), k = s->header.nseats;
	int cw = CLAMP(w, 7, 10);	/* matrix columns */
	gboolean two = k == 2;
	int faulted = 0;
	g_autofree char *jail = standings_sandbox_text(s);

	g_string_append_printf(t, "%s: %d bots, %d of %d games, %d player%s per game, "
			       "master seed %" G_GUINT64_FORMAT "\nsandbox: %s\n\n",
			       s->header.variant, n, s->ngames, s->header.total, k, k == 1 ? "" : "s",
			       s->header.seed, jail);
	if (s->partial)
		g_string_append_printf(t, "PARTIAL: %d of %d games played; the run did not finish\n",
				       s->ngames, s->header.total);
	for (guint i = 0; i < s->notes->len; i++)
		g_string_append_printf(t, "note: %s\n", (char *)g_ptr_array_index(s->notes, i));
	if (s->partial || s->notes->len)
		g_string_append_c(t, '\n');
	g_string_append_printf(t, "  # %-*s   elo   95%% interval  games  points  %-11s  score  %-16s  ms/move   max ms\n",
			       w, "bot", two ? "W-D-L" : "mean rank", "faults");
	for (int r = 0; r < n; r++) {
		int i = s->order[r];
		const StandingsBot *b = &s->bot[i];
		g_autofree char *faults = faults_text(b, " ");
		g_autofree char *ci = g_strdup_printf("[%+.0f, %+.0f]", s->ratings->lo[i], s->ratings->hi[i]);
		/* (solo, every rank is 1: the mean score tells them apart) */
		g_autofree char *wdl = two ? g_strdup_printf("%d-%d-%d", b->wins, b->draws, b->losses)
				       : k == 1 ? g_strdup("-") : g_strdup_printf("%.2f", b->mean_rank);

		g_string_append_printf(t, "%3d %-*s %+5.0f  %-13s %6d %7.1f  %-11s %6.1f  %-16s %8.2f %8.1f\n",
				       r + 1, w, b->name, s->ratings->elo[i], ci, b->games, b->points,
				       wdl, b->mean_score, faults, b->mean_ms, b->max_ms);
	}
	if (s->has_sprt) {
		const SprtResult *r = &s->sprt;

		g_string_append_printf(t, "\nSPRT %s vs %s, elo [%g, %g], alpha %g, beta %g: LLR %.2f "
				       "(bounds %.2f, %.2f) after %d pairs, pentanomial %d-%d-%d-%d-%d: %s\n",
				       s->bot[0].name, s->bot[1].name, r->params.elo0, r->params.elo1,
				       r->params.alpha, r->params.beta, r->llr, r->lower, r->upper,
				       r->pairs, r->penta[0], r->penta[1], r->penta[2], r->penta[3],
				       r->penta[4], sprt_decision_name(r->decision));
	}
	if (k >= 2) {
		g_string_append(t, "\nSeat advantage:");
		for (int q = 0; q < k; q++)
			g_string_append_printf(t, " seat %d %.1f%%", q, 100 * s->seat_score[q]);
		if (two)
			g_string_append_printf(t, " (seat 0 %+.0f Elo)",
					       ratings_elo_of_score(s->seat_score[0]));
		g_string_append(t, " of opponents beaten\n");
	}
	if (n >= 2) {
		g_string_append_printf(t, "\nLikelihood of superiority (row stronger than column), %%:\n%*s",
				       w + 4, "");
		for (int c = 0; c < n; c++)
			g_string_append_printf(t, " %*.*s", cw, cw, s->bot[s->order[c]].name);
		g_string_append_c(t, '\n');
		for (int r = 0; r < n; r++) {
			int i = s->order[r];

			g_string_append_printf(t, "    %-*s", w, s->bot[i].name);
			for (int c = 0; c < n; c++) {
				int j = s->order[c];

				if (i == j)
					g_string_append_printf(t, " %*s", cw, "-");
				else
					g_string_append_printf(t, " %*.1f", cw, 100 * s->ratings->los[i * n + j]);
			}
			g_string_append_c(t, '\n');
		}
		g_string_append_printf(t, "\nCrosstable (%s, row against column):\n%*s",
				       two ? "W-D-L" : "% of games finishing ahead", w + 4, "");
		for (int c = 0; c < n; c++)
			g_string_append_printf(t, " %*.*s", cw, cw, s->bot[s->order[c]].name);
		g_string_append_c(t, '\n');
		for (int r = 0; r < n; r++) {
			int i = s->order[r];

			g_string_append_printf(t, "    %-*s", w, s->bot[i].name);
			for (int c = 0; c < n; c++) {
				int j = s->order[c], x = i * n + j;
				g_autofree char *cell = NULL;

				if (i == j || !s->x_games[x])
					cell = g_strdup("-");
				else if (two)
					cell = g_strdup_printf("%d-%d-%d", s->x_win[x], s->x_draw[x], s->x_loss[x]);
				else
					cell = g_strdup_printf("%.1f", 100 * s->x_share[x] / s->x_games[x]);
				g_string_append_printf(t, " %*s", cw, cell);
			}
			g_string_append_c(t, '\n');
		}
	}
	for (guint gi = 0; gi < s->games->len; gi++) {
		const JournalGame *g = g_ptr_array_index(s->games, gi);
		g_autofree char *log = NULL;
		int first = -1;

		for (int q = 0; q < g->nseats && first < 0; q++)
			if (g->seat[q].faults[0])
				first = q;
		if (first < 0)
			continue;
		if (faulted++ == 0)
			g_string_append(t, "\nFaulted games (the log, each faulty bot's stderr, the replay command):\n");
		if (faulted > FAULTED_SHOWN)
			continue;
		log = !g->log[0] ? g_strdup("-") :
		      g_path_is_absolute(g->log) ? g_strdup(g->log) :
		      g_build_filename(outdir, g->log, NULL);
		g_string_append_printf(t, "  game %d:", g->id);
		for (int q = first; q < g->nseats; q++)
			if (g->seat[q].faults[0])
				g_string_append_printf(t, " %s (seat %d) %s", s->bot[g->bot[q]].name, q,
						       g->seat[q].faults);
		g_string_append_printf(t, "\n    %s\n", log);
		for (int q = first; q < g->nseats; q++)
			if (g->seat[q].faults[0])
				g_string_append_printf(t, "    %s.seat%d.stderr\n", log, q);
		g_string_append_printf(t, "    %s rerun %s\n", referee, log);
	}
	if (faulted > FAULTED_SHOWN)
		g_string_append_printf(t, "  ... and %d more (see games.csv)\n", faulted - FAULTED_SHOWN);
	return g_string_free(t, FALSE);
}

static void json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(out, "\\%c", *p);
		else if ((guchar)*p < 0x20)
			g_string_append_printf(out, "\\u%04x", (guchar)*p);
		else
			g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

static void json_double(GString *out, double x)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%.4f", x));
}

static gboolean write_file(const char *path, GString *data, GError **error)
{
	return g_file_set_contents(path, data->str, (gssize)data->len, error);
}

char *standings_json(const Standings *s)
{
	g_autoptr(GString) j = g_string_new("{\n  \"variant\": ");
	g_autofree char *jail = standings_sandbox_text(s);
	int n = s->nbots;

	json_string(j, s->header.variant);
	g_string_append_printf(j, ",\n  \"players\": %d,\n  \"games\": %d,\n  \"total\": %d,\n"
			       "  \"seed\": %" G_GUINT64_FORMAT ",\n  \"sandbox\": { \"text\": ",
			       s->header.nseats, s->ngames, s->header.total, s->header.seed);
	json_string(j, jail);
	for (int m = 0; m < JOURNAL_SANDBOX_COUNT; m++)
		g_string_append_printf(j, ", \"%s\": %d", journal_sandbox_name(m), s->sandbox[m]);
	g_string_append_printf(j, " },\n  \"partial\": %s,\n  \"notes\": [", s->partial ? "true" : "false");
	for (guint i = 0; i < s->notes->len; i++) {
		g_string_append(j, i ? ", " : " ");
		json_string(j, g_ptr_array_index(s->notes, i));
	}
	g_string_append(j, s->notes->len ? " ],\n  \"bots\": [\n" : "],\n  \"bots\": [\n");
	for (int r = 0; r < n; r++) {
		int i = s->order[r];
		const StandingsBot *b = &s->bot[i];
		g_autoptr(GList) keys = g_hash_table_get_keys(b->fault_kinds);

		g_string_append(j, "    {\n      \"name\": ");
		json_string(j, b->name);
		g_string_append_printf(j, ",\n      \"rank\": %d,\n      \"games\": %d,\n      \"points\": ", r + 1, b->games);
		json_double(j, b->points);
		if (s->header.nseats == 2)
			g_string_append_printf(j, ",\n      \"wins\": %d,\n      \"draws\": %d,\n      \"losses\": %d",
					       b->wins, b->draws, b->losses);
		g_string_append(j, ",\n      \"mean_rank\": ");
		json_double(j, b->mean_rank);
		g_string_append(j, ",\n      \"mean_score\": ");
		json_double(j, b->mean_score);
		g_string_append(j, ",\n      \"elo\": ");
		json_double(j, s->ratings->elo[i]);
		g_string_append(j, ",\n      \"elo_low\": ");
		json_double(j, s->ratings->lo[i]);
		g_string_append(j, ",\n      \"elo_high\": ");
		json_double(j, s->ratings->hi[i]);
		g_string_append_printf(j, ",\n      \"faults\": %d,\n      \"fault_kinds\": {", b->faults);
		keys = g_list_sort(keys, (GCompareFunc)strcmp);
		for (GList *l = keys; l; l = l->next) {
			g_string_append(j, l == keys ? " " : ", ");
			json_string(j, l->data);
			g_string_append_printf(j, ": %d", GPOINTER_TO_INT(g_hash_table_lookup(b->fault_kinds, l->data)));
		}
		g_string_append_printf(j, "%s},\n      \"moves\": %d,\n      \"mean_ms\": ", keys ? " " : "", b->moves);
		json_double(j, b->mean_ms);
		g_string_append(j, ",\n      \"max_ms\": ");
		json_double(j, b->max_ms);
		g_string_append(j, ",\n      \"stronger_than\": {");
		for (int c = 0, first = 1; c < n; c++) {
			int o = s->order[c];

			if (o == i)
				continue;
			g_string_append(j, first ? " " : ", ");
			first = 0;
			json_string(j, s->bot[o].name);
			g_string_append(j, ": ");
			json_double(j, s->ratings->los[i * n + o]);
		}
		g_string_append(j, " },\n      \"crosstable\": {");
		for (int c = 0, first = 1; c < n; c++) {
			int o = s->order[c], x = i * n + o;

			if (o == i || !s->x_games[x])
				continue;
			g_string_append(j, first ? " " : ", ");
			first = 0;
			json_string(j, s->bot[o].name);
			g_string_append_printf(j, ": { \"games\": %d", s->x_games[x]);
			g_string_append_printf(j, ", \"wins\": %d, \"draws\": %d, \"losses\": %d",
					       s->x_win[x], s->x_draw[x], s->x_loss[x]);
			g_string_append(j, ", \"share\": ");
			json_double(j, s->x_share[x] / s->x_games[x]);
			g_string_append(j, " }");
		}
		g_string_append_printf(j, " }\n    }%s\n", r + 1 < n ? "," : "");
	}
	g_string_append(j, "  ],\n  \"seat_scores\": [");
	for (int q = 0; q < s->header.nseats; q++) {
		g_string_append(j, q ? ", " : " ");
		json_double(j, s->seat_score[q]);
	}
	g_string_append(j, " ]");
	if (s->header.nseats == 2) {
		g_string_append(j, ",\n  \"seat0_elo\": ");
		json_double(j, ratings_elo_of_score(s->seat_score[0]));
	}
	if (s->has_sprt) {
		const SprtResult *r = &s->sprt;

		g_string_append(j, ",\n  \"sprt\": { \"first\": ");
		json_string(j, s->bot[0].name);
		g_string_append(j, ", \"second\": ");
		json_string(j, s->bot[1].name);
		g_string_append(j, ", \"elo0\": ");
		json_double(j, r->params.elo0);
		g_string_append(j, ", \"elo1\": ");
		json_double(j, r->params.elo1);
		g_string_append(j, ", \"alpha\": ");
		json_double(j, r->params.alpha);
		g_string_append(j, ", \"beta\": ");
		json_double(j, r->params.beta);
		g_string_append(j, ", \"llr\": ");
		json_double(j, r->llr);
		g_string_append(j, ", \"lower\": ");
		json_double(j, r->lower);
		g_string_append(j, ", \"upper\": ");
		json_double(j, r->upper);
		g_string_append_printf(j, ", \"pairs\": %d, \"pentanomial\": [%d, %d, %d, %d, %d], "
				       "\"decision\": ", r->pairs, r->penta[0], r->penta[1],
				       r->penta[2], r->penta[3], r->penta[4]);
		json_string(j, r->decision == SPRT_H1 ? "H1" : r->decision == SPRT_H0 ? "H0" : "continue");
		g_string_append(j, " }");
	}
	g_string_append(j, "\n}\n");
	return g_string_free(g_steal_pointer(&j), FALSE);
}

gboolean standings_write_json(const Standings *s, const char *path, GError **error)
{
	g_autofree char *j = standings_json(s);

	return g_file_set_contents(path, j, -1, error);
}

gboolean standings_write_csv(const Standings *s, const char *path, GError **error)
{
	g_autoptr(GString) c = g_string_new("id,round,seed,seat,bot,rank,score,faults,moves,end,plies,log,mean_ms,max_ms\n");

	for (guint gi = 0; gi < s->games->len; gi++) {
		const JournalGame *g = g_ptr_array_index(s->games, gi);

		for (int q = 0; q < g->nseats; q++) {
			const JournalSeat *seat = &g->seat[q];

			g_string_append_printf(c, "%d,%d,%" G_GUINT64_FORMAT ",%d,%s,%d,%d,%s,%d,%s,%d,%s,",
					       g->id, g->round, g->seed, q, s->bot[g->bot[q]].name,
					       seat->rank, seat->score, seat->faults[0] ? seat->faults : "-",
					       seat->moves, g->end, g->plies, g->log);
			json_double(c, seat->mean_ms);
			g_string_append_c(c, ',');
			json_double(c, seat->max_ms);
			g_string_append_c(c, '\n');
		}
	}
	return write_file(path, c, error);
}
