/*
 * sprt: the pentanomial SPRT (see sprt.h).
 *
 * The most likely distribution p with a given mean score s near observed
 * frequencies f (outcome scores a_i = i/4) is p_i = f_i / (1 + l (a_i - s))
 * for the l at which sum p_i a_i = s (a Lagrange multiplier: maximise
 * sum f_i log p_i under sum p_i = 1 and sum p_i a_i = s). The condition
 * sum f_i (a_i - s) / (1 + l (a_i - s)) = 0 is decreasing in l on the
 * interval where every denominator is positive, so bisection finds l.
 */
#include "tournaments/sprt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPRT_EMPTY 1e-3		/* the count given to an empty outcome */
#define SPRT_BISECT 64		/* bisection steps (past double precision) */

G_DEFINE_QUARK(tetrarena-sprt-error-quark, sprt_error)

static gboolean parse_error(GError **error, const char *text, const char *why)
{
	g_set_error(error, SPRT_ERROR, SPRT_ERROR_PARSE,
		    "sprt '%s': %s (want elo0=A,elo1=B[,alpha=X,beta=Y])", text, why);
	return FALSE;
}

gboolean sprt_parse(const char *text, SprtParams *out, GError **error)
{
	static const char *const keys[] = {"elo0", "elo1", "alpha", "beta"};
	g_auto(GStrv) items = g_strsplit(text, ",", -1);
	double v[4] = {0, 0, 0.05, 0.05};
	unsigned have = 0;

	for (int i = 0; items[i]; i++) {
		char *item = g_strstrip(items[i]);
		char *eq = strpbrk(item, "=:");
		char *end;
		int k;

		if (!eq)
			return parse_error(error, text, "an item without '='");
		*eq = '\0';
		for (k = 0; k < 4 && strcmp(g_strstrip(item), keys[k]); k++)
			;
		if (k == 4)
			return parse_error(error, text, "an unknown key");
		if (have & (1u << k))
			return parse_error(error, text, "a key given twice");
		have |= 1u << k;
		v[k] = g_ascii_strtod(g_strstrip(eq + 1), &end);
		if (end == eq + 1 || *end || !isfinite(v[k]))
			return parse_error(error, text, "a bad number");
	}
	if ((have & 3u) != 3u)
		return parse_error(error, text, "elo0 and elo1 are needed");
	if (!(v[0] < v[1]))
		return parse_error(error, text, "elo0 must be below elo1");
	if (!(v[2] > 0 && v[2] <= 0.5 && v[3] > 0 && v[3] <= 0.5))
		return parse_error(error, text, "alpha and beta must be in (0, 0.5]");
	*out = (SprtParams){v[0], v[1], v[2], v[3]};
	return TRUE;
}

char *sprt_format(const SprtParams *p)
{
	char b[4][G_ASCII_DTOSTR_BUF_SIZE];

	return g_strdup_printf("elo0=%s,elo1=%s,alpha=%s,beta=%s",
			       g_ascii_formatd(b[0], sizeof(b[0]), "%g", p->elo0),
			       g_ascii_formatd(b[1], sizeof(b[1]), "%g", p->elo1),
			       g_ascii_formatd(b[2], sizeof(b[2]), "%g", p->alpha),
			       g_ascii_formatd(b[3], sizeof(b[3]), "%g", p->beta));
}

void sprt_bounds(const SprtParams *p, double *lower, double *upper)
{
	*lower = log(p->beta / (1 - p->alpha));
	*upper = log((1 - p->beta) / p->alpha);
}

/* The expected score of a logistic Elo difference. */
static double score_of_elo(double elo)
{
	return 1 / (1 + pow(10, -elo / 400));
}

/* OUT: p[5], the most likely distribution of mean s near frequencies f. */
static void fit(const double f[5], double s, double p[5])
{
	/* Denominators 1 + l (a_i - s) > 0 for a_i in [0, 1]. */
	double lo = -1 / (1 - s), hi = 1 / s;

	for (int it = 0; it < SPRT_BISECT; it++) {
		double l = (lo + hi) / 2, g = 0;

		if (l <= lo || l >= hi)
			break;
		for (int i = 0; i < 5; i++) {
			double d = i / 4.0 - s;

			g += f[i] * d / (1 + l * d);
		}
		if (g > 0)
			lo = l;
		else
			hi = l;
	}
	double l = (lo + hi) / 2, sum = 0;

	for (int i = 0; i < 5; i++)
		sum += p[i] = f[i] / (1 + l * (i / 4.0 - s));
	for (int i = 0; i < 5; i++)
		p[i] /= sum;	/* exact up to rounding; keep it a distribution */
}

double sprt_llr(const SprtParams *p, const int n[5])
{
	double c[5], f[5], p0[5], p1[5], total = 0, llr = 0;
	int pairs = 0;

	for (int i = 0; i < 5; i++) {
		c[i] = n[i] > 0 ? n[i] : SPRT_EMPTY;
		total += c[i];
		pairs += n[i];
	}
	if (pairs == 0)
		return 0;
	for (int i = 0; i < 5; i++)
		f[i] = c[i] / total;
	fit(f, score_of_elo(p->elo0), p0);
	fit(f, score_of_elo(p->elo1), p1);
	for (int i = 0; i < 5; i++)
		llr += c[i] * log(p1[i] / p0[i]);
	return llr;
}

SprtDecision sprt_decide(const SprtParams *p, double llr)
{
	double lower, upper;

	sprt_bounds(p, &lower, &upper);
	return llr >= upper ? SPRT_H1 : llr <= lower ? SPRT_H0 : SPRT_CONTINUE;
}

const char *sprt_decision_name(SprtDecision d)
{
	return d == SPRT_H1 ? "H1 accepted" : d == SPRT_H0 ? "H0 accepted" : "continue";
}

void sprt_run(const SprtParams *p, const SprtPair *pairs, int npairs, SprtResult *out)
{
	memset(out, 0, sizeof(*out));
	out->params = *p;
	sprt_bounds(p, &out->lower, &out->upper);
	for (int i = 0; i < npairs && out->decision == SPRT_CONTINUE; i++) {
		if (pairs[i].round != i)
			break;
		out->penta[pairs[i].outcome]++;
		out->pairs++;
		out->llr = sprt_llr(p, out->penta);
		out->decision = sprt_decide(p, out->llr);
	}
}

static gint cmp_pair(gconstpointer a, gconstpointer b)
{
	const SprtPair *x = a, *y = b;

	return (x->round > y->round) - (x->round < y->round);
}

GArray *sprt_pairs(GPtrArray *games)
{
	g_autoptr(GHashTable) half = g_hash_table_new(g_direct_hash, g_direct_equal);
	GArray *pairs = g_array_new(FALSE, FALSE, sizeof(SprtPair));

	for (guint i = 0; i < games->len; i++) {
		const JournalGame *g = g_ptr_array_index(games, i);
		gpointer key = GINT_TO_POINTER(g->round + 1), seen;
		int me, score;

		if (g->nseats != 2)
			continue;
		me = g->bot[0] == 0 ? 0 : 1;
		score = g->seat[me].rank < g->seat[1 - me].rank ? 2 :
			g->seat[me].rank == g->seat[1 - me].rank ? 1 : 0;
		if (g_hash_table_lookup_extended(half, key, NULL, &seen)) {
			SprtPair pr = {g->round, score + GPOINTER_TO_INT(seen)};

			g_array_append_val(pairs, pr);
		} else {
			g_hash_table_insert(half, key, GINT_TO_POINTER(score));
		}
	}
	g_array_sort(pairs, cmp_pair);
	return pairs;
}
