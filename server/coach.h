/*
 * coach: our AI as a coach on the web (docs/serve.md, "Review and
 * hints"). A finished game's replay page gets a "review" panel
 * (server/pages/coach.js): at each decision of a person's seat, what our
 * strongest AI would have played and what the move played cost
 * (referee/review.h). During a game a person may ask for a hint: the
 * AI's choice for the position now (off by default: a button on the
 * play page).
 *
 * Nothing is computed on the server's loop: each review or hint is the
 * referee's own binary (/proc/self/exe) run as a child, `referee review
 * LOG --seat S --json --progress`, in its own process group, waited for
 * asynchronously with a deadline (COACH_REVIEW_S, COACH_HINT_S, scaled
 * by TETRARENA_TIME_SCALE) after which the group is killed. A review's
 * result is kept beside the log as ID.seatS.DIGEST.review.json (DIGEST: the
 * log's SHA-256, its first 16 digits), created with
 * O_EXCL (no file is ever overwritten) and served from there afterwards;
 * while it runs its progress is polled from the same URL. At most
 * COACH_JOBS children run at once (the machine's cores are the games'),
 * one hint at a time per seat and one every COACH_HINT_GAP_S.
 *
 * Only a seat a person played (its log's command is "web", or "human" at a terminal) is reviewed;
 * hints only in a game started from this server's start page with a
 * person in it, for that seat with its token: never in a tournament's or
 * a ladder's game (the server says so: hints_ok FALSE).
 */
#ifndef TETRARENA_SERVER_COACH_H
#define TETRARENA_SERVER_COACH_H

#include <libsoup/soup.h>

#include "games.h"
#include "referee/sandbox.h"

#define COACH_REVIEW_S 120	/* a review's deadline (s) */
#define COACH_HINT_S 30		/* a hint's deadline (s) */
#define COACH_HINT_GAP_S 5	/* a seat's hints are this far apart at least (s) */
#define COACH_JOBS 2		/* children running at once, reviews and hints */
#define COACH_OUT_MAX (4 * 1024 * 1024)	/* a child's stdout kept (bytes) */

typedef struct Coach Coach;

/* A coach for a server's games; mode jails the AI (as `--sandbox`);
 * hints_ok: whether this server gives hints at all. */
Coach *coach_new(SandboxMode mode, gboolean hints_ok);
/* Kill what still runs; NULL is fine. */
void coach_free(Coach *c);

/* GET /games/ID/review?seat=S: a JSON object, {"state": "running", "step":
 * K, "count": N, "seconds": T} while it runs (the first request starts
 * it), {"state": "done", "seat": S, "steps": [...]} (the steps as
 * `referee review --json` prints them), or {"state": "failed", "error":
 * WHY}; 409 before the game is over, 400 for a seat no person played,
 * 503 when COACH_JOBS children run already. */
void coach_review(Coach *c, SoupServerMessage *msg, ServeGame *g, GHashTable *query);

/* GET /games/ID/hint?seat=S&token=T: as coach_review(), with "done"
 * holding {"state": "done", "step": K, "choice": MOVE, "moves": N} for
 * the seat's latest decision. 403 where hints are not given (a
 * tournament's or ladder's game, a wrong token), 429 when asked again
 * within COACH_HINT_GAP_S. The first request asks for the latest
 * decision; later ones are polls, until one with &new=1 asks again.
 * With &probe=1 only {"hints": true|false}: whether this game has them
 * (the play page shows its button only then). */
void coach_hint(Coach *c, SoupServerMessage *msg, ServeGame *g, GHashTable *query);

/* The replay page `page` (HTML, taken) with the review panel's script
 * added: newly allocated. */
char *coach_replay_page(char *page);

#endif
