/*
 * tournament: configuration, the run loop and merging (see tournament.h).
 *
 * Start at tournament_run(). Threads: the main thread owns the journal,
 * the progress line, the watchdog and the signals; each worker thread owns
 * its runner state (kept bot processes) and plays one game at a time. The
 * shared state is `Run`: the list of games to play with a cursor, each
 * worker's game in flight, and a queue of finished games, all under
 * run->lock except the queue (a GAsyncQueue).
 */
#include "tournaments/tournament.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "referee/asyncfile.h"
#include "referee/keyfile.h"
#include "referee/nostart.h"
#include "tournaments/report.h"
#include "tournaments/standings.h"

#define DEFAULT_GAMES 2
#define TICK_MS 100		/* main loop wakeups */
#define PLAIN_PROGRESS_S 10	/* progress lines when stderr is no terminal */

G_DEFINE_QUARK(tetrarena-tournament-error-quark, tournament_error)

/* ---- configuration ---------------------------------------------------- */

TournamentConfig *tournament_config_new(void)
{
	TournamentConfig *cfg = g_new0(TournamentConfig, 1);

	cfg->games = DEFAULT_GAMES;
	cfg->gauntlet_bot = -1;
	cfg->pin = -1;
	cfg->shard_count = 1;
	cfg->bootstrap = RATINGS_BOOTSTRAP;
	cfg->progress = TRUE;
	cfg->print = TRUE;
	cfg->bot_names = g_ptr_array_new_with_free_func(g_free);
	cfg->bot_commands = g_ptr_array_new_with_free_func(g_free);
	cfg->bot_specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	return cfg;
}

void tournament_config_free(TournamentConfig *cfg)
{
	if (!cfg)
		return;
	g_free(cfg->variant_name);
	g_free(cfg->options);
	g_free(cfg->time);
	g_free(cfg->policy);
	g_free(cfg->sandbox);
	g_free(cfg->output);
	g_free(cfg->sprt);
	g_free(cfg->gauntlet);
	g_ptr_array_unref(cfg->bot_names);
	g_ptr_array_unref(cfg->bot_commands);
	g_ptr_array_unref(cfg->bot_specs);
	if (cfg->runner_data_free)
		cfg->runner_data_free(cfg->runner_data);
	g_strfreev(cfg->argv);
	g_free(cfg->referee);
	g_free(cfg);
}

void tournament_config_set_runner_data(TournamentConfig *cfg, gpointer data,
				       GDestroyNotify free_func)
{
	if (cfg->runner_data_free)
		cfg->runner_data_free(cfg->runner_data);
	cfg->runner_data = data;
	cfg->runner_data_free = free_func;
}

static gboolean name_ok(const char *name)
{
	if (!*name || strlen(name) > 32)
		return FALSE;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("_.-", *p))
			return FALSE;
	return TRUE;
}

gboolean tournament_config_add_bot(TournamentConfig *cfg, const char *name,
				   const char *command, GError **error)
{
	if (!name_ok(name)) {
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
			    "bot name '%s': use 1 to 32 letters, digits, '_', '.' or '-'", name);
		return FALSE;
	}
	for (guint i = 0; i < cfg->bot_names->len; i++)
		if (!strcmp(g_ptr_array_index(cfg->bot_names, i), name)) {
			g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
				    "bot name '%s' given twice", name);
			return FALSE;
		}
	if (!*command) {
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
			    "bot '%s' has an empty command", name);
		return FALSE;
	}
	g_ptr_array_add(cfg->bot_names, g_strdup(name));
	g_ptr_array_add(cfg->bot_commands, g_strdup(command));
	g_ptr_array_add(cfg->bot_specs, NULL);
	return TRUE;
}

gboolean tournament_config_add_bot_spec(TournamentConfig *cfg, const BotSpec *spec,
					GError **error)
{
	if (!tournament_config_add_bot(cfg, spec->name, spec->command, error))
		return FALSE;
	g_ptr_array_index(cfg->bot_specs, cfg->bot_specs->len - 1) = bot_spec_copy(spec);
	return TRUE;
}

static gboolean add_specs(TournamentConfig *cfg, const char *path, GPtrArray *specs,
			  GError **error)
{
	g_autoptr(GError) local = NULL;

	if (!specs)
		return FALSE;
	for (guint i = 0; i < specs->len; i++)
		if (!tournament_config_add_bot_spec(cfg, g_ptr_array_index(specs, i), &local)) {
			g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG, "%s: %s", path,
				    local->message);
			return FALSE;
		}
	return TRUE;
}

gboolean tournament_config_add_bots_file(TournamentConfig *cfg, const char *path, GError **error)
{
	g_autoptr(GPtrArray) specs = bot_spec_file_load_list(path, error);

	return add_specs(cfg, path, specs, error);
}

/* The value of group's key: NULL and no error when it is absent, NULL
 * with error when it is there but not a string (a bad escape). */
static char *key_get(GKeyFile *kf, const char *path, const char *group, const char *key,
		     GError **error)
{
	g_autoptr(GError) local = NULL;
	char *text = g_key_file_get_string(kf, group, key, &local);

	if (!text && !g_error_matches(local, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND) &&
	    !g_error_matches(local, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND))
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG, "%s: [%s] %s: %s", path,
			    group, key, local->message);
	return text;
}

static gboolean key_int(GKeyFile *kf, const char *path, const char *key, gint64 min,
			gint64 max, gint64 *out, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *text = key_get(kf, path, "tournament", key, &local);

	if (local) {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	if (!text)
		return TRUE;
	g_strstrip(text);
	if (!g_ascii_string_to_signed(text, 10, min, max, out, NULL)) {
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
			    "%s: [tournament] %s=%s: want an integer from %" G_GINT64_FORMAT
			    " to %" G_GINT64_FORMAT, path, key, text, min, max);
		return FALSE;
	}
	return TRUE;
}

