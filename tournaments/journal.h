/*
 * journal: the append-only record of a tournament's finished games.
 *
 * The file (journal.txt in the output directory) is text, one line each:
 *
 *   tetrarena-journal 1 fingerprint=HEX variant=link players=2 games=48
 *     seed=1 per-seating=2 bootstrap=200 [sprt=elo0=0,elo1=30,alpha=0.05,beta=0.05]
 *     bots=alpha,beta,gamma,delta
 *   game id=12 round=0 seed=... bots=0,1 ranks=1,2 scores=14,9
 *     faults=-,timeout:1 moves=20,19 mean=1.203,0.950 max=3.100,2.000
 *     end=end plies=80 ms=123 log=games/000012.log sandbox=on check=8HEX
 *
 * (each on one line). The header names the tournament: its fingerprint
 * hashes everything that decides which games are played and how (variant,
 * options, seats, bots' names, games per seating, seed, time control), but
 * not the bots' commands or the shard, so shards run on different machines
 * share it. A game line is appended with one write() as its game ends
 * (games that end together share the write), under a lock, so a crash or
 * a kill can at worst tear the last line: once written, a line is in the
 * page cache and survives the process. Flushing to disk (fdatasync) is a
 * group commit: at most once per JOURNAL_SYNC_MS, on the first append
 * after the window, and when the journal is closed. A power cut can lose
 * the games finished since the last flush (those of the last
 * JOURNAL_SYNC_MS, and the last game if none followed it); a resumed
 * tournament plays them again. `check` is an FNV-1a hash of the line before
 * it: a torn or damaged last line is dropped (and truncated away when the
 * journal is reopened for writing); a damaged line elsewhere is an error.
 * A game id recorded twice keeps its first line.
 *
 * Per seat, `faults` is `-` or kind:count joined by `+`; mean and max are
 * the wall time per move in milliseconds. `sandbox` says whether the bots
 * were jailed (`on`), ran bare because that was asked for (`off`), or ran
 * bare because `auto` found no working jail (`unavailable`); journals of
 * older referees have no such key (JOURNAL_SANDBOX_UNKNOWN).
 */
#ifndef TETRARENA_TOURNAMENTS_JOURNAL_H
#define TETRARENA_TOURNAMENTS_JOURNAL_H

#include <glib.h>
#include <stdint.h>

#include "engine/variant.h"

#define JOURNAL_FILE "journal.txt"
#define JOURNAL_SYNC_MS 1000	/* the group commit's window */
#define JOURNAL_FAULTS_MAX 96	/* room for one seat's fault list */
#define JOURNAL_WORD_MAX 128	/* room for `end` and `log` values */

#define JOURNAL_ERROR (journal_error_quark())
GQuark journal_error_quark(void);
typedef enum {
	JOURNAL_ERROR_CORRUPT,	/* a damaged line before the last */
	JOURNAL_ERROR_MISMATCH,	/* another tournament's journal */
	JOURNAL_ERROR_BUSY,	/* another process is writing it */
} JournalError;

typedef struct {
	char *fingerprint;	/* hex */
	char *variant;
	int nseats;		/* players per game */
	int total;		/* games in the whole schedule */
	guint64 seed;		/* master seed */
	int per_seating;	/* games per seating */
	char **bots;		/* NULL-terminated names, in bot index order */
	int bootstrap;		/* bootstrap fits the standings used (0: default) */
	char *sprt;		/* the SPRT's parameters (sprt.h's text), or NULL */
} JournalHeader;

typedef struct {
	int rank, score, moves;
	double mean_ms, max_ms;		/* wall time per move */
	char faults[JOURNAL_FAULTS_MAX];	/* "-" or "timeout:1+illegal:2" */
} JournalSeat;

typedef enum {
	JOURNAL_SANDBOX_UNKNOWN,	/* not recorded */
	JOURNAL_SANDBOX_ON,		/* every bot jailed */
	JOURNAL_SANDBOX_OFF,		/* bare, as asked (sandbox = off) */
	JOURNAL_SANDBOX_UNAVAILABLE,	/* bare: `auto` and no working jail */
	JOURNAL_SANDBOX_COUNT
} JournalSandbox;

