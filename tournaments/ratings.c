/*
 * ratings: Plackett-Luce by minorization-maximization, with bootstrap
 * intervals (see ratings.h).
 *
 * Invariant: each game is compiled once into stages, one per group of tied
 * ranks except a last group of one (which carries no information). A stage
 * has the set R of bots still unranked and the group G chosen from it.
 * The fit only needs, per bot, its total winning weight, and per distinct
 * R, how many stages had it.
 */
#include "tournaments/ratings.h"

#include <math.h>
#include <string.h>

#include "engine/rng.h"

#define UNIT 840		/* weights in units of 1/UNIT */
#define MAX_ITER 20000
#define TOLERANCE 1e-8

typedef struct {
	int nbots;
	int nmasks;
	int *mask_start;	/* nmasks+1 offsets into mask_bot */
	int *mask_bot;		/* each remaining set's bots, ascending */
	/* Per game: its stages' mask indices and per-bot weights. */
	int ngames;
	int *stage_start;	/* ngames+1 offsets into stage_mask */
	int *stage_mask;
	int *win_start;		/* ngames+1 offsets into win_bot/win_w */
	int *win_bot;
	int *win_w;		/* units of 1/UNIT */
} Compiled;

static void compiled_release(Compiled *c)
{
	g_free(c->mask_start);
	g_free(c->mask_bot);
	g_free(c->stage_start);
	g_free(c->stage_mask);
	g_free(c->win_start);
	g_free(c->win_bot);
	g_free(c->win_w);
}

/* A remaining set: its bots ascending. */
typedef struct {
	int n;
	int bot[VARIANT_MAX_PLAYERS];
} Set;

/*
 * Sets in the order of the bit masks they were until the fit went past
 * 64 bots (the number with bit b set for each bot b): the set with the
 * larger greatest differing bot is the larger. Kept so that the sums, and
 * hence the ratings, are the same bit for bit as before.
 */
static int cmp_set(gconstpointer a, gconstpointer b)
{
	const Set *x = *(const Set *const *)a, *y = *(const Set *const *)b;
	int i = x->n - 1, j = y->n - 1;

	for (; i >= 0 && j >= 0; i--, j--)
		if (x->bot[i] != y->bot[j])
			return x->bot[i] > y->bot[j] ? 1 : -1;
	return (i >= 0) - (j >= 0);
}

static guint set_hash(gconstpointer p)
{
	const Set *s = p;
	guint h = (guint)s->n;

	for (int i = 0; i < s->n; i++)
		h = h * 1000003u ^ (guint)s->bot[i];
	return h;
}

