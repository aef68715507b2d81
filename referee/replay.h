/*
 * replay: what can be done with a game log without the bots.
 *
 * replay_verify() plays the logged game again through the rules: every
 * chance move is drawn again from the seed and must match, every player
 * move must be legal where it was played, every move the random fault
 * policy made must be the one its own stream draws, and the recorded
 * result (ranks, scores, first faults) must be what the rules give;
 * every side action must be allowed or refused as the log says. What
 * each seat was sent, and when, must be what the referee that wrote the
 * log sent (its `referee` line): a simultaneous round's faults held
 * until the round is in from 0.2 on, told at once by 0.1
 * (docs/gamelog.md, Referee versions).
 * replay_view() prints the game move by move with the variant's pictures.
 * replay_compare() says whether two logs record the same game (moves,
 * chance, faults, side actions, result), times and `close` lines apart,
 * and the order of several seats' faults in a row (one simultaneous
 * round's, which arrival decides): `referee rerun` uses it.
 */
#ifndef TETRARENA_REFEREE_REPLAY_H
#define TETRARENA_REFEREE_REPLAY_H

#include <stdio.h>

#include <glib.h>

#include "gamelog.h"

/* The error domain of verify and rerun's comparison. */
#define REPLAY_ERROR (replay_error_quark())
GQuark replay_error_quark(void);

typedef enum {
	REPLAY_ERROR_INVALID,	/* the log does not check out against the rules */
	REPLAY_ERROR_DIFFERS,	/* two logs record different games */
} ReplayError;

/* TRUE when the log checks out; FALSE with error "LOG:LINE: why" naming
 * the first line that diverges. A game aborted from outside (its result
 * says reason=aborted: a Ctrl-C on `referee play`) checks out when
 * everything up to its result does and the result is the state's as it
 * stood (scores, ranks and first faults of an unfinished game). */
gboolean replay_verify(const GameLog *log, GError **error);

/* Whether the log's result says the game was aborted (reason=aborted). */
gboolean replay_aborted(const GameLog *log);

/*
 * Print the game to `out`: the options, then after every move its
 * notation and the board. With `step`, wait for Enter on `in` between
 * moves. FALSE with error when the log does not replay (as verify).
 */
gboolean replay_view(const GameLog *log, gboolean colour, gboolean step, FILE *out, FILE *in,
		     GError **error);

/*
 * The game as one JSON object for the HTML replay (docs/viewer.md): the
 * header (variant, options, seed, bots with hashes), then `steps`, one per
 * board: the start, then each chance move, move, round and halt, each with
 * its notation, every seat's time for it (`ms`, null when it did not
 * move), the seats that faulted since the last step (`f`), the notes since
 * (`n`: submits, info lines, table talk, faults, retirements), the board
 * as the variant renders it (ANSI colours) and the scores; then `result`,
 * the log's result line. NULL with error when the log does not replay.
 */
char *replay_json(const GameLog *log, GError **error);

/*
 * The same JSON, a step at a time, for a game watched while it is played
 * (server/live.h). replay_feed_new() gives the header object (`variant`
 * ... `bots`, `layout`: replay_json()'s fields before `steps`, as a
 * complete object) and the start step; `log` needs its header only, and
 * must outlive the feed. with_stderr: notes of the seats' stderr files
 * beside the log (read now; a live game's are not written yet: FALSE).
 * Then each event of the log in order: *step is the step it makes (a
 * JSON object, newly allocated) or NULL; FALSE with error once the game
 * does not replay (and for every event after). replay_feed_end() is the
 * trailing `end` step (notes after the last board), or NULL;
 * replay_feed_result() the result line's fields once seen, or NULL.
 */
typedef struct ReplayFeed ReplayFeed;
ReplayFeed *replay_feed_new(const GameLog *log, gboolean with_stderr, char **header, char **start);
gboolean replay_feed_event(ReplayFeed *f, const GameLogEvent *e, char **step, GError **error);
char *replay_feed_end(ReplayFeed *f);
const char *replay_feed_result(const ReplayFeed *f);
void replay_feed_free(ReplayFeed *f);

/* TRUE when both logs record the same game; FALSE with error naming the
 * first difference (line numbers of both). */
gboolean replay_compare(const GameLog *a, const GameLog *b, GError **error);

/* The first events where two logs part, as replay_compare() compares
 * them: TRUE with their indices in a->events and b->events (an index
 * equal to the length: that log ended first); FALSE when they agree. */
gboolean replay_first_difference(const GameLog *a, const GameLog *b, guint *at_a, guint *at_b);

/* What rerun compares of an event: "KIND SEAT TEXT", times left out. */
char *replay_event_key(const GameLogEvent *e);

#endif
