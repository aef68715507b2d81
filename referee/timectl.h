/*
 * timectl: a game's time control and its textual form.
 *
 * All times are milliseconds. A bot has a bank; each move may take at most
 * min(bank, move) plus the grace margin; after each move `inc` is added to
 * the bank (the move's time was taken out first). The reply to the `game`
 * line gets `start` instead. `game` bounds the whole game (0: none); when
 * it runs out the referee calls the variant's halt().
 */
#ifndef TETRARENA_REFEREE_TIMECTL_H
#define TETRARENA_REFEREE_TIMECTL_H

#include <glib.h>

typedef struct {
	gint64 bank;	/* time bank at the start */
	gint64 inc;	/* added after each move */
	gint64 move;	/* most one move may take */
	gint64 start;	/* allowance for the answer to `game` */
	gint64 grace;	/* scheduling margin, never announced */
	gint64 game;	/* whole-game limit, 0 for none */
} TimeControl;

/* The defaults: bank 60000, inc 1000, move 5000, start 10000, grace 50. */
void timectl_default(TimeControl *tc);

/* The error domain of timectl_parse(). */
#define TIMECTL_ERROR (timectl_error_quark())
GQuark timectl_error_quark(void);

typedef enum {
	TIMECTL_ERROR_PARSE,	/* not a time control: a bad key or value */
} TimeCtlError;

/*
 * Parse "bank:60000,inc:1000,move:5000,start:10000,grace:50,game:0" (any
 * subset, any order) over the current values of *tc. False with error set
 * on an unknown key or a bad number.
 */
gboolean timectl_parse(TimeControl *tc, const char *spec, GError **error);

/* The protocol form "bank:B,inc:I,move:M,start:S" (grace is not sent).
 * Newly allocated. */
char *timectl_format(const TimeControl *tc);

/* The full form including grace and game, for logs. Newly allocated. */
char *timectl_format_full(const TimeControl *tc);

/* Multiply every time by `scale` (tests' TETRARENA_TIME_SCALE). */
void timectl_scale(TimeControl *tc, double scale);

#endif
