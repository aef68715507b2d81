/*
 * gamelog: writing and reading game logs (the format is docs/gamelog.md):
 * the one module that knows the log's words. The game writes a log through
 * a GameLogWriter as the game goes (the header, gamelog_write_header(),
 * from the same GameLog fields that gamelog_read() gives back); the
 * writer buffers 64 KiB (GAMELOG_BUFFER), so a game's log costs a write()
 * per 64 KiB and none per line. A log is read whole into a GameLog: the header, and the
 * game's events in order, each with its line number so that a checker can
 * name the line where a game diverges. Traffic lines (`>` and `<`) are
 * events too (GAMELOG_SENT, GAMELOG_RECEIVED, text after the time), so
 * that verify can hold them against the game. A log cut short (a killed referee) reads up to its last
 * complete line; `complete` says whether its `end` line was seen.
 */
#ifndef TETRARENA_REFEREE_GAMELOG_H
#define TETRARENA_REFEREE_GAMELOG_H

#include <glib.h>

#include "timectl.h"
#include "variant.h"

/* The error domain of the log readers and writers. */
#define GAMELOG_ERROR (gamelog_error_quark())
GQuark gamelog_error_quark(void);

typedef enum {
	GAMELOG_ERROR_WRITE,	/* the log cannot be written */
	GAMELOG_ERROR_READ,	/* the log cannot be read */
	GAMELOG_ERROR_PARSE,	/* not a log, or a malformed line */
} GameLogError;

typedef enum {
	GAMELOG_CHANCE,		/* chance TEXT */
	GAMELOG_MOVE,		/* move SEAT TEXT wall=MS cpu=MS */
	GAMELOG_RANDOM,		/* random SEAT TEXT: the random policy's move */
	GAMELOG_SUBMIT,		/* submit SEAT TEXT wall= cpu=: a simultaneous move */
	GAMELOG_SUBMIT_RANDOM,	/* submit-random SEAT TEXT: played by the policy */
	GAMELOG_MISSING,	/* missing SEAT: no move this round */
	GAMELOG_JOINT,		/* joint: apply the round's submitted moves */
	GAMELOG_RETIRE,		/* retire SEAT */
	GAMELOG_OUT,		/* out SEAT: bot gone, seat kept by the policy */
	GAMELOG_FAULT,		/* fault SEAT KIND [detail] */
	GAMELOG_REJECTED,	/* rejected SEAT TEXT (realtime, not a fault) */
	GAMELOG_HALT,		/* halt */
	GAMELOG_RESULT,		/* result ranks=... scores=... faults=... reason=... */
	GAMELOG_SIDE,		/* side SEAT ok TEXT | side SEAT refused REASON TEXT */
	GAMELOG_CLOSE,		/* close SEAT: its side actions end this round */
	GAMELOG_SENT,		/* > SEAT +US TEXT: a line the referee sent */
	GAMELOG_RECEIVED,	/* < SEAT +US TEXT: a line the bot sent */
} GameLogKind;

/* The word of a kind in a log line ("chance", "move", ..., ">", "<"). */
const char *gamelog_kind_name(GameLogKind kind);

typedef struct {
	int lineno;		/* 1-based line in the file */
	GameLogKind kind;
	int seat;		/* -1 when none */
	char *text;		/* notation (move kinds), kind name (fault), or
				 * the rest of the line (joint, result; side:
				 * after the seat) */
	double wall_ms, cpu_ms;	/* move only */
	gint64 us;		/* traffic only: microseconds since the game
				 * started (the line's +US) */
} GameLogEvent;

typedef struct {
	char *path;
	char *referee_version;
	int protocol;
	const Variant *variant;
	VariantConfig config;
	guint64 seed;
	TimeControl time;	/* the game's (its `game`: the whole game's limit) */
	guint32 seat_timed;	/* seats with a clock of their own (bit per
				 * seat: a `seat-time` line) */
	TimeControl seat_time[VARIANT_MAX_PLAYERS];	/* with seat_timed: theirs */
	int policy;		/* VariantFaultPolicy */
	int sandbox;		/* SandboxMode the bots ran with (on, off;
				 * older logs: -1, not recorded) */
	int max_faults;		/* faults in a row that retire a seat (older
				 * logs: -1, not recorded) */
	char *name[VARIANT_MAX_PLAYERS];
	char *sha256[VARIANT_MAX_PLAYERS];
	char *command[VARIANT_MAX_PLAYERS];	/* "human" for a person */
	char *workdir[VARIANT_MAX_PLAYERS];	/* NULL: none recorded */
	GStrv chatter;		/* `chatter` lines: sent before every go
				 * (referee check); NULL-terminated, never NULL */
	GPtrArray *events;	/* GameLogEvent*, owned */
	gboolean complete;	/* the `end` line was read */
	guint32 counted;	/* seats with a `traffic` line (bit per seat) */
	guint sent[VARIANT_MAX_PLAYERS], received[VARIANT_MAX_PLAYERS];	/* its counts */
} GameLog;

/* Read a log. NULL with error set (naming the file and line) when it is
 * not a log, a line is malformed, or its header is not every field once
 * (referee, protocol, variant, options, seed, players, time, policy) and
 * one bot line for each seat 0..players-1. */
GameLog *gamelog_read(const char *path, GError **error);

/* The same, also knowing the variants in `extra` (NULL-terminated; tests
 * use it for toy variants the engine does not register). */
