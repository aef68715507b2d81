/*
 * ladder: settings and entries. See ladder.h.
 */
#include "ladder.h"

#include <string.h>
#include <sys/random.h>

#include "engine/rng.h"

G_DEFINE_QUARK(tetrarena-ladder-error-quark, ladder_error)

void ladder_settings_clear(LadderSettings *s)
{
	g_clear_pointer(&s->time, g_free);
	g_clear_pointer(&s->options, g_free);
}

void ladder_settings_default_players(const Variant *v, int *min, int *max)
{
	*min = MAX(2, v->min_players);
	*max = MAX(*min, v->max_players);
}

static gboolean bad(GError **error, const char *fmt, const char *a, const char *b)
{
	g_set_error(error, LADDER_ERROR, LADDER_ERROR_SETTINGS, fmt, a, b);
	return FALSE;
}

/* Check every option against the variant, on a config of n players. */
static gboolean apply_options(const Variant *v, const char *options, VariantConfig *cfg, GError **error)
{
	g_auto(GStrv) kv = g_strsplit(options ? options : "", ",", -1);

	for (int i = 0; kv[i]; i++) {
		if (!kv[i][0])
			continue;
		char *eq = strchr(kv[i], '=');
		if (!eq)
			eq = strchr(kv[i], ':');
		if (!eq)
			return bad(error, "option '%s': want KEY=VALUE%s", kv[i], "");
		*eq = '\0';
		VariantError ve = variant_option_set(v, cfg, kv[i], eq + 1);
		if (ve != VARIANT_OK)
			return bad(error, "option %s: %s", kv[i], variant_error_string(ve));
	}
	return TRUE;
}

/* "N", "NK", "NM", "NG" (binary units), from 1 byte to 1 TiB. */
static gboolean parse_size(const char *text, guint64 *out)
{
	g_autofree char *t = g_strdup(text);
	size_t n = strlen(t);
	guint64 unit = 1, v = 0;

	if (n > 1 && strchr("KkMmGg", t[n - 1])) {
		char u = g_ascii_toupper(t[n - 1]);
		unit = u == 'K' ? 1 << 10 : u == 'M' ? 1 << 20 : 1 << 30;
		t[n - 1] = '\0';
	}
	if (!g_ascii_string_to_unsigned(t, 10, 1, (G_GUINT64_CONSTANT(1) << 40) / unit, &v, NULL))
		return FALSE;
	*out = v * unit;
	return TRUE;
}

gboolean ladder_settings_parse(LadderSettings *s, const char *variant, const char *players,
			       const char *time, const char *options, const char *seed,
			       const char *sandbox, const char *bot_size, const char *bot_files,
			       GError **error)
{
	memset(s, 0, sizeof(*s));
	s->variant = variant ? variant_find(variant) : NULL;
	if (!s->variant)
		return bad(error, "unknown variant '%s'%s", variant ? variant : "(none)", "");
	ladder_settings_default_players(s->variant, &s->min_players, &s->max_players);
	if (players) {
		g_auto(GStrv) mm = g_strsplit(players, "-", 2);
		gint64 lo = 0, hi = 0;
		if (!g_ascii_string_to_signed(mm[0], 10, 1, VARIANT_MAX_PLAYERS, &lo, NULL) ||
		    !g_ascii_string_to_signed(mm[1] ? mm[1] : mm[0], 10, 1, VARIANT_MAX_PLAYERS, &hi, NULL) ||
		    lo > hi)
			return bad(error, "players '%s': want P or MIN-MAX%s", players, "");
		if (lo < 2 || lo < s->variant->min_players || hi > s->variant->max_players) {
			g_set_error(error, LADDER_ERROR, LADDER_ERROR_SETTINGS,
				    "players %s: %s takes 2 to %d players in a ladder", players,
				    s->variant->name, s->variant->max_players);
			return FALSE;
		}
		s->min_players = (int)lo;
		s->max_players = (int)hi;
	}
	TimeControl tc;
	timectl_default(&tc);
	if (time && !timectl_parse(&tc, time, error)) {
		g_prefix_error(error, "time: ");
		return FALSE;
	}
	VariantConfig cfg;
	variant_config_default(s->variant, s->min_players, &cfg);
	if (!apply_options(s->variant, options, &cfg, error))
		return FALSE;
	s->seed = 0;
	if (seed) {
		if (!g_ascii_string_to_unsigned(seed, 10, 0, G_MAXUINT64, &s->seed, NULL))
			return bad(error, "seed '%s': want an unsigned 64-bit integer%s", seed, "");
	} else {
		guint64 r = 0;
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = ((guint64)g_random_int() << 32) | g_random_int();
		s->seed = r & ((G_GUINT64_CONSTANT(1) << 53) - 1);
	}
	s->sandbox = SANDBOX_AUTO;
	if (sandbox && !sandbox_mode_parse(sandbox, &s->sandbox))
		return bad(error, "sandbox '%s': want auto, on or off%s", sandbox, "");
	s->caps.size = LADDER_BOT_SIZE_DEFAULT;
	s->caps.files = LADDER_BOT_FILES_DEFAULT;
	if (bot_size && !parse_size(bot_size, &s->caps.size))
		return bad(error, "bot size '%s': want a size in bytes, or with a K, M or G suffix (1 byte to 1024G)%s",
			   bot_size, "");
	if (bot_files && !g_ascii_string_to_unsigned(bot_files, 10, 1, 10000000, &s->caps.files, NULL))
		return bad(error, "bot files '%s': want a count from 1 to 10000000%s", bot_files, "");
	s->time = g_strdup(time ? time : "");
	s->options = g_strdup(options ? options : "");
	s->suspend_after = LADDER_SUSPEND_AFTER_DEFAULT;
	return TRUE;
}

