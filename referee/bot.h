/*
 * bot: one bot program as a process the referee talks to.
 *
 * A Bot is the running process of a BotSpec (botspec.h): started with vfork+exec (the child sets its process group,
 * descriptors, working directory, resource limits and CPU before exec, so
 * no instruction of the bot runs unlimited), with a
 * clean environment (PATH, HOME, LANG=C), stdin and stdout on pipes and
 * stderr on a pipe the owner drains into a capped file. It inherits no other
 * descriptor. bot_free() kills the whole group and reaps the child, so
 * nothing outlives it.
 *
 * Reading is non-blocking and bounded: bot_read() pulls what is available
 * into a buffer of BOT_LINE_MAX bytes and bot_next_line() hands out
 * complete lines; a line that does not fit is reported, never grown.
 * Nothing here keeps global state, so bots can be driven from many threads
 * (one thread per Bot). bot_spawn() sets SIGPIPE to be ignored in the whole
 * process (a write to a bot that exited must fail with EPIPE, not kill the
 * referee).
 */
#ifndef TETRARENA_REFEREE_BOT_H
#define TETRARENA_REFEREE_BOT_H

#include <glib.h>
#include <sys/types.h>

#include "botspec.h"
#include "protocol.h"

#define BOT_LINE_MAX PROTOCOL_LINE_MAX	/* longest line including the newline */
#define BOT_STDERR_CAP (1024 * 1024)	/* bytes of stderr kept per bot */
#define BOT_STDERR_BUFFER (1 << 16)	/* bytes held before written, async */

typedef struct Bot Bot;
typedef struct SandboxLaunch SandboxLaunch;	/* sandbox.h */

/*
 * Start a bot. Its stderr goes to `stderr_path` (NULL: counted and
 * dropped), at most BOT_STDERR_CAP bytes: the file is made at the first
 * byte the bot writes (none for a bot that writes nothing: a game costs
 * no file per quiet seat; a file there already is the caller's to empty
 * or remove); a file that cannot be made then is said once on stderr,
 * and the bytes dropped. `launch` says whether it is
 * jailed, what it must not see and its CPU (sandbox.h; NULL: bare, not
 * pinned). NULL with error set when the program cannot be started (not
 * found, not executable, workdir missing): the caller counts the fault
 * `start`.
 */
Bot *bot_spawn(const BotSpec *spec, const char *stderr_path, const SandboxLaunch *launch, GError **error);

/*
 * Send the bot's stderr from now on to `path` (a kept `multi` bot starts
 * each game's file), made at its first byte as bot_spawn()'s (a file
 * there from before is removed now); what was already read stays in the
 * old file. TRUE (error is unused: a file that
 * cannot be made is said once when it is needed, and stderr dropped).
 */
gboolean bot_set_stderr(Bot *bot, const char *path, GError **error);

/* With `on`, the stderr files opened from now on are made, written (64
 * KiB at a time) and closed by helper threads (referee/asyncfile.h): the
 * caller calls asyncfile_settle() before it reads them. Off (the
 * default): made at once and written as they come. */
void bot_stderr_async(Bot *bot, gboolean on);

/* Freeze (TRUE) or thaw the whole bot (sandbox_freeze()): while frozen it
 * uses no CPU. FALSE when it cannot be frozen here; nothing was done. */
gboolean bot_freeze(Bot *bot, gboolean frozen);

/* The limit of its sandbox the bot ran into ("memory limit", "process
 * limit"), or NULL. */
const char *bot_breach(const Bot *bot);

/*
 * How the bot's process ended, for a fault's detail, waiting for it until
 * `deadline` (monotonic us) and no longer: "exited with status N" or
 * "killed by signal N (SIGNAME)", the latter followed by "; CPU time
 * limit" for the SIGXCPU of its cpu limit; jailed, as bwrap reports it
 * (sandbox_end()), or "jail killed by signal ..." when bwrap itself was
 * ended before it could. NULL when it is still running at the deadline
 * (or has no process). Reaps nothing; newly allocated.
 */
char *bot_end_text(Bot *bot, gint64 deadline);

/* Whether the bot's process has ended by `deadline` (as bot_end_text tells). Reaps nothing. */
gboolean bot_ended(Bot *bot, gint64 deadline);

/* Kill the process group (SIGKILL), reap, close everything. NULL is fine. */
/* A Bot with no process that reads its lines from `out_fd` (taken over,
 * closed by bot_free): for tests and the line reader's fuzz harness. */
Bot *bot_new_reader(int out_fd);
/*
 * A Bot with no process, whose other ends someone else holds (the web
 * server relays them to a page, server/seat.h): the referee writes the
 * bot's input to `in_fd` and reads its lines from `out_fd` (both taken
 * over, made non-blocking, closed by bot_free). It has no stderr, CPU
 * clock or freezer; its end text is "its connection closed". A GameSeat
 * holding one that has played no game yet (bot_games() 0) is greeted
 * (`tetrarena`) like a bot started for the game.
 */
Bot *bot_new_relay(const BotSpec *spec, int in_fd, int out_fd);
void bot_free(Bot *bot);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Bot, bot_free)

/* Ask the bot to quit: send `quit`, wait up to grace_ms for it to exit
 * (pidfd), then bot_free(). */
void bot_quit(Bot *bot, gint64 grace_ms);

/* Wait until the bot's main process exits or `deadline` (monotonic us)
 * passes, without reaping it; closes its input first so that a bot
 * reading stdin sees EOF. */
void bot_wait_exit(Bot *bot, gint64 deadline);