static gboolean key_string(GKeyFile *kf, const char *path, const char *key, char **out,
			   GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *text = key_get(kf, path, "tournament", key, &local);

	if (local) {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	if (text) {
		g_free(*out);
		*out = g_strdup(g_strstrip(text));
	}
	return TRUE;
}

gboolean tournament_config_load(TournamentConfig *cfg, const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	g_auto(GStrv) groups = NULL;
	g_auto(GStrv) keys = NULL;
	gint64 v;

	if (!keyfile_load(kf, path, &local)) {
		g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG, "%s: %s",
			    path, local->message);
		return FALSE;
	}
	groups = g_key_file_get_groups(kf, NULL);
	for (int i = 0; groups[i]; i++)
		if (strcmp(groups[i], "tournament") && strcmp(groups[i], "bots") &&
		    !g_str_has_prefix(groups[i], "bot ")) {
			g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
				    "%s: unknown group [%s] (want [tournament], [bots] and [bot NAME])",
				    path, groups[i]);
			return FALSE;
		}
	if (g_key_file_has_group(kf, "tournament")) {
		static const char *const known[] = {
			"variant", "options", "players", "games", "seed", "time", "policy",
			"sandbox", "concurrency", "output", "pin", "watchdog", "bootstrap", "sprt",
			"gauntlet", NULL,
		};

		keys = g_key_file_get_keys(kf, "tournament", NULL, NULL);
		for (int i = 0; keys && keys[i]; i++)
			if (!g_strv_contains(known, keys[i])) {
				g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
					    "%s: [tournament] unknown key '%s'", path, keys[i]);
				return FALSE;
			}
		if (!key_string(kf, path, "variant", &cfg->variant_name, error) ||
		    !key_string(kf, path, "options", &cfg->options, error) ||
		    !key_string(kf, path, "time", &cfg->time, error) ||
		    !key_string(kf, path, "policy", &cfg->policy, error) ||
		    !key_string(kf, path, "sandbox", &cfg->sandbox, error) ||
		    !key_string(kf, path, "output", &cfg->output, error) ||
		    !key_string(kf, path, "sprt", &cfg->sprt, error) ||
		    !key_string(kf, path, "gauntlet", &cfg->gauntlet, error))
			return FALSE;
		v = cfg->nseats;
		if (!key_int(kf, path, "players", 1, VARIANT_MAX_PLAYERS, &v, error))
			return FALSE;
		cfg->nseats = (int)v;
		v = cfg->games;
		if (!key_int(kf, path, "games", 1, TOURNAMENT_GAMES_MAX, &v, error))
			return FALSE;
		cfg->games = (int)v;
		v = cfg->concurrency;
		if (!key_int(kf, path, "concurrency", 1, TOURNAMENT_CONCURRENCY_MAX, &v, error))
			return FALSE;
		cfg->concurrency = (int)v;
		v = cfg->watchdog_s;
		if (!key_int(kf, path, "watchdog", 1, TOURNAMENT_WATCHDOG_MAX, &v, error))
			return FALSE;
		cfg->watchdog_s = (int)v;
		v = cfg->bootstrap;
		if (!key_int(kf, path, "bootstrap", 0, TOURNAMENT_BOOTSTRAP_MAX, &v, error))
			return FALSE;
		cfg->bootstrap = (int)v;
		{
			g_autofree char *seed = key_get(kf, path, "tournament", "seed", &local);

			if (local) {
				g_propagate_error(error, g_steal_pointer(&local));
				return FALSE;
			}
			if (seed && !g_ascii_string_to_unsigned(g_strstrip(seed), 10, 0, G_MAXUINT64,
								&cfg->seed, NULL)) {
				g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
					    "%s: [tournament] seed=%s: want an unsigned integer", path, seed);
				return FALSE;
			}
			if (seed)
				cfg->seed_set = TRUE;
		}
		if (g_key_file_has_key(kf, "tournament", "pin", NULL)) {
			cfg->pin = g_key_file_get_boolean(kf, "tournament", "pin", &local) ? 1 : 0;
			if (local) {
				g_set_error(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG,
					    "%s: [tournament] pin: want true or false", path);
				return FALSE;
			}
		}
	}
	{
		g_autoptr(GPtrArray) specs = bot_spec_keyfile_load(kf, path, error);

		return add_specs(cfg, path, specs, error);
	}
}

/* Whether several bots of one game think at the same time: true when the
 * first decision after the opening chance moves is simultaneous or real
 * time. */
static int busy_bots(const Variant *v, const VariantConfig *vc)
{
	g_autofree void *state = g_malloc0(v->state_size);
	Rng rng;
	uint32_t mask = 0;
	VariantPhase phase;

	rng_seed(&rng, 1);
	v->init(state, vc);
	for (int i = 0; i < 1000 && (phase = v->phase(state, &mask)) == VARIANT_PHASE_CHANCE; i++)
		v->apply(state, VARIANT_CHANCE, v->chance_sample(state, &rng));
	phase = v->phase(state, &mask);
	if (phase == VARIANT_PHASE_SIMULTANEOUS || phase == VARIANT_PHASE_REALTIME)
		return MAX(1, __builtin_popcount(mask));
	return 1;
}

static gboolean config_error(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean config_error(GError **error, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(error, TOURNAMENT_ERROR, TOURNAMENT_ERROR_CONFIG, msg);
	return FALSE;
}

guint64 tournament_draw_seed(void)
{
	guint64 v = 0;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		/* (no getrandom: glib seeds its generator from /dev/urandom) */
		v = ((guint64)g_random_int() << 32) | g_random_int();
	return v & TOURNAMENT_SEED_MASK;
}

/*
 * Without a seed given, the master seed is the journal's when there is one
 * (a resume plays the same tournament), else one drawn at random. FALSE
 * with error when the journal is there but cannot be read.
 */
static gboolean seed_choose(TournamentConfig *cfg, const char *journal_path, GError **error)
{
	JournalHeader h = { 0 };
	gboolean found = FALSE;

	if (cfg->seed_set)
		return TRUE;
	if (!journal_read_header(journal_path, &h, &found, error))
		return FALSE;
	cfg->seed = found ? h.seed : tournament_draw_seed();
	journal_header_clear(&h);
	cfg->seed_set = TRUE;
	return TRUE;
}

/* Resolve defaults and check everything but the runner's part. */
static gboolean config_resolve(TournamentConfig *cfg, GError **error)
{
	const Variant *v;
	int nbots = (int)cfg->bot_names->len;
	VariantError ve;

	if (!cfg->variant_name) {
		GString *names = g_string_new(NULL);

		for (const Variant *const *p = variant_all(); *p; p++)
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", (*p)->name);
		config_error(error, "no variant given (variants: %s)", names->str);
		g_string_free(names, TRUE);
		return FALSE;
	}
	v = cfg->variant = variant_find(cfg->variant_name);
	if (!v)
		return config_error(error, "unknown variant '%s'", cfg->variant_name);
	if (nbots < 1)
		return config_error(error, "no bots: give a [bots] group or --bot NAME=COMMAND");
	if (nbots > SCHEDULE_MAX_BOTS)
		return config_error(error, "%d bots: at most %d", nbots, SCHEDULE_MAX_BOTS);
	if (cfg->nseats == 0)
		cfg->nseats = CLAMP(nbots, v->min_players, v->max_players);
	if (cfg->nseats < v->min_players || cfg->nseats > v->max_players)
		return config_error(error, "%s is played by %d to %d players, not %d",
				    v->name, v->min_players, v->max_players, cfg->nseats);
	if (cfg->nseats > nbots)
		return config_error(error, "%d players per game need at least %d bots (have %d)",
				    cfg->nseats, cfg->nseats, nbots);
	variant_config_default(v, cfg->nseats, &cfg->config);
	if (cfg->options && *cfg->options) {
		g_auto(GStrv) items = g_strsplit(cfg->options, ",", -1);

		for (int i = 0; items[i]; i++) {
			char *colon = strchr(items[i], ':');

			if (!colon)
				colon = strchr(items[i], '=');
			if (!colon)
				return config_error(error, "option '%s': want key:value", items[i]);
			*colon = '\0';
			ve = variant_option_set(v, &cfg->config, g_strstrip(items[i]),
						g_strstrip(colon + 1));
			char why[256];
			if (ve != VARIANT_OK)
				return config_error(error, "option '%s': %s", items[i],
						    variant_option_error_text(v, items[i], ve, why, sizeof(why)));
		}
	}
	ve = variant_config_check(v, &cfg->config);
	if (ve != VARIANT_OK)
		return config_error(error, "%s", variant_error_string(ve));
	cfg->busy_per_game = busy_bots(v, &cfg->config);
	if (cfg->concurrency == 0)
		cfg->concurrency = MAX(1, (int)g_get_num_processors() / cfg->busy_per_game);
	/* Turn by turn, a game's referee and bots take turns on one CPU, and a
	 * reply then costs no cross-CPU wake-up (measured in `make bench`);
	 * bots that think at once need CPUs of their own. */
	if (cfg->pin < 0)
		cfg->pin = cfg->busy_per_game == 1;
	if (cfg->shard_count < 1 || cfg->shard_index < 0 || cfg->shard_index >= cfg->shard_count)
		return config_error(error, "shard %d/%d: want I/N with 0 <= I < N",
				    cfg->shard_index, cfg->shard_count);
	if (cfg->shard_count > 1 && !cfg->seed_set)
		return config_error(error, "shard %d/%d: every shard must play the same seeds: "
				    "give them one master seed (--seed or `seed =`; for instance "
				    "--seed %" G_GUINT64_FORMAT ", drawn now)",
				    cfg->shard_index, cfg->shard_count, tournament_draw_seed());
	if (!cfg->output)
		cfg->output = g_strdup_printf("tournament-%s", v->name);
	cfg->gauntlet_bot = -1;
	if (cfg->gauntlet) {
		for (int i = 0; i < nbots; i++)
			if (!strcmp(g_ptr_array_index(cfg->bot_names, i), cfg->gauntlet))
				cfg->gauntlet_bot = i;
		if (cfg->gauntlet_bot < 0)
			return config_error(error, "gauntlet %s: no such bot", cfg->gauntlet);
		if (nbots < 2)
			return config_error(error, "gauntlet %s: it needs other bots to play", cfg->gauntlet);
	}
	if (cfg->sprt) {
		if (!sprt_parse(cfg->sprt, &cfg->sprt_params, error))
			return FALSE;
		g_free(cfg->sprt);
		cfg->sprt = sprt_format(&cfg->sprt_params);
		if (nbots != 2 || cfg->nseats != 2)
			return config_error(error, "--sprt tests one bot against another: "
					    "two bots and two seats, not %d and %d", nbots, cfg->nseats);
		if (cfg->shard_count > 1)
			return config_error(error, "--sprt decides on all the games: no shards");
	}
	return TRUE;
}

/* The identity: what decides which games are played and how, one
 * "key=value" or "key value" line each; its SHA-256 is the fingerprint
 * in the journal's header, and it is kept in OUTPUT/IDENTITY_FILE so that
 * a run with other settings can be told what differs. */
#define IDENTITY_FILE "identity.txt"

static char *identity_text(const TournamentConfig *cfg, const char *canonical)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "variant=%s\nplayers=%d\n", cfg->variant->name, cfg->nseats);
	for (int i = 0; i < cfg->variant->n_options; i++)
		g_string_append_printf(s, "option %s=%d\n", cfg->variant->options[i].key,
				       cfg->config.opt[i]);
	g_string_append_printf(s, "games=%d\nseed=%" G_GUINT64_FORMAT "\n%s\n", cfg->games,
			       cfg->seed, canonical ? canonical : "");
	for (guint i = 0; i < cfg->bot_names->len; i++)
		g_string_append_printf(s, "bot %s\n", (char *)g_ptr_array_index(cfg->bot_names, i));
	/* Where the run stops is part of the tournament (absent: as before). */
	if (cfg->sprt)
		g_string_append_printf(s, "sprt %s\n", cfg->sprt);
	if (cfg->gauntlet)
		g_string_append_printf(s, "gauntlet=%s\n", cfg->gauntlet);
	return g_string_free(s, FALSE);
}

