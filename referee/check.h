/*
 * check: `referee check`, a bot's compliance with protocol.md (the
 * analogue of a chess manager's --compliance run).
 *
 *   referee check --variant V [--players N] [--seed S] [--time SPEC] [--workdir DIR] BOT...
 *
 * Each BOT (a command line) is checked on its own, every seat of its games
 * a copy of it, through these items, each printed `ok` or `FAILED` with
 * the line that failed and a hint:
 *
 *   handshake   it answers `game` with `hello NAME VERSION [FEATURE...]`
 *               within the start allowance;
 *   game        a whole game without a fault, whose log verifies;
 *   multi       when it announced `multi`: a second game in the same
 *               processes, without a fault (passes, saying so, when it
 *               did not announce it);
 *   unknown     a game in which every `go` follows lines of types it does
 *               not know (`ping`, a `#` comment, `news key=value`), and
 *               every `moves` list comes split over `moves` lines of at
 *               most 256 bytes (as past the line limit, protocol.md);
 *   start-up    a fresh process, jailed as in games, says hello: the
 *               time from its start against the start allowance (and the
 *               default); a warning past half of it;
 *   stateless   the same process put into the middle of a game (a state
 *               reached by random moves, no updates before it) answers its
 *               `go` with a legal move;
 *   tight-time  it answers a `go` that gives 100 ms (times the test scale
 *               is not applied: real bots must) within that and the grace;
 *   tight-worst ten such `go`s, the slowest reported;
 *   realtime    (real-time variants: rush) twenty `go`s paced as in a game
 *               at the variant's default pace: the mean reaction against
 *               the pace, and how many actions per 100 it would lose;
 *   memory      the peak resident memory of its own process (VmHWM) so
 *               far, against its memory limit and the default;
 *   quit        it exits within 500 ms of `quit`.
 *
 * A timed item gives the margin against the move time and against the
 * grace separately. An item that passed but shows a risk is a warning,
 * `warn` with a note, not a failure: an answer that used the grace, a
 * start-up past half the allowance, a reaction slower than the pace,
 * memory past half the limit. A tetroll game lost to a `malformed`
 * placement whose K R is none of link's 19 orientations names the
 * notation. `--items A,B` runs only those items.
 *
 * With `--variant all` every variant is checked in turn, a variant the
 * bot declines (or that cannot have --players seats) skipped and said so;
 * none checked at all is a failure. --option then sets only the variants
 * that have the key. Every run opens with a note that bots get a clean
 * environment (parameters in environment variables do not reach them).
 *
 * Logs go to a temporary directory, kept and named when an item fails.
 * Returns the exit status: 0 when every item of every bot passed (warnings
 * included), 1 when
 * one failed, 2 on a usage error.
 */
#ifndef TETRARENA_REFEREE_CHECK_H
#define TETRARENA_REFEREE_CHECK_H

/* The `check` subcommand; argv[0] is "check". */
int check_main(int argc, char **argv);

#endif
