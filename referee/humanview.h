/*
 * humanview: what the terminal player (human) shows, as text. Pure
 * functions of the lines the referee sent (a `go` state, a `moves` list)
 * and the terminal's size; no I/O.
 *
 * The legal moves are shown in groups, not one per line: consecutive moves
 * that share a stem (what comes before `@`, else before the last `:`; link
 * `T0@3` -> `T0`, tetroll `reroll:244:b3` -> `reroll:244`, rush `take:I`
 * -> `take`) are one group, written as its numbers and what varies
 * (`12-19  T0 @ 0-7`). A stem that names a piece orientation (`T0`, `SR`,
 * `place:J1`) gets a picture of the piece. The board comes first; when the
 * terminal is short, its empty rows above the pieces are left out.
 */
#ifndef TETRARENA_REFEREE_HUMANVIEW_H
#define TETRARENA_REFEREE_HUMANVIEW_H

#include <glib.h>

#include "variant.h"

/* A run of consecutive moves with one stem: moves[first .. first+count-1]. */
typedef struct {
	int first, count;
	char stem[VARIANT_MOVE_TEXT_MAX];
} HumanGroup;

/* The groups of moves[0 .. n-1] whose index is in `keep` (all when NULL;
 * keep[i] TRUE keeps move i). Newly allocated array of HumanGroup. */
GArray *humanview_groups(char **moves, int n, const gboolean *keep);

/* Append one line for group g (its numbers from 1, its stem, what varies,
 * cut at `width` columns with " ..."), with its newline. */
void humanview_group_line(GString *out, char **moves, const HumanGroup *g, int width);

/* Append pictures of the pieces the stems of groups[0 .. n-1] name,
 * side by side under their numbers, as many as fit `width` in one band;
 * returns the lines appended (0 when no stem names a piece). */
int humanview_pictures(GString *out, const HumanGroup *groups, int n, int width);

/* The board picture `pic` (lines; ANSI colours allowed) without the empty
 * rows at the top of a board (a line with a row number and nothing but
 * dots and frame) but two, or but one when it must fit `max_lines`,
 * saying how many were left out; then, when it is still too tall, the
 * rows that are nothing but frame (tetroll's empty rows above its dashed
 * line). Newly allocated. */
char *humanview_fit(const char *pic, int max_lines);

/* Append what the decision at hand is, in words, for the player in `seat`
 * of variant `v` at the `go` state `state` (the shape a tetroll roll
 * makes, link's roll, the matrix piece and table-talk partners, rush's
 * hand and slot); each line with its newline. */
void humanview_describe(GString *out, const Variant *v, int seat, const char *state);

/* `text` (from a bot: a name, table talk) escaped as the log escapes a
 * bot's line (gamelog_escape(): printable ASCII only), so that it cannot
 * move the cursor or colour the terminal. Newly allocated. */
char *humanview_escape(const char *text);

#endif
