/*
 * runner: the tournament's games played by the referee's game_run(), with
 * bots that announced `multi` kept alive between games.
 *
 * Each worker thread keeps, per bot, up to RUNNER_KEEP_MAX processes
 * handed back by their last game (game_run() returns healthy `multi` bots
 * with keep_bots), and passes one into that bot's next game on the same
 * worker; so a kept bot stays on the worker's CPU when games are pinned.
 *
 * A process never plays two games of one seed: every seating of a round
 * has the same seed (schedule.h), and a process that kept what it saw
 * would know every die of its later games of the round. So each kept
 * process carries the seeds it has played, and a game takes only a
 * process that has not seen its seed, else starts a fresh one. Ids run
 * round-major, so a bot's games of one round come one after another: with
 * RUNNER_KEEP_MAX processes a bot reuses that many in each round and
 * starts the rest afresh; a process that comes back to a full pool is
 * asked to quit. A process started for a bot may play at most the bot's
 * games left in the run, which bounds its cpu limit in all
 * (GameSeat.games). Bots still kept when the worker ends are asked to
 * quit.
 */
#include "tournaments/runner.h"

#include <string.h>

#include "referee/bot.h"
#include "referee/game.h"
#include "referee/sandbox.h"
#include "referee/timectl.h"

#define QUIT_GRACE_MS 200
/* Idle processes kept per bot and worker: each costs its memory while it
 * waits, each saves a start (jailed, some milliseconds) per round. */
#define RUNNER_KEEP_MAX 4

typedef struct {
	TimeControl time;
	int policy;			/* GAME_POLICY_VARIANT or a VariantFaultPolicy */
	SandboxMode sandbox;		/* resolved: on or off */
	JournalSandbox jail;		/* the same for the journal */
	GPtrArray *specs;		/* BotSpec*, by bot index */
} RunnerData;

/* A kept process and the seeds of the games it has played. */
typedef struct {
	Bot *bot;
	GArray *seeds;			/* guint64 */
} Kept;

typedef struct {
	const RunnerData *data;
	GPtrArray **kept;		/* by bot index: Kept*, oldest first */
	int nbots;
} RunnerWorker;

static void kept_free(Kept *k)
{
	if (k->bot)
		bot_quit(k->bot, QUIT_GRACE_MS);
	g_array_unref(k->seeds);
	g_free(k);
}

static gboolean kept_saw(const Kept *k, guint64 seed)
{
	for (guint i = 0; i < k->seeds->len; i++)
		if (g_array_index(k->seeds, guint64, i) == seed)
			return TRUE;
	return FALSE;
}

/* Take a kept process of bot `b` that has not played `seed`, or NULL. */
static Kept *kept_take(RunnerWorker *w, int b, guint64 seed)
{
	GPtrArray *pool = w->kept[b];

	for (guint i = 0; i < pool->len; i++)
		if (!kept_saw(g_ptr_array_index(pool, i), seed))
			return g_ptr_array_steal_index(pool, i);
	return NULL;
}

/* Keep `k` (its process back from a game that played `seed`), or let it
 * quit when the pool is full or the game handed no process back. */
static void kept_put(RunnerWorker *w, int b, Kept *k, Bot *bot, guint64 seed)
{
	GPtrArray *pool = w->kept[b];

	k->bot = bot;
	g_array_append_val(k->seeds, seed);
	if (!bot || pool->len >= RUNNER_KEEP_MAX) {
		kept_free(k);
		return;
	}
	g_ptr_array_add(pool, k);
}

static void runner_data_free(gpointer p)
{
	RunnerData *d = p;

	g_ptr_array_unref(d->specs);
	g_free(d);
}

static const char *const policy_names[] = { "forfeit", "random", "nothing" };

static gboolean referee_prepare(TournamentConfig *cfg, char **canonical, GError **error)
{
	RunnerData *d = g_new0(RunnerData, 1);
	g_autofree char *time = NULL;

	d->specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	d->policy = GAME_POLICY_VARIANT;
	timectl_default(&d->time);
	if (cfg->time && !timectl_parse(&d->time, cfg->time, error))
		goto fail;
	if (cfg->policy) {
		int p = -1;

		for (int i = 0; i < (int)G_N_ELEMENTS(policy_names); i++)
			if (!strcmp(cfg->policy, policy_names[i]))
				p = i;
		if (p < 0) {
			g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
				    "policy '%s': want forfeit, random or nothing", cfg->policy);
			goto fail;
		}
		d->policy = p;
	}
	SandboxMode want = SANDBOX_AUTO;
	if (cfg->sandbox && !sandbox_mode_parse(cfg->sandbox, &want)) {
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
			    "sandbox '%s': want auto, on or off", cfg->sandbox);
		goto fail;
	}
	/* once, before any game: `on` without a jail stops here, `auto`
	 * warns once */
	if (!sandbox_resolve(want, &d->sandbox, error))
		goto fail;
	d->jail = d->sandbox == SANDBOX_ON ? JOURNAL_SANDBOX_ON :
		  want == SANDBOX_OFF ? JOURNAL_SANDBOX_OFF : JOURNAL_SANDBOX_UNAVAILABLE;
	for (guint i = 0; i < cfg->bot_names->len; i++) {
		const BotSpec *given = g_ptr_array_index(cfg->bot_specs, i);
		BotSpec *spec = given ? bot_spec_copy(given) :
			bot_spec_new(g_ptr_array_index(cfg->bot_commands, i),
				     g_ptr_array_index(cfg->bot_names, i), error);

		if (!spec)
			goto fail;
		g_ptr_array_add(d->specs, spec);
	}
	if (cfg->watchdog_s <= 0)
		cfg->watchdog_s = d->time.game > 0 ? (int)(2 * d->time.game / 1000) + 60 : 3600;
	time = timectl_format_full(&d->time);
	*canonical = g_strdup_printf("time=%s\npolicy=%s", time,
				     d->policy < 0 ? "variant" : policy_names[d->policy]);
	tournament_config_set_runner_data(cfg, d, runner_data_free);
	return TRUE;
