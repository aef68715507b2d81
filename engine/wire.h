/*
 * wire: the plain-C line formatting and parsing of protocol.md that the
 * referee, the engine and the bot library share (libc only, no
 * allocation: lines are written into a Text, parsed in place).
 *
 * The referee's protocol module (referee/protocol.c) is the one place that
 * knows the whole frame, and builds its lines on these; the engine uses
 * them where a rule answers a bot (matrix's `refused`) or where its API
 * reads a `go` line (engine/api.c); the bot library (bots/botio.c) reads
 * `go` and writes `move` through them. No other C file spells a protocol
 * word (tests/t1003-protocol-words.sh).
 */
#ifndef TETRARENA_ENGINE_WIRE_H
#define TETRARENA_ENGINE_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "text.h"

/* Whether `line` is of type `word`: its first word, followed by a space
 * or the end. */
bool wire_line_is(const char *line, const char *word);

/*
 * Parse `go MS bank=BANK STATE` strictly (single spaces, MS and BANK
 * decimal numbers that fit a long). OUT: *ms, *bank, *state (pointing
 * into line). false when the line is not one.
 */
bool wire_parse_go(const char *line, long *ms, long *bank, const char **state);

/*
 * The state fields of a `go MS bank=BANK STATE` line, leniently: a pointer
 * into line past `go MS ` and past `bank=BANK `, each skipped only when
 * present (a bare state comes back as it is). OUT: *ms (when ms is not
 * NULL): MS, or 0 when absent or not a number within +-1e9.
 */
const char *wire_go_state(const char *line, long *ms);

/* "move MOVE" into t (no newline). */
void wire_move(Text *t, const char *move);

/* "refused VERB WHY" into t: VERB is the first `verb_len` bytes of verb
 * (the side line's first word), WHY one word. */
void wire_refused(Text *t, const char *verb, size_t verb_len, const char *why);

#endif
