/*
 * game: run one game of any variant between bots, through the variant
 * table, to its result.
 *
 * game_run() is the whole referee for one game: it starts (or reuses) the
 * bots, speaks protocol.md with them, keeps their clocks, applies the fault
 * policy, draws chance moves from the seed, writes the game log
 * (docs/gamelog.md) and fills a GameResult. Every phase of variant.h is
 * driven: TURN (one `go`), CHANCE (drawn from an Rng seeded with the game
 * seed), SIMULTANEOUS (`go` to every seat at once, one deadline, then
 * apply_joint and the moves broadcast; meanwhile a variant with side
 * actions gets every other line of a seat through Variant.side, which
 * says what to answer and route, and Variant.side_close once a seat is
 * no longer awaited) and REALTIME (every seat has an
 * outstanding `go`; moves are applied in arrival order, a move made illegal
 * by someone faster is answered `rejected`, not a fault).
 *
 * Thread safety: nothing here is global; each call polls only its own
 * bots' descriptors, so a tournament may run one game per thread. The
 * process must ignore SIGPIPE (game_run() does so, idempotently).
 *
 * A bot's misbehaviour is a game result (a fault in GameResult), never an
 * error: game_run() fails only when the referee itself cannot work (the
 * log cannot be written, the config is invalid). A bot found gone (its
 * output or input closed) is logged with how its process ended
 * (bot_end_text()), waited for no longer than the grace margin.
 */
#ifndef TETRARENA_REFEREE_GAME_H
#define TETRARENA_REFEREE_GAME_H

#include <glib.h>

#include "bot.h"
#include "gamelog.h"
#include "sandbox.h"
#include "timectl.h"
#include "variant.h"

/* The error domain of game_run(). */
#define GAME_ERROR (game_error_quark())
GQuark game_error_quark(void);

typedef enum {
	GAME_ERROR_SPEC,	/* the GameSpec is invalid (config, grace) */
	GAME_ERROR_VARIANT,	/* the variant cannot be driven (no halt) */
} GameError;

/* The faults of protocol.md, in its order (protocol.h names them). */
typedef enum {
	GAME_FAULT_START,	/* could not start, or no hello in time */
	GAME_FAULT_DECLINED,	/* answered decline */
	GAME_FAULT_TIMEOUT,	/* no move within the time */
	GAME_FAULT_MALFORMED,	/* not a valid reply */
	GAME_FAULT_LINE_TOO_LONG,	/* a line over 65536 bytes */
	GAME_FAULT_ILLEGAL,	/* well-formed but not legal */
	GAME_FAULT_CRASH,	/* exited or closed its output */
	GAME_FAULT_RESIGNED,	/* said `resign` (a person gave up) */
	GAME_FAULT_COUNT,
} GameFault;

/* "start", "declined", ...; the protocol's names (protocol_fault_name()). */
const char *game_fault_name(GameFault f);
/* Whether a line a bot sent counts against GAME_TEXT_MAX. */
gboolean game_text_counts(const char *line);

/* Side lines (table talk) a seat may send per `go`; past it each is
 * answered `refused VERB flood` (and logged, so verify can judge it). */
#define GAME_SIDE_MAX 64
/* Bytes of a seat's own text (info, talk, comments, unknown lines) a
 * game's log keeps: once a seat's logged lines reach it, its later lines
 * go unlogged, a side line among them refused as `flood` (referee and
 * verify apply the same rule, game_text_counts()). Its hellos and moves
 * of at most GAME_TEXT_EXEMPT bytes are always logged and not counted. */
#define GAME_TEXT_MAX (1024 * 1024)
#define GAME_TEXT_EXEMPT 1024

/* Faults in a row that retire a seat, by default. */
#define GAME_MAX_FAULTS 3

/* The least grace margin (ms) game_run() accepts: below it a bot is
 * charged timeouts the referee's own scheduling caused. */
#define GAME_GRACE_MIN 20

/* The fault policy: the variant's, or one of VariantFaultPolicy forced. */
#define GAME_POLICY_VARIANT (-1)

/* Why the game ended (protocol `reason=`). */
typedef enum {
	GAME_END_RULES,		/* "end" */
	GAME_END_FAULTS,	/* "faults": no seat could go on */
	GAME_END_LIMIT,		/* "limit": the game's time limit */
	GAME_END_ABORTED,	/* "aborted": stopped from outside (abort_fd),
				 * the result is the state's as it stood */
} GameEnd;

const char *game_end_name(GameEnd e);

/*
 * One seat: a bot to start for this game, or one already running (a Bot
 * sits in one seat only). The log records the SHA-256 of each bot's
 * program: set spec->sha256 once (bot_spec_hash()) to spare reading the
 * program for every game; kept bots remember it themselves.
 */