/* An identity as key -> value: "bot" lines joined into one "bots". */
static GHashTable *identity_parse(const char *text)
{
	GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *bots = g_string_new(NULL);

	for (int i = 0; lines[i]; i++) {
		char *l = lines[i], *sep;

		if (!*l)
			continue;
		if (g_str_has_prefix(l, "bot ")) {
			g_string_append_printf(bots, "%s%s", bots->len ? "," : "", l + 4);
			continue;
		}
		if (g_str_has_prefix(l, "option ") || g_str_has_prefix(l, "sprt "))
			sep = g_str_has_prefix(l, "sprt ") ? strchr(l, ' ') : strchr(l, '=');
		else
			sep = strchr(l, '=');
		if (!sep)
			continue;
		*sep = '\0';
		g_hash_table_insert(t, g_strdup(l), g_strdup(sep + 1));
	}
	g_hash_table_insert(t, g_strdup("bots"), g_string_free(bots, FALSE));
	return t;
}

/* "KEY: was OLD, now NEW; ..." for each key that differs. */
static char *identity_diff(const char *old_text, const char *new_text)
{
	g_autoptr(GHashTable) a = identity_parse(old_text);
	g_autoptr(GHashTable) b = identity_parse(new_text);
	g_autoptr(GList) keys = g_hash_table_get_keys(b);
	GString *d = g_string_new(NULL);
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, a);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (!g_hash_table_contains(b, k))
			keys = g_list_prepend(keys, k);
	keys = g_list_sort(keys, (GCompareFunc)strcmp);
	for (GList *l = keys; l; l = l->next) {
		const char *was = g_hash_table_lookup(a, l->data), *now = g_hash_table_lookup(b, l->data);

		if (g_strcmp0(was, now) != 0)
			g_string_append_printf(d, "%s%s: was %s, now %s", d->len ? "; " : "",
					       (char *)l->data, was ? was : "(none)", now ? now : "(none)");
	}
	return g_string_free(d, FALSE);
}

/*
 * Before a run: an output directory without a journal must be empty (or
 * new), so that nothing of anyone's is overwritten; one with a journal
 * must be this tournament's, else the error names each key that differs
 * with its old and new value. FALSE with error.
 */
static gboolean output_check(const TournamentConfig *cfg, const char *journal_path,
			     const char *identity, const char *fp, int *extend_from, GError **error)
{
	JournalHeader h = { 0 };
	gboolean found = FALSE;
	g_autofree char *id_path = g_build_filename(cfg->output, IDENTITY_FILE, NULL);
	g_autofree char *old_identity = NULL;
	g_autofree char *diff = NULL;

	if (!g_file_test(journal_path, G_FILE_TEST_EXISTS)) {
		g_autoptr(GDir) dir = g_dir_open(cfg->output, 0, NULL);
		const char *first = dir ? g_dir_read_name(dir) : NULL;

		if (first)
			return config_error(error, "%s is not empty (%s, ...) and holds no tournament "
					    "(no %s): give a new or empty output directory, so that "
					    "nothing in it is overwritten", cfg->output, first, JOURNAL_FILE);
		return TRUE;
	}
	if (!journal_read_header(journal_path, &h, &found, error))
		return FALSE;
	if (!found || !g_strcmp0(h.fingerprint, fp)) {
		journal_header_clear(&h);
		return TRUE;
	}
	if (g_file_get_contents(id_path, &old_identity, NULL, NULL)) {
		g_autoptr(GHashTable) a = identity_parse(old_identity);
		g_autoptr(GHashTable) b = identity_parse(identity);

		/* Only more games per seating: the same tournament, extended
		 * (ids run round-major, so its games keep their ids). */
		g_hash_table_remove(a, "games");
		g_hash_table_remove(b, "games");
		diff = identity_diff(old_identity, identity);
		if (g_hash_table_size(a) == g_hash_table_size(b) && h.per_seating < cfg->games) {
			GHashTableIter it;
			gpointer k, v;
			gboolean same = TRUE;

			g_hash_table_iter_init(&it, a);
			while (g_hash_table_iter_next(&it, &k, &v))
				same = same && !g_strcmp0(v, g_hash_table_lookup(b, k));
			if (same) {
				*extend_from = h.per_seating;
				journal_header_clear(&h);
				return TRUE;
			}
		}
	} else {
		/* An older journal: what its header holds. */
		g_autofree char *old_bots = g_strjoinv(",", h.bots);
		g_autofree char *new_bots = NULL;
		GString *d = g_string_new(NULL);

		g_ptr_array_add(cfg->bot_names, NULL);
		new_bots = g_strjoinv(",", (char **)cfg->bot_names->pdata);
		g_ptr_array_remove_index(cfg->bot_names, cfg->bot_names->len - 1);
		if (strcmp(h.variant, cfg->variant->name))
			g_string_append_printf(d, "variant: was %s, now %s; ", h.variant, cfg->variant->name);
		if (h.nseats != cfg->nseats)
			g_string_append_printf(d, "players: was %d, now %d; ", h.nseats, cfg->nseats);
		if (h.per_seating != cfg->games)
			g_string_append_printf(d, "games: was %d, now %d; ", h.per_seating, cfg->games);
		if (h.seed != cfg->seed)
			g_string_append_printf(d, "seed: was %" G_GUINT64_FORMAT ", now %" G_GUINT64_FORMAT "; ",
					       h.seed, cfg->seed);
		if (strcmp(old_bots, new_bots))
			g_string_append_printf(d, "bots: was %s, now %s; ", old_bots, new_bots);
		if (g_strcmp0(h.sprt, cfg->sprt))
			g_string_append_printf(d, "sprt: was %s, now %s; ", h.sprt ? h.sprt : "(none)",
					       cfg->sprt ? cfg->sprt : "(none)");
		g_string_append(d, "or the options, time control or fault policy (this journal "
				"predates " IDENTITY_FILE ")");
		diff = g_string_free(d, FALSE);
	}
	g_set_error(error, JOURNAL_ERROR, JOURNAL_ERROR_MISMATCH,
		    "%s belongs to another tournament: %s. Use another output directory, or the "
		    "old settings to resume it", cfg->output, diff);
	journal_header_clear(&h);
	return FALSE;
}

