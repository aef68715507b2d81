/*
 * botio: the protocol side of a C bot (protocol.md, version 1), so that a
 * bot is one choose function over the engine's variant table.
 *
 * botio reads referee lines from a stream, each bounded to
 * BOTIO_LINE_MAX bytes (a longer line is discarded whole and ignored),
 * answers `game` with `hello NAME VERSION moves multi` (or `decline` for a
 * variant it does not know, bad options or the bot's own refusal), rebuilds
 * the state from every `go MS STATE` with the variant's state_parse, asks
 * the bot's choose function for a move and writes `move NOTATION`,
 * flushing after every line. `update`, `result` and unknown lines are
 * ignored (every `go` carries the whole state); `quit` or end of input
 * ends the session.
 *
 * As a safety net botio asks for the `moves` feature: when the move chosen
 * is not among the moves the referee listed, or the state could not be
 * parsed, it says so on standard error and plays a random listed move.
 *
 * A bot's randomness comes only from the Rng handed to choose, seeded
 * afresh at every `go` from BotioSpec.seed, the seat and the state text of
 * that `go` (rng_derive): the draws differ from game to game (the states
 * do) and from move to move, yet a bot is deterministic for a given seed
 * and game, whether it plays one game per process or many, so a rerun of
 * its log replays it. (Seeding once a game made every game draw the same
 * numbers in the same order: `--noise 20` and `--noise 30` played the
 * same games.) The state text is the `go` line after MS and bank=: no
 * clock goes in.
 *
 * Typical use:
 *
 *     static Move choose(const Variant *v, const void *state, int seat,
 *                        int ms_left, Rng *rng, void *ctx) { ... }
 *
 *     int main(int argc, char **argv)
 *     {
 *             BotioSpec spec = {.name = "mybot", .version = "1",
 *                             .choose = choose};
 *             return botio_main(&spec, argc, argv);
 *     }
 */
#ifndef TETRARENA_BOTS_BOTIO_H
#define TETRARENA_BOTS_BOTIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rng.h"
#include "variant.h"

#define BOTIO_LINE_MAX 65536	/* bytes in a line, newline included */
#define BOTIO_DEFAULT_SEED 1	/* the seed without --seed */

/*
 * The bot's decision: a move for `seat` in `state` (a state of variant v
 * rebuilt from `go`, in a phase where seat decides). ms_left is the time
 * the referee gave for this move; rng is the bot's own generator; ctx is
 * BotioSpec.ctx. Must return a legal move when seat has one.
 */
typedef Move (*BotChoose)(const Variant *v, const void *state, int seat,
			  int ms_left, Rng *rng, void *ctx);

/*
 * Optional, called on each `game` line once the variant and options are
 * known: NULL to play, or a short reason to decline (e.g. a link-only bot
 * offered tetroll). May also reset the bot's per-game memory.
 */
typedef const char *(*BotStart)(const Variant *v, const VariantConfig *cfg,
				int seat, void *ctx);

/*
 * Optional, called on each `go` before choose, with the state just parsed,
 * the `go` line's state text and the streams: the bot may exchange side
 * lines (protocol.md, e.g. the Main Match's table talk) and change *state
 * to match (pieces traded). It must return well before ms_left runs out
 * and must not read past the round (the referee sends nothing but side
 * lines while the bot's move is due). With it, botio does not hold the
 * chosen move against the `moves` list, which a trade may have outdated.
 */
typedef void (*BotSide)(const Variant *v, void *state, int seat, const char *text,
			int ms_left, FILE *in, FILE *out, void *ctx);

typedef struct {
	const char *name;	/* hello NAME, one word */
	const char *version;	/* hello VERSION, one word */
	const char *about;	/* a sentence for --help, or NULL */
	BotChoose choose;	/* required */
	BotStart start;		/* optional */
	void *ctx;		/* handed to choose and start */
	BotSide side;		/* optional */
	void *side_ctx;		/* handed to side */
	uint64_t seed;		/* set by botio_main from --seed */
} BotioSpec;

/* One `game` line, parsed. */
typedef struct {
	int number;		/* N, games in this process from 1 */
	const Variant *variant;	/* NULL when the name is unknown */
	int seat;
	VariantConfig cfg;	/* nplayers and options, defaults for those not sent */
} BotGame;

/*
 * Parse a `game` line (without its newline). False with a reason in
 * why[cap] when the variant is unknown, the seat or players are missing or
 * out of range, or an option is unknown or out of bounds. Unknown
 * `key=value` fields are ignored.
 */
bool botio_parse_game(const char *line, BotGame *out, char *why, size_t cap);

/*
 * Read one line from `in` into buf (room for BOTIO_LINE_MAX + 1 bytes),
 * without its newline or a `\r` before it. A line longer than
 * BOTIO_LINE_MAX is consumed and read as the empty line. Returns false at
 * end of input (a last line without a newline is still returned).
 */
bool botio_read_line(FILE *in, char *buf);

/*
 * Play a whole session: read referee lines from `in`, write replies to
 * `out`, until `quit` or end of input. Returns 0, or 1 when memory for a
 * state could not be had or reading `in` failed (said on stderr).
 */
int botio_run(const BotioSpec *spec, FILE *in, FILE *out);

/*
 * The whole program: parse argv (`--seed N`, `--help`), then run a session
 * on stdin and stdout. Returns the exit status (2 for a usage error).
 * A fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU)
 * first writes "NAME: ended by signal N" to stderr, then ends the bot as
 * it would have.
 */
int botio_main(BotioSpec *spec, int argc, char **argv);

/*
 * Write `info TEXT` to standard output and flush: free text the referee
 * logs (depth, nodes, evaluation). Call from choose only.
 */
void botio_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Write a bot's analysis of a decision (a bot's --analyse, for `referee
 * review`, docs/referee.1): one line
 *   info analyse unit=UNIT MOVE=VALUE MOVE=VALUE ...
 * with moves[0..n) in notation (v->move_format on state for seat) and
 * their values (higher is better for seat, in UNIT: one word, e.g.
 * points) with two decimals. Moves whose pair would pass the line's
 * BOTIO_LINE_MAX are left out. Call from choose only.
 */
void botio_analyse(const Variant *v, const void *state, int seat, const Move *moves, const double *values, int n,
		   const char *unit);

#endif
