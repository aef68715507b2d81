/*
 * check-int: what the pieces of the check module share (check.c: the run,
 * the games' items and the report; check-items.c: the items that drive one
 * process by hand; check-talk.c: the table-talk items). Private: nothing
 * outside referee/check*.c includes it.
 *
 * An item is decided once, by check_item() (or the shorthands check_pass()
 * and check_warn()), which appends it to the report, counts it and tells the
 * spec's progress callback.
 */
#ifndef TETRARENA_REFEREE_CHECK_INT_H
#define TETRARENA_REFEREE_CHECK_INT_H

#include <glib.h>

#include "bot.h"
#include "check.h"
#include "protocol.h"
#include "rng.h"
#include "timectl.h"
#include "variant.h"

#define CHECK_TIGHT_MS 100	/* the `go` of the tight-time item */
#define CHECK_TIGHT_REPEAT 10	/* tight `go`s of the tight-repeat item */
#define CHECK_REALTIME_ACTIONS 20	/* paced `go`s of the realtime item */
/* How long a bot may take to exit on `quit`: a game waits 200 ms
 * (GAME_QUIT_GRACE_MS) and then kills it without a fault, so this item
 * looks for a bot that ignores `quit`, not a slow one: on a loaded
 * machine (ASan, a busy ladder) an instant exit took over 500 ms. */
#define CHECK_QUIT_MS 2000
#define CHECK_STATE_MAX (1 << 16)

/* The unknown item sends `moves` lists split over lines of at most this
 * many bytes, as the referee does past the line limit. */
#define CHECK_MOVES_LINE 256

typedef struct {
	const CheckSpec *spec;
	CheckReport *report;
	int bot;		/* the bot being checked (index into spec->bots) */
	const Variant *v;
	VariantConfig cfg;
	guint64 seed;
	TimeControl tc;
	const char *dir;	/* logs of this run (report->dir) */
	const char *hide[2];	/* a directory no bot sees (NULL-terminated) */
	gboolean all;		/* --variant all: a declined variant is skipped */
} Check;

/* Whether item `name` is to run. */
gboolean check_wanted(const Check *c, const char *name);

/* Decide an item of the bot being checked: figure, limit and unit as in
 * CheckItem (-1, -1, NULL: none). Strings are copied. */
void check_item(Check *c, CheckVerdict verdict, const char *name, const char *what, const char *line,
		const char *hint, double figure, double limit, const char *unit);

/* ok or FAILED, no figure (line and hint kept only when it failed). */
void check_pass(Check *c, gboolean ok, const char *name, const char *what, const char *line, const char *hint);

/* Passed with a warning, no figure: `note` says why. */
void check_warn(Check *c, const char *name, const char *what, const char *note);

/* What to do about a fault of `kind` (game.h's names), or NULL. */
const char *check_fault_hint(const char *kind);

/* The direct items (start-up, stateless, tight-time, tight-worst,
 * realtime, memory, talk-*, quit), on one fresh process (check-items.c). */
void check_direct(Check *c, const BotSpec *bs);

/* `moves` (when wanted) and `go MS bank=MS STATE` for seat p of state
 * (newly allocated; check-items.c). */
char *check_go_lines(const Check *c, const void *state, int p, gboolean moves, int ms, Move *scratch);

/* Why a line with control bytes (now '?') fails (newly allocated). */
char *check_control_text(const char *line);

/*
 * The talk items, a variant with side actions (matrix; check-talk.c): the
 * checker plays the other seats of a first round and the bot in `seat`
 * gets a message, a trade offer, a gift, and a trade completed while it
 * thinks. FALSE when the process is out of step (no move).
 */
gboolean check_talk(Check *c, Bot *b, int seat, gboolean moves, Move *scratch);

#endif