GameLog *gamelog_read_with(const char *path, const Variant *const *extra, GError **error);
/* Parse a log held in memory (`data`, `len` bytes, modified in place);
 * `path` names it in errors. As gamelog_read_with. */
GameLog *gamelog_parse(const char *path, char *data, gsize len, const Variant *const *extra,
		       GError **error);
void gamelog_free(GameLog *log);

/* Seat p's time control: its `seat-time` line's, else the `time` line's. */
const TimeControl *gamelog_seat_time(const GameLog *log, int p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GameLog, gamelog_free)

/* ---- writing ---- */

typedef struct GameLogWriter GameLogWriter;

/* Bytes of log a writer holds before it writes them (a game's log is
 * mostly one write, at the end). */
#define GAMELOG_BUFFER (1 << 16)

/* Create (truncate) the log at path. NULL with error when it cannot. */
GameLogWriter *gamelog_writer_new(const char *path, GError **error);

/*
 * The same, with a tap: every byte written to the log is also given to
 * tap(data, bytes, len) once its line is complete (the log is then written
 * line by line, a write() a line, not 64 KiB at a time), from the thread
 * that writes the log; tap(data, NULL, 0) when the writer is closed. For
 * watching a game while it is played (server/live.h).
 */
typedef void (*GameLogTap)(void *data, const char *bytes, gsize len);
GameLogWriter *gamelog_writer_new_tapped(const char *path, GameLogTap tap, void *data, GError **error);

/* The same, the file made by a helper thread meanwhile (asyncfile.h): a
 * busy disk does not hold up the game. A log that cannot be made fails
 * gamelog_writer_close(). */
GameLogWriter *gamelog_writer_new_async(const char *path);

/* Flush, close and free; NULL is fine (TRUE). FALSE with error when the
 * log could not be written whole. */
gboolean gamelog_writer_close(GameLogWriter *w, GError **error);

/* The same for a gamelog_writer_new_async() writer, on a helper thread:
 * asyncfile_settle() waits for it, asyncfile_failure(path) says whether
 * the log was written whole (referee/asyncfile.h). */
void gamelog_writer_close_later(GameLogWriter *w);

/* Each of these does nothing when w is NULL (a game without a log). */

/* The header, from `h`'s header fields (events, path and complete
 * unused): tetrarena-log, referee, protocol, variant, options, seed,
 * players, time, policy, sandbox, max-faults, chatter, a bot and a
 * workdir line for each seat (sha256 "-" and command "human" for a
 * person; a workdir NULL is none), begin. */
void gamelog_write_header(GameLogWriter *w, const GameLog *h);

/* An event line "KIND[ SEAT][ TEXT]": seat -1 and text NULL are left out
 * (GAMELOG_CHANCE: chance TEXT; GAMELOG_FAULT: TEXT is "KIND[ detail]";
 * GAMELOG_SIDE: "ok LINE" or "refused REASON LINE"; GAMELOG_RESULT: the
 * fields). Not for traffic (gamelog_write_traffic()). */
void gamelog_write_event(GameLogWriter *w, GameLogKind kind, int seat, const char *text);

/* A side event: "side SEAT ok LINE" (reason NULL: applied) or "side SEAT
 * refused REASON LINE". */
void gamelog_write_side(GameLogWriter *w, int seat, const char *reason, const char *line);

/*
 * Text from outside (a bot's line, its stderr) as the log shows it:
 * printable ASCII as it is, '\\' as '\\\\', control bytes (0x00-0x1f, 0x7f)
 * as '?', bytes from 0x80 as \xHH (so C1 controls, raw or UTF-8, too).
 * Whatever comes in, what comes out is printable ASCII: safe to show on a
 * terminal. Appended to out.
 */
void gamelog_escape_append(GString *out, const char *text, gsize len);

typedef enum {
	GAMELOG_ESCAPE_LINES = 1 << 0,	/* newlines kept, each line escaped */
	GAMELOG_ESCAPE_LOGGED = 1 << 1,	/* text read from a log, escaped when it
					 * was written: '\\' kept as it is (a log
					 * made by hand may hold anything else) */
} GameLogEscape;

/* Text escaped as gamelog_escape_append() does, for a terminal (every
 * command that prints a bot's text, or a log's), newly allocated; NULL
 * gives NULL. */
char *gamelog_escape(const char *text, GameLogEscape how);

/* A comment line "# TEXT". */
void gamelog_write_comment(GameLogWriter *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* The last line, "end". */
void gamelog_write_end(GameLogWriter *w);

/* A traffic line "DIR SEAT +US TEXT" (dir '>' or '<'), kept ASCII as
 * gamelog_escape_append() escapes it. */
void gamelog_write_traffic(GameLogWriter *w, char dir, int seat, gint64 us, const char *text,
			   size_t len);

/* A timed event "KIND SEAT TEXT wall=MS cpu=MS", three decimals
 * (GAMELOG_MOVE, GAMELOG_SUBMIT). */
void gamelog_write_timed(GameLogWriter *w, GameLogKind kind, int seat, const char *text,
			 double wall_ms, double cpu_ms);

/* The name of a policy in logs ("forfeit", "random", "nothing"), and back
 * (-1 when unknown). */
const char *gamelog_policy_name(int policy);
int gamelog_policy_from_name(const char *name);

#endif