fail:
	runner_data_free(d);
	return FALSE;
}

static gpointer referee_worker_new(const TournamentConfig *cfg, int worker)
{
	RunnerWorker *w = g_new0(RunnerWorker, 1);

	(void)worker;
	w->data = cfg->runner_data;
	w->nbots = (int)cfg->bot_names->len;
	w->kept = g_new0(GPtrArray *, w->nbots);
	for (int i = 0; i < w->nbots; i++)
		w->kept[i] = g_ptr_array_new_with_free_func((GDestroyNotify)kept_free);
	return w;
}

static void referee_worker_free(gpointer p)
{
	RunnerWorker *w = p;

	for (int i = 0; i < w->nbots; i++)
		g_ptr_array_unref(w->kept[i]);
	g_free(w->kept);
	g_free(w);
}

static void faults_text(const GameSeatResult *r, char *buf, gsize size)
{
	GString *s = g_string_new(NULL);

	for (int f = 0; f < GAME_FAULT_COUNT; f++)
		if (r->faults[f])
			g_string_append_printf(s, "%s%s:%d", s->len ? "+" : "", game_fault_name(f),
					       r->faults[f]);
	g_strlcpy(buf, s->str, size);
	g_string_free(s, TRUE);
}

static gboolean referee_play(gpointer state, const TournamentConfig *cfg, const ScheduleGame *g,
			     const int *left, const char *log_path, int cpu, JournalGame *out, GError **error)
{
	RunnerWorker *w = state;
	GameSpec spec;
	GameResult res;
	Kept *taken[VARIANT_MAX_PLAYERS];

	game_spec_init(&spec, cfg->variant, g->nseats, g->seed);
	spec.config = cfg->config;
	spec.time = w->data->time;
	spec.policy = w->data->policy;
	spec.sandbox = w->data->sandbox;
	spec.hide_dir = cfg->output;	/* every game's log, the journal */
	spec.log_path = log_path;
	spec.log_async = TRUE;	/* the output directory was checked */
	spec.cpu = cpu;
	spec.keep_bots = TRUE;
	spec.quiet = TRUE;
	if (cfg->watch) {
		const char *names[VARIANT_MAX_PLAYERS];
		for (int k = 0; k < g->nseats; k++)
			names[k] = g_ptr_array_index(cfg->bot_names, g->bot[k]);
		spec.log_tap = cfg->watch(cfg->watch_data, g->id, names, g->nseats, log_path, &spec.log_tap_data);
	}
	for (int k = 0; k < g->nseats; k++) {
		spec.seats[k].spec = g_ptr_array_index(w->data->specs, g->bot[k]);
		taken[k] = kept_take(w, g->bot[k], g->seed);
		if (!taken[k]) {
			taken[k] = g_new0(Kept, 1);
			taken[k]->seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
		}
		spec.seats[k].bot = g_steal_pointer(&taken[k]->bot);
		spec.seats[k].games = left[k];
	}
	if (!game_run(&spec, &res, error)) {
		for (int k = 0; k < g->nseats; k++)
			kept_free(taken[k]);
		return FALSE;
	}
	for (int k = 0; k < g->nseats && k < res.nseats; k++) {
		GameSeatResult *r = &res.seat[k];
		JournalSeat *seat = &out->seat[k];

		seat->rank = r->rank;
		seat->score = r->score;
		seat->moves = r->moves;
		seat->mean_ms = r->mean_ms;
		seat->max_ms = r->max_ms;
		faults_text(r, seat->faults, sizeof(seat->faults));
		kept_put(w, g->bot[k], g_steal_pointer(&taken[k]), g_steal_pointer(&r->bot), g->seed);
	}
	for (int k = res.nseats; k < g->nseats; k++)
		kept_free(taken[k]);
	g_strlcpy(out->end, game_end_name(res.end), sizeof(out->end));
	out->plies = res.plies;
	out->sandbox = w->data->jail;
	game_result_clear(&res);
	return TRUE;
}

const TournamentRunner tournament_referee_runner = {
	.prepare = referee_prepare,
	.worker_new = referee_worker_new,
	.worker_free = referee_worker_free,
	.play = referee_play,
};
