/*
 * variant: the contract between a game's rules and everything else.
 *
 * Each game is one const Variant table (engine/<name>.c exports
 * variant_<name>); variant_all() lists them. The referee, the tournaments
 * and the C bots reach a game only through its table, so a new game is a
 * new table and nothing else changes.
 *
 * The model is a sequence of decisions, as in OpenSpiel. At any moment the
 * state is in one phase:
 *
 *   VARIANT_PHASE_TURN          one player (the one bit of `mask`) decides;
 *   VARIANT_PHASE_CHANCE        the referee draws chance_sample() from the
 *                               game's seeded Rng and applies it as a move
 *                               of VARIANT_CHANCE (a die roll, a deal);
 *   VARIANT_PHASE_SIMULTANEOUS  every player in `mask` submits one move
 *                               without seeing the others'; apply_joint();
 *   VARIANT_PHASE_REALTIME      every player in `mask` may act at any moment;
 *                               each move is applied alone, in arrival order;
 *   VARIANT_PHASE_OVER          the game has ended.
 *
 * A multi-step turn (keep dice, then choose a shape, then place) is several
 * decisions in a row by the same player. Randomness lives only in chance
 * moves, which are recorded like any other move: replaying the recorded
 * moves reproduces the game without the seed, and drawing them again from
 * the seed checks that the referee dealt fairly.
 *
 * States are plain data of state_size bytes, caller-allocated, copied with
 * memcpy, never owning memory: a search can copy and apply millions of
 * them without allocating. Nothing here does I/O or keeps global state.
 *
 * Contract for every function pointer: arguments are valid (a programmer
 * error is an assertion); moves passed to apply()/apply_joint() are legal
 * (check first with variant_move_is_legal()); text output goes to a Text
 * and sets its overflow flag when it does not fit.
 */
#ifndef TETRARENA_ENGINE_VARIANT_H
#define TETRARENA_ENGINE_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "rng.h"
#include "text.h"

#define VARIANT_MAX_PLAYERS 8
#define VARIANT_MAX_OPTIONS 16
#define VARIANT_CHANCE (-1)		/* the "player" of chance moves */
#define VARIANT_MOVE_TEXT_MAX 256	/* room for any move's notation */

/* A move: a variant-defined packing of one decision into 64 bits. */
typedef uint64_t Move;

typedef enum {
	VARIANT_PHASE_TURN,
	VARIANT_PHASE_CHANCE,
	VARIANT_PHASE_SIMULTANEOUS,
	VARIANT_PHASE_REALTIME,
	VARIANT_PHASE_OVER,
} VariantPhase;

/* What the referee does with a bot that faults, unless told otherwise. */
typedef enum {
	VARIANT_FAULT_FORFEIT,	/* retire(): out of the game, ranked last */
	VARIANT_FAULT_RANDOM,	/* a uniformly random legal move is played */
	VARIANT_FAULT_NOTHING,	/* simultaneous: the move is missing this round */
} VariantFaultPolicy;

/*
 * An integer option with its default and bounds. One name is understood by
 * the referee rather than the rules: `pace`, in milliseconds, bounds how
 * often one seat may act in a REALTIME phase (a move takes effect no
 * sooner than `pace` after the `go` it answers; moves due at the same
 * moment are ordered from the seed). 0 lets the fastest bot win races.
 */
typedef struct {
	const char *key;	/* name on command lines and in files */
	int def, min, max;	/* default and inclusive bounds */
	const char *help;	/* one line for --help and docs */
} VariantOption;

/* Everything a game is created from besides the seed. */
typedef struct {
	int nplayers;
	int opt[VARIANT_MAX_OPTIONS];	/* in the order of Variant.options */
} VariantConfig;

/*
 * Side actions: lines a player may send during a simultaneous phase besides
 * its move (the Main Match's table talk, trades and gifts). The variant
 * checks each one, changes the state when it is allowed, and says which
 * lines go to which seats: exactly one answer to the sender, and whatever
 * the action sends to others.
 */
