/*
 * human: a person at the terminal, as a bot. `referee play ... human`
 * starts the referee itself as `referee _human`, which speaks the protocol
 * on stdin/stdout like any bot but shows the board and asks for moves on
 * /dev/tty: a numbered list of the legal moves; type a number or the
 * notation. Humans have no clock.
 */
#ifndef TETRARENA_REFEREE_HUMAN_H
#define TETRARENA_REFEREE_HUMAN_H

/* The `_human` subcommand: exit status 0, or 1 when the terminal is gone. */
int human_main(int argc, char **argv);

#endif
