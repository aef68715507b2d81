/*
 * position: a logged decision put to a bot again (`referee position`), so
 * that a bot author can debug one move of a real game.
 *
 * A seat's decisions are the `go` lines it received, numbered from 1 in
 * the order of the log (step N is its N-th `go`). For a decision the bot
 * is started (jailed as in games: bot_spawn() with the log's sandbox, or
 * auto) and sent exactly the lines the seat received (the log's `>`
 * traffic of that seat) up to that `go`, in order, except the `moves`
 * lines: those follow the new bot's own hello (before each `go`, the
 * legal moves of its state when the hello asks for them, none otherwise,
 * whatever the logged bot asked for). After `game` it is
 * waited for until its hello (the start allowance), after each `go` until
 * its move (the move time and grace of the `go`: its MS plus the log's
 * grace), then it goes on with the log's next lines whatever it answered.
 * The referee's lines are the logged game's, so after a decision where the
 * bot chose otherwise it hears of the logged bot's move, as a debugger
 * replaying the game would show it.
 */
#ifndef TETRARENA_REFEREE_POSITION_H
#define TETRARENA_REFEREE_POSITION_H

#include <glib.h>

#include "botspec.h"
#include "gamelog.h"
#include "sandbox.h"

/* The error domain of position_run() (code 1: no such decision). */
GQuark position_error_quark(void);

/* One decision of the seat, and what the new bot made of it. */
typedef struct {
	int step;		/* 1-based: the seat's step-th `go` */
	int lineno;		/* the `go`'s line in the log */
	guint sent;		/* lines sent to the bot up to this `go`, it included */
	char *go;		/* the `go` line */
	char *played;		/* the logged bot's move (notation), or NULL: none */
	char *answer;		/* the new bot's move (notation), or NULL: see why */
	char *why;		/* when there is no answer: what happened instead */
	GPtrArray *said;	/* char*: the new bot's other lines after the `go`
				 * (info, ...), in order, owned */
	char *errtext;		/* what it wrote on stderr from its previous
				 * answer to this one (at most 64 KiB) */
	double ms;		/* from writing the `go` to its answer */
	gboolean known;		/* the `go`'s state parsed: moves and legal below */
	GPtrArray *moves;	/* char*: the legal moves in notation, owned */
	gboolean legal;		/* the new answer is one of them */
	gboolean same;		/* the new answer is the logged move */
} PositionStep;

void position_step_free(PositionStep *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PositionStep, position_step_free)

/*
 * Put the decisions of `seat` in `log` to the bot `bs`, from the first up
 * to step `last` (0: every one), in one process. Returns the steps
 * (PositionStep*, owned; fewer than `last` when the seat had fewer), or
 * NULL with error set when the seat has no decision, `last` is past its
 * decisions, or the bot cannot be started. A bot that misbehaves (no
 * hello, no answer, a crash) is no error: the steps say so (why), and the
 * walk stops at the first it left unanswered because it ended.
 */
GPtrArray *position_run(const GameLog *log, int seat, int last, const BotSpec *bs, SandboxMode mode,
			GError **error);

/* How position_run_with() departs from position_run(). */
typedef struct {
	int min_ms;		/* > 0: each `go` waits at least this long for the
				 * answer (a search slower than the logged game's
				 * time); the log's time and grace otherwise */
	void (*progress)(int step, int count, void *data);	/* or NULL: called
				 * after each decision, step of the count asked */
	void *data;		/* progress's */
} PositionOptions;

/* position_run() with the options (NULL: none, as position_run). */
GPtrArray *position_run_with(const GameLog *log, int seat, int last, const BotSpec *bs, SandboxMode mode,
			     const PositionOptions *opt, GError **error);

/* How many decisions (`go` lines) `seat` has in `log`. */
int position_count(const GameLog *log, int seat);

#endif
