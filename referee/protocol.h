/*
 * protocol: the wire frame of protocol.md, formatted and parsed in one
 * place (as Stockfish's uci.cpp owns UCI). Every line the referee writes
 * to a bot is built here, and every line a bot writes is classified here:
 * the game loop (game), `referee check` (check), the human player (human)
 * and verify (replay) all go through these functions, and verify holds a
 * log's traffic against lines built by the same ones. No protocol word is
 * written as a string literal elsewhere (tests/t1003-protocol-words.sh).
 *
 * What the lines carry (states, moves, options, time controls) comes from
 * the variant table and timectl; this module only frames it. Lines are
 * built without their newline unless a function says otherwise (a caller
 * queues them one a line). Nothing here does I/O or keeps state.
 */
#ifndef TETRARENA_REFEREE_PROTOCOL_H
#define TETRARENA_REFEREE_PROTOCOL_H

#include <glib.h>

#include "text.h"
#include "timectl.h"
#include "variant.h"

/* The protocol's version: the greeting's and the log header's. */
#define PROTOCOL_VERSION 1

/* The longest line either side may send, its newline included. */
#define PROTOCOL_LINE_MAX 65536

/* A line's type: its first word. */
typedef enum {
	PROTOCOL_OTHER,		/* empty, a `#` comment, a type this module does
				 * not know (a side verb, a future one) */
	/* referee to bot */
	PROTOCOL_TETRARENA,	/* tetrarena VERSION: the greeting */
	PROTOCOL_GAME,		/* game N variant= seat= players= options= time= */
	PROTOCOL_MOVES,		/* moves M M ...: (part of) the legal moves */
	PROTOCOL_GO,		/* go MS bank=MS STATE */
	PROTOCOL_UPDATE,	/* update SEAT MOVE | update chance MOVE |
				 * update fault SEAT KIND */
	PROTOCOL_REJECTED,	/* rejected MOVE WHY: not a move after all */
	PROTOCOL_REFUSED,	/* refused VERB WHY: a side line not applied */
	PROTOCOL_RESULT,	/* result ranks= scores= faults= ... reason= */
	PROTOCOL_QUIT,		/* quit */
	/* bot to referee */
	PROTOCOL_HELLO,		/* hello NAME VERSION [FEATURE...] */
	PROTOCOL_DECLINE,	/* decline [WHY] */
	PROTOCOL_MOVE,		/* move MOVE */
	PROTOCOL_INFO,		/* info TEXT */
	PROTOCOL_RESIGN,	/* resign: a person gives up the game */
} ProtocolVerb;

/* The type of `line` (its first word, followed by a space or the end). */
ProtocolVerb protocol_verb(const char *line);

/* The word of a type ("go"); "" for PROTOCOL_OTHER. */
const char *protocol_verb_name(ProtocolVerb verb);

/* Whether `line` is of type `word`: its first word is `word`. For the
 * variants' side verbs (variant.h), which this module does not list. */
gboolean protocol_line_is(const char *line, const char *word);

/* What follows a line's first word and the space after it; "" when
 * nothing does. Points into `line`. */
const char *protocol_args(const char *line);

/* The values of an `info analyse MOVE=VALUE ...` line (an analysing bot's
 * judgement of its legal moves, protocol.md): what follows `analyse `,
 * pointing into `line`; NULL for any other line. */
const char *protocol_info_analysis(const char *line);

/* ---- referee to bot ---------------------------------------------------- */

/* "tetrarena VERSION", the first line a bot just started reads. */
const char *protocol_greeting(void);

/* The options as "key:value,..." (sep ':', the `game` line) or
 * "key=value,..." (sep '=', the log header), a quiet option (Variant.quiet_options) only off
 * its default; "" when the variant has none.
 * Newly allocated. */
char *protocol_options_text(const Variant *v, const VariantConfig *cfg, char sep);

/* The `game` line a bot gets for its `games`-th game, in `seat`:
 * "game N variant= seat= players= options= time=". Newly allocated. */
char *protocol_game_line(const Variant *v, const VariantConfig *cfg, const TimeControl *tc, int seat,
			 int games);

/* Append "go MS bank=BANK STATE\n" to `out`. */
void protocol_append_go(GString *out, long ms, long bank, const char *state);

/* Parse a `go` line: OUT *ms, *bank and *state (into `line`). FALSE when
 * it is not one of that shape. */
gboolean protocol_parse_go(const char *line, long *ms, long *bank, const char **state);

/*
 * Append to `out` the `moves` lines of the n moves `legal` of `seat` in
 * `state`: "moves M M ...\n", the list going on in another `moves` line
 * wherever the next move would take the line past `line_max` bytes with
 * its newline (0 or more than PROTOCOL_LINE_MAX: PROTOCOL_LINE_MAX); each
 * line holds at least one move. The bot joins consecutive `moves` lines.
 */
void protocol_append_moves(GString *out, const Variant *v, const void *state, int seat,
			   const Move *legal, int n, gsize line_max);

/* Append the moves of `line`, a `moves` line, to `joined` as " M M ..."
 * (what protocol_append_moves() split is joined so). */
void protocol_join_moves(GString *joined, const char *line);

/* The `update` lines, into `t`: "update SEAT MOVE", "update chance MOVE",
 * "update fault SEAT KIND". */
void protocol_update_move(Text *t, int seat, const char *move);
void protocol_update_chance(Text *t, const char *move);
void protocol_update_fault(Text *t, int seat, const char *kind);