#define VARIANT_SIDE_LINES 12
#define VARIANT_SIDE_LINE_MAX 320

typedef enum {
	VARIANT_SIDE_NONE = -1,	/* not a side action of this variant */
	VARIANT_SIDE_REFUSED,	/* refused: the state is unchanged */
	VARIANT_SIDE_DONE,	/* done: the state changed */
} VariantSideResult;

typedef struct {
	int n;					/* lines to send */
	int to[VARIANT_SIDE_LINES];		/* the seat of each line */
	char line[VARIANT_SIDE_LINES][VARIANT_SIDE_LINE_MAX];	/* no newline */
	char reason[32];			/* why, when refused */
} VariantSide;

/* A field every player places on (the Main Match's), for drawing who
 * covered each cell: the replay page follows it round by round. */
typedef struct {
	const Board *board;	/* the field now */
	int round;		/* rounds played */
	int nplayers;
} VariantField;

/* The most cells one player's placements of one round cover. */
#define VARIANT_MAX_ROUND_CELLS 16

typedef struct Variant Variant;

struct Variant {
	const char *name;	/* "link", the --variant value */
	const char *title;	/* "Tetris Link" */
	int min_players, max_players;
	const VariantOption *options;
	int n_options;
	/* Bit i: option i is left out of the `game` line and a log's header
	 * at its default (an option added later: nothing changes for bots
	 * and logs that do not use it). */
	uint32_t quiet_options;
	size_t state_size;	/* bytes of one state */
	int max_moves;		/* bound on legal_moves() for any state */
	bool chance_public;	/* chance moves may be shown to every player */
	bool lower_score_wins;	/* e.g. uncovered squares */
	VariantFaultPolicy fault_policy;

	/* Set up a new game; cfg was checked by variant_config_check(). The
	 * game starts in whatever phase the rules begin with (often chance). */
	void (*init)(void *state, const VariantConfig *cfg);

	/* The current phase; *mask gets the players who decide now. */
	VariantPhase (*phase)(const void *state, uint32_t *mask);

	/* Every legal move of `player` now, at most max_moves; returns the
	 * count. For the chance player: every possible outcome (may be 0 for
	 * chance too large to list, such as a deal). */
	int (*legal_moves)(const void *state, int player, Move *out);

	/* Apply one legal move of `player` (or VARIANT_CHANCE). */
	void (*apply)(void *state, int player, Move move);

	/* Draw the chance move for a state in the chance phase. */
	Move (*chance_sample)(const void *state, Rng *rng);

	/* Simultaneous phase: apply the moves of the players in `submitted`
	 * (moves[p] for each such p); the others in the phase's mask missed
	 * the round. NULL for variants without simultaneous phases. */
	void (*apply_joint)(void *state, const Move *moves, uint32_t submitted);

	/* Take a player out (forfeit): never asked again, ranked last. */
	void (*retire)(void *state, int player);

	/* End the game now (the game's time limit ran out); NULL if unused. */
	void (*halt)(void *state);

	/* Current scores, one per player. */
	void (*scores)(const void *state, int *out);

	/* Final ranks, one per player: 1 is best, tied players share a rank
	 * and the next rank skips (1, 1, 3). Retired players come last. */
	void (*ranking)(const void *state, int *rank);

	/* Canonical notation of a move of `player` in this state. */
	void (*move_format)(const void *state, int player, Move move, Text *out);

	/* Read notation; false when it is not a well-formed move for this
	 * state. Legality is checked separately. */
	bool (*move_parse)(const void *state, int player, const char *text, Move *out);

	/* The state as one protocol line (no newline) as `viewer` may see it;
	 * viewer VARIANT_CHANCE sees everything. Hides the seed and anything
	 * not yet dealt. */
	void (*state_format)(const void *state, int viewer, Text *out);