/* ---- signals ---------------------------------------------------------- */

static volatile sig_atomic_t signals_seen;

static void on_signal(int sig)
{
	(void)sig;
	signals_seen++;
}

/* On: count SIGINT and SIGTERM; off: give back the handlers there were
 * (the referee's, which kill every bot as it dies). */
static void signals_install(gboolean on)
{
	static struct sigaction old_int, old_term;
	struct sigaction sa;

	if (on) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
	} else {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	signals_seen = 0;
}

/* ---- the run loop ----------------------------------------------------- */

typedef struct Run Run;

typedef struct {
	Run *run;
	int index;
	GThread *thread;
	int game;		/* index in run->todo in flight, or -1 */
	gint64 started;		/* monotonic us */
	gboolean abandoned;	/* the watchdog gave up on it */
	gboolean done;		/* the thread has left its loop */
} Worker;

typedef struct {
	int worker;
	gboolean exited;	/* not a game: the worker has left its loop */
	gboolean ok;
	JournalGame game;
	GError *error;
} Finished;

struct Run {
	const TournamentConfig *cfg;
	const TournamentRunner *runner;
	Schedule *schedule;
	GArray *todo;		/* int game ids */
	int *left;		/* by bot: its games in todo from next on */
	GMutex lock;
	GCond moved;		/* with --sprt: a game ended or the run stopped */
	guint next;		/* cursor into todo */
	gboolean stop;		/* start no more games */
	GPtrArray *workers;	/* Worker* */
	GAsyncQueue *finished;	/* Finished* */
	int ncpu;		/* CPUs this process may run on */
	int cpus[CPU_SETSIZE];	/* which they are, for pinning */
	/* The main thread's own, no lock: */
	Journal *journal;
	gboolean tty;		/* stderr is a terminal */
	int live;		/* workers not yet exited nor abandoned */
	int total;		/* games in this shard */
	int done;		/* recorded, by earlier runs too */
	int played;		/* recorded by this run */
	int faulted;		/* of those, games with a fault */
	int failed;		/* referee failures and abandoned games */
	gboolean interrupted;	/* a first signal came */
	gboolean abandoned;	/* some thread may still be inside a game */
	/* With --sprt, under lock: every game finished (recorded or about
	 * to be), and whether the test has decided on them. */
	GPtrArray *recorded;	/* JournalGame* */
	gboolean decided;
	SprtDecision decision;
	gboolean decided_said;	/* the main thread's: said so */
	/* The main thread's: bots that cannot start. */
	gboolean *started;	/* by bot: it started in some game */
	gboolean *nostart_said;	/* by bot: named on stderr already */
	GPtrArray *notes;	/* char*: for the standings */
	int nostart;		/* games left out of the journal: a bot in
				 * them could not start and the run stops */
};

/*
 * With --sprt: add `n` finished games and run the test on every game so
 * far; once it decides, start no more games (those in flight finish and
 * are recorded). Called under run->lock by the workers, as each game
 * ends, so a fast stream of games stops at once.
 */
static void run_sprt_locked(Run *run, const JournalGame *const *games, guint n)
{
	g_autoptr(GArray) pairs = NULL;
	SprtResult r;

	if (!run->cfg->sprt)
		return;
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(run->recorded, g_memdup2(games[i], sizeof(JournalGame)));
	if (run->decided)
		return;
	pairs = sprt_pairs(run->recorded);
	sprt_run(&run->cfg->sprt_params, (SprtPair *)pairs->data, (int)pairs->len, &r);
	if (r.decision == SPRT_CONTINUE)
		return;
	run->decided = TRUE;
	run->decision = r.decision;
	run->stop = TRUE;
}

/*
 * With --sprt the test reads pairs in round order, so a game still in
 * flight holds back every pair after it. Were the other workers free to
 * run ahead, one slow (or descheduled) game could let them play the
 * rest of the schedule before the test may decide. So a worker starts no
 * game more than SPRT_WINDOW rounds per worker past the oldest round in
 * flight; it waits for that game instead. Under run->lock.
 */
#define SPRT_WINDOW 2

static gboolean sprt_may_start_locked(Run *run, int id)
{
	int oldest = INT_MAX;

	if (!run->cfg->sprt)
		return TRUE;
	for (guint i = 0; i < run->workers->len; i++) {
		const Worker *o = g_ptr_array_index(run->workers, i);

		/* An abandoned game is replayed on resume, not awaited. */
		if (o->game >= 0 && !o->abandoned)
			oldest = MIN(oldest, run->schedule->game[g_array_index(run->todo, int, o->game)].round);
	}
	return oldest == INT_MAX ||
	       run->schedule->game[id].round <= oldest + SPRT_WINDOW * run->cfg->concurrency;
}

