/*
 * api: the engine for other languages, a small and stable C interface.
 *
 * This is what build/opt/libtetrarena.so (copied to lib/libtetrarena.so)
 * exports, and nothing else: every function is tetra_*, every argument a
 * plain C type (int, unsigned, char *, a size), so that Python's ctypes,
 * or any other foreign-function interface, can call it without a
 * compiler. bots/python/tetrarena.py is the Python module over it. C bots
 * use variant.h instead, which is richer and faster.
 *
 * A TetraState is one game state of one variant, seen by one seat, rebuilt
 * from a `go` line (protocol.md). Moves are text in the variant's notation,
 * exactly as in `move` lines. The API never prints, never aborts on bad
 * input (bad text is an error code or NULL), and owns nothing of the
 * caller's: strings passed in are read during the call only.
 *
 * Text out is written snprintf-style into the caller's buffer: the return
 * value is the length the whole text needs, without its NUL; when it is
 * cap or more the buffer holds a truncated copy (NUL-terminated when cap
 * > 0), so call again with a buffer of return + 1 bytes. A negative
 * return is an error (TETRA_ERR_*).
 *
 * Stability: TETRA_API_VERSION counts incompatible changes. Functions may
 * be added; none changes its meaning or signature within one version.
 */
#ifndef TETRARENA_ENGINE_API_H
#define TETRARENA_ENGINE_API_H

#include <stddef.h>

#if defined(__GNUC__)
#define TETRA_EXPORT __attribute__((visibility("default")))
#else
#define TETRA_EXPORT
#endif

#define TETRA_API_VERSION 1

/* Results of tetra_check() and tetra_apply(), and negative text returns. */
enum {
	TETRA_OK = 0,
	TETRA_ERR_MALFORMED = -1,	/* the notation does not parse (fault `malformed`) */
	TETRA_ERR_ILLEGAL = -2,		/* parses but is not legal now (fault `illegal`) */
	TETRA_ERR_NOT_NOW = -3,		/* that player does not decide now */
	TETRA_ERR_ARGUMENT = -4,	/* a bad player number or a NULL */
};

/* Phases, as variant.h's VariantPhase. */
enum {
	TETRA_PHASE_TURN = 0,		/* one player decides */
	TETRA_PHASE_CHANCE = 1,		/* chance moves next (a roll, a deal) */
	TETRA_PHASE_SIMULTANEOUS = 2,	/* every player of the mask decides, blind */
	TETRA_PHASE_REALTIME = 3,	/* every player of the mask may act */
	TETRA_PHASE_OVER = 4,		/* the game has ended */
};

#define TETRA_CHANCE (-1)	/* the player of chance moves */

typedef struct TetraState TetraState;

/* TETRA_API_VERSION of the library. */
TETRA_EXPORT int tetra_api_version(void);

/* The name of the i-th variant from 0 ("link"), a static string, or NULL
 * past the last. */
TETRA_EXPORT const char *tetra_variant_name(int i);

/*
 * Rebuild the state of `variant` that seat `seat` was sent in `line`: a
 * whole `go MS bank=B key=value...` line (a newline at its end is
 * ignored), or only its key=value fields. With seat -1 the seat is the
 * one whose turn it is (link and tetroll, where `go` says `current`).
 * Returns a new state (free it with tetra_free), or NULL when the variant
 * is unknown, the line does not parse, the seat is out of range, or memory
 * ran out. The options the line does not carry (link's `pieces`, rush's
 * `box` and `pace`, matrix's `rounds`) take their defaults; they do not
 * change legal moves or scores.
 */
TETRA_EXPORT TetraState *tetra_parse(const char *variant, int seat, const char *line);

/* A copy of s, or NULL when memory ran out. Free it with tetra_free. */
TETRA_EXPORT TetraState *tetra_copy(const TetraState *s);

/* Free a state; NULL is allowed. */
TETRA_EXPORT void tetra_free(TetraState *s);

/* The variant's name ("link"), a static string. */
TETRA_EXPORT const char *tetra_variant(const TetraState *s);

/* The seat the state was parsed for, and the number of seats. */
TETRA_EXPORT int tetra_seat(const TetraState *s);
TETRA_EXPORT int tetra_players(const TetraState *s);

/* The phase (TETRA_PHASE_*). OUT: *mask (may be NULL) gets the players
 * who decide now, bit p for seat p. */
TETRA_EXPORT int tetra_phase(const TetraState *s, unsigned *mask);

/*
 * Every legal move of `player` now, in canonical notation, separated by
 * single spaces, into buf[cap] (see text out above). Empty when `player`
 * does not decide now. In a matrix round where a seat holds several
 * pieces the list may stop short of every combination (variant.h's
 * max_moves); tetra_check() is then the authority.
 */
TETRA_EXPORT long tetra_moves(const TetraState *s, int player, char *buf, size_t cap);

/*
 * Judge `move` of `player` (or TETRA_CHANCE) as the referee would:
 * TETRA_OK, TETRA_ERR_MALFORMED, TETRA_ERR_ILLEGAL or TETRA_ERR_NOT_NOW.
 * Nothing changes.
 */
TETRA_EXPORT int tetra_check(const TetraState *s, int player, const char *move);

/*
 * Apply `move` of `player` (or TETRA_CHANCE: `roll T` in link, `roll:25`
 * in tetroll) to s, in place, after the same checks as tetra_check(); on
 * any error s is unchanged. In a simultaneous round (matrix, rush in
 * lockstep) the round is resolved with this one move: the other seats of
 * the round count as having made none (in matrix, -5 each); give every
 * seat's move with tetra_apply_round() instead.
 */
TETRA_EXPORT int tetra_apply(TetraState *s, int player, const char *move);

/*
 * Resolve a simultaneous round: moves[p] is seat p's move, or NULL or ""
 * for none, for every seat (tetra_players() entries). Returns TETRA_OK, or
 * the first error found (s unchanged): TETRA_ERR_NOT_NOW when the phase is
 * not simultaneous or a seat outside the round has a move.
 */
TETRA_EXPORT int tetra_apply_round(TetraState *s, const char *const *moves);

/*
 * The scores now, one per seat, into out[cap]; returns the number of
 * seats (write at most cap). In rush lower is better
 * (tetra_lower_score_wins).
 */
TETRA_EXPORT int tetra_scores(const TetraState *s, int *out, int cap);

/* 1 when fewer points rank first (rush), else 0. */
TETRA_EXPORT int tetra_lower_score_wins(const TetraState *s);

/* A picture of the state, several lines of plain text, into buf[cap]. */
TETRA_EXPORT long tetra_render(const TetraState *s, char *buf, size_t cap);

/*
 * The state as the key=value fields of a `go` line as seat `viewer` sees
 * it (TETRA_CHANCE: everything known), into buf[cap]. A state parsed from
 * a `go` line formats back to the same fields, less what the variant
 * does not keep.
 */
TETRA_EXPORT long tetra_format(const TetraState *s, int viewer, char *buf, size_t cap);

#endif