const BotSpec *bot_spec(const Bot *bot);
pid_t bot_pid(const Bot *bot);
int bot_stdout_fd(const Bot *bot);	/* non-blocking, for poll() */
int bot_stderr_fd(const Bot *bot);	/* non-blocking, -1 once closed */

typedef enum {
	BOT_WRITE_OK,
	BOT_WRITE_CLOSED,	/* the bot closed its input (EPIPE) */
	BOT_WRITE_STUCK,	/* its input stayed full until the deadline */
} BotWriteStatus;

/*
 * Write bytes to the bot's stdin. The pipe is non-blocking: when it is
 * full we wait for room until `deadline` (monotonic microseconds), so a
 * bot that stops reading cannot hang the referee.
 */
BotWriteStatus bot_write(Bot *bot, const char *data, gsize len, gint64 deadline);

/*
 * Write what the bot's stdin pipe takes now, never waiting. Returns the
 * bytes written (0 when the pipe is full), or -1 when the bot closed its
 * input (EPIPE; the descriptor is closed then).
 */
gssize bot_write_some(Bot *bot, const char *data, gsize len);

/* Bytes written to the bot's stdin since it started. */
guint64 bot_written(const Bot *bot);

/* The stdin pipe's descriptor (non-blocking, for POLLOUT), -1 once closed. */
int bot_stdin_fd(const Bot *bot);

/*
 * How many of the bytes written to the bot's stdin it has read so far
 * (written less what still sits in the pipe, FIONREAD). Tells a bot that
 * does not read its input from one that is thinking.
 */
guint64 bot_consumed(const Bot *bot);

typedef enum {
	BOT_READ_OK,		/* read something (or the buffer is full) */
	BOT_READ_NONE,		/* nothing there yet (EAGAIN) */
	BOT_READ_EOF,		/* stdout closed */
} BotReadStatus;

/* Read what is available on stdout (non-blocking). */
BotReadStatus bot_read(Bot *bot);

/*
 * The bot's next complete line, reading (and draining its stderr) until
 * one comes or `deadline` (monotonic us) passes; NULL then, with *eof set
 * once it closed its output or sent an overlong line. A line that held
 * control bytes comes too, with '?' in their place and *control set (a
 * game faults it as malformed); control may be NULL. Valid until the next
 * call. For driving one bot by hand (referee check, position).
 */
const char *bot_wait_line(Bot *bot, gint64 deadline, gboolean *eof, gboolean *control);

/* Drain stderr into the capped file (non-blocking). */
void bot_drain_stderr(Bot *bot);

/*
 * The stderr file's marker of the `go` it was written for: printf format
 * of the line (the seat's `go` count in the game, from 1) that goes before
 * the first bytes the bot writes after bot_stderr_mark(bot, go), on a
 * line of its own; none when it writes nothing. The replay page
 * (replay_json()) splits the file at these lines.
 */
#define BOT_STDERR_MARK "--- tetrarena: go %d ---"

/* From now on stderr is written for the seat's go-th `go`: drain what
 * came before (non-blocking), then mark the next bytes (BOT_STDERR_MARK).
 * A new stderr file (bot_set_stderr()) starts unmarked. */
void bot_stderr_mark(Bot *bot, int go);

typedef enum {
	BOT_LINE_NONE,		/* no complete line buffered */
	BOT_LINE_OK,		/* *line is a complete line (no \n, no \r) */
	BOT_LINE_TOO_LONG,	/* a line over BOT_LINE_MAX arrived */
	BOT_LINE_CONTROL,	/* *line is a complete line that held control
				 * bytes (NUL, ESC, ...; a CR ending it does not
				 * count), each replaced by '?' */
} BotLineStatus;

/*
 * The next complete line, valid until the next call on this bot. After
 * BOT_LINE_TOO_LONG the bot's output is discarded from then on.
 */
BotLineStatus bot_next_line(Bot *bot, const char **line);

/* Whether EOF has been seen on stdout. */
gboolean bot_eof(const Bot *bot);

/* CPU time (user+system) of the bot's main process so far, in ms, from
 * its CPU-time clock (nanosecond resolution); -1 once it is gone. */
double bot_cpu_ms(Bot *bot);

/* The bot's own process as the host sees it (jailed: the program inside
 * the jail, not bwrap), once known (by its `hello` at the latest); 0 when
 * not known or gone. For reading its /proc entry (peak memory). */
pid_t bot_own_pid(Bot *bot);

/*
 * For the next game of a kept bot: its `cpu` limit counts afresh from the
 * CPU time its process has used so far, within the total it was started
 * with (sandbox_renew_cpu()). TRUE, doing nothing, for a human, no cpu
 * limit, or a process not found (gone: the game finds that out). FALSE
 * when the limit could not be set (said once on stderr); it then counts
 * on over all the process's games.
 */
gboolean bot_renew_cpu(Bot *bot);

/* Bytes written to stderr beyond the cap (counted, dropped). */
guint64 bot_stderr_dropped(const Bot *bot);

/* Protocol state the game keeps on the bot across games (multi). */
int bot_games(const Bot *bot);		/* `game` lines sent so far */
void bot_set_games(Bot *bot, int n);
gboolean bot_multi(const Bot *bot);	/* it announced `multi` */
void bot_set_multi(Bot *bot, gboolean multi, gboolean moves);
gboolean bot_wants_moves(const Bot *bot);	/* it announced `moves` */
const char *bot_hello_name(const Bot *bot);	/* NULL before hello */
void bot_set_hello_name(Bot *bot, const char *name);
/* Remember the program's hash in the bot's own spec (games reusing a kept
 * bot then need not read the program again). */
void bot_set_sha256(Bot *bot, const char *sha256);

#endif
