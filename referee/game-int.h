/*
 * game-int: what the pieces of the game module share (game.c and
 * game-*.c; see game.c for the map): the Game and its Seats, the events
 * a bot's lines become, and the functions one piece offers the others.
 * Private: nothing outside referee/game*.c includes it.
 *
 * Invariants: a Seat with bot == NULL is never written to or read from;
 * `out` seats are retired in the state (or, under the random policy, have
 * their moves played for them); `pending` holds the lines queued for a
 * seat and not yet taken by its pipe: updates wait there for the seat's
 * next `go` so that each move costs one write, and what a full pipe does
 * not take waits for room (poll POLLOUT). Nothing here ever blocks on a
 * write, so one bot cannot delay another's `go` by more than the time to
 * write a line. A bot that has not read its last `go` by that `go`'s
 * deadline does not read its input: that is a timeout, and in real time it
 * gets no new `go` (a timeout per move limit) until it reads.
 */
#ifndef TETRARENA_REFEREE_GAME_INT_H
#define TETRARENA_REFEREE_GAME_INT_H

#include "game.h"
#include "gamelog.h"
#include "protocol.h"
#include "version.h"	/* REFEREE_VERSION, the log's `referee` line */

#define GAME_INFO_MAX 64		/* info lines logged per move */
#define GAME_QUIT_GRACE_MS 200
#define GAME_FOREVER (G_MAXINT64 / 4)
/* Bytes queued for a bot that does not read before it is stopped. */
#define GAME_OUTPUT_CAP (4 << 20)
/* Non-blocking looks (each after sched_yield) before poll() sleeps:
 * measured in `make bench`, about 50 us of looking saves a (virtual) CPU
 * wake-up that costs more than an instant bot's whole reply. */
#define GAME_SPIN_POLLS 50
/* ...but never for longer than this many us, nor past a due freeze: on a
 * busy machine each sched_yield() can hand a whole time slice to a CPU
 * hog, and 50 of them once let a frozen seat's children spin through
 * most of its opponent's move (t2014). */
#define GAME_SPIN_US 200
/* Real time: moves due within this many us of each other are
 * simultaneous (protocol.md, Ties). */
#define GAME_TIE_US 1000
/* Least ms to wait for the exit of a bot whose pipes closed. */
#define GAME_END_WAIT_MIN 10

typedef struct {
	Bot *bot;		/* NULL when not running */
	char *name;
	char *hello;		/* the name it gave in hello, or NULL */
	gboolean out;		/* retired, or dead under the random policy */
	gboolean human;
	gint64 bank;		/* us */
	gboolean awaiting;	/* a `go` is outstanding */
	gint64 go_time, deadline;	/* us, monotonic */
	int stale;		/* replies owed to `go`s that timed out */
	int info;		/* info lines seen for this move */
	int side;		/* side lines seen for this move */
	int info_dropped;	/* info lines over the cap, not logged */
	guint64 text;		/* bytes of its lines logged (game.h, GAME_TEXT_MAX) */
	int text_dropped;	/* lines past GAME_TEXT_MAX, not logged */
	gboolean unlogged;	/* the line just taken was not logged */
	double cpu_last;	/* bot_cpu_ms() at the hello or the last move */
	GString *pending;	/* queued, not yet taken by the pipe */
	gsize logged;		/* bytes at the front of pending already logged */
	guint64 go_end;		/* stream offset just past its last `go` */
	gboolean nogo_fault;	/* charged a `move` without `go` since its last */
	/* real time */
	gint64 next_go;		/* us: its next `go` not before (the pace) */
	gint64 go_pass;		/* us: when the pass that sent its `go` began,
				 * the same for every `go` of one pass */
	gint64 ready;		/* us: its move takes effect not before (the
				 * pace after go_pass) */
	gboolean held;		/* a move read and waiting for its moment */
	gint64 due;		/* us: that moment, ready or when it was read */
	Move held_move;
	double held_wall, held_cpu;
	char held_text[VARIANT_MOVE_TEXT_MAX];
	void *snapshot;		/* realtime: the state its `go` showed */
	int faults[GAME_FAULT_COUNT];
	int first_fault;
	int in_a_row;		/* faults since its last accepted move */
	int moves;
	int gos;		/* `go` lines sent to it this game */
	double total_ms, max_ms, cpu_ms;
	/* simultaneous round */
	gboolean has_move;
	Move move;
	double move_ms, move_cpu;
} Seat;

