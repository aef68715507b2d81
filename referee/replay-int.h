/*
 * replay-int: what the pieces of the replay module share (replay.c: a
 * log's steps checked, verify, view and compare; replay-json.c: the replay
 * as JSON for view --html): the Replay that steps through a log, and its
 * lifecycle. Private: nothing outside referee/replay*.c includes it.
 */
#ifndef TETRARENA_REFEREE_REPLAY_INT_H
#define TETRARENA_REFEREE_REPLAY_INT_H

#include <glib.h>

#include "drawing.h"
#include "gamelog.h"
#include "replay.h"
#include "rng.h"
#include "variant.h"

typedef struct {
	const GameLog *log;
	const Variant *v;
	void *state;
	Move *scratch;
	Rng chance, fault_rng;
	Move joint[VARIANT_MAX_PLAYERS];
	uint32_t submitted;
	int first_fault[VARIANT_MAX_PLAYERS];
	gboolean halted, result_seen;
	char *said[VARIANT_MAX_PLAYERS];	/* the seat's last `move` line not yet played */
	int said_line[VARIANT_MAX_PLAYERS];	/* its line number */
	uint32_t closed;	/* seats whose round is closed (`close`, until `joint`): a
				 * `move` line of theirs is discarded, as the referee does
				 * (with a talk window, the moves before are provisional) */
	/* What the referee owes each seat, in order: updates, side answers,
	 * the result. Lines not derived from events (the greeting, go,
	 * moves, chatter, quit, refusals of bad side lines) are checked
	 * where they stand. */
	GQueue told[VARIANT_MAX_PLAYERS];
	/* A simultaneous round is open from its first `go` to its `joint`
	 * (or the result, when it ends the game): its faults' updates are
	 * held until then (game_release_faults()), by a referee of 0.2 on
	 * (hold_faults; an older one told them at once). */
	gboolean hold_faults;
	gboolean round_open;
	GQueue held;
	GQueue side_heard[VARIANT_MAX_PLAYERS];	/* side lines the seat sent, not yet judged */
	int sides[VARIANT_MAX_PLAYERS];		/* its side lines since its last go */
	guint64 said_bytes[VARIANT_MAX_PLAYERS];	/* bytes of its lines logged that count
						 * against GAME_TEXT_MAX */
	int greeted[VARIANT_MAX_PLAYERS];	/* 0, 1 after `tetrarena`, 2 after `game` */
	int wants_moves[VARIANT_MAX_PLAYERS];	/* its hello: -1 none in this log, 0 or 1 */
	int bad_hello[VARIANT_MAX_PLAYERS];	/* line of a hello not yet faulted, or 0 */
	int hello_line[VARIANT_MAX_PLAYERS];	/* line of the hello wants_moves is from */
	int heard_line[VARIANT_MAX_PLAYERS];	/* line of the seat's last line */
	int chat[VARIANT_MAX_PLAYERS];		/* chatter lines since its last go */
	int results[VARIANT_MAX_PLAYERS];	/* 1 when told the result, 2 after quit */
	gboolean went[VARIANT_MAX_PLAYERS];	/* it was sent a go */
	GString *moves[VARIANT_MAX_PLAYERS];	/* the `moves` lines since its last go, joined */
	int nmoves[VARIANT_MAX_PLAYERS];	/* how many */
	int moves_line[VARIANT_MAX_PLAYERS];	/* the line of the first */
	Drawing drawing;	/* view --html: what the page draws beyond the picture */
	char text[1 << 16];
} Replay;

/* Start stepping through log (r uninitialised). */
void replay_init(Replay *r, const GameLog *log);

/* Free what r holds (not r). */
void replay_release(Replay *r);

/* Apply event e to r->state with every check: FALSE with error
 * (REPLAY_ERROR) at the first that fails. */
gboolean replay_step(Replay *r, const GameLogEvent *e, GError **error);

/* After the last event: FALSE with error when the log ends short of what
 * it must hold (a result, every seat told). */
gboolean replay_finish(Replay *r, GError **error);

#endif
