/*
 * check: `referee check`, a bot's compliance with protocol.md (the
 * analogue of a chess manager's --compliance run).
 *
 *   referee check --variant V [--players N] [--seed S] [--time SPEC] [--workdir DIR] BOT...
 *
 * Each BOT (a command line) is checked on its own, every seat of its games
 * a copy of it, through these items, each printed `ok` or `FAILED` with
 * the line that failed and a hint:
 *
 *   handshake   it answers `game` with `hello NAME VERSION [FEATURE...]`
 *               within the start allowance;
 *   game        a whole game without a fault, whose log verifies;
 *   multi       when it announced `multi`: a second game in the same
 *               processes, without a fault (passes, saying so, when it
 *               did not announce it);
 *   unknown     a game in which every `go` follows lines of types it does
 *               not know (`ping`, a `#` comment, `news key=value`), and
 *               every `moves` list comes split over `moves` lines of at
 *               most 256 bytes (as past the line limit, protocol.md);
 *   start-up    a fresh process, jailed as in games, says hello: the
 *               time from its start against the start allowance (and the
 *               default); a warning past half of it;
 *   stateless   the same process put into the middle of a game (a state
 *               reached by random moves, no updates before it) answers its
 *               `go` with a legal move;
 *   tight-time  it answers a `go` that gives 100 ms (times the test scale
 *               is not applied: real bots must) within that and the grace;
 *   tight-worst ten such `go`s, the slowest reported;
 *   realtime    (real-time variants: rush) twenty `go`s paced as in a game
 *               at the variant's default pace: the mean reaction against
 *               the pace, and how many actions per 100 it would lose;
 *   memory      the peak resident memory of its own process (VmHWM) so
 *               far, against its memory limit and the default;
 *   quit        it exits within 500 ms of `quit`.
 *
 * A timed item gives the margin against the move time and against the
 * grace separately. An item that passed but shows a risk is a warning,
 * `warn` with a note, not a failure: an answer that used the grace, a
 * start-up past half the allowance, a reaction slower than the pace,
 * memory past half the limit. A tetroll game lost to a `malformed`
 * placement whose K R is none of link's 19 orientations names the
 * notation. `--items A,B` runs only those items.
 *
 * With `--variant all` every variant is checked in turn, a variant the
 * bot declines (or that cannot have --players seats) skipped and said so;
 * none checked at all is a failure. --option then sets only the variants
 * that have the key. The command's every run opens with a note that bots
 * get a clean environment (parameters in environment variables do not
 * reach them).
 *
 * Logs go to a temporary directory, kept and named when an item fails.
 *
 * This is a library: check_run() puts the bots through the items and hands
 * back each item as a CheckItem (as it goes, to a callback, and all of them
 * in a CheckReport). cli/check.c parses the command line and prints the
 * items (or, with --json, the report as JSON: check_report_json()); the
 * ladder's admission (ladder/admit.c) runs `referee check --json` as a
 * child process and reads the items back (check_report_from_json()).
 */
#ifndef TETRARENA_REFEREE_CHECK_H
#define TETRARENA_REFEREE_CHECK_H

#include <glib.h>

#include "referee/timectl.h"

#define CHECK_ERROR (check_error_quark())
GQuark check_error_quark(void);

typedef enum {
	CHECK_ERROR_USAGE,	/* the spec cannot be checked (players, options) */
	CHECK_ERROR_FAILED,	/* the checker itself failed (a directory, a game) */
	CHECK_ERROR_JSON,	/* check_report_from_json(): not a report */
} CheckError;

typedef enum {
	CHECK_OK,		/* passed */
	CHECK_WARN,		/* passed, with a risk told in `hint` (the note) */
	CHECK_FAILED,		/* failed: `line` and `hint` say why and what to do */
	CHECK_SKIP,		/* not checked (a variant declined, seats it cannot have) */
} CheckVerdict;

/*
 * One item of a run. Every string is the raw text (a bot's line included,
 * not escaped: escape it where it is shown, as cli/check.c does with
 * gamelog_escape()); NULL when absent.
 */
