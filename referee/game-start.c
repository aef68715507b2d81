/*
 * game-start: the start of a game: the log's header (written by gamelog
 * from the spec), every bot started (or a kept one greeted again) with
 * what it must not see hidden from it, and the hellos collected under one
 * deadline.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "game-int.h"

/* The current directory, read once (g_get_current_dir() stats it twice:
 * for every game of a tournament, on the game's thread). The referee
 * never changes it. */
static char *current_dir(void)
{
	static gsize once;
	static char *cwd;

	if (g_once_init_enter(&once)) {
		cwd = g_get_current_dir();
		g_once_init_leave(&once, 1);
	}
	return cwd;
}

void game_write_header(Game *g)
{
	const GameSpec *spec = g->spec;
	g_auto(GStrv) chatter = g_strsplit(spec->chatter ? spec->chatter : "", "\n", -1);
	char *cwd = current_dir();
	GameLog h = {
		.referee_version = REFEREE_VERSION,
		.protocol = PROTOCOL_VERSION,
		.variant = g->v,
		.config = spec->config,
		.seed = spec->seed,
		.time = spec->time,
		.policy = g->policy,
		.sandbox = (int)g->sandbox,
		.max_faults = spec->max_faults,
		.chatter = chatter,
	};

	/* (chatter lines each end in a newline: the split's last is empty) */
	guint nchat = g_strv_length(chatter);
	if (nchat && !chatter[nchat - 1][0])
		g_clear_pointer(&chatter[nchat - 1], g_free);
	for (int p = 0; p < g->n; p++) {
		const BotSpec *bs = spec->seats[p].bot ? bot_spec(spec->seats[p].bot) : spec->seats[p].spec;
		g->sha256[p] = bs->sha256 ? g_strdup(bs->sha256) : bot_spec_hash(bs);
		h.name[p] = bs->name;
		h.sha256[p] = bs->human ? "-" : g->sha256[p];
		h.command[p] = g_strdup(bs->human ? "human" : bs->command);
		g_strdelimit(h.command[p], "\r\n", ' ');
		h.workdir[p] = bs->workdir ? bs->workdir : cwd;
		if (spec->seats[p].timed) {
			h.seat_timed |= 1u << p;
			h.seat_time[p] = spec->seats[p].time;
		}
	}
	gamelog_write_header(g->log, &h);
	for (int p = 0; p < g->n; p++)
		g_free(h.command[p]);
}

static char *stderr_path(const GameSpec *spec, int p)
{
	if (spec->stderr_dir) {
		char name[32];
		g_snprintf(name, sizeof(name), "seat%d.stderr", p);
		return g_build_filename(spec->stderr_dir, name, NULL);
	}
	if (spec->log_path)
		return g_strdup_printf("%s.seat%d.stderr", spec->log_path, p);
	return NULL;
}

