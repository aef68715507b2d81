/*
 * inbox: submissions queued while `ladder run` writes the ladder.
 *
 * One process writes the database. While a run holds the writer's lock,
 * `ladder add`, `ladder retire` and `ladder resume` do not wait for it: each puts a request
 * into DIR/inbox/ as one file, made atomically (written under a temporary
 * name starting with '.', fsynced, renamed), and the run takes it before
 * scheduling its next game (ladder/intake.h). A request file is a key file:
 *
 *   [request]
 *   kind = add                 # add, retire or resume
 *   name = mybot               # the entry's name
 *   command = bin/bot-random   # add: the command line (required)
 *   workdir = /abs/DIR/bots/mybot-2   # add: a copied bot directory
 *   author = Ada               # add: from its manifest (optional)
 *   description = greedy       # add: likewise
 *
 * Its file name, NNNNNNNNNNNNNNNN-PID.req (the microsecond it was queued
 * in hex, then the queuing process), orders the inbox by arrival and is
 * stored with the decision, which makes taking it idempotent.
 */
#ifndef TETRARENA_LADDER_INBOX_H
#define TETRARENA_LADDER_INBOX_H

#include <glib.h>

#define LADDER_INBOX_DIR "inbox"
#define LADDER_INBOX_MAX (64 * 1024)	/* bytes of a request file */

#define LADDER_INBOX_ERROR (ladder_inbox_error_quark())
GQuark ladder_inbox_error_quark(void);

typedef enum {
	LADDER_INBOX_ERROR_READ,	/* cannot be read, or too big */
	LADDER_INBOX_ERROR_INVALID,	/* not a valid request */
	LADDER_INBOX_ERROR_WRITE,	/* cannot be queued */
} LadderInboxError;

typedef enum {
	LADDER_REQUEST_ADD,
	LADDER_REQUEST_RETIRE,
	LADDER_REQUEST_RESUME,	/* lift a suspension (ladder/intake.h) */
} LadderRequestKind;

typedef struct {
	LadderRequestKind kind;
	char *name;
	char *command;		/* add: required */
	char *workdir;		/* NULL: none */
	char *author;		/* NULL: none */
	char *description;	/* NULL: none */
} LadderRequest;

void ladder_request_free(LadderRequest *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderRequest, ladder_request_free)

const char *ladder_request_kind_name(LadderRequestKind k);

/* Read the request file at `path`. NULL with error naming the file and
 * what is wrong (a bad kind or name, a missing command, any other group
 * or key, more than LADDER_INBOX_MAX bytes, text that is not UTF-8). */
LadderRequest *ladder_request_read(const char *path, GError **error);

/* Queue r into DIR's inbox. Returns its file name (newly allocated, no
 * directory), or NULL with error. */
char *ladder_inbox_queue(const char *dir, const LadderRequest *r, GError **error);

/* The request files waiting in DIR's inbox, oldest first (names, no
 * directory; a GPtrArray owning them, empty when there is no inbox). */
GPtrArray *ladder_inbox_list(const char *dir);

#endif