/* "unknown", "on", "off", "unavailable". */
const char *journal_sandbox_name(JournalSandbox s);

typedef struct {
	int id, round;
	guint64 seed;
	int nseats;
	int bot[VARIANT_MAX_PLAYERS];		/* bot index per seat */
	JournalSeat seat[VARIANT_MAX_PLAYERS];
	char end[JOURNAL_WORD_MAX];		/* "end", "faults", "limit" */
	int plies;
	gint64 wall_ms;				/* the game's duration */
	char log[JOURNAL_WORD_MAX];		/* relative to the output dir */
	JournalSandbox sandbox;			/* how the bots ran */
} JournalGame;

void journal_header_clear(JournalHeader *h);
/* A deep copy into *dst (cleared first by the caller). */
void journal_header_copy(JournalHeader *dst, const JournalHeader *src);

/* One game as a journal line with its check and newline. Newly allocated. */
char *journal_game_format(const JournalGame *g);

/* Parse one line (without its newline). FALSE with error on anything
 * malformed, a bad check included. */
gboolean journal_game_parse(const char *line, JournalGame *g, GError **error);

/*
 * Read a journal. OUT: *header (clear it with journal_header_clear), the
 * games as a GPtrArray of JournalGame* sorted by id, and *valid_len, the
 * length of the file up to the end of the last good line (NULL: not
 * wanted). FALSE with error when the file cannot be read, has no valid
 * header, or a damaged line before the last.
 */
gboolean journal_read(const char *path, JournalHeader *header, GPtrArray **games,
		      goffset *valid_len, GError **error);

/* Room for a header line: 64 bots of 32 characters and the rest. */
#define JOURNAL_HEADER_MAX 8192

/*
 * Read only the header of the journal at `path`, as journal_open() will
 * find it. OUT: *header (clear it with journal_header_clear) and *found:
 * FALSE, and TRUE returned, when there is no file or it holds no complete
 * header line yet (journal_open() writes one afresh). FALSE with error
 * when the file cannot be read or its first line is no header.
 */
gboolean journal_read_header(const char *path, JournalHeader *header, gboolean *found,
			     GError **error);

/*
 * Replace the header line of the journal at path with `header`, keeping
 * every game line (a tournament extended with more games per seating:
 * its games keep their ids). Written to a temporary file and renamed over
 * the journal, under the journal's lock. FALSE with error when it cannot
 * be read, written or locked (JOURNAL_ERROR_BUSY).
 */
gboolean journal_rewrite_header(const char *path, const JournalHeader *header, GError **error);

typedef struct Journal Journal;

/*
 * Open the journal at `path` for appending: create it with `header`, or
 * reopen it when it exists, after checking that its fingerprint is the
 * header's (JOURNAL_ERROR_MISMATCH otherwise) and cutting a torn last
 * line. Takes an exclusive lock (JOURNAL_ERROR_BUSY when another process
 * holds it). OUT: *games, the games already recorded (sorted by id).
 */
Journal *journal_open(const char *path, const JournalHeader *header,
		      GPtrArray **games, GError **error);

/* Append one game (one write; flushed to disk when the last flush is
 * JOURNAL_SYNC_MS old). Thread-safe. FALSE with error on a write or sync
 * failure. */
gboolean journal_append(Journal *j, const JournalGame *g, GError **error);

/* The same for n games, with one write; a kill during the write can tear
 * only the last line. */
gboolean journal_append_many(Journal *j, const JournalGame *const *games, guint n,
			     GError **error);

/* Flush what was appended to disk now. FALSE with error on failure. */
gboolean journal_sync(Journal *j, GError **error);

/* Flush (best effort: call journal_sync first to see failures), close and
 * unlock. NULL is fine. */
void journal_free(Journal *j);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Journal, journal_free)

#endif