/* Start every bot and collect the hellos under one deadline. */
void game_start_bots(Game *g)
{
	const GameSpec *spec = g->spec;
	char *spawn_error[VARIANT_MAX_PLAYERS] = {0};
	char *errpath[VARIANT_MAX_PLAYERS] = {0};
	/* What no bot may see: the log, every seat's stderr file (made now,
	 * empty, so that each can be hidden from the bots started before it)
	 * and the caller's directory. A bare bot's file is made at its first
	 * byte (bot.h): one from an earlier run of this game goes now. */
	const char *hide[VARIANT_MAX_PLAYERS + 3];
	int nhide = 0;
	if (spec->log_path)
		hide[nhide++] = spec->log_path;
	for (int p = 0; p < g->n; p++) {
		errpath[p] = stderr_path(spec, p);
		if (errpath[p] && g->sandbox == SANDBOX_ON && !spec->seats[p].bot) {
			int fd = open(errpath[p], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd >= 0)
				close(fd);
			hide[nhide++] = errpath[p];
		} else if (errpath[p] && !spec->seats[p].bot) {
			unlink(errpath[p]);
		}
	}
	if (spec->hide_dir)
		hide[nhide++] = spec->hide_dir;
	hide[nhide] = NULL;
	SandboxLaunch launch = {.mode = g->sandbox, .hide = hide, .cpu = spec->cpu, .games = 1};

	g->starting = TRUE;
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		if (spec->seats[p].bot) {
			s->bot = spec->seats[p].bot;
			/* each game's stderr in its own file, and its cpu
			 * limit afresh */
			bot_stderr_async(s->bot, spec->log_async);
			bot_set_stderr(s->bot, errpath[p], NULL);
			bot_renew_cpu(s->bot);
			if (bot_games(s->bot) == 0)	/* a relay's first game */
				game_queue(g, p, protocol_greeting());
		} else {
			GError *err = NULL;
			if (spec->keep_bots)
				launch.games = spec->seats[p].games;
			s->bot = bot_spawn(spec->seats[p].spec, errpath[p], &launch, &err);
			if (!s->bot) {
				spawn_error[p] = g_strdup(err->message);
				g_error_free(err);
				continue;
			}
			bot_stderr_async(s->bot, spec->log_async);
			game_queue(g, p, protocol_greeting());
		}
		s->human = bot_spec(s->bot)->human;
		if (g->sha256[p] && !bot_spec(s->bot)->sha256)
			bot_set_sha256(s->bot, g->sha256[p]);
		bot_set_games(s->bot, bot_games(s->bot) + 1);
		char *line = protocol_game_line(g->v, &spec->config, game_seat_time(spec, p), p, bot_games(s->bot));
		game_queue(g, p, line);
		g_free(line);
	}
	for (int p = 0; p < g->n; p++)
		g_free(errpath[p]);
	for (int p = 0; p < g->n; p++) {
		Seat *s = &g->seat[p];
		const TimeControl *tc = game_seat_time(spec, p);
		if (!s->bot)
			continue;
		s->go_time = g_get_monotonic_time();
		s->deadline = s->human ? GAME_FOREVER : s->go_time + (tc->start + tc->grace) * 1000;
		s->awaiting = TRUE;
		game_flush(g, p);
	}
	for (int p = 0; p < g->n; p++)
		if (spawn_error[p]) {
			game_fault(g, p, GAME_FAULT_START, spawn_error[p]);
			g_free(spawn_error[p]);
		}
	for (;;) {
		gint64 deadline = 0;
		gboolean waiting = FALSE;
		for (int p = 0; p < g->n; p++)
			if (g->seat[p].awaiting) {
				waiting = TRUE;
				deadline = MAX(deadline, g->seat[p].deadline);
			}
		if (!waiting)
			break;
		Event ev;
		game_wait_event(g, deadline, -1, &ev);
		if (ev.kind == EV_ABORT)
			break;
		if (ev.kind == EV_NONE) {
			gint64 now = g_get_monotonic_time();
			for (int p = 0; p < g->n; p++)
				if (g->seat[p].awaiting && g->seat[p].deadline <= now)
					game_fault(g, p, GAME_FAULT_START, "no hello in time");
			continue;
		}
		int p = ev.seat;
		Seat *s = &g->seat[p];
		if (ev.kind == EV_EOF) {
			game_fault_gone(g, p, s->awaiting ? GAME_FAULT_START : GAME_FAULT_CRASH, "output closed");
			continue;
		}
		if (ev.kind == EV_TOO_LONG) {
			game_fault(g, p, GAME_FAULT_LINE_TOO_LONG, NULL);
			continue;
		}
		if (ev.kind == EV_FAULT)
			continue;
		const char *line = ev.line;
		if (ev.bad) {
			game_fault(g, p, GAME_FAULT_MALFORMED, "control byte in line");
			continue;
		}
		ProtocolVerb verb = protocol_verb(line);
		if (verb != PROTOCOL_HELLO && verb != PROTOCOL_DECLINE)
			continue;	/* info, comments, unknown lines: ignored */
		if (!s->awaiting) {
			game_fault(g, p, GAME_FAULT_MALFORMED, "unexpected line");
			continue;
		}
		if (verb == PROTOCOL_DECLINE) {
			game_fault(g, p, GAME_FAULT_DECLINED, NULL);
			continue;
		}
		ProtocolHello hello;
		if (!protocol_parse_hello(line, &hello)) {
			game_fault(g, p, GAME_FAULT_MALFORMED, "expected hello");
			continue;
		}
		bot_set_multi(s->bot, hello.multi, hello.moves);
		bot_set_hello_name(s->bot, hello.name);
		g_free(s->hello);
		s->hello = g_strdup(hello.name);
		protocol_hello_clear(&hello);
		s->awaiting = FALSE;
		/* a move's CPU time counts from here: start-up is not a move */
		s->cpu_last = bot_cpu_ms(s->bot);
	}
	g->starting = FALSE;
}
