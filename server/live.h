/*
 * live: a game watched while it is played. The game's log is tapped
 * (GameSpec.log_tap = live_game_tap, from the game's thread); the lines
 * are replayed on the main loop's thread into the replay page's JSON
 * (replay_feed_new(), docs/viewer.md): a header and one step per board,
 * step 0 the start. Each step also carries every seat's clock after it,
 * counted from the log's time control and moves' times as the referee
 * counts them: `clk` (ms left in the bank; null for a person's seat,
 * whose clock is its page's) and `used` (ms thought so far). Steps are numbered from 0 and never change; the last
 * LIVE_HELD are held for spectators who resume (server/sse.h). Watchers
 * are told of each new step and of the end, on the main thread.
 */
#ifndef TETRARENA_SERVER_LIVE_H
#define TETRARENA_SERVER_LIVE_H

#include <glib.h>

/* Steps held for resuming spectators; older ones are dropped. */
#define LIVE_HELD 4096

typedef struct LiveGame LiveGame;

/* step: the new step's number, or -1 when the game has ended. */
typedef void (*LiveWatch)(void *data, LiveGame *live, gint64 step);

/* A live game delivering to the calling thread's main context (the
 * thread-default one). Reference counted: the tap holds one while the
 * game's log is open. */
LiveGame *live_game_new(void);
/* The same, delivering to `ctx` (a server running on a thread of its own). */
LiveGame *live_game_new_for(GMainContext *ctx);
LiveGame *live_game_ref(LiveGame *live);
void live_game_unref(LiveGame *live);

/* The GameLogTap (gamelog.h) of a game's log: `data` is the LiveGame,
 * referenced by the caller for the tap (live_game_ref()); the tap drops
 * that reference when the log is closed (bytes NULL; a second close does
 * nothing, so the game's owner may close it again after game_run(), for a
 * game that failed before its log was open). Any thread. */
void live_game_tap(void *data, const char *bytes, gsize len);

/* The header object (replay_json()'s fields before `steps`), or NULL
 * before the log's header is in. */
const char *live_game_header(const LiveGame *live);

/* Steps made so far (the next step's number). */
gint64 live_game_steps(const LiveGame *live);

/* Step n's JSON, or NULL when it is not held (dropped, or not made yet). */
const char *live_game_step(const LiveGame *live, gint64 n);

/* Whether the game has ended (its log closed), and its result line's
 * fields ("ranks=... scores=..."), or NULL while it runs. */
gboolean live_game_ended(const LiveGame *live);
const char *live_game_result(const LiveGame *live);

/* Why the log stopped replaying (a referee bug), or NULL. */
const char *live_game_error(const LiveGame *live);

/* Drop every held step but the last (a game over, kept for late
 * spectators: they get `full`). */
void live_game_trim(LiveGame *live);

/* Be told of each new step and of the end; returns an id for unwatch. */
guint live_game_watch(LiveGame *live, LiveWatch fn, void *data);
void live_game_unwatch(LiveGame *live, guint id);

#endif
