/* game: placeholder; the loop lands next. */
#include "game.h"

#include <signal.h>
#include <string.h>

static const char *const fault_names[GAME_FAULT_COUNT] = {
	"start", "declined", "timeout", "malformed", "line-too-long", "illegal", "crash",
};

G_DEFINE_QUARK(tetrarena-game-error, game_error)

const char *game_fault_name(GameFault f)
{
	return fault_names[f];
}

int game_fault_from_name(const char *name)
{
	for (int i = 0; i < GAME_FAULT_COUNT; i++)
		if (g_strcmp0(name, fault_names[i]) == 0)
			return i;
	return -1;
}

const char *game_end_name(GameEnd e)
{
	static const char *const names[] = {"end", "faults", "limit"};
	return names[e];
}

void game_spec_init(GameSpec *spec, const Variant *v, int nplayers, guint64 seed)
{
	memset(spec, 0, sizeof(*spec));
	spec->variant = v;
	variant_config_default(v, nplayers, &spec->config);
	spec->seed = seed;
	timectl_default(&spec->time);
	spec->policy = GAME_POLICY_VARIANT;
	spec->cpu = -1;
}

gboolean game_run(const GameSpec *spec, GameResult *result, GError **error)
{
	(void)spec;
	memset(result, 0, sizeof(*result));
	signal(SIGPIPE, SIG_IGN);
	g_set_error(error, GAME_ERROR, 0, "game_run: not yet");
	return FALSE;
}

void game_result_clear(GameResult *result)
{
	for (int i = 0; i < result->nseats; i++) {
		g_free(result->seat[i].name);
		bot_free(result->seat[i].bot);
	}
	g_free(result->log_path);
	memset(result, 0, sizeof(*result));
}

char *game_result_to_json(const GameSpec *spec, const GameResult *result)
{
	(void)spec;
	(void)result;
	return g_strdup("{}");
}