	/* Rebuild a state from state_format() output (a viewer's state loses
	 * what was hidden from it). False on malformed text. */
	bool (*state_parse)(void *state, const VariantConfig *cfg, const char *text);

	/* Extra fields for the final result, each as " key=v,v,..", one value
	 * per seat (the Main Match's ToL and ToD tokens); NULL when none. The
	 * referee appends them to `result` and verify recomputes them. */
	void (*result_extra)(const void *state, Text *out);

	/* A picture of the state, several lines; with colour, ANSI escapes. */
	void (*render)(const void *state, bool colour, Text *out);

	/* Optional (NULL when the variant has none). A side action `text`
	 * of `player` during a simultaneous phase: printable ASCII, no
	 * newline. OUT: *out (reset here) gets the lines to send. */
	VariantSideResult (*side)(void *state, int player, const char *text, VariantSide *out);

	/* Optional, with side: `player`'s round is closed (it moved, faulted
	 * or has no bot): whatever it had open with others ends. OUT: lines. */
	void (*side_close)(void *state, int player, VariantSide *out);

	/* With side: the first words of its side actions ("say", ...),
	 * NULL-terminated. A bot line of another type is not one. */
	const char *const *side_verbs;

	/* Optional: whether `move` is legal for `player`, when legal_moves()
	 * cannot list every legal move (it then lists at most max_moves of
	 * them, and this is the authority). */
	bool (*move_legal)(const void *state, int player, Move move);

	/* Drawing (referee/drawing.c, the replay page), each optional. The
	 * board's fixed layout, rows top down separated by '/', a cell one
	 * letter of the variant's (tetroll: '.' plain, 'r' ring, 'd' double,
	 * 'c' copy). */
	void (*layout)(const void *state, Text *out);

	/* A shared field: OUT *out. With it, round_cells: OUT the cells
	 * (x, y) `player`'s placements of the round just played cover, at
	 * most VARIANT_MAX_ROUND_CELLS; returns how many. */
	void (*field)(const void *state, VariantField *out);
	int (*round_cells)(const void *state, int player, int *cx, int *cy);
};

/* Every variant the engine knows, NULL-terminated (the registry, in
 * variants.c). */
const Variant *const *variant_all(void);

/* The variant with this name, or NULL. */
const Variant *variant_find(const char *name);

/* Fill cfg with the defaults for nplayers players (not checked). */
void variant_config_default(const Variant *v, int nplayers, VariantConfig *cfg);

/* The index of an option key, or -1. */
int variant_option_index(const Variant *v, const char *key);

typedef enum {
	VARIANT_OK,
	VARIANT_ERR_PLAYERS,	/* player count out of range */
	VARIANT_ERR_OPTION,	/* unknown option key */
	VARIANT_ERR_VALUE,	/* option value malformed or out of bounds */
} VariantError;

/* Set option `key` to the decimal integer `value`, checking its bounds. */
VariantError variant_option_set(const Variant *v, VariantConfig *cfg,
				const char *key, const char *value);

/* Check the player count and every option against its bounds. */
VariantError variant_config_check(const Variant *v, const VariantConfig *cfg);

/* A human sentence for an error code. */
const char *variant_error_string(VariantError err);

/*
 * What is wrong with option `key`'s value, for a person, into buf[cap]
 * (always terminated): for VARIANT_ERR_VALUE "want a whole number from
 * MIN to MAX", for VARIANT_ERR_OPTION "unknown option; VARIANT takes K1,
 * K2, ...", else variant_error_string(err). Returns buf.
 */
const char *variant_option_error_text(const Variant *v, const char *key, VariantError err, char *buf,
				      size_t cap);

/*
 * Whether `move` is among legal_moves(state, player). Uses `scratch`, room
 * for v->max_moves moves, so that no allocation happens here.
 */
bool variant_move_is_legal(const Variant *v, const void *state, int player,
			   Move move, Move *scratch);

/* The single player in a TURN mask. */
int variant_mask_player(uint32_t mask);

#endif
