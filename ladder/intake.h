/*
 * intake: the running ladder takes the requests queued in its inbox
 * (ladder/inbox.h) before it schedules each game.
 *
 * Each waiting request file, oldest first: one already decided (its name
 * in the requests table: a run was killed after the decision committed and
 * before the file went) is only removed; an add goes through admission
 * exactly as `ladder add` (ladder/admit.h), its decision row committed
 * with the entry or the rejection; a retire marks the name's active entry
 * retired, in one transaction with its decision row; a resume lifts
 * the suspension of the name's active entry likewise (ladder_resume()); a file that does not
 * read as a request is decided as "bad" with the reason. The file is
 * removed only after its decision commits. A request never fails the run:
 * only a failure of the ladder itself (the database, the disk) does, and
 * then the request stays queued.
 */
#ifndef TETRARENA_LADDER_INTAKE_H
#define TETRARENA_LADDER_INTAKE_H

#include <signal.h>

#include <glib.h>

#include "ladder/db.h"
#include "ladder/ladder.h"

/*
 * Take every waiting request (d open for writing; `referee` this program,
 * for `check`; `next_game` the id the next scheduled game gets; `quiet`:
 * no line per decision on stderr; `stop`, or NULL: once set, the requests
 * left, and one whose admission it interrupted, stay queued). OUT: *changed, TRUE when an entry was
 * admitted or retired (the caller reloads its entries). FALSE with error.
 */
gboolean ladder_intake(LadderDb *d, const LadderSettings *s, const char *referee, gint64 next_game,
		       gboolean quiet, volatile sig_atomic_t *stop, gboolean *changed, GError **error);

/*
 * Lift the suspension of `name`'s active entry (LADDER_BOT_SUSPENDED): it
 * is scheduled again, its run of faulted games back to 0, with a
 * `resumed` event; with `request` (an inbox file), its decision row in the
 * same transaction. OUT: *done, FALSE when the name has no suspended
 * entry (nothing changed but the decision row). FALSE with error.
 */
gboolean ladder_resume(LadderDb *d, const char *name, const char *request, gint64 next_game, gboolean *done,
		       GError **error);

/* Remove a submitted bot's copy (a rejected one), only when it lies in
 * DIR/bots/. */
void ladder_bot_dir_remove(const char *ladder_dir, const char *path);

#endif
