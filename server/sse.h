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

/* Default per-spectator queue (bytes). */
#define SSE_QUEUE_CAP (1024 * 1024)

/* Serve `live` on `conn` (taken over) from the step after `last` (-1:
 * from the first held step). The spectator frees itself when done or
 * dropped. */
void sse_serve(LiveGame *live, GIOStream *conn, gint64 last, gsize cap);

/* Spectators connected now, and dropped for not reading since start. */
guint sse_count(void);
guint sse_dropped(void);

#endif
