/*
 * events: what happened to an author's bots, told to them.
 *
 * Each event is one row of the events table (ladder/schema.sql), written
 * in the same transaction as what it tells of, so a kill never loses one
 * nor tells one twice:
 *
 *   admitted   an entry passed admission (its version, its entry id)
 *   rejected   a submission failed it (the reason)
 *   suspended  an entry faulted in suspend_after games in a row and is no
 *              longer scheduled (its last fault)
 *   resumed    the organizer lifted a suspension (`ladder resume`)
 *   ranked     an entry got its first rating, after history_every games
 *              (its rating and interval): a new version's place is known
 *
 * An event names its author: the entry's author when it has one (from its
 * manifest today; the account's id once the ladder has accounts: the
 * column stays the key), else the entry's name. Each author has an Atom
 * feed of their events (ladder_events_atom()); a running ladder hands each
 * new event to the organizer's hook as one JSON line (ladder/hook.h,
 * ladder_event_json()).
 */
#ifndef TETRARENA_LADDER_EVENTS_H
#define TETRARENA_LADDER_EVENTS_H

#include <glib.h>

#include "ladder/db.h"

#define LADDER_EVENTS_FEED_MAX 50	/* entries of a feed, newest first */

typedef struct {
	gint64 id;
	char *at;		/* ISO 8601 UTC */
	char *kind;		/* admitted, rejected, suspended, resumed, ranked */
	char *author;		/* who is told */
	char *name;		/* the entry's name */
	gint64 bot;		/* the entry, or 0 (a rejection has none) */
	gint64 game;		/* the game it happened at, or 0 */
	char *text;		/* one line, for people */
} LadderEvent;

void ladder_event_free(LadderEvent *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderEvent, ladder_event_free)

/* Who is told of an entry: `author` when set and not blank, else `name`.
 * Not allocated (one of the two). */
const char *ladder_event_author(const char *author, const char *name);

/*
 * Record an event (inside the caller's transaction). `author` may be NULL
 * (the name is used); `bot` and `game` 0 when none. FALSE with error.
 */
gboolean ladder_event_add(LadderDb *d, const char *kind, const char *author, const char *name, gint64 bot,
			  gint64 game, const char *text, GError **error);

/* The id of the newest event, 0 when none. */
gint64 ladder_events_last(LadderDb *d);

/* The events with id > `after`, oldest first (at most `max`), or those of
 * `author` alone when it is not NULL: a GPtrArray of LadderEvent (owning
 * them), newest first when `newest` is set. NULL with error. */
GPtrArray *ladder_events_list(LadderDb *d, gint64 after, const char *author, guint max, gboolean newest,
			      GError **error);

/* The event as one line of JSON, with a newline: {"id":..,"at":..,"kind":..,
 * "author":..,"name":..,"bot":..,"game":..,"text":..} (bot and game null
 * when none). Newly allocated. */
char *ladder_event_json(const LadderEvent *e);

/*
 * The Atom feed (RFC 4287) of `author`'s events, newest first (at most
 * LADDER_EVENTS_FEED_MAX), every text escaped; `base` (a URL ending in
 * '/', or NULL) makes the entries' links absolute. An author with no
 * event gets a valid feed with no entry. Newly allocated, or NULL with
 * error.
 */
char *ladder_events_atom(LadderDb *d, const char *author, const char *base, GError **error);

/* A file name for `author`'s feed: its letters, digits, '-' and '_' (at
 * most 40), then '-' and 8 hex digits of its SHA-256, ".atom" (two
 * authors never share one). Newly allocated. */
char *ladder_events_feed_file(const char *author);

#endif