gboolean ladder_settings_set_suspend_after(LadderSettings *s, const char *text, GError **error)
{
	guint64 k = 0;

	if (!g_ascii_string_to_unsigned(text, 10, 0, 1000, &k, NULL))
		return bad(error, "suspend after '%s': want a count of faulted games in a row from 1 to 1000, "
			   "or 0 for never%s", text, "");
	s->suspend_after = (int)k;
	return TRUE;
}

gboolean ladder_settings_save(LadderDb *d, const LadderSettings *s, GError **error)
{
	g_autofree char *players = g_strdup_printf("%d-%d", s->min_players, s->max_players);
	g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, s->seed);
	g_autofree char *size = g_strdup_printf("%" G_GUINT64_FORMAT, s->caps.size);
	g_autofree char *files = g_strdup_printf("%" G_GUINT64_FORMAT, s->caps.files);
	g_autofree char *suspend = g_strdup_printf("%d", s->suspend_after);
	g_autofree char *now = ladder_db_now();

	return ladder_db_set_meta(d, "variant", s->variant->name, error) &&
	       ladder_db_set_meta(d, "players", players, error) &&
	       ladder_db_set_meta(d, "time", s->time, error) &&
	       ladder_db_set_meta(d, "options", s->options, error) &&
	       ladder_db_set_meta(d, "seed", seed, error) &&
	       ladder_db_set_meta(d, "sandbox", sandbox_mode_name(s->sandbox), error) &&
	       ladder_db_set_meta(d, "bot_size", size, error) &&
	       ladder_db_set_meta(d, "bot_files", files, error) &&
	       ladder_db_set_meta(d, "suspend_after", suspend, error) &&
	       ladder_db_set_meta(d, "created", now, error);
}

gboolean ladder_settings_load(LadderDb *d, LadderSettings *s, GError **error)
{
	g_autofree char *variant = ladder_db_meta(d, "variant");
	g_autofree char *players = ladder_db_meta(d, "players");
	g_autofree char *time = ladder_db_meta(d, "time");
	g_autofree char *options = ladder_db_meta(d, "options");
	g_autofree char *seed = ladder_db_meta(d, "seed");
	g_autofree char *sandbox = ladder_db_meta(d, "sandbox");
	/* (a ladder made before the caps has the defaults) */
	g_autofree char *bot_size = ladder_db_meta(d, "bot_size");
	g_autofree char *bot_files = ladder_db_meta(d, "bot_files");
	g_autofree char *suspend = ladder_db_meta(d, "suspend_after");

	if (!variant || !players || !seed) {
		g_set_error(error, LADDER_ERROR, LADDER_ERROR_SETTINGS, "%s: the ladder's settings are missing",
			    d->dir);
		return FALSE;
	}
	if (!ladder_settings_parse(s, variant, players, time && time[0] ? time : NULL, options, seed,
				   sandbox, bot_size, bot_files, error)) {
		g_prefix_error(error, "%s: stored settings: ", d->dir);
		return FALSE;
	}
	if (suspend && !ladder_settings_set_suspend_after(s, suspend, error)) {
		ladder_settings_clear(s);
		g_prefix_error(error, "%s: stored settings: ", d->dir);
		return FALSE;
	}
	return TRUE;
}

gboolean ladder_game_spec(const LadderSettings *s, int nplayers, guint64 seed, GameSpec *spec,
			  GError **error)
{
	game_spec_init(spec, s->variant, nplayers, seed);
	if (s->time[0] && !timectl_parse(&spec->time, s->time, error))
		return FALSE;
	spec->sandbox = s->sandbox;
	return apply_options(s->variant, s->options, &spec->config, error);
}