static gboolean set_equal(gconstpointer a, gconstpointer b)
{
	const Set *x = a, *y = b;

	return x->n == y->n && memcmp(x->bot, y->bot, sizeof(int) * x->n) == 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void compile(Compiled *c, int nbots, const RatingsGame *games, int ngames)
{
	/* Set* (owned by sets) -> index + 1 */
	g_autoptr(GHashTable) index = g_hash_table_new(set_hash, set_equal);
	g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) smask = g_array_new(FALSE, FALSE, sizeof(int));
	g_autoptr(GArray) wbot = g_array_new(FALSE, FALSE, sizeof(int));
	g_autoptr(GArray) ww = g_array_new(FALSE, FALSE, sizeof(int));

	memset(c, 0, sizeof(*c));
	c->nbots = nbots;
	c->ngames = ngames;
	c->stage_start = g_new0(int, ngames + 1);
	c->win_start = g_new0(int, ngames + 1);
	for (int gi = 0; gi < ngames; gi++) {
		const RatingsGame *g = &games[gi];
		gboolean left[VARIANT_MAX_PLAYERS];
		int ranked = 0;

		c->stage_start[gi] = (int)smask->len;
		c->win_start[gi] = (int)wbot->len;
		if (g->n < 2)
			continue;
		g_assert_cmpint(g->n, <=, VARIANT_MAX_PLAYERS);
		for (int k = 0; k < g->n; k++) {
			g_assert_cmpint(g->bot[k], >=, 0);
			g_assert_cmpint(g->bot[k], <, nbots);
			left[k] = TRUE;
		}
		while (ranked < g->n) {
			int best = G_MAXINT, m = 0;
			int group[VARIANT_MAX_PLAYERS];
			Set key = {0};
			gpointer idx;

			for (int k = 0; k < g->n; k++)
				if (left[k]) {
					best = MIN(best, g->rank[k]);
					key.bot[key.n++] = g->bot[k];
				}
			for (int k = 0; k < g->n; k++)
				if (left[k] && g->rank[k] == best)
					group[m++] = g->bot[k];
			if (m == 1 && ranked + 1 == g->n)
				break;
			qsort(key.bot, key.n, sizeof(int), cmp_int);
			idx = g_hash_table_lookup(index, &key);
			if (!idx) {
				Set *s = g_memdup2(&key, sizeof(key));

				g_ptr_array_add(sets, s);
				idx = GINT_TO_POINTER(sets->len);
				g_hash_table_insert(index, s, idx);
			}
			{
				int mi = GPOINTER_TO_INT(idx) - 1;

				g_array_append_val(smask, mi);
			}
			qsort(group, m, sizeof(int), cmp_int);
			for (int k = 0; k < m; k++) {
				int w = UNIT / m;

				g_array_append_val(wbot, group[k]);
				g_array_append_val(ww, w);
			}
			for (int k = 0; k < g->n; k++)
				if (left[k] && g->rank[k] == best)
					left[k] = FALSE;
			ranked += m;
		}
	}
	c->stage_start[ngames] = (int)smask->len;
	c->win_start[ngames] = (int)wbot->len;
	/* Sets in a fixed order (cmp_set), so that sums over them do not
	 * depend on the order the games came in. */
	{
		g_autofree int *rank_of = g_new(int, MAX(sets->len, 1));
		g_autoptr(GPtrArray) sorted = g_ptr_array_copy(sets, NULL, NULL);
		gsize total = 0;

		g_ptr_array_set_free_func(sorted, NULL);	/* sets owns them */
		g_ptr_array_sort(sorted, cmp_set);
		for (guint i = 0; i < sorted->len; i++) {
			const Set *s = g_ptr_array_index(sorted, i);

			rank_of[GPOINTER_TO_INT(g_hash_table_lookup(index, s)) - 1] = (int)i;
			total += s->n;
		}
		for (guint i = 0; i < smask->len; i++)
			g_array_index(smask, int, i) = rank_of[g_array_index(smask, int, i)];
		c->nmasks = (int)sorted->len;
		c->mask_start = g_new(int, c->nmasks + 1);
		c->mask_bot = g_new(int, MAX(total, 1));
		total = 0;
		for (guint i = 0; i < sorted->len; i++) {
			const Set *s = g_ptr_array_index(sorted, i);

			c->mask_start[i] = (int)total;
			memcpy(c->mask_bot + total, s->bot, sizeof(int) * s->n);
			total += s->n;
		}
		c->mask_start[c->nmasks] = (int)total;
	}
	c->stage_mask = (int *)g_array_free(g_steal_pointer(&smask), FALSE);
	c->win_bot = (int *)g_array_free(g_steal_pointer(&wbot), FALSE);
	c->win_w = (int *)g_array_free(g_steal_pointer(&ww), FALSE);
}

/* Sufficient statistics of the games weighted by count[] (NULL: 1 each).
 * OUT: win[nbots] (units of 1/UNIT), mcount[nmasks]. */
static void gather(const Compiled *c, const int *count, int64_t *win, int64_t *mcount)
{
	memset(win, 0, sizeof(*win) * c->nbots);
	memset(mcount, 0, sizeof(*mcount) * c->nmasks);
	for (int g = 0; g < c->ngames; g++) {
		int w = count ? count[g] : 1;

		if (w == 0)
			continue;
		for (int s = c->stage_start[g]; s < c->stage_start[g + 1]; s++)
			mcount[c->stage_mask[s]] += w;
		for (int s = c->win_start[g]; s < c->win_start[g + 1]; s++)
			win[c->win_bot[s]] += (int64_t)w * c->win_w[s];
	}
}

