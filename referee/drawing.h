/*
 * drawing: what the replay page needs to draw a variant's board beyond the
 * state line (referee/viewer/replay.js parses that, the `go` line's
 * format of protocol.md): the tetroll sheet's special spaces, and who
 * covered each cell of the Main Match's matrix, which the engine does not
 * keep (a cell there is only filled or empty).
 *
 * Owners are followed from round to round: each round's placements mark
 * their cells (a cell two pieces covered is shared), full rows are cleared
 * as the engine clears them, and the result must equal the engine's field;
 * when it does not (a step skipped), the owners are unknown from then on
 * and the page draws filled cells without them.
 */
#ifndef TETRARENA_REFEREE_DRAWING_H
#define TETRARENA_REFEREE_DRAWING_H

#include <glib.h>
#include <stdbool.h>

#include "board.h"
#include "variant.h"

#define DRAWING_SHARED 100	/* a cell that two pieces covered at once */
#define DRAWING_START 101	/* a cell of the starting field: nobody's */

typedef struct {
	int8_t cell[BOARD_MAX_HEIGHT][BOARD_MAX_WIDTH];	/* -1 empty, a seat, DRAWING_SHARED or _START */
	int round;		/* the matrix round the owners are for */
	bool lost;		/* owners unknown from here on */
} Drawing;

/* Start following the game whose first state is `state`. */
void drawing_init(Drawing *d, const Variant *v, const void *state);

/* Append the game's fixed layout to the page data as `,"layout":...`, or
 * nothing for a variant without one: tetroll's special spaces, grid rows
 * top down separated by '/', a cell '.' plain, 'r' ring, 'd' double, 'c'
 * copy. */
void drawing_layout(const Variant *v, const void *state, GString *s);

/* After a step: follow `state` and append the step's drawing fields (the
 * state line as `,"st":...`; for matrix `,"own":...`, rows top down
 * separated by '/', a cell '.' empty, a seat digit, '*' shared, '+' of
 * the starting field, '#' unknown). */
void drawing_step(Drawing *d, const Variant *v, const void *state, GString *s);

#endif