typedef struct {
	const GameSpec *spec;
	const Variant *v;
	int n;
	int policy;
	SandboxMode sandbox;	/* resolved: on or off */
	gboolean starting;	/* before every hello: a bot that is gone is `start` */
	void *state;
	Move *scratch;
	Rng chance, fault_rng;
	Seat seat[VARIANT_MAX_PLAYERS];
	GameLogWriter *log;	/* NULL: no log */
	gint64 t0;
	int rr;			/* round-robin start for fairness (seeded) */
	gint64 freeze_at;	/* us: freeze the seats of freeze_mask then, or 0 */
	uint32_t freeze_mask;
	Rng ties;		/* orders moves due at the same moment */
	gint64 pace;		/* us between a seat's actions in real time */
	gint64 talk;		/* us: a round's talk window (option `talk`), or 0 */
	gint64 window_end;	/* us: the open talk window's end, or 0 */
	gboolean started;	/* the real-time start line was crossed */
	gint64 lag;		/* us: the test hook TETRARENA_TEST_LAG_MS */
	gint64 go_write;	/* us: the test hook TETRARENA_TEST_GO_WRITE_MS */
	int spin;		/* non-blocking polls before sleeping */
	int plies;
	gboolean aborted;	/* spec->abort_fd turned readable: stop */
	gboolean round_open;	/* in a simultaneous round: faults are held */
	GString *held;		/* `update fault` lines held until the round is
				 * in (game_release_faults()) */
	Move *legal;		/* legal moves of legal_seat in the current state */
	int nlegal, legal_seat;	/* legal_seat -1: the cache is stale */
	char *text;		/* scratch for notation and state */
	char *sha256[VARIANT_MAX_PLAYERS];	/* programs' hashes, for kept bots */
	size_t text_cap;
} Game;

typedef enum {
	EV_NONE,	/* the deadline passed */
	EV_LINE,	/* seat sent a line (already logged) */
	EV_EOF,		/* seat closed its output */
	EV_TOO_LONG,	/* seat sent a line over the limit */
	EV_FAULT,	/* seat was charged a fault while its output was written */
	EV_ABORT,	/* the game must stop now (g->aborted is set) */
} EventKind;

typedef struct {
	EventKind kind;
	int seat;
	const char *line;
	gboolean bad;	/* the line held control bytes (now '?'): malformed */
} Event;

typedef enum {
	LINE_MOVE,	/* `move ...`: an answer to `go` */
	LINE_SIDE,	/* a side action of the variant (table talk) */
	LINE_OTHER,	/* info, an empty line, a `#` comment, an unknown type:
			 * logged (up to GAME_INFO_MAX per move) and ignored */
} LineKind;

typedef enum {
	REPLY_NONE,	/* nothing relevant (info, stale reply): keep waiting */
	REPLY_MOVE,	/* *move holds a well-formed move of the awaited seat */
	REPLY_FAULT,	/* a fault was charged */
} Reply;

/* ---- game.c: what every phase shares ---- */

/* Apply seat p's move m to the state, log it (its bot's, timed wall/cpu,
 * or with `random` the policy's) and queue its `update` for the others. */
void game_apply_move(Game *g, int p, Move m, gboolean random, double wall, double cpu);

/* Answer seat p's move `notation`, legal at its `go` but no longer,
 * `rejected NOTATION WHY`: no fault, and not a move after all. */
void game_reject(Game *g, int p, const char *notation, const char *why);

/* ---- game-io.c: bot line I/O ---- */

/* A log line (nothing without a log), a timed one (a move, a submit). */
void game_log_event(Game *g, GameLogKind kind, int seat, const char *text);
void game_log_timed(Game *g, GameLogKind kind, int seat, const char *text, double wall, double cpu);

/* The notation of p's move m, in g->text (valid until the next use). */
const char *game_fmt_move(Game *g, int player, Move m);

/* Queue a line for seat p (sent with its next flush); for every seat but
 * `except` (-1: all). Nothing for a seat without a bot. */
void game_queue(Game *g, int p, const char *line);
void game_queue_others(Game *g, int except, const char *line);