/* The log-posterior at theta = ln gamma (the prior included). */
static double log_post(const Compiled *c, const int64_t *win, const int64_t *mcount, const double *theta)
{
	double l = 0;

	for (int m = 0; m < c->nmasks; m++) {
		double sum = 0;

		if (mcount[m] == 0)
			continue;
		for (int a = c->mask_start[m]; a < c->mask_start[m + 1]; a++)
			sum += exp(theta[c->mask_bot[a]]);
		l -= (double)mcount[m] * log(sum);
	}
	for (int i = 0; i < c->nbots; i++)
		l += ((double)win[i] / UNIT + 1.0) * theta[i] - 2.0 * log1p(exp(theta[i]));
	return l;
}

/*
 * Newton steps on theta = ln gamma, from gamma (updated in place), for
 * many bots, where MM crawls (500 bots and 200,000 games took it over 40
 * s): the log-posterior is concave and its negative Hessian the matrix
 * laplace() inverts, so each step solves it by Cholesky (O(n^3 / 3)),
 * halved until the log-posterior does not fall; a dozen steps reach MM's
 * tolerance, and MM then stops at once.
 */
static void newton_fit(const Compiled *c, const int64_t *win, const int64_t *mcount, double *gamma)
{
	int n = c->nbots;
	g_autofree double *h = g_new(double, (size_t)n * n);
	g_autofree double *grad = g_new(double, n);
	g_autofree double *p = g_new(double, n);
	g_autofree double *theta = g_new(double, n);
	g_autofree double *next = g_new(double, n);

	for (int i = 0; i < n; i++)
		theta[i] = log(gamma[i]);
	double cur = log_post(c, win, mcount, theta);
	for (int it = 0; it < 100; it++) {
		memset(h, 0, sizeof(*h) * (size_t)n * n);
		for (int i = 0; i < n; i++) {
			double g = exp(theta[i]);

			grad[i] = (double)win[i] / UNIT + 1.0 - 2.0 * g / (1.0 + g);
			h[(size_t)i * n + i] = 2.0 * g / ((1.0 + g) * (1.0 + g));
		}
		for (int m = 0; m < c->nmasks; m++) {
			const int *bot = c->mask_bot + c->mask_start[m];
			int nb = c->mask_start[m + 1] - c->mask_start[m];
			double sum = 0, w = (double)mcount[m];

			if (mcount[m] == 0)
				continue;
			for (int a = 0; a < nb; a++)
				sum += exp(theta[bot[a]]);
			for (int a = 0; a < nb; a++)
				p[bot[a]] = exp(theta[bot[a]]) / sum;
			for (int a = 0; a < nb; a++) {
				int i = bot[a];

				grad[i] -= w * p[i];
				for (int b = 0; b < nb; b++)
					h[(size_t)i * n + bot[b]] += (a == b ? w * p[i] : 0) - w * p[i] * p[bot[b]];
			}
		}
		/* Cholesky, lower triangle in place: h = L L^T */
		for (int j = 0; j < n; j++) {
			double *rj = h + (size_t)j * n;
			double d = rj[j];

			for (int k = 0; k < j; k++)
				d -= rj[k] * rj[k];
			if (!(d > 0))
				return;	/* not positive definite: leave it to MM */
			d = sqrt(d);
			rj[j] = d;
			for (int i = j + 1; i < n; i++) {
				double *ri = h + (size_t)i * n;
				double v = ri[j];

				for (int k = 0; k < j; k++)
					v -= ri[k] * rj[k];
				ri[j] = v / d;
			}
		}
		/* solve L y = grad, then L^T x = y (x in grad) */
		for (int i = 0; i < n; i++) {
			double v = grad[i];

			for (int k = 0; k < i; k++)
				v -= h[(size_t)i * n + k] * grad[k];
			grad[i] = v / h[(size_t)i * n + i];
		}
		for (int i = n - 1; i >= 0; i--) {
			double v = grad[i];

			for (int k = i + 1; k < n; k++)
				v -= h[(size_t)k * n + i] * grad[k];
			grad[i] = v / h[(size_t)i * n + i];
		}
		double step = 1.0, change = 0, val = cur;
		for (int half = 0; half < 30; half++, step /= 2) {
			for (int i = 0; i < n; i++)
				next[i] = theta[i] + step * grad[i];
			val = log_post(c, win, mcount, next);
			if (val >= cur)
				break;
		}
		if (!(val >= cur))
			break;
		for (int i = 0; i < n; i++) {
			change = MAX(change, fabs(next[i] - theta[i]));
			theta[i] = next[i];
		}
		cur = val;
		if (change < TOLERANCE)
			break;
	}
	for (int i = 0; i < n; i++)
		gamma[i] = exp(theta[i]);
}