static gpointer worker_main(gpointer data)
{
	Worker *w = data;
	Run *run = w->run;
	const TournamentConfig *cfg = run->cfg;
	gpointer state = run->runner->worker_new ? run->runner->worker_new(cfg, w->index) : NULL;
	int cpu = cfg->pin > 0 ? run->cpus[w->index % run->ncpu] : -1;

	if (cpu >= 0) {
		/* This thread talks to the game's bots: on their CPU, a pipe
		 * round trip needs no cross-CPU wakeup. */
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	for (;;) {
		Finished *f;
		const ScheduleGame *sg;
		g_autofree char *rel = NULL;
		g_autofree char *log = NULL;
		int id;
		int left[VARIANT_MAX_PLAYERS];

		g_mutex_lock(&run->lock);
		while (!run->stop && !w->abandoned && run->next < run->todo->len &&
		       !sprt_may_start_locked(run, g_array_index(run->todo, int, run->next)))
			/* Timed: a stop or an abandon need not signal. */
			g_cond_wait_until(&run->moved, &run->lock,
					  g_get_monotonic_time() + G_TIME_SPAN_MILLISECOND * 50);
		if (run->stop || w->abandoned || run->next >= run->todo->len) {
			w->done = TRUE;
			g_mutex_unlock(&run->lock);
			break;
		}
		w->game = (int)run->next++;
		w->started = g_get_monotonic_time();
		id = g_array_index(run->todo, int, w->game);
		sg = &run->schedule->game[id];
		for (int k = 0; k < sg->nseats; k++)
			left[k] = run->left[sg->bot[k]]--;
		g_mutex_unlock(&run->lock);

		f = g_new0(Finished, 1);
		f->worker = w->index;
		rel = g_strdup_printf("games/%06d.log", id);
		log = g_build_filename(cfg->output, rel, NULL);
		f->ok = run->runner->play(state, cfg, sg, left, log, cpu, &f->game, &f->error);
		f->game.id = id;
		f->game.round = sg->round;
		f->game.seed = sg->seed;
		f->game.nseats = sg->nseats;
		for (int k = 0; k < sg->nseats; k++)
			f->game.bot[k] = sg->bot[k];
		f->game.wall_ms = (g_get_monotonic_time() - w->started) / 1000;
		g_strlcpy(f->game.log, rel, sizeof(f->game.log));

		g_mutex_lock(&run->lock);
		w->game = -1;
		g_cond_broadcast(&run->moved);
		if (!f->ok)
			run->stop = TRUE;	/* the referee cannot work: stop */
		if (w->abandoned) {
			/* Too late: the game will be played again on resume. */
			g_mutex_unlock(&run->lock);
			g_clear_error(&f->error);
			g_free(f);
			break;
		}
		if (f->ok) {
			const JournalGame *done = &f->game;

			run_sprt_locked(run, &done, 1);
		}
		g_mutex_unlock(&run->lock);
		g_async_queue_push(run->finished, f);
	}
	if (run->runner->worker_free)
		run->runner->worker_free(state);
	/* Tell the main thread we are done. */
	{
		Finished *f = g_new0(Finished, 1);

		f->worker = w->index;
		f->exited = TRUE;
		g_async_queue_push(run->finished, f);
	}
	return NULL;
}

static Worker *worker_start(Run *run, int index)
{
	Worker *w = g_new0(Worker, 1);

	w->run = run;
	w->index = index;
	w->game = -1;
	g_mutex_lock(&run->lock);	/* workers read the list (--sprt) */
	g_ptr_array_add(run->workers, w);
	g_mutex_unlock(&run->lock);
	w->thread = g_thread_new("tournament-worker", worker_main, w);
	return w;
}

static char *shell_word(const char *w)
{
	if (*w && !strpbrk(w, " \t\n'\"\\$`*?[]{}()<>|&;#~!"))
		return g_strdup(w);
	return g_shell_quote(w);
}

/* The command that resumes: the referee, then the subcommand's argv. */
static char *resume_command(const TournamentConfig *cfg)
{
	GString *s = g_string_new(NULL);
	g_autofree char *prog = shell_word(cfg->referee ? cfg->referee : "referee");

	g_string_append(s, prog);
	for (int i = 0; cfg->argv && cfg->argv[i]; i++) {
		g_autofree char *q = shell_word(cfg->argv[i]);

		g_string_append_printf(s, " %s", q);
	}
	return g_string_free(s, FALSE);
}

static void format_duration(char *buf, gsize size, double s)
{
	if (s < 100)
		g_snprintf(buf, size, "%.0fs", s);
	else if (s < 6000)
		g_snprintf(buf, size, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
	else
		g_snprintf(buf, size, "%.0fh%02.0fm", floor(s / 3600), fmod(s / 60, 60));
}

/* The progress line: games done of total, rate and time left this run,
 * and how many of this run's games had a fault. */
static void progress(const TournamentConfig *cfg, gboolean tty, int done, int total,
		     int played, int faulted, gint64 start, gboolean last)
{
	char faults[48] = "";

	static gint64 last_plain;
	double secs = (g_get_monotonic_time() - start) / 1e6;
	double rate = secs > 0 ? played / secs : 0;
	char left[32] = "?";

	if (!cfg->progress)
		return;
	if (!tty && !last && g_get_monotonic_time() - last_plain < PLAIN_PROGRESS_S * G_USEC_PER_SEC)
		return;
	last_plain = g_get_monotonic_time();
	if (rate > 0)
		format_duration(left, sizeof(left), (total - done) / rate);
	if (faulted)
		g_snprintf(faults, sizeof(faults), ", %d with faults", faulted);
	if (played == 0 && !last)
		fprintf(stderr, "%s%s: %d/%d games, starting%s", tty ? "\r" : "",
			cfg->variant->name, done, total, tty ? "\033[K" : "\n");
	else
		fprintf(stderr, "%s%s: %d/%d games, %.1f games/s, %s left%s%s", tty ? "\r" : "",
			cfg->variant->name, done, total, rate, left, faults, tty ? "\033[K" : "\n");
	if (tty && last)
		fputc('\n', stderr);
	fflush(stderr);
}

/* Read the journal and write/print the standings; `partial` and the
 * notes (char*, or NULL) go at their top. */
static int finish(const TournamentConfig *cfg, const char *journal_path, gboolean print,
		  gboolean partial, const GPtrArray *notes)
{
	JournalHeader h = { 0 };
	g_autoptr(GPtrArray) games = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(Standings) st = NULL;
	g_autofree char *text = NULL;
	g_autofree char *json = g_build_filename(cfg->output, "standings.json", NULL);
	g_autofree char *csv = g_build_filename(cfg->output, "games.csv", NULL);
	g_autofree char *txt = g_build_filename(cfg->output, "standings.txt", NULL);

	if (!journal_read(journal_path, &h, &games, NULL, &error)) {
		fprintf(stderr, "referee: %s\n", error->message);
		return 1;
	}
	st = standings_new(&h, games, cfg->bootstrap);
	journal_header_clear(&h);
	st->partial = partial;
	for (guint i = 0; notes && i < notes->len; i++)
		standings_add_note(st, "%s", (const char *)g_ptr_array_index(notes, i));
	text = standings_text(st, cfg->output, cfg->referee ? cfg->referee : "referee");
	g_autoptr(GPtrArray) logs = g_ptr_array_new();
	for (guint i = 0; i < games->len; i++) {
		JournalGame *g = g_ptr_array_index(games, i);
		if (g->log[0] && strcmp(g->log, "-") != 0)
			g_ptr_array_add(logs, g->log);
	}
	if (!standings_write_json(st, json, &error) || !standings_write_csv(st, csv, &error) ||
	    !g_file_set_contents(txt, text, -1, &error) || !report_write(cfg->output, logs, &error)) {
		fprintf(stderr, "referee: %s\n", error->message);
		return 1;
	}
	if (print) {
		fputs(text, stdout);
		fflush(stdout);
	}
	return 0;
}

/* Start no more games. */
static void run_stop(Run *run)
{
	g_mutex_lock(&run->lock);
	run->stop = TRUE;
	g_mutex_unlock(&run->lock);
}

/* A message on stderr, on a line of its own after the progress line. */
static void run_say(const Run *run, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void run_say(const Run *run, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "%sreferee tournament: %s\n", run->tty ? "\n" : "", msg);
}

/*
 * A finished game in which a bot could not start, in its first game of
 * the run or of the journal: name it and the reason on stderr (once), add
 * a note for the standings, and unless keep_going stop the run and return
 * TRUE: the game stays out of the journal. A bot that started once and
 * fails later has a fault like any other.
 */
static gboolean run_nostart(Run *run, const JournalGame *g)
{
	const TournamentConfig *cfg = run->cfg;
	gboolean drop = FALSE;

	for (int k = 0; k < g->nseats; k++) {
		int b = g->bot[k];
		const char *name = g_ptr_array_index(cfg->bot_names, b);
		g_autofree char *log = NULL, *why = NULL;

		if (!nostart_faults_text(g->seat[k].faults, g->seat[k].moves)) {
			run->started[b] = TRUE;
			continue;
		}
		if (run->started[b])
			continue;
		if (!cfg->keep_going)
			drop = TRUE;
		if (run->nostart_said[b])
			continue;
		run->nostart_said[b] = TRUE;
		log = g_build_filename(cfg->output, g->log, NULL);
		why = nostart_reason(log, k);
		run_say(run, "bot %s (%s) cannot start: %s%s", name,
			(const char *)g_ptr_array_index(cfg->bot_commands, b), why,
			cfg->keep_going ? " (--keep-going: its games are forfeits)"
					: "; starting no more games");
		g_ptr_array_add(run->notes, g_strdup_printf("bot %s (%s) cannot start: %s%s", name,
			(const char *)g_ptr_array_index(cfg->bot_commands, b), why,
			cfg->keep_going ? "; its games count as forfeits" : ""));
	}
	if (drop) {
		run->nostart++;
		run_stop(run);
	}
	return drop;
}

/*
 * Wait up to a tick for finished games, take every one that is ready and
 * record them with one write and one flush (a group commit: with a fast
 * stream of games the flush, not the games, would set the pace). A
 * referee failure or a journal that cannot be written stops the run.
 */
static void run_collect(Run *run)
{
	g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func(g_free);
	g_autofree JournalGame **games = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) popped = g_ptr_array_new();
	Finished *f = g_async_queue_timeout_pop(run->finished, TICK_MS * 1000);

	for (; f; f = g_async_queue_try_pop(run->finished))
		g_ptr_array_add(popped, f);
	/* Their logs and stderr files whole before anything reads them or
	 * the journal records them: the referee's runner writes them on
	 * helper threads (referee/asyncfile.h). */
	if (popped->len)
		asyncfile_settle();
	for (guint p = 0; p < popped->len; p++) {
		f = g_ptr_array_index(popped, p);
		if (f->exited) {
			Worker *w = g_ptr_array_index(run->workers, f->worker);

			/* An abandoned worker was counted out already. */
			if (!w->abandoned)
				run->live--;
			g_free(f);
		} else if (!f->ok) {
			run_say(run, "game %d: %s", f->game.id, f->error ? f->error->message : "failed");
			run->failed++;
			run_stop(run);
			g_clear_error(&f->error);
			g_free(f);
		} else if (run_nostart(run, &f->game)) {
			g_free(f);	/* replayed on resume */
		} else {
			g_ptr_array_add(batch, f);
		}
	}
	if (batch->len == 0)
		return;
	for (guint i = 0; i < batch->len;) {
		Finished *got = g_ptr_array_index(batch, i);
		g_autofree char *path = g_build_filename(run->cfg->output, got->game.log, NULL);
		g_autofree char *why = asyncfile_failure(path);

		if (!why) {
			i++;
			continue;
		}
		run_say(run, "game %d: the log: %s", got->game.id, why);	/* played again on resume */
		run->failed++;
		run_stop(run);
		g_ptr_array_remove_index(batch, i);
	}
	if (batch->len == 0)
		return;
	games = g_new(JournalGame *, batch->len);
	for (guint i = 0; i < batch->len; i++)
		games[i] = &((Finished *)g_ptr_array_index(batch, i))->game;
	if (!journal_append_many(run->journal, (const JournalGame *const *)games, batch->len, &error)) {
		run_say(run, "%s", error->message);
		run->failed++;
		run_stop(run);
		return;
	}
	run->done += (int)batch->len;
	run->played += (int)batch->len;
	if (run->decided && !run->decided_said) {
		run->decided_said = TRUE;
		if (run->cfg->progress)
			run_say(run, "SPRT %s: starting no more games", sprt_decision_name(run->decision));
	}
	for (guint i = 0; i < batch->len; i++)
		for (int k = 0; k < games[i]->nseats; k++)
			if (games[i]->seat[k].faults[0]) {
				run->faulted++;
				break;
			}
}

/* The first signal: start no more games, say how many are in flight. */
static void run_interrupt(Run *run)
{
	int flying = 0;

	run->interrupted = TRUE;
	g_mutex_lock(&run->lock);
	run->stop = TRUE;
	for (guint i = 0; i < run->workers->len; i++)
		flying += ((Worker *)g_ptr_array_index(run->workers, i))->game >= 0;
	g_mutex_unlock(&run->lock);
	run_say(run, "stopping: finishing %d game%s in flight (interrupt again to abandon them)",
		flying, flying == 1 ? "" : "s");
}

/* The watchdog: a game past its time is abandoned (it is replayed on
 * resume), and unless the run is stopping a fresh worker takes the hung
 * one's place. */
static void run_watchdog(Run *run, gint64 now)
{
	gint64 limit = (gint64)run->cfg->watchdog_s * G_USEC_PER_SEC;

	g_mutex_lock(&run->lock);
	for (guint i = 0; i < run->workers->len; i++) {
		Worker *w = g_ptr_array_index(run->workers, i);

		if (w->game < 0 || w->abandoned || now - w->started <= limit)
			continue;
		w->abandoned = TRUE;
		run->abandoned = TRUE;
		run->failed++;
		run_say(run, "watchdog: game %d has run over %d s; abandoned (it will be replayed on resume)",
			g_array_index(run->todo, int, w->game), run->cfg->watchdog_s);
		if (run->stop) {
			run->live--;
		} else {
			g_mutex_unlock(&run->lock);
			worker_start(run, (int)run->workers->len);
			g_mutex_lock(&run->lock);
		}
	}
	g_mutex_unlock(&run->lock);
}

/* Play the games of run->todo until they are done, the run stops, or a
 * second signal abandons what is in flight. */
static void run_loop(Run *run)
{
	gint64 start = g_get_monotonic_time(), last_draw = 0;

	signals_install(TRUE);
	run->live = MIN(run->cfg->concurrency, (int)run->todo->len);
	for (int i = 0; i < run->live; i++)
		worker_start(run, i);
	while (run->live > 0) {
		gint64 now;

		run_collect(run);
		now = g_get_monotonic_time();
		if (signals_seen == 1 && !run->interrupted)
			run_interrupt(run);
		if (signals_seen >= 2) {
			run->interrupted = TRUE;
			run->abandoned = TRUE;
			break;
		}
		run_watchdog(run, now);
		if (now - last_draw > 250 * 1000) {
			progress(run->cfg, run->tty, run->done, run->total, run->played, run->faulted, start, FALSE);
			last_draw = now;
		}
	}
	progress(run->cfg, run->tty, run->done, run->total, run->played, run->faulted, start, TRUE);
	signals_install(FALSE);
}

/* Whether a game of the schedule is played: every one, or with a
 * gauntlet those its bot sits in. */
static gboolean in_gauntlet(const TournamentConfig *cfg, const ScheduleGame *g)
{
	if (cfg->gauntlet_bot < 0)
		return TRUE;
	for (int k = 0; k < g->nseats; k++)
		if (g->bot[k] == cfg->gauntlet_bot)
			return TRUE;
	return FALSE;
}

int tournament_run(TournamentConfig *cfg, const TournamentRunner *runner)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *canonical = NULL;
	g_autofree char *fp = NULL;
	g_autofree char *identity = NULL;
	g_autofree char *journal_path = NULL;
	int extend_from = 0;
	g_autofree char *games_dir = NULL;
	g_autoptr(Schedule) schedule = NULL;
	g_autoptr(GPtrArray) have = NULL;
	g_autoptr(GHashTable) done_ids = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_autoptr(Journal) journal = NULL;
	g_autofree char *resume = NULL;
	JournalHeader h = { 0 };
	Run *run;
	int status;

	if (!config_resolve(cfg, &error) || !runner->prepare(cfg, &canonical, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 2;
	}
	if (cfg->watchdog_s <= 0)
		cfg->watchdog_s = 3600;
	journal_path = g_build_filename(cfg->output, JOURNAL_FILE, NULL);
	if (!seed_choose(cfg, journal_path, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 1;
	}
	schedule = schedule_new((int)cfg->bot_names->len, cfg->nseats, cfg->games, cfg->seed, &error);
	if (!schedule) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 2;
	}
	identity = identity_text(cfg, canonical);
	fp = g_compute_checksum_for_string(G_CHECKSUM_SHA256, identity, -1);
	if (!output_check(cfg, journal_path, identity, fp, &extend_from, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 1;
	}
	games_dir = g_build_filename(cfg->output, "games", NULL);
	if (g_mkdir_with_parents(games_dir, 0755) < 0) {
		fprintf(stderr, "referee tournament: cannot create %s: %s\n", games_dir, g_strerror(errno));
		return 1;
	}
	h.fingerprint = fp;
	h.variant = (char *)cfg->variant->name;
	h.nseats = cfg->nseats;
	h.total = 0;
	for (int id = 0; id < schedule->n; id++)
		h.total += in_gauntlet(cfg, &schedule->game[id]);
	h.seed = cfg->seed;
	h.per_seating = cfg->games;
	h.bootstrap = cfg->bootstrap;
	h.sprt = cfg->sprt;
	g_ptr_array_add(cfg->bot_names, NULL);
	h.bots = (char **)cfg->bot_names->pdata;
	if (extend_from > 0) {
		g_autofree char *id_path = g_build_filename(cfg->output, IDENTITY_FILE, NULL);

		if (!journal_rewrite_header(journal_path, &h, &error) ||
		    !g_file_set_contents(id_path, identity, -1, &error)) {
			g_ptr_array_remove_index(cfg->bot_names, cfg->bot_names->len - 1);
			fprintf(stderr, "referee tournament: %s\n", error->message);
			return 1;
		}
		fprintf(stderr, "referee tournament: extending %s from %d to %d games per seating: "
			"every game played is kept, only the new ones are played\n", cfg->output,
			extend_from, cfg->games);
	}
	journal = journal_open(journal_path, &h, &have, &error);
	g_ptr_array_remove_index(cfg->bot_names, cfg->bot_names->len - 1);
	if (!journal) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 1;
	}
	{
		g_autofree char *id_path = g_build_filename(cfg->output, IDENTITY_FILE, NULL);

		if (!g_file_test(id_path, G_FILE_TEST_EXISTS) &&
		    !g_file_set_contents(id_path, identity, -1, &error)) {
			fprintf(stderr, "referee tournament: %s\n", error->message);
			return 1;
		}
	}
	for (guint i = 0; i < have->len; i++)
		g_hash_table_add(done_ids, GINT_TO_POINTER(((JournalGame *)g_ptr_array_index(have, i))->id + 1));

	run = g_new0(Run, 1);
	run->cfg = cfg;
	run->runner = runner;
	run->schedule = schedule;
	run->todo = g_array_new(FALSE, FALSE, sizeof(int));
	run->workers = g_ptr_array_new();
	run->finished = g_async_queue_new();
	/* Pinned games go round the CPUs this process is allowed (taskset
	 * may have narrowed them). */
	cpu_set_t allowed;
	run->ncpu = 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				run->cpus[run->ncpu++] = c;
	if (run->ncpu == 0)
		run->cpus[run->ncpu++] = 0;
	run->journal = journal;
	run->tty = isatty(2);
	run->recorded = g_ptr_array_new_with_free_func(g_free);
	g_mutex_init(&run->lock);
	g_cond_init(&run->moved);
	for (int id = 0; id < schedule->n; id++) {
		if (!schedule_in_shard(id, cfg->shard_index, cfg->shard_count) ||
		    !in_gauntlet(cfg, &schedule->game[id]))
			continue;
		run->total++;
		if (g_hash_table_contains(done_ids, GINT_TO_POINTER(id + 1)))
			run->done++;
		else
			g_array_append_val(run->todo, id);
	}
	resume = resume_command(cfg);
	/* A test the journal's games decide already plays nothing more. */
	run_sprt_locked(run, (const JournalGame *const *)have->pdata, have->len);
	if (run->decided) {
		run->decided_said = TRUE;
		g_array_set_size(run->todo, 0);
	}
	run->started = g_new0(gboolean, schedule->nbots);
	run->nostart_said = g_new0(gboolean, schedule->nbots);
	run->notes = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < have->len; i++) {
		const JournalGame *g = g_ptr_array_index(have, i);

		for (int k = 0; k < g->nseats; k++)
			if (!nostart_faults_text(g->seat[k].faults, g->seat[k].moves))
				run->started[g->bot[k]] = TRUE;
	}
	run->left = g_new0(int, schedule->nbots);
	for (guint i = 0; i < run->todo->len; i++) {
		const ScheduleGame *sg = &schedule->game[g_array_index(run->todo, int, i)];

		for (int k = 0; k < sg->nseats; k++)
			run->left[sg->bot[k]]++;
	}
	if (run->done > 0 && run->todo->len > 0)
		fprintf(stderr, "referee tournament: resuming %s: %d of %d games already played\n",
			cfg->output, run->done, run->total);
	if (cfg->concurrency * cfg->busy_per_game > run->ncpu)
		fprintf(stderr, "referee tournament: warning: %d game%s at once may keep %d bots "
			"busy on %d cores; time limits may be missed under load\n",
			cfg->concurrency, cfg->concurrency == 1 ? "" : "s",
			cfg->concurrency * cfg->busy_per_game, run->ncpu);

	run_loop(run);
	run->journal = NULL;
	if (!journal_sync(journal, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		run->failed++;
		g_clear_error(&error);
	}
	journal_free(g_steal_pointer(&journal));
	if (run->interrupted) {
		g_ptr_array_add(run->notes, g_strdup_printf("interrupted after %d of %d games", run->done,
							    run->total));
		if (finish(cfg, journal_path, cfg->print, TRUE, run->notes) == 0)
			fprintf(stderr, "referee tournament: partial standings of the games played in "
				"%s/standings.{txt,json} and %s/report.html\n", cfg->output, cfg->output);
		fprintf(stderr, "referee tournament: interrupted: %d of %d games played, all saved in %s\n"
			"referee tournament: resume with: %s\n", run->done, run->total, journal_path, resume);
		status = 130;
	} else if (run->nostart && !run->failed) {
		finish(cfg, journal_path, FALSE, TRUE, run->notes);
		fprintf(stderr, "referee tournament: stopped: a bot cannot start (see above; "
			"partial standings in %s/standings.txt); %d of %d games played.\n"
			"referee tournament: fix the bot and resume with: %s\n"
			"referee tournament: or play its games as forfeits: add --keep-going\n",
			cfg->output, run->done, run->total, resume);
		status = 1;
	} else if (run->failed) {
		fprintf(stderr, "referee tournament: %d of %d games played; after fixing the problem, "
			"resume with: %s\n", run->done, run->total, resume);
		status = 1;
	} else {
		status = finish(cfg, journal_path, cfg->print, FALSE, run->notes);
		if (status == 0 && cfg->progress)
			fprintf(stderr, "referee tournament: standings in %s/standings.{txt,json}, games in %s/games.csv\n",
				cfg->output, cfg->output);
	}
	if (run->abandoned) {
		/* Some threads may still be inside a game: keep the run and
		 * the schedule they use reachable until the process exits. */
		static Run *abandoned_run;

		abandoned_run = run;
		(void)abandoned_run;
		schedule = NULL;
		return status;
	}
	for (guint i = 0; i < run->workers->len; i++) {
		Worker *w = g_ptr_array_index(run->workers, i);

		g_thread_join(w->thread);
		g_free(w);
	}
	{
		Finished *f;

		while ((f = g_async_queue_try_pop(run->finished))) {
			g_clear_error(&f->error);
			g_free(f);
		}
	}
	g_async_queue_unref(run->finished);
	g_ptr_array_unref(run->recorded);
	g_array_free(run->todo, TRUE);
	g_free(run->left);
	g_free(run->started);
	g_free(run->nostart_said);
	g_ptr_array_unref(run->notes);
	g_ptr_array_free(run->workers, TRUE);
	g_mutex_clear(&run->lock);
	g_cond_clear(&run->moved);
	g_free(run);
	return status;
}

/* ---- merging ---------------------------------------------------------- */

static gint cmp_game_id(gconstpointer a, gconstpointer b)
{
	const JournalGame *x = *(JournalGame *const *)a, *y = *(JournalGame *const *)b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * What a merge lacks, in words (char*, into `notes`): the directories
 * whose journal could not be read (`unread`), and the games of the
 * schedule that no journal holds, by shard. Shards split the schedule by
 * game id modulo their count (schedule_in_shard()): the count is the
 * smallest N, from the number of directories given on, under which each
 * directory's games fall in one shard of its own; a shard no directory
 * holds is missing, one that holds fewer games than its share unfinished.
 * Without such an N, the missing ids themselves (the first 10).
 */
static void merge_missing(char **dirs, GPtrArray *ids_by_dir, GHashTable *seen, int total,
			  GPtrArray *unread, GPtrArray *notes)
{
	int ndirs = 0, count = 0;
	g_autofree int *shard = NULL;

	for (guint i = 0; i < unread->len; i++)
		g_ptr_array_add(notes, g_strdup(g_ptr_array_index(unread, i)));
	while (dirs[ndirs])
		ndirs++;
	shard = g_new(int, ndirs);
	for (int n = MAX(ndirs, 1); n <= total && !count; n++) {
		gboolean fits = TRUE;
		g_autofree gboolean *taken = g_new0(gboolean, n);

		for (int d = 0; d < ndirs && fits; d++) {
			GArray *ids = g_ptr_array_index(ids_by_dir, d);

			shard[d] = -1;
			for (guint k = 0; k < (ids ? ids->len : 0) && fits; k++) {
				int r = g_array_index(ids, int, k) % n;
				fits = shard[d] < 0 || shard[d] == r;
				shard[d] = r;
			}
			if (shard[d] >= 0) {
				fits = fits && !taken[shard[d]];
				taken[shard[d]] = TRUE;
			}
		}
		if (fits)
			count = n;
	}
	if (count > 1) {
		for (int i = 0; i < count; i++) {
			int want = 0, have = 0;
			const char *where = NULL;

			for (int id = i; id < total; id += count) {
				want++;
				have += g_hash_table_contains(seen, GINT_TO_POINTER(id + 1));
			}
			for (int d = 0; d < ndirs; d++)
				if (shard[d] == i && g_ptr_array_index(ids_by_dir, d))
					where = dirs[d];
			if (!where)
				g_ptr_array_add(notes, g_strdup_printf("shard %d/%d: missing (%d games; no "
								       "directory given holds any)", i, count, want));
			else if (have < want)
				g_ptr_array_add(notes, g_strdup_printf("shard %d/%d (%s): unfinished, %d of %d "
								       "games", i, count, where, have, want));
		}
		return;
	}
	GString *ids = g_string_new(NULL);
	int missing = 0;
	for (int id = 0; id < total; id++)
		if (!g_hash_table_contains(seen, GINT_TO_POINTER(id + 1)) && ++missing <= 10)
			g_string_append_printf(ids, "%s%d", missing > 1 ? ", " : "", id);
	g_ptr_array_add(notes, g_strdup_printf("%d of %d games missing (game ids %s%s)", missing, total,
					       ids->str, missing > 10 ? ", ..." : ""));
	g_string_free(ids, TRUE);
}

int tournament_merge(char **dirs, const char *output, int bootstrap, const char *referee,
		     gboolean print)
{
	JournalHeader first = { 0 };
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_autoptr(GPtrArray) ids_by_dir = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	g_autoptr(GPtrArray) unread = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(Standings) st = NULL;
	g_autofree char *text = NULL;
	const char *first_dir = NULL;
	int status = 0;

	for (int d = 0; dirs[d]; d++) {
		g_autofree char *path = g_build_filename(dirs[d], JOURNAL_FILE, NULL);
		g_autoptr(GError) error = NULL;
		g_autoptr(GPtrArray) games = NULL;
		JournalHeader h = { 0 };

		g_ptr_array_add(ids_by_dir, NULL);
		if (!journal_read(path, &h, &games, NULL, &error)) {
			/* a shard that never started, or is gone: said, and the
			 * standings of the others marked partial */
			fprintf(stderr, "referee merge: %s\n", error->message);
			g_ptr_array_add(unread, g_strdup_printf("%s: no journal (%s)", dirs[d], error->message));
			continue;
		}
		if (!first_dir) {
			first = h;
			first_dir = dirs[d];
		} else {
			gboolean same = !strcmp(h.fingerprint, first.fingerprint);

			journal_header_clear(&h);
			if (!same) {
				fprintf(stderr, "referee merge: %s is from another tournament than %s/%s\n",
					path, first_dir, JOURNAL_FILE);
				journal_header_clear(&first);
				return 1;
			}
		}
		GArray *ids = g_array_new(FALSE, FALSE, sizeof(int));
		g_ptr_array_index(ids_by_dir, d) = ids;
		for (guint i = 0; i < games->len; i++) {
			JournalGame *g = g_ptr_array_index(games, i);

			g_array_append_val(ids, g->id);
			if (g_hash_table_contains(seen, GINT_TO_POINTER(g->id + 1)))
				continue;
			g_hash_table_add(seen, GINT_TO_POINTER(g->id + 1));
			/* Logs stay where they are: name them from the merge. */
			if (g->log[0] && !g_path_is_absolute(g->log)) {
				g_autofree char *rel = g_build_filename(dirs[d], g->log, NULL);
				g_autofree char *abs = g_canonicalize_filename(rel, NULL);

				if (strlen(abs) < sizeof(g->log) && !strchr(abs, ' '))
					g_strlcpy(g->log, abs, sizeof(g->log));
			}
			g_ptr_array_add(all, g_ptr_array_steal_index_fast(games, i));
			i--;
		}
	}
	if (!first_dir) {
		fprintf(stderr, "referee merge: no journal to merge\n");
		return 1;
	}
	g_ptr_array_sort(all, cmp_game_id);
	st = standings_new(&first, all, bootstrap >= 0 ? bootstrap :
			   first.bootstrap > 0 ? first.bootstrap : RATINGS_BOOTSTRAP);
	if (all->len < (guint)first.total || unread->len) {
		merge_missing(dirs, ids_by_dir, seen, first.total, unread, notes);
		st->partial = TRUE;
		for (guint i = 0; i < notes->len; i++)
			standings_add_note(st, "%s", (const char *)g_ptr_array_index(notes, i));
		status = 1;
	}
	text = standings_text(st, output ? output : ".", referee);
	if (output) {
		g_autoptr(GError) error = NULL;
		g_autofree char *jpath = g_build_filename(output, JOURNAL_FILE, NULL);
		g_autofree char *json = g_build_filename(output, "standings.json", NULL);
		g_autofree char *csv = g_build_filename(output, "games.csv", NULL);
		g_autofree char *txt = g_build_filename(output, "standings.txt", NULL);
		g_autoptr(Journal) j = NULL;
		g_autoptr(GPtrArray) have = NULL;

		if (g_mkdir_with_parents(output, 0755) < 0) {
			fprintf(stderr, "referee merge: cannot create %s: %s\n", output, g_strerror(errno));
			journal_header_clear(&first);
			return 1;
		}
		{
			/* The settings, for the report (time control, policy). */
			g_autofree char *from = g_build_filename(first_dir, IDENTITY_FILE, NULL);
			g_autofree char *to = g_build_filename(output, IDENTITY_FILE, NULL);
			g_autofree char *id = NULL;

			if (!g_file_test(to, G_FILE_TEST_EXISTS) && g_file_get_contents(from, &id, NULL, NULL))
				g_file_set_contents(to, id, -1, NULL);
		}
		j = journal_open(jpath, &first, &have, &error);
		if (j) {
			g_autoptr(GHashTable) there = g_hash_table_new(g_direct_hash, g_direct_equal);

			for (guint k = 0; k < have->len; k++)
				g_hash_table_add(there, GINT_TO_POINTER(((JournalGame *)g_ptr_array_index(have, k))->id + 1));
			for (guint i = 0; i < all->len; i++) {
				JournalGame *g = g_ptr_array_index(all, i);

				if (!g_hash_table_contains(there, GINT_TO_POINTER(g->id + 1)) &&
				    !journal_append(j, g, &error))
					break;
			}
		}
		g_autoptr(GPtrArray) logs = g_ptr_array_new();
		for (guint i = 0; i < all->len; i++) {
			JournalGame *g = g_ptr_array_index(all, i);
			if (g->log[0] && strcmp(g->log, "-") != 0)
				g_ptr_array_add(logs, g->log);
		}
		if (error || !standings_write_json(st, json, &error) ||
		    !standings_write_csv(st, csv, &error) ||
		    !g_file_set_contents(txt, text, -1, &error) || !report_write(output, logs, &error)) {
			fprintf(stderr, "referee merge: %s\n", error->message);
			status = 1;
		}
	}
	if (st->partial) {
		fprintf(stderr, "referee merge: partial standings, %u of %d games:", all->len, first.total);
		for (guint i = 0; i < notes->len; i++)
			fprintf(stderr, "%s %s", i ? ";" : "", (const char *)g_ptr_array_index(notes, i));
		fputc('\n', stderr);
	}
	if (print) {
		fputs(text, stdout);
		fflush(stdout);
	}
	journal_header_clear(&first);
	return status;
}
