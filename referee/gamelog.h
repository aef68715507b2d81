/*
 * gamelog: writing and reading game logs (the format is docs/gamelog.md).
 * game.c writes a log through a GameLogWriter as the game goes; the
 * writer buffers 64 KiB, so a game's log costs a write() per 64 KiB and
 * none per line. A log is read whole into a GameLog: the header, and the
 * game's events in order, each with its line number so that a checker can
 * name the line where a game diverges. Traffic lines (`>` and `<`) are
 * events too (GAMELOG_SENT, GAMELOG_RECEIVED, text after the time), so
 * that verify can hold them against the game. A log cut short (a killed referee) reads up to its last
 * complete line; `complete` says whether its `end` line was seen.
 */
#ifndef TETRARENA_REFEREE_GAMELOG_H
#define TETRARENA_REFEREE_GAMELOG_H

#include <stdarg.h>

#include <glib.h>

#include "timectl.h"
#include "variant.h"

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

typedef struct {
	int lineno;		/* 1-based line in the file */
	GameLogKind kind;
	int seat;		/* -1 when none */
	char *text;		/* notation (move kinds), kind name (fault), or
				 * the rest of the line (joint, result; side:
				 * after the seat) */
	double wall_ms, cpu_ms;	/* move only */
} GameLogEvent;

typedef struct {
	char *path;
	char *referee_version;
	int protocol;
	const Variant *variant;
	VariantConfig config;
	guint64 seed;
	TimeControl time;
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
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GameLog, gamelog_free)

/* ---- writing ---- */

typedef struct GameLogWriter GameLogWriter;

/* Create (truncate) the log at path. NULL with error when it cannot. */
GameLogWriter *gamelog_writer_new(const char *path, GError **error);

/* Flush, close and free; NULL is fine (TRUE). FALSE with error when the
 * log could not be written whole. */
gboolean gamelog_writer_close(GameLogWriter *w, GError **error);

/* Each of these does nothing when w is NULL (a game without a log). */
void gamelog_printf(GameLogWriter *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void gamelog_vprintf(GameLogWriter *w, const char *fmt, va_list ap) G_GNUC_PRINTF(2, 0);

/* A traffic line "DIR SEAT +US TEXT" (dir '>' or '<'), kept ASCII: control
 * bytes of text shown as '?', bytes from 0x80 as \xHH, '\\' as '\\\\'. */
void gamelog_write_traffic(GameLogWriter *w, char dir, int seat, gint64 us, const char *text,
			   size_t len);

/* A timed event "KIND SEAT TEXT wall=MS cpu=MS", three decimals. */
void gamelog_write_timed(GameLogWriter *w, const char *kind, int seat, const char *text,
			 double wall_ms, double cpu_ms);

/* The name of a policy in logs ("forfeit", "random", "nothing"), and back
 * (-1 when unknown). */
const char *gamelog_policy_name(int policy);
int gamelog_policy_from_name(const char *name);

#endif