guint64 ladder_game_seed(guint64 master, gint64 id)
{
	return rng_derive(master, "ladder-game", (uint64_t)id) & ((G_GUINT64_CONSTANT(1) << 53) - 1);
}

const char *ladder_bot_status_name(LadderBotStatus s)
{
	static const char *const names[] = {"active", "replaced", "retired", "suspended"};

	return names[s];
}

void ladder_bot_free(LadderBot *b)
{
	if (!b)
		return;
	g_free(b->name);
	g_free(b->command);
	g_free(b->workdir);
	g_free(b->sha256);
	g_free(b->added);
	g_free(b->author);
	g_free(b->description);
	g_free(b->suspended);
	g_free(b->suspended_why);
	g_free(b);
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? g_strdup((const char *)t) : NULL;
}

GPtrArray *ladder_bots_load(LadderDb *d, GError **error)
{
	g_autoptr(GPtrArray) bots = g_ptr_array_new_with_free_func((GDestroyNotify)ladder_bot_free);
	sqlite3_stmt *st = ladder_db_prepare(d, "SELECT id, name, version, command, workdir, sha256, added, "
					     "status, author, description, suspended, suspended_why FROM bots ORDER BY id", error);
	int rc;

	if (!st)
		return NULL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		LadderBot *b = g_new0(LadderBot, 1);
		b->id = sqlite3_column_int64(st, 0);
		b->name = col_text(st, 1);
		b->version = sqlite3_column_int(st, 2);
		b->command = col_text(st, 3);
		b->workdir = col_text(st, 4);
		b->sha256 = col_text(st, 5);
		b->added = col_text(st, 6);
		const char *status = (const char *)sqlite3_column_text(st, 7);
		b->status = !g_strcmp0(status, "replaced") ? LADDER_BOT_REPLACED
			    : !g_strcmp0(status, "retired") ? LADDER_BOT_RETIRED : LADDER_BOT_ACTIVE;
		b->author = col_text(st, 8);
		b->description = col_text(st, 9);
		b->suspended = col_text(st, 10);
		b->suspended_why = col_text(st, 11);
		if (b->status == LADDER_BOT_ACTIVE && b->suspended)
			b->status = LADDER_BOT_SUSPENDED;
		g_ptr_array_add(bots, b);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		ladder_db_fail(d, rc, "reading the entries", error);
		return NULL;
	}
	return g_steal_pointer(&bots);
}

const LadderBot *ladder_bots_find(GPtrArray *bots, gint64 id)
{
	for (guint i = 0; i < bots->len; i++) {
		const LadderBot *b = g_ptr_array_index(bots, i);
		if (b->id == id)
			return b;
	}
	return NULL;
}

char *ladder_bot_label(const LadderBot *b)
{
	return b->version <= 1 ? g_strdup(b->name) : g_strdup_printf("%s.v%d", b->name, b->version);
}

BotSpec *ladder_bot_spec(const LadderBot *b, const char *dir, GError **error)
{
	g_autofree char *label = ladder_bot_label(b);
	if (b->workdir && !ladder_bot_dir_valid(dir, b->workdir, error)) {
		g_prefix_error(error, "entry %s: ", label);
		return NULL;
	}
	BotSpec *spec = bot_spec_new(b->command, label, error);

	if (!spec)
		return NULL;
	if (b->workdir) {
		spec->workdir = g_strdup(b->workdir);
		spec->confined = TRUE;
	}
	/* (no cached hash: each log records the program as it is when played) */
	return spec;
}

gboolean ladder_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 32)
		return FALSE;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-')
			return FALSE;
	return TRUE;
}

GPtrArray *ladder_log_faults(const char *path, int seat, guint max)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *data = NULL;
	g_autofree char *fault = g_strdup_printf("fault %d ", seat);
	g_autofree char *sent = g_strdup_printf("< %d ", seat);
	const char *last = NULL;
	gsize last_len = 0;

	if (!g_file_get_contents(path, &data, NULL, NULL))
		return out;
	for (char *line = data; line && *line && out->len < max;) {
		char *nl = strchr(line, '\n');
		gsize len = nl ? (gsize)(nl - line) : strlen(line);
		if (g_str_has_prefix(line, sent)) {
			last = line;
			last_len = len;
		} else if (g_str_has_prefix(line, fault)) {
			g_autofree char *f = g_strndup(line, len);
			g_ptr_array_add(out, last ? g_strdup_printf("%.*s\n%s", (int)MIN(last_len, 400), last, f)
					     : g_strdup(f));
			last = NULL;
		}
		line = nl ? nl + 1 : NULL;
	}
	return out;
}
