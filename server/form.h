/*
 * form: the start page's request for a new game, parsed and checked.
 *
 * The start page posts an application/x-www-form-urlencoded body (a query
 * string works the same): variant=NAME, one seat=WHO per seat in seat
 * order (WHO is `person`, a person at a web page, or an opponent's name
 * from the server's list), seed=N (empty or absent: drawn at random),
 * time=TIME (the time control, protocol.md's bank:...,move:... form;
 * absent: the default) and opt.KEY=VALUE for each variant option to set
 * (rush: opt.lockstep=1, or opt.pace=1500 for real time at a human pace).
 * Every value is checked here; a bad one gives one error naming the
 * field. Nothing here knows the network: the server hands the body in.
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

/* ms of a round's talk window (option `talk`) at a table with a person,
 * unless the form sets opt.talk: a person reads, types and answers. */
#define FORM_TALK_MS 20000

typedef struct {
	const Variant *variant;
	VariantConfig config;	/* config.nplayers: the seats given */
	char *seat[VARIANT_MAX_PLAYERS];	/* FORM_PERSON or an opponent's name */
	gboolean random_seed;	/* no seed given: the caller draws one */
	guint64 seed;
	TimeControl time;
} FormGame;

/*
 * Parse `body` (len bytes, not NUL-terminated, at most FORM_MAX). `known`
 * says whether an opponent's name is on the server's list. FALSE with
 * error naming the field at fault; *out is then cleared.
 */
gboolean form_parse(const char *body, gsize len, gboolean (*known)(const char *name, void *data), void *data,
		    FormGame *out, GError **error);

void form_game_clear(FormGame *g);

#endif