/* Write what seat p's pipe takes of its queued lines now, logging each
 * line once, never waiting. FALSE if the bot is gone (a fault is charged
 * when it closed its input, or let GAME_OUTPUT_CAP bytes pile up). */
gboolean game_flush(Game *g, int p);

/* Whether seat p's bot has read its last `go`. */
gboolean game_read_its_go(const Game *g, int p);

/* What a bot's line is to the game: a move, a side action, or other. */
LineKind game_line_kind(const Game *g, const char *line);

/* A buffered event of seat p, if any (its line logged, within the caps). */
gboolean game_take_event(Game *g, int p, Event *ev);

/* The next event from any live bot, or EV_NONE once `deadline` passes
 * (`hint`: the seat whose reply is awaited, or -1), or EV_ABORT (and
 * g->aborted set) once the spec's abort_fd is readable: the caller
 * returns at once, the phase loop ends the game. */
void game_wait_event(Game *g, gint64 deadline, int hint, Event *ev);

/*
 * Only the seats in `mask` run: they are thawed now, and every other
 * seat's bot is frozen whole (its cgroup's freezer, where the machine has
 * one) GAME_FREEZE_AFTER_US later, by game_wait_event(), if the game is
 * still waiting then: a bot that answers at once costs no freezing, and
 * one that thinks cannot think, or spin, on its opponents' time (but for
 * that first millisecond). ~0u: every seat runs (simultaneous and real
 * time phases, the end of the game). TETRARENA_NO_FREEZE=1 turns the
 * freezing off, for measuring what it is worth.
 */
#define GAME_FREEZE_AFTER_US 1000
void game_run_only(Game *g, uint32_t mask);

/* Queue `moves` (if wanted) and `go` for seat p and send them; its
 * deadline runs from now. */
void game_send_go(Game *g, int p);

/* Interpret an event for the seats awaiting replies: REPLY_MOVE with
 * *move and its times *wall, *cpu; faults charged here. The move's
 * legality is the caller's. */
Reply game_handle_event(Game *g, const Event *ev, Move *move, double *wall, double *cpu);

/* ---- game-fault.c: faults and policies ---- */

/* Charge fault `kind` to seat p (logged, every seat told) and apply the
 * policy to the seat; what to do with the current decision is the
 * caller's. While a simultaneous round is open (g->round_open) the
 * `update fault` line is held, for every seat alike, until the round is
 * in: nobody hears of anything a seat did in a round before the round's
 * end (protocol.md, update). */
void game_fault(Game *g, int p, GameFault kind, const char *detail);

/* Queue the held `update fault` lines for every seat, in the order the
 * faults came, and close the round (g->round_open FALSE). */
void game_release_faults(Game *g);

/* The same for a bot found gone (`what`: its output or input closed),
 * saying how its process ended (waited for within the grace margin). */
void game_fault_gone(Game *g, int p, GameFault kind, const char *what);

/* Retire seat p (or, under `random` with its bot gone, mark it out). */
void game_retire(Game *g, int p);

/* Seat p's bot does not read its input: stopped, charged a timeout. */
void game_stop_not_reading(Game *g, int p);

/* Seat p's `go` ran out of time. */
void game_timeout(Game *g, int p);

/* A uniformly random legal move for p from the fault stream; FALSE if none. */
gboolean game_random_move(Game *g, int p, Move *m);

/* Play the random policy's move for p, if that is the policy. */
void game_policy_move(Game *g, int p);

/* ---- the phases ---- */

/* TURN: seat p to move (game-turn.c). */
void game_turn(Game *g, int p);

/* SIMULTANEOUS: one round of the seats in `mask` (game-round.c). */
void game_round(Game *g, uint32_t mask);

/* REALTIME: until the phase changes (FALSE) or the game's limit passes,
 * or no seat can act (TRUE) (game-realtime.c). */
gboolean game_realtime(Game *g, gint64 game_deadline);

/* ---- game-start.c, game-result.c ---- */

/* Write the log's header (there is a log) and record the programs'
 * hashes in g->sha256. */
void game_write_header(Game *g);

/* Start every bot and collect the hellos under one deadline. */
void game_start_bots(Game *g);

/* The result: logged, told to every bot, with `quit` to those not kept;
 * *result filled. */
void game_finish(Game *g, GameResult *result);

#endif