/* MM iterations from the strengths in gamma (updated in place). */
static void mm_fit(const Compiled *c, const int64_t *win, const int64_t *mcount,
		   double *gamma, double *denom)
{
	int n = c->nbots;

	for (int it = 0; it < MAX_ITER; it++) {
		double change = 0;

		memset(denom, 0, sizeof(*denom) * n);
		for (int m = 0; m < c->nmasks; m++) {
			const int *bot = c->mask_bot + c->mask_start[m];
			int k = c->mask_start[m + 1] - c->mask_start[m];
			double sum = 0, t;

			if (mcount[m] == 0)
				continue;
			for (int a = 0; a < k; a++)
				sum += gamma[bot[a]];
			t = (double)mcount[m] / sum;
			for (int a = 0; a < k; a++)
				denom[bot[a]] += t;
		}
		for (int i = 0; i < n; i++) {
			/* The prior: a win and a loss against strength 1. */
			double w = (double)win[i] / UNIT + 1.0;
			double d = denom[i] + 2.0 / (gamma[i] + 1.0);
			double next = w / d;

			change = MAX(change, fabs(log(next / gamma[i])));
			gamma[i] = next;
		}
		if (change < TOLERANCE)
			break;
	}
}

static void to_elo(const double *gamma, int n, double *elo)
{
	double mean = 0;

	for (int i = 0; i < n; i++) {
		elo[i] = 400.0 * log10(gamma[i]);
		mean += elo[i];
	}
	mean /= n;
	for (int i = 0; i < n; i++)
		elo[i] -= mean;
}

/*
 * The Laplace approximation at the fit: the covariance of theta = ln g is
 * the inverse of the log-posterior's negative Hessian, which for
 * Plackett-Luce is exact and cheap: each remaining set R, met mcount
 * times, adds mcount (diag(p) - p p^T) with p_j = g_j / sum_R g (the win
 * terms are linear in theta), and the prior's phantom win and loss add
 * 2 g / (1 + g)^2 to each diagonal entry, which keeps the matrix positive
 * definite whatever the games. OUT: sd[i], the standard deviation of bot
 * i's Elo (centred on the mean, as the ratings are), and cov (n x n, Elo
 * squared, not centred) for the likelihood of superiority.
 */
