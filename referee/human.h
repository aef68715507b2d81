/*
 * human: a person at the terminal, as a bot. `referee play ... human`
 * starts the referee itself as `referee _human`, which speaks the protocol
 * on stdin/stdout like any bot but shows the game on /dev/tty: the board
 * first (its empty top rows left out when the terminal is short), what is
 * to be decided in words (the roll, the shape the dice make, the pieces and
 * table-talk partners), the legal moves in numbered groups with pictures of
 * the pieces, paged to the terminal's height (referee/humanview.h). The
 * person types a number, a move, the start of a move (to list those),
 * `more`, `board`, `help`, `resign`, or in the Main Match a table-talk
 * line, sent as typed. The terminal is read key by key with its signals
 * off: Ctrl-C, and Ctrl-D on an empty line, resign (the line `resign`,
 * the fault `resigned`: the game ends for that seat as after a crash, and
 * the referee ends cleanly, with its log and result). Humans have no clock.
 * Real-time rush faster than a person can type is declined with a message
 * (human_refusal()).
 */
#ifndef TETRARENA_REFEREE_HUMAN_H
#define TETRARENA_REFEREE_HUMAN_H

#include "variant.h"

/* Play as the person at /dev/tty, speaking the protocol on stdin and
 * stdout, until the game (or the referee) ends: the exit status, 0, or 1
 * when there is no terminal or it is gone. The `_human` subcommand
 * (cli/human.c) parses its command line and calls this. */
int human_run(void);

/* Why a person cannot play this game at the terminal (real-time rush with
 * a pace under a second), in one sentence naming the options that make it
 * playable; NULL when it can be played. */
const char *human_refusal(const Variant *v, const VariantConfig *cfg);

#endif
