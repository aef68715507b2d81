/*
 * sse: one spectator of a live game, as Server-Sent Events over a
 * connection taken from the HTTP server (docs/serve.md, "Watching").
 *
 * The response is written here: headers, then `event: game` (the header
 * object), then the steps as `event: step` with the step number as the
 * event id, then `event: end` with the result, after which the
 * connection is closed. A spectator resuming with Last-Event-ID N gets
 * the steps after N; when step N is not held (dropped, or never made)
 * it gets `event: full`: the latest step alone, to draw from scratch.
 * Each spectator has its own queue of bytes not yet taken by the
 * network: one that grows past `cap` bytes (a client that stopped
 * reading) is dropped, so the game never waits for anyone.
 */
#ifndef TETRARENA_SERVER_SSE_H
#define TETRARENA_SERVER_SSE_H

#include <gio/gio.h>

#include "live.h"

/* Default per-spectator queue (bytes), beyond what it had on joining. */
#define SSE_QUEUE_CAP (256 * 1024)

/* Default budget of all spectators' queues together (bytes of memory
 * they hold: allocated, not only used). */
#define SSE_BUDGET (64 * 1024 * 1024)

/* After spectators holding this much are dropped, free memory is given
 * back to the system (malloc_trim), so that the resident size falls. */
#define SSE_TRIM_AFTER (1024 * 1024)

typedef struct {
	gsize cap;	/* per spectator; 0: SSE_QUEUE_CAP */
	gsize budget;	/* all queues together; 0: SSE_BUDGET */
} SseLimits;

/* Serve `live` on `conn` (taken over) from the step after `last` (-1:
 * from the first held step). The spectator frees itself when done or
 * dropped. A queue past its cap drops its spectator; when all queues
 * together pass the budget, the spectators holding the most are dropped
 * until they are back under three quarters of it (those are the ones not
 * reading). A write
 * that fails (the stall timeout, server/conns.h) ends the spectator too.
 * All spectators on one thread (one server's). */
void sse_serve(LiveGame *live, GIOStream *conn, gint64 last, const SseLimits *lim);

/* Spectators connected now, dropped (over the cap, the budget, or a
 * write failed before the end) since start, and the memory all queues
 * hold now (bytes, as the budget counts them). */
guint sse_count(void);
guint sse_dropped(void);
gsize sse_queued(void);

#endif