typedef struct {
	int bot;		/* index into CheckSpec.bots, or -1: about the run or a variant */
	char *variant;		/* the variant checked, or NULL (the run's own item) */
	int players;		/* its seats, or 0 */
	char *name;		/* handshake, game, ..., quit; or NULL (the run's own item) */
	CheckVerdict verdict;
	char *what;		/* what was tried and what came of it, in words */
	char *line;		/* failed: the line that failed (the bot's, or what
				 * happened instead), or NULL */
	char *after;		/* failed in a game: the referee's last line to the
				 * seat before it (cut at 100 bytes), or NULL */
	char *hint;		/* failed: the hint; warn: the note; else NULL */
	double figure;		/* the measure of a timed or sized item, or -1 */
	double limit;		/* its limit in the same unit, or -1 */
	const char *unit;	/* "ms" or "KiB" (static), or NULL */
} CheckItem;

void check_item_free(CheckItem *it);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CheckItem, check_item_free)

/* What a run found. */
typedef struct {
	GPtrArray *items;	/* of CheckItem, owned, in the order run */
	char **bots;		/* the bots' commands, NULL-terminated (owned) */
	int checked;		/* bot and variant pairs checked (not skipped) */
	int failed;		/* items FAILED, all bots */
	int warned;		/* items passed with a warning, all bots */
	char *dir;		/* the logs, kept when an item failed or the run
				 * did not finish; NULL when removed */
} CheckReport;

CheckReport *check_report_new(void);
void check_report_free(CheckReport *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CheckReport, check_report_free)

typedef struct {
	const char *const *bots;	/* command lines, NULL-terminated, at least one */
	const char *variant;		/* a variant's name, or "all": every variant the
					 * bot does not decline */
	int players;			/* seats, or 0: 2 or the variant's range */
	guint64 seed;			/* the games' seed */
	TimeControl time;		/* the time control (timectl_default()) */
	const char *const *options;	/* KEY=VALUE variant options, or NULL; with
					 * "all" each sets only the variants with KEY */
	const char *const *items;	/* only these items, or NULL: all */
	const char *workdir;		/* the bots' working directory, or NULL */
	gboolean confine;		/* a stranger's bot (BotSpec.confined) */
	const char *hide;		/* a directory no bot sees, or NULL */
	/* Called with each item as soon as it is decided (the run goes on),
	 * and before a bot's items on a variant with item NULL, or NULL. */
	void (*progress)(const CheckReport *report, int bot, const char *variant, int players,
			 const CheckItem *item, gpointer data);
	gpointer data;
} CheckSpec;

/* Whether spec can be checked: its variant known, and each variant to
 * check able to have its seats (unless "all") and its options. FALSE with
 * error (CHECK_ERROR_USAGE). check_run() begins with this. */
gboolean check_spec_valid(const CheckSpec *spec, GError **error);

/*
 * Check spec->bots into report (made by check_report_new(), filled in by
 * the run: items, counts, dir). TRUE when the run finished, whatever the
 * items say (report->failed counts the failures). FALSE with error:
 * CHECK_ERROR_USAGE before anything ran (an unknown variant, seats the
 * variant cannot have, a bad option); CHECK_ERROR_FAILED when the checker
 * could not go on (the items so far and report->dir are kept). Runs bots:
 * it blocks for as long as their items take.
 */
gboolean check_run(const CheckSpec *spec, CheckReport *report, GError **error);

/* The report as one JSON object (newly allocated):
 *   {"bots": [...], "checked": N, "failed": N, "warned": N, "logs": DIR|null,
 *    "error": MESSAGE|null,
 *    "items": [{"bot": I, "variant": V, "players": N, "name": S,
 *               "verdict": "ok"|"warn"|"failed"|"skip", "what": S,
 *               "line": S, "after": S, "hint": S, "figure": X, "limit": X, "unit": S}, ...]}
 * with absent strings and figures null and text made valid UTF-8. `error`
 * is the failure that stopped the run, or NULL. */
char *check_report_json(const CheckReport *r, const GError *error);

/* Read a report back from check_report_json()'s text: NULL with error
 * (CHECK_ERROR_JSON) when it is not one. OUT: *stopped, the "error"
 * member (newly allocated), or NULL. */
CheckReport *check_report_from_json(const char *text, gsize len, char **stopped, GError **error);

/* The name of a verdict: "ok", "warn", "failed", "skip". */
const char *check_verdict_name(CheckVerdict v);

#endif
