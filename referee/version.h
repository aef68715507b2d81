/*
 * version: the referee's version, as `referee --version` prints it, and
 * the protocol and log format versions it speaks (protocol.md,
 * docs/gamelog.md). Logs carry the version in their `referee` header line
 * and report.html shows it.
 */
#ifndef TETRARENA_REFEREE_VERSION_H
#define TETRARENA_REFEREE_VERSION_H

#define REFEREE_VERSION "0.1"	/* the same as game.c's log header (to be
				 * taken from here by game.c) */
#define REFEREE_PROTOCOL 1	/* protocol.md's version */
#define REFEREE_LOG_FORMAT 1	/* `tetrarena-log N` */

#endif
