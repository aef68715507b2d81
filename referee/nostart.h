/*
 * nostart: telling a bot that never played from one that played badly.
 *
 * A bot "cannot start" in a game when its seat has a `start` or
 * `declined` fault (protocol.md: it could not be run, exited or died
 * before `hello`, sent no hello in time, or answered `decline`) and made
 * no move. `play` refuses to call that a finished game and a tournament
 * stops on it (cli/play.c, tournaments/tournament.c); the reason shown is
 * the one the game's log recorded.
 */
#ifndef TETRARENA_REFEREE_NOSTART_H
#define TETRARENA_REFEREE_NOSTART_H

#include <glib.h>

/*
 * Whether a seat with these fault counts (indexed by GameFault) and
 * `moves` moves never started.
 */
gboolean nostart_seat(const int *faults, int moves);

/*
 * The same from a fault list as the journal keeps it ("start:1",
 * "declined:1+crash:1", "-").
 */
gboolean nostart_faults_text(const char *faults, int moves);

/*
 * Why `seat` of the game logged at log_path could not start, read from
 * the log's `fault SEAT start DETAIL` line (or its `decline REASON`
 * line): "cannot run 'x': No such file or directory", "output closed;
 * exited with status 3", "declined: wrong variant", "no hello in time".
 * The line of the seat's stderr file (LOG.seatN.stderr) that says what
 * went wrong, if any, is added as "(stderr: LINE)": its first line that
 * reads as an error ("Error: Cannot find module ...", not the "Node.js
 * v20" that ends a crash), else its last. A jailed seat whose line says a
 * file is missing is told that a jailed bot sees only what its command
 * names and its workdir, and how to give a workdir. Reads at most the log's first
 * NOSTART_SCAN_MAX bytes. Never fails: "no reason recorded" (or why the
 * log could not be read) when it cannot tell. Newly allocated; the
 * caller frees it.
 */
#define NOSTART_SCAN_MAX (256 * 1024)
char *nostart_reason(const char *log_path, int seat);

#endif
