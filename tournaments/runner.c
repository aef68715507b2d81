/*
 * runner: the tournament's games played by the referee's game_run(), with
 * bots that announced `multi` kept alive between games.
 *
 * Each worker thread keeps, per bot, the process handed back by its last
 * game (game_run() returns healthy `multi` bots with keep_bots), and passes
 * it into that bot's next game on the same worker; so a kept bot stays on
 * the worker's CPU when games are pinned. A process started for a bot may
 * play at most the bot's games left in the run, which bounds its cpu
 * limit in all (GameSeat.games). Bots still kept when the worker ends are
 * asked to quit.
 */
#include "tournaments/runner.h"

#include <string.h>

#include "referee/bot.h"
#include "referee/game.h"
#include "referee/sandbox.h"
#include "referee/timectl.h"

#define QUIT_GRACE_MS 200

typedef struct {
	TimeControl time;
	int policy;			/* GAME_POLICY_VARIANT or a VariantFaultPolicy */
	SandboxMode sandbox;		/* resolved: on or off */
	GPtrArray *specs;		/* BotSpec*, by bot index */
} RunnerData;

typedef struct {
	const RunnerData *data;
	Bot **kept;			/* by bot index, or NULL */
	int nbots;
} RunnerWorker;

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
	for (guint i = 0; i < cfg->bot_names->len; i++) {
		BotSpec *spec = bot_spec_new(g_ptr_array_index(cfg->bot_commands, i),
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
	w->kept = g_new0(Bot *, w->nbots);
	return w;
}

static void referee_worker_free(gpointer p)
{
	RunnerWorker *w = p;

	for (int i = 0; i < w->nbots; i++)
		if (w->kept[i])
			bot_quit(w->kept[i], QUIT_GRACE_MS);
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

	game_spec_init(&spec, cfg->variant, g->nseats, g->seed);
	spec.config = cfg->config;
	spec.time = w->data->time;
	spec.policy = w->data->policy;
	spec.sandbox = w->data->sandbox;
	spec.hide_dir = cfg->output;	/* every game's log, the journal */
	spec.log_path = log_path;
	spec.cpu = cpu;
	spec.keep_bots = TRUE;
	spec.quiet = TRUE;
	for (int k = 0; k < g->nseats; k++) {
		spec.seats[k].spec = g_ptr_array_index(w->data->specs, g->bot[k]);
		spec.seats[k].bot = g_steal_pointer(&w->kept[g->bot[k]]);
		spec.seats[k].games = left[k];
	}
	if (!game_run(&spec, &res, error))
		return FALSE;
	for (int k = 0; k < g->nseats && k < res.nseats; k++) {
		GameSeatResult *r = &res.seat[k];
		JournalSeat *seat = &out->seat[k];

		seat->rank = r->rank;
		seat->score = r->score;
		seat->moves = r->moves;
		seat->mean_ms = r->mean_ms;
		seat->max_ms = r->max_ms;
		faults_text(r, seat->faults, sizeof(seat->faults));
		w->kept[g->bot[k]] = g_steal_pointer(&r->bot);
	}
	g_strlcpy(out->end, game_end_name(res.end), sizeof(out->end));
	out->plies = res.plies;
	game_result_clear(&res);
	return TRUE;
}

const TournamentRunner tournament_referee_runner = {
	.prepare = referee_prepare,
	.worker_new = referee_worker_new,
	.worker_free = referee_worker_free,
	.play = referee_play,
};

int tournament_main(int argc, char **argv)
{
	return tournament_main_with(argc, argv, &tournament_referee_runner);
}
