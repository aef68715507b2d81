/*
 * ladder: a ladder's settings and entries as its database holds them
 * (ladder/db.h), and what a game of it is made from.
 *
 * The settings are fixed at `ladder init` and kept in the meta table:
 * variant, players (a range: a table's size is drawn per game), time
 * control, variant options, master seed, sandbox mode, and the caps of a
 * submitted directory (ladder/botdir.h). Entries are the bots table's
 * rows.
 */
#ifndef TETRARENA_LADDER_LADDER_H
#define TETRARENA_LADDER_LADDER_H

#include <glib.h>

#include "engine/variant.h"
#include "ladder/botdir.h"
#include "ladder/db.h"
#include "referee/botspec.h"
#include "referee/game.h"
#include "referee/sandbox.h"
#include "referee/timectl.h"

#define LADDER_ERROR (ladder_error_quark())
GQuark ladder_error_quark(void);

typedef enum {
	LADDER_ERROR_SETTINGS,	/* a setting that is invalid */
	LADDER_ERROR_NAME,	/* a bot name that is invalid or unknown */
	LADDER_ERROR_STOPPED,	/* a stop was asked during an admission */
} LadderErrorCode;

/* The most entries (every version of every name) a ladder holds: the
 * batch fit's limit (tournaments/ratings.h), whose Laplace step is cubic
 * in the entries (docs/ladder.md "Scale" has the figures at 500). */
#define LADDER_MAX_BOTS 1024

typedef struct {
	const Variant *variant;
	int min_players, max_players;	/* a table's size range */
	char *time;			/* the time control as given ("" default) */
	char *options;			/* "key=value,..." ("" none) */
	guint64 seed;			/* master seed */
	SandboxMode sandbox;		/* how bots run (default auto) */
	LadderBotCaps caps;		/* of a submitted directory (default
					 * 64 MiB, 2000 files) */
	int suspend_after;		/* faulted games in a row that suspend
					 * an entry (default 5; 0: never) */
} LadderSettings;

void ladder_settings_clear(LadderSettings *s);

/*
 * Fill *s from the command line's words: variant name, players ("P",
 * "MIN-MAX" or NULL for the variant's default), time spec, options
 * ("k=v,k=v" or NULL), seed text (NULL: drawn from the OS, below 2^53),
 * sandbox mode name (NULL: auto), a submitted directory's size cap (bytes,
 * or with a K, M or G suffix: KiB, MiB, GiB; NULL: 64M) and file-count cap
 * (NULL: 2000). Each is checked (a time control that parses, options the
 * variant knows). FALSE with error naming the bad one.
 */
gboolean ladder_settings_parse(LadderSettings *s, const char *variant, const char *players,
			       const char *time, const char *options, const char *seed,
			       const char *sandbox, const char *bot_size, const char *bot_files,
			       GError **error);

#define LADDER_SUSPEND_AFTER_DEFAULT 5

/* Set s->suspend_after from `ladder init --suspend-after K`'s text: 0
 * (never) to 1000. FALSE with error. */
gboolean ladder_settings_set_suspend_after(LadderSettings *s, const char *text, GError **error);

/* Write the settings into meta (inside the caller's transaction), or read
 * them back. FALSE with error. */
gboolean ladder_settings_save(LadderDb *d, const LadderSettings *s, GError **error);
gboolean ladder_settings_load(LadderDb *d, LadderSettings *s, GError **error);

/* The default players of a variant: all its range, but at least 2. */
void ladder_settings_default_players(const Variant *v, int *min, int *max);

/*
 * A GameSpec for a game of `nplayers` at `seed` under the settings (seats
 * left empty, log_path NULL). FALSE with error when the time control or
 * an option no longer applies.
 */
gboolean ladder_game_spec(const LadderSettings *s, int nplayers, guint64 seed, GameSpec *spec,
			  GError **error);

/* The seed of game `id`: derived from the master seed, below 2^53. */
guint64 ladder_game_seed(guint64 master, gint64 id);

typedef enum {
	LADDER_BOT_ACTIVE,	/* scheduled */
	LADDER_BOT_REPLACED,	/* a newer version of its name came */
	LADDER_BOT_RETIRED,	/* `ladder retire` */
	LADDER_BOT_SUSPENDED,	/* active, but not scheduled: it faulted in
				 * suspend_after games in a row (the
				 * database's status is still `active`,
				 * bots.suspended set) */
} LadderBotStatus;

const char *ladder_bot_status_name(LadderBotStatus s);

typedef struct {
	gint64 id;
	char *name;
	int version;
	char *command;
	char *workdir;		/* NULL: none */
	char *sha256;
	char *added;
	LadderBotStatus status;
	char *author;		/* from its manifest, or NULL */
	char *description;	/* from its manifest, or NULL */
	char *suspended;	/* when it was suspended, or NULL */
	char *suspended_why;	/* why, or NULL */
} LadderBot;

void ladder_bot_free(LadderBot *b);

/* Every entry, by id (GPtrArray of LadderBot*, owning them). NULL with
 * error. */
GPtrArray *ladder_bots_load(LadderDb *d, GError **error);

/* The entry of `id` in bots, or NULL. */
const LadderBot *ladder_bots_find(GPtrArray *bots, gint64 id);

/* A BotSpec to start entry b (its name "NAME.vN" in logs), of the
 * ladder in `dir`: confined (BotSpec.confined) when it has a directory,
 * which must be one of the ladder's copies (ladder_bot_dir_valid(), so
 * that no edit of the database widens what it sees). NULL with error if
 * its command no longer parses or its directory is not such a copy. */
BotSpec *ladder_bot_spec(const LadderBot *b, const char *dir, GError **error);

/* The label of an entry, "NAME" for version 1 and "NAME.vN" after.
 * Newly allocated. */
char *ladder_bot_label(const LadderBot *b);

/* Whether `name` is a valid entry name: 1-32 letters, digits, `_`, `-`
 * (a dot is kept for versions). */
gboolean ladder_name_valid(const char *name);

#endif

/*
 * The faults of `seat` in the game log at `path`, each as the log's
 * `fault` line preceded by the last line that seat sent before it (when
 * there is one), joined by a newline: a GPtrArray of strings (owning
 * them), at most `max`. An unreadable log gives an empty list.
 */
GPtrArray *ladder_log_faults(const char *path, int seat, guint max);