typedef struct {
	const BotSpec *spec;	/* started for this game when bot is NULL */
	Bot *bot;		/* running (kept from an earlier game), or NULL;
				 * game_run() takes ownership */
	int games;		/* with keep_bots, >= 1 for a bot started here:
				 * the most games its process may play, this
				 * one included; its cpu limit over them all
				 * is cpu x games + 1 s (sandbox.h) */
	gboolean timed;		/* this seat's own clock is `time` below;
				 * FALSE: the game's (GameSpec.time) */
	TimeControl time;	/* with timed: bank, inc, move, start and
				 * grace of this seat (its `game` unused:
				 * the game's limit is GameSpec.time.game) */
} GameSeat;

typedef struct {
	const Variant *variant;
	VariantConfig config;	/* config.nplayers == number of seats */
	guint64 seed;
	GameSeat seats[VARIANT_MAX_PLAYERS];
	TimeControl time;
	int policy;		/* GAME_POLICY_VARIANT or a VariantFaultPolicy */
	const char *log_path;	/* NULL: no log */
	gboolean log_async;	/* the log file is made, written and closed
				 * by helper threads (referee/asyncfile.h):
				 * a busy disk does not hold the game up. The
				 * caller calls asyncfile_settle() before it
				 * relies on the log, and asyncfile_failure()
				 * says whether it was written whole */
	const char *stderr_dir;	/* where seatN.stderr files go; NULL: next to
				 * the log as LOG.seatN.stderr, or dropped */
	int cpu;		/* >= 0: pin the game's bots, and the calling
				 * thread while the game runs, to this CPU */
	SandboxMode sandbox;	/* jail the bots it starts (sandbox.h);
				 * default SANDBOX_AUTO */
	const char *hide_dir;	/* a directory bots must not see besides the
				 * log and stderr files (a tournament's
				 * output), or NULL */
	int max_faults;		/* a seat with this many faults in a row is
				 * retired under every policy; 0: never.
				 * Default GAME_MAX_FAULTS. */
	gboolean keep_bots;	/* hand healthy `multi` bots back in the result */
	const char *chatter;	/* NULL, or lines (each ending in a newline)
				 * sent before every `go`: lines of types a bot
				 * must ignore (referee check) */
	gsize moves_line_max;	/* longest `moves` line, newline included,
				 * before the list goes on in another `moves`
				 * line; 0: BOT_LINE_MAX (referee check sends
				 * short ones to exercise the joining) */
	GameLogTap log_tap;	/* with log_path: every line of the log also
				 * goes to log_tap(log_tap_data, ...) as it is
				 * written (gamelog_writer_new_tapped()) */
	void *log_tap_data;
	gboolean quiet;		/* no effect: game_run() never prints (kept
				 * for callers that set it) */
	int abort_fd;		/* >= 0: a descriptor that turns readable when
				 * the game must stop (a signal's self-pipe,
				 * never read here): the game ends where it
				 * stands, logged `result ... reason=aborted`,
				 * bots told nothing and killed. Looked at
				 * whenever the referee would sleep. Default -1 */
} GameSpec;

/* Seat p's time control: its own (GameSeat.timed) or the game's. */
const TimeControl *game_seat_time(const GameSpec *spec, int p);

/* Fill a spec with defaults: no seats, default time, variant policy, cpu -1,
 * sandbox auto, GAME_MAX_FAULTS, abort_fd -1. */
void game_spec_init(GameSpec *spec, const Variant *v, int nplayers, guint64 seed);

typedef struct {
	char *name;		/* the spec's name */
	char *hello;		/* the name it gave in hello, or NULL */
	int score, rank;	/* final, from the variant */
	int faults[GAME_FAULT_COUNT];	/* count by kind */
	int first_fault;	/* GameFault, or -1 */
	int moves;		/* moves this seat made (its own decisions) */
	double mean_ms, max_ms;	/* wall time per move */
	double cpu_ms;		/* CPU time over all its moves */
	Bot *bot;		/* with keep_bots: still running, caller owns
				 * (bot_free or pass in the next GameSpec) */
} GameSeatResult;

typedef struct {
	int nseats;
	GameSeatResult seat[VARIANT_MAX_PLAYERS];
	GameEnd end;
	int plies;		/* all moves applied, chance included */
	char *log_path;		/* copy of spec->log_path, or NULL */
} GameResult;

/*
 * Play one game. OUT: *result (initialise nothing; release with
 * game_result_clear()). FALSE with error set only on a referee failure
 * (including --sandbox on where no jail can be had) or an invalid spec
 * (a grace under GAME_GRACE_MIN); faults are results. Every bot the call owns is killed (process group)
 * and reaped before it returns, except those handed back with keep_bots.
 */
gboolean game_run(const GameSpec *spec, GameResult *result, GError **error);

/* Free what a GameResult holds (names, path, kept bots). */
void game_result_clear(GameResult *result);

#endif
