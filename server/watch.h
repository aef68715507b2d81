/*
 * watch: a server on a thread of its own, beside a program whose main
 * thread is busy (`referee tournament --serve ADDR`): the server runs its
 * own main context there. For a tournament it serves the standings so
 * far (read from OUTPUT/journal.txt at each request), the report once
 * written, and every game live: watch_tournament_game() is the
 * TournamentConfig.watch hook (tournaments/tournament.h). `ladder run
 * --serve ADDR` uses it the same way (output NULL, cfg->ladder set): the
 * same function is its LadderRunOptions.watch hook (ladder/run.h).
 */
#ifndef TETRARENA_SERVER_WATCH_H
#define TETRARENA_SERVER_WATCH_H

#include "referee/gamelog.h"
#include "server.h"

typedef struct Watch Watch;

/* Start serving cfg on a new thread; for a tournament whose output
 * directory is `output`. NULL with error when the server cannot listen. */
Watch *watch_start(const ServerConfig *cfg, const char *output, GError **error);

/* The base URL; whether it listens on loopback only. */
const char *watch_url(const Watch *w);
gboolean watch_loopback(const Watch *w);

/* Stop the server and its thread. NULL is fine. */
void watch_stop(Watch *w);

/* The TournamentConfig.watch and LadderRunOptions.watch hook, `data` the
 * Watch: any thread. The game shows as `t<id>`. */
GameLogTap watch_tournament_game(gpointer data, int id, const char *const *names, int n, const char *log_path,
				 void **tap_data);

#endif
