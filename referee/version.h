/*
 * version: the referee's version, as `referee --version` prints it, and
 * the protocol and log format versions it speaks (protocol.md,
 * docs/gamelog.md). Logs carry the version in their `referee` header line
 * and report.html shows it.
 */
#ifndef TETRARENA_REFEREE_VERSION_H
#define TETRARENA_REFEREE_VERSION_H

/*
 * The log's `referee` line (game-start.c) and `referee --version`. What a
 * log's version tells verify (referee/replay.c):
 *   0.1  faults announced as they came, in a simultaneous round too;
 *   0.2  a simultaneous round's `update fault` lines held until the round
 *        is in (game_release_faults()).
 */
#define REFEREE_VERSION "0.2"
#define REFEREE_PROTOCOL 1	/* protocol.md's version */
#define REFEREE_LOG_FORMAT 1	/* `tetrarena-log N` */

#endif