static void laplace(const Compiled *c, const int64_t *mcount, const double *gamma, double *sd,
		    double *cov)
{
	int n = c->nbots;
	double k = 400.0 / G_LN10;
	g_autofree double *h = g_new0(double, (size_t)n * n);
	g_autofree double *inv = g_new0(double, (size_t)n * n);
	g_autofree double *p = g_new0(double, n);

	for (int m = 0; m < c->nmasks; m++) {
		const int *bot = c->mask_bot + c->mask_start[m];
		int nb = c->mask_start[m + 1] - c->mask_start[m];
		double sum = 0;

		if (mcount[m] == 0)
			continue;
		for (int a = 0; a < nb; a++)
			sum += gamma[bot[a]];
		for (int a = 0; a < nb; a++)
			p[bot[a]] = gamma[bot[a]] / sum;
		for (int a = 0; a < nb; a++) {
			int i = bot[a];

			h[(size_t)i * n + i] += (double)mcount[m] * p[i];
			for (int b = 0; b < nb; b++) {
				int j = bot[b];

				h[(size_t)i * n + j] -= (double)mcount[m] * p[i] * p[j];
			}
		}
	}
	for (int i = 0; i < n; i++) {
		h[i * n + i] += 2.0 * gamma[i] / ((1.0 + gamma[i]) * (1.0 + gamma[i]));
		inv[i * n + i] = 1.0;
	}
	/* Gauss-Jordan; the matrix is symmetric positive definite, so the
	 * diagonal pivots stay positive. */
	for (int col = 0; col < n; col++) {
		double d = h[col * n + col];

		for (int j = 0; j < n; j++) {
			h[col * n + j] /= d;
			inv[col * n + j] /= d;
		}
		for (int r = 0; r < n; r++) {
			double f = h[r * n + col];

			if (r == col || f == 0)
				continue;
			for (int j = 0; j < n; j++) {
				h[r * n + j] -= f * h[col * n + j];
				inv[r * n + j] -= f * inv[col * n + j];
			}
		}
	}
	for (int i = 0; i < n * n; i++)
		cov[i] = k * k * inv[i];
	/* Var(e_i - mean e) = C_ii - 2 mean_j C_ij + mean_jl C_jl. */
	{
		double all = 0;
		g_autofree double *row = g_new0(double, n);

		for (int i = 0; i < n; i++) {
			for (int j = 0; j < n; j++)
				row[i] += cov[i * n + j];
			all += row[i];
		}
		for (int i = 0; i < n; i++) {
			double v = cov[i * n + i] - 2.0 * row[i] / n + all / ((double)n * n);

			sd[i] = sqrt(MAX(v, 0.0));
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[n], linearly interpolated. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

Ratings *ratings_fit(int nbots, const RatingsGame *games, int ngames,
		     int bootstrap, uint64_t seed)
{
	Ratings *r = g_new0(Ratings, 1);
	Compiled c;
	g_autofree int64_t *win = NULL;
	g_autofree int64_t *mcount = NULL;
	g_autofree double *gamma = NULL;
	g_autofree double *g0 = NULL;
	g_autofree double *denom = NULL;
	g_autofree double *boot = NULL;
	g_autofree double *col = NULL;
	g_autofree int *count = NULL;
	g_autofree double *lsd = NULL;
	g_autofree double *lcov = NULL;
	Rng rng;

	g_assert_cmpint(nbots, >=, 1);
	g_assert_cmpint(nbots, <=, RATINGS_MAX_BOTS);
	r->nbots = nbots;
	r->elo = g_new0(double, nbots);
	r->lo = g_new0(double, nbots);
	r->hi = g_new0(double, nbots);
	r->los = g_new0(double, nbots * nbots);
	for (int i = 0; i < ngames; i++)
		r->games += games[i].n >= 2;

	compile(&c, nbots, games, ngames);
	win = g_new(int64_t, nbots);
	mcount = g_new(int64_t, MAX(c.nmasks, 1));
	gamma = g_new(double, nbots);
	g0 = g_new(double, nbots);
	denom = g_new(double, nbots);
	for (int i = 0; i < nbots; i++)
		gamma[i] = 1.0;
	gather(&c, NULL, win, mcount);
	if (nbots > RATINGS_MM_BOTS)
		newton_fit(&c, win, mcount, gamma);
	mm_fit(&c, win, mcount, gamma, denom);
	to_elo(gamma, nbots, r->elo);
	memcpy(g0, gamma, sizeof(*gamma) * nbots);

	/* The Laplace interval, always; the bootstrap's, when asked for,
	 * widens it where the games' spread says more (the bootstrap alone
	 * collapses to a point when every game went one way). */
	lsd = g_new(double, nbots);
	lcov = g_new(double, (size_t)nbots * nbots);
	laplace(&c, mcount, gamma, lsd, lcov);
	for (int i = 0; i < nbots; i++) {
		r->lo[i] = r->elo[i] - RATINGS_Z95 * lsd[i];
		r->hi[i] = r->elo[i] + RATINGS_Z95 * lsd[i];
		for (int j = 0; j < nbots; j++) {
			double v = lcov[i * nbots + i] + lcov[j * nbots + j] - 2 * lcov[i * nbots + j];

			r->los[i * nbots + j] = i == j ? 0.0 :
				0.5 * erfc(-(r->elo[i] - r->elo[j]) / sqrt(2 * MAX(v, 1e-12)));
		}
	}
	if (bootstrap <= 0 || ngames == 0 || nbots > RATINGS_MM_BOTS) {
		compiled_release(&c);
		return r;
	}
	boot = g_new(double, (size_t)bootstrap * nbots);
	count = g_new(int, ngames);
	col = g_new(double, bootstrap);
	rng_seed(&rng, rng_derive(seed, "bootstrap", 0));
	for (int b = 0; b < bootstrap; b++) {
		memset(count, 0, sizeof(*count) * ngames);
		for (int i = 0; i < ngames; i++)
			count[rng_below(&rng, (uint32_t)ngames)]++;
		memcpy(gamma, g0, sizeof(*gamma) * nbots);
		gather(&c, count, win, mcount);
		mm_fit(&c, win, mcount, gamma, denom);
		to_elo(gamma, nbots, &boot[(size_t)b * nbots]);
	}
	for (int i = 0; i < nbots; i++) {
		for (int j = 0; j < nbots; j++) {
			double p = 0;

			if (i == j)
				continue;
			for (int b = 0; b < bootstrap; b++) {
				double d = boot[(size_t)b * nbots + i] - boot[(size_t)b * nbots + j];

				p += d > 1e-9 ? 1.0 : d < -1e-9 ? 0.0 : 0.5;
			}
			r->los[i * nbots + j] = p / bootstrap;
		}
		for (int b = 0; b < bootstrap; b++)
			col[b] = boot[(size_t)b * nbots + i];
		qsort(col, bootstrap, sizeof(*col), cmp_double);
		r->lo[i] = MIN(r->lo[i], quantile(col, bootstrap, 0.025));
		r->hi[i] = MAX(r->hi[i], quantile(col, bootstrap, 0.975));
	}
	compiled_release(&c);
	return r;
}

void ratings_free(Ratings *r)
{
	if (!r)
		return;
	g_free(r->elo);
	g_free(r->lo);
	g_free(r->hi);
	g_free(r->los);
	g_free(r);
}

void ratings_seat_scores(const RatingsGame *games, int ngames, int nseats,
			 double *score)
{
	g_autofree double *sum = g_new0(double, nseats);
	g_autofree int *n = g_new0(int, nseats);

	for (int gi = 0; gi < ngames; gi++) {
		const RatingsGame *g = &games[gi];

		if (g->n < 2 || g->n != nseats)
			continue;
		for (int s = 0; s < g->n; s++) {
			double beaten = 0;

			for (int o = 0; o < g->n; o++)
				if (o != s)
					beaten += g->rank[s] < g->rank[o] ? 1.0 :
						  g->rank[s] == g->rank[o] ? 0.5 : 0.0;
			sum[s] += beaten / (g->n - 1);
			n[s]++;
		}
	}
	for (int s = 0; s < nseats; s++)
		score[s] = n[s] ? sum[s] / n[s] : 0.5;
}

double ratings_elo_of_score(double p)
{
	p = CLAMP(p, 1e-6, 1 - 1e-6);
	return 400.0 * log10(p / (1 - p));
}
