/*
 * admit: `ladder add`, the gate every bot passes before it meets others.
 *
 * A submission (a name and a command, run in `workdir` when given) is
 * admitted only when both pass:
 *
 *   1. `referee check` (referee/check.h) on the ladder's variant,
 *      smallest table, time control and options, run as a child process
 *      of this referee (`referee check --json`: a bot that brings the
 *      checker down cannot bring the ladder down), whose report the
 *      ladder reads back as items: the reason names each FAILED item and
 *      the line that failed;
 *   2. a validation game at the largest table, every seat a copy of it,
 *      jailed as the ladder's games are (its log kept in
 *      DIR/admission/), without a single fault.
 *
 * Admitted, it becomes the name's next version (1 for a new name): the
 * previous active version is marked replaced (it keeps its games and
 * record and is no longer scheduled). Rejected, one rejections row holds
 * the reason and nothing else changes. No game against another entry is
 * played either way.
 */
#ifndef TETRARENA_LADDER_ADMIT_H
#define TETRARENA_LADDER_ADMIT_H

#include <signal.h>

#include <glib.h>

#include "ladder/db.h"
#include "ladder/ladder.h"

typedef struct {
	gboolean admitted;
	gint64 id;		/* the new entry's id, when admitted */
	int version;		/* its version, when admitted */
	char *reason;		/* why not, when rejected (newly allocated) */
} LadderAdmission;

void ladder_admission_clear(LadderAdmission *a);

/*
 * Put a submission through admission and record the outcome (d must be
 * open for writing). `referee` is this referee's program (for `check`).
 * OUT: *out. FALSE with error only when the ladder itself fails (the
 * database, the disk); a bot's failure is a rejection, TRUE.
 */
typedef struct {
	const char *name;
	const char *command;
	const char *workdir;		/* where it runs, or NULL */
	const char *author;		/* from a manifest, or NULL */
	const char *description;	/* from a manifest, or NULL */
	const char *request;		/* the inbox file it came from (ladder/inbox.h),
					 * or NULL: its decision row goes into the
					 * same transaction as the entry or rejection */
	gint64 next_game;		/* with request: the next game's id */
	volatile sig_atomic_t *stop;	/* or NULL: when set by the end (a Ctrl-C
					 * reaches the check and the bots too),
					 * nothing is recorded: FALSE with
					 * LADDER_ERROR_STOPPED */
} LadderSubmission;

gboolean ladder_admit(LadderDb *d, const LadderSettings *s, const char *referee, const LadderSubmission *sub,
		      LadderAdmission *out, GError **error);

/*
 * Record the decision on the inbox request `file` (a requests row), inside
 * the caller's transaction: its kind and name, the next game's id, the
 * entry admitted (or 0) and a note (or NULL). FALSE with error.
 */
gboolean ladder_request_decided(LadderDb *d, const char *file, const char *kind, const char *name,
				gint64 next_game, gint64 bot, const char *note, GError **error);

/* The decision on the inbox request `file`, read from d: TRUE when there
 * is one, with OUT *admitted (an entry was made), *version (its version)
 * and *note (newly allocated, or NULL); FALSE when there is none yet or
 * the database cannot say. */
gboolean ladder_request_decision(LadderDb *d, const char *file, gboolean *admitted, int *version, char **note);

/* Mark the active entry of `name` retired (it keeps its games and record),
 * in the caller's transaction if any. OUT: *done, whether it had one.
 * FALSE with error. */
gboolean ladder_bot_retire(LadderDb *d, const char *name, gboolean *done, GError **error);

#endif
