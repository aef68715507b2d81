/*
 * form: the start page's request for a new game, parsed and checked.
 *
 * The start page posts an application/x-www-form-urlencoded body (a query
 * string works the same): variant=NAME, one seat=WHO per seat in seat
 * order (WHO is `person`, a person at a web page, or an opponent's name
 * from the server's list), seed=N (empty or absent: drawn at random),
 * time=TIME (the time control, protocol.md's bank:...,move:... form,
 * of every seat the `clock` does not set; absent: the default, for our
 * AIs), clock=WORD (a person's clock, form_clocks: relaxed, 10+5, 3+2;
 * absent: relaxed, or TIME when a time is given), time.SEAT=TIME (that
 * seat's own clock, over both), seats=N (fill the seats after those
 * given with the variant's medium AI up to N; with fewer seats named
 * than the game's least, up to form_default_seats(); with none named,
 * seat 0 is a person)
 * and opt.KEY=VALUE for each variant option to set (rush: opt.lockstep=1,
 * or opt.pace=1500 for real time at a human pace). Every value is
 * checked here; a bad one gives one error naming the field (bad_field).
 * Nothing here knows the network: the server hands the body in.
 */
#ifndef TETRARENA_SERVER_FORM_H
#define TETRARENA_SERVER_FORM_H

#include <glib.h>

#include "referee/timectl.h"
#include "variant.h"

#define FORM_ERROR (form_error_quark())
GQuark form_error_quark(void);

typedef enum {
	FORM_ERROR_INVALID,	/* a field is missing, unknown or out of range */
} FormError;

/* The longest body form_parse() reads (bytes). */
#define FORM_MAX 4096

/* `seat=person`: a person at a web page. */
#define FORM_PERSON "person"

/* A person's clock, chosen in words. `untimed`: no limit a move (the
 * move time is the bank); a page gone away is waited for 120 s. */
typedef struct {
	const char *name;	/* the form's value */
	const char *words;	/* for the start page */
	const char *time;	/* the time control */
	gboolean untimed;
} FormClock;

/* The clocks, relaxed (the default) first; NULL-name terminated. */
extern const FormClock form_clocks[];

/* A variant's default seat count, by its rules (matrix: 7; else 2, or
 * its least when that is more). */
int form_default_seats(const Variant *v);

/* The AI that fills a seat by default: bot-VARIANT-level3 (medium), else
 * bot-VARIANT, else bot-random, if `known`; NULL when none is.
 * Newly allocated. */
char *form_default_ai(const Variant *v, gboolean (*known)(const char *name, void *data), void *data);

/* ms of a round's talk window (option `talk`) at a table with a person,
 * unless the form sets opt.talk: a person reads, types and answers. */
#define FORM_TALK_MS 20000

typedef struct {
	const Variant *variant;
	VariantConfig config;	/* config.nplayers: the seats given */
	char *seat[VARIANT_MAX_PLAYERS];	/* FORM_PERSON or an opponent's name */
	gboolean random_seed;	/* no seed given: the caller draws one */
	guint64 seed;
	TimeControl time;	/* the game's, and every seat's the rest do not set */
	gboolean time_given;	/* `time` was given */
	const FormClock *clock;	/* the people's clock (NULL: `time`, as given) */
	guint32 seat_timed;	/* seats with a clock of their own, bit per seat */
	TimeControl seat_time[VARIANT_MAX_PLAYERS];
	const char *bad_field;	/* on failure: the field at fault ("variant",
				 * "seat", "seed", "time", "clock", "seats",
				 * "opt.KEY" as "options", or "form") */
} FormGame;

/*
 * Parse `body` (len bytes, not NUL-terminated, at most FORM_MAX). `known`
 * says whether an opponent's name is on the server's list. FALSE with
 * error saying why and out->bad_field naming the field at fault; *out is
 * then cleared but for bad_field. On success every seat's clock is
 * settled: person seats have the clock (seat_timed), or `time` when only
 * that was given.
 */
gboolean form_parse(const char *body, gsize len, gboolean (*known)(const char *name, void *data), void *data,
		    FormGame *out, GError **error);

void form_game_clear(FormGame *g);

#endif