/* What an `update` line tells of. */
typedef enum {
	PROTOCOL_UPDATE_MOVE,	/* "update SEAT MOVE": the rest is "SEAT MOVE" */
	PROTOCOL_UPDATE_CHANCE,	/* "update chance MOVE": the rest is "MOVE" */
	PROTOCOL_UPDATE_FAULT,	/* "update fault SEAT KIND": the rest "SEAT KIND" */
} ProtocolUpdate;

/* Parse an `update` line: OUT *kind and *rest (into `line`). FALSE when
 * it is not one. */
gboolean protocol_parse_update(const char *line, ProtocolUpdate *kind, const char **rest);

/* "rejected MOVE WHY" (a real-time move overtaken, a simultaneous one
 * outdated by a trade), into `t`. */
void protocol_rejected(Text *t, const char *move, const char *why);

/* "refused VERB WHY", the answer to side line `line` (VERB its first
 * word) that was not applied, into `t`. */
void protocol_refused(Text *t, const char *line, const char *why);

/* Parse a `refused` line: OUT *verb (its length in *verb_len) and *why
 * (its last word), pointing into `line`. FALSE when it is not one. */
gboolean protocol_parse_refused(const char *line, const char **verb, gsize *verb_len, const char **why);

/* The fields of a result line, "ranks=R,.. scores=S,.. faults=F,..EXTRA
 * reason=WHY": `faults[p]` the name of seat p's first fault or NULL
 * ("-"), `extra` the variant's own fields (each with its leading space)
 * or NULL. Newly allocated. */
char *protocol_result_fields(int n, const int *ranks, const int *scores, const char *const *faults,
			     const char *extra, const char *reason);

/* "result FIELDS". Newly allocated. */
char *protocol_result_line(const char *fields);

/* What a result line's fields say (protocol_result_fields()). */
typedef struct {
	int n;				/* seats: values in each list */
	int ranks[VARIANT_MAX_PLAYERS];
	int scores[VARIANT_MAX_PLAYERS];
	char *faults[VARIANT_MAX_PLAYERS];	/* a fault's name or "-" (newly allocated) */
	char *reason;			/* end, limit, faults, aborted...; or NULL */
	char **extra;			/* the other KEY=VALUE fields, in order (NULL-terminated) */
} ProtocolResult;

/*
 * Parse a result line's FIELDS (after "result "): KEY=VALUE fields
 * separated by single spaces, ranks=, scores= (numbers) and faults= each
 * with `n` comma-separated values (n < 0: as many as ranks= has, at most
 * VARIANT_MAX_PLAYERS). OUT: *res (release with protocol_result_clear()).
 * FALSE with *why (newly allocated: "malformed result field 'F'", "result
 * K has N values for M seats", "result K: bad number 'V'", "result lacks
 * ranks=, scores= or faults=") and *res cleared when they are not that.
 */
gboolean protocol_parse_result(const char *fields, int n, ProtocolResult *res, char **why);
void protocol_result_clear(ProtocolResult *res);

/* "quit". */
const char *protocol_quit(void);

/* ---- table talk (matrix), for `referee check` playing the other seats ---- */

/* The side lines a seat sends (protocol.md, "Table talk"), into `t`:
 * "say SEAT TEXT", "offer SEAT GIVE WANT", "gift SEAT PIECE", and
 * "accept ID" or "refuse ID" (yes: accept). Pieces are letters. */
void protocol_say(Text *t, int seat, const char *text);
void protocol_offer(Text *t, int seat, char give, char want);
void protocol_gift(Text *t, int seat, char piece);
void protocol_answer(Text *t, gboolean yes, int id);

/* Parse an `offered ID FROM GIVE WANT` line: OUT *id. FALSE when it is
 * not one. */
gboolean protocol_parse_offered(const char *line, int *id);

/* Parse an `accept ID` or `refuse ID` line: OUT *yes (accept) and *id.
 * FALSE when it is neither. */
gboolean protocol_parse_answer(const char *line, gboolean *yes, int *id);

/* ---- bot to referee ---------------------------------------------------- */

/* What a `hello` says. */
typedef struct {
	char *name;		/* newly allocated */
	gboolean moves;		/* asks for `moves` lines */
	gboolean multi;		/* plays several games in one process */
} ProtocolHello;

/* Parse a `hello NAME VERSION [FEATURE...]` line (single spaces, NAME and
 * VERSION not empty). OUT: *hello (release with protocol_hello_clear()).
 * FALSE, *hello untouched, when the line is not a well-formed hello. */
gboolean protocol_parse_hello(const char *line, ProtocolHello *hello);
void protocol_hello_clear(ProtocolHello *hello);

/* "hello NAME VERSION[ moves][ multi]", the line a bot (the human player)
 * sends; "decline WHY"; "move MOVE". Newly allocated. */
char *protocol_hello_line(const char *name, const char *version, gboolean moves, gboolean multi);
char *protocol_decline_line(const char *why);
char *protocol_move_line(const char *move);

/* "resign": the seat gives up (a person's choice; protocol.md, Faults). */
const char *protocol_resign_line(void);

/* The move of a `move` line ("" for a bare `move`). Points into `line`. */
const char *protocol_move_text(const char *line);

/* ---- faults ------------------------------------------------------------ */

/* The faults of protocol.md, in its order ("start", "declined", "timeout",
 * "malformed", "line-too-long", "illegal", "crash", "resigned"): the names the
 * `update fault` and `result` lines carry. game.h's GameFault follows
 * this order. */
#define PROTOCOL_FAULTS 8

/* The name of fault `i` (0 <= i < PROTOCOL_FAULTS). */
const char *protocol_fault_name(int i);

/* The index of the fault with that name, or -1. */
int protocol_fault_from_name(const char *name);

#endif
