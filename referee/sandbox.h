/*
 * sandbox: starting a bot process and confining it. The one place that
 * knows how a bot is jailed and limited (its pieces: sandbox-int.h).
 *
 * Every bot runs in a session of its own (setsid): no controlling
 * terminal, so it can neither push input into the organizer's shell
 * (TIOCSTI) nor take the terminal's foreground.
 *
 * A bot runs either jailed (SANDBOX_ON) or bare (SANDBOX_OFF). Jailed, it
 * runs under bubblewrap (bwrap, Debian package bubblewrap) with:
 *   - never the host's root: a referee run as root jails each bot as a
 *     host uid of its own, unused on the host, with no capability and
 *     no_new_privs; otherwise, as the referee's user in a user namespace;
 *   - its own PID namespace: it sees and can signal only its own
 *     processes (and bwrap's init, PID 1 there, which waits for it); when
 *     the bot exits, that init exits and the kernel kills every process
 *     the bot started (setsid and double forks included);
 *   - its own mount namespace on an empty root, holding only what it
 *     needs (sandbox-jail.c): the system directories and a few files of
 *     /etc read-only, its own program and the files its command names,
 *     its workdir and the interpreter it runs under; a fresh /proc with
 *     /proc/sys read-only, a minimal /dev, a private /tmp (its working
 *     directory and HOME) and /dev/shm, each capped at its disk limit and
 *     gone with it. No other bot's files, no home directory, no /run,
 *     /var or /sys, no log or output of the referee's;
 *   - no network, IPC, UTS or cgroup namespace shared with the host;
 *     killed with its parent (--die-with-parent);
 *   - a seccomp filter (sandbox-filter.h, one table): no new user
 *     namespaces, no keyrings, no inotify, fanotify or dnotify, file locks
 *     that lock nothing and shared futexes that never sleep (a thread of
 *     the referee answers such waits: sandbox-futex.c), so two bots have
 *     no file to lock, watch or wait on between them; no io_uring,
 *     no sockets but unix, inet and netlink routing, no perf events, BPF,
 *     mounts, modules or tracing;
 *   - its own /proc/meminfo, /proc/stat and /proc/loadavg (its memory
 *     limit and CPUs, nothing shared or running), so that no counter of
 *     the machine's that other bots move reaches it.
 * Both ways it gets a clean environment (PATH, HOME, TMPDIR, LANG=C),
 * resource limits (rlimits for CPU time, per game and with a finite total
 * for a process kept over several games, file size and open files, and
 * memory per process) and, where this machine offers cgroups (v1 or a
 * delegated v2 subtree) and we may write them, a cgroup per bot that
 * limits its memory and its process count as a whole, gives it one CPU
 * share however many processes it runs, holds it to its CPUs (cpuset) and
 * can freeze it while it is not its turn (sandbox_freeze()).
 *
 * The registry of live bots (for a referee dying of a signal) and the
 * reaping of adopted orphans live here too: they are about the processes
 * this module starts.
 */
#ifndef TETRARENA_REFEREE_SANDBOX_H
#define TETRARENA_REFEREE_SANDBOX_H

#include <glib.h>
#include <sys/types.h>

#include "botspec.h"

typedef enum {
	SANDBOX_AUTO,	/* jail when bwrap can run here, else warn and run bare */
	SANDBOX_ON,	/* jail, or refuse to play */
	SANDBOX_OFF,	/* run bare */
} SandboxMode;

/* "auto", "on", "off". */
const char *sandbox_mode_name(SandboxMode m);
/* FALSE when `s` is no mode name. */
gboolean sandbox_mode_parse(const char *s, SandboxMode *out);

/*
 * Why bwrap cannot jail a bot on this machine (a static string), or NULL
 * when it can. Checked once per process by starting a jailed `true`.
 */
const char *sandbox_unavailable(void);

/* The error domain of resolving a mode and starting a bot. */
#define SANDBOX_ERROR (sandbox_error_quark())
GQuark sandbox_error_quark(void);

typedef enum {
	SANDBOX_ERROR_UNAVAILABLE,	/* no jail to be had here (--sandbox on) */
	SANDBOX_ERROR_NOENT,		/* the bot's program cannot be run */
	SANDBOX_ERROR_CHDIR,		/* its working directory does not exist */
	SANDBOX_ERROR_FAILED,		/* starting it failed (pipe, exec, memfd) */
} SandboxError;

/*
 * The mode a game runs with: ON or OFF. AUTO becomes ON when bwrap works
 * and OFF otherwise, printing (once per process) a warning on stderr that
 * says what is left unprotected. FALSE with error set when ON is asked
 * for and cannot be had.
 */
gboolean sandbox_resolve(SandboxMode want, SandboxMode *out, GError **error);

/* How the cgroup limits stand on this machine, one line for people
 * ("cgroup v1: memory and processes per bot", or why not). */
const char *sandbox_cgroup_status(void);

/* What to start and how. */
typedef struct SandboxLaunch SandboxLaunch;
struct SandboxLaunch {
	SandboxMode mode;		/* SANDBOX_ON or SANDBOX_OFF (resolved) */
	const char *const *hide;	/* NULL-terminated host paths the bot must
					 * not see (files and directories), or NULL:
					 * jailed, nothing at or under one is bound,
					 * whatever its command names (as written or
					 * through links), but its workdir (the
					 * ladder's DIR/bots/NAME-N, in DIR); one
					 * inside something bound is covered */
	int cpu;			/* >= 0: pin to this CPU */
	int games;			/* the most games the process may play,
					 * kept from one to the next (0 counts
					 * as 1): its hard cpu limit is `cpu` x
					 * games + 1 s (sandbox_renew_cpu()) */
};

/* One started bot's confinement (its cgroups); freed after it is reaped. */
typedef struct Sandbox Sandbox;

/*
 * Start `spec` as `launch` says (NULL: bare, not pinned), with fds[0..2]
 * as its stdin, stdout and stderr (fds[2] -1: inherit). OUT: *pid, the child to wait for and
 * whose process group to kill (bwrap when jailed); *bot_pid, the bot's own
 * process (for its CPU clock) when bare, 0 when jailed (see
 * sandbox_bot_pid()). The new process is registered for
 * sandbox_kill_all() before this returns. NULL with error set when it
 * cannot be started (program not found, no jail to be had); a program
 * that fails inside the jail shows as a bot that exits at once.
 */
Sandbox *sandbox_start(const BotSpec *spec, const SandboxLaunch *launch, const int fds[3], pid_t *pid,
		       pid_t *bot_pid, GError **error);

/*
 * The cpu limit (BotLimits.cpu, RLIMIT_CPU, per process): sandbox_start()
 * sets the soft limit to `cpu` and the hard one to `cpu` x launch->games
 * + 1, what the process may use in all its games and one second more.
 * The hard limit is never raised afterwards, since that takes
 * CAP_SYS_RESOURCE; so the kernel's SIGKILL is sure to come, at the
 * latest once the total is spent, whatever the bot does with SIGXCPU.
 *
 * For the next game of a kept bot, give the process `pid` its `cpu`
 * seconds afresh: its soft limit becomes the CPU time it has used so far
 * (whole seconds, rounded up) plus `cpu`, but at most its hard limit - 1;
 * at that it gets SIGXCPU (and again every CPU second, if it catches or
 * ignores it). A process that went past a game's limit so gets no more
 * than `cpu` in the next, and less once its total runs short. `pid` is
 * the bot's own process (bare: *bot_pid of sandbox_start(); jailed:
 * sandbox_bot_pid()); the processes it started keep the limits and counts
 * they have. TRUE when renewed or the process is gone. FALSE when
 * prlimit(2) refuses: the limit stays as it was, and the first time in
 * this process a warning on stderr says why.
 */
/* `*spent_at` is the CPU time (whole seconds) the limit was last renewed
 * at (0 for a process just started, whose limit is `cpu`): when the time
 * used still rounds to it, the limit is right as it is and nothing is
 * done (no system call but the clock's); else it is renewed and updated. */
gboolean sandbox_renew_cpu(pid_t pid, guint64 cpu, guint64 *spent_at);

/* A jailed bot's own process, the child of its jail's init, once it has
 * been started (by its `hello` at the latest); 0 if not (yet) known. */
pid_t sandbox_bot_pid(Sandbox *sb);

/* How a bot's process ended. */
typedef enum {
	SANDBOX_END_RUNNING,	/* not ended (as far as can be told) by the deadline */
	SANDBOX_END_EXITED,	/* exited; code is its exit status */
	SANDBOX_END_SIGNALED,	/* killed; code is the signal */
} SandboxEndKind;

typedef struct {
	SandboxEndKind kind;
	int code;		/* exit status or signal number */
	gboolean jail;		/* jailed, and bwrap ended without reporting the
				 * bot: kind and code are bwrap's own end */
} SandboxEnd;

/*
 * How the bot started as `sb` and `pid` (sandbox_start()) ended, waiting
 * for it until `deadline` (monotonic us) and no longer. Bare, the
 * process's own wait status, peeked at without reaping it. Jailed, the
 * exit code bwrap reports for the bot on its --json-status-fd (written
 * before bwrap exits, so there as soon as the bot's pipes close), in the
 * shell's encoding that bwrap documents: 128+N is signal N (a bot that
 * itself exits with 129 to 128+64 shows as killed by that signal); if
 * bwrap ended without reporting (it was killed itself), its own end with
 * .jail set. Reaps nothing: sandbox_reap() still must.
 */
SandboxEnd sandbox_end(Sandbox *sb, pid_t pid, gint64 deadline);

/*
 * The limit a bot ran into, if its cgroups saw one ("memory limit",
 * "process limit"), else NULL. Meaningful any time; most useful once the
 * bot died.
 */
const char *sandbox_breach(const Sandbox *sb);

/*
 * Reap `pid` (SIGKILL to its process group first), forget it in the
 * registry, then kill whatever is left in its cgroups and remove them.
 * NULL sb is fine.
 */
void sandbox_reap(Sandbox *sb, pid_t pid, gboolean own_group);

/*
 * Freeze (TRUE) or thaw (FALSE) every process of a bot, through its
 * freezer cgroup: a frozen bot uses no CPU at all. FALSE when this bot
 * has no freezer (no cgroups here, the human) and nothing was done.
 * sandbox_reap() thaws before it kills.
 */
gboolean sandbox_freeze(Sandbox *sb, gboolean frozen);

/* Kill (SIGKILL) every registered bot process group. Async-signal-safe. */
void sandbox_kill_all(void);

/*
 * Orphans: descendants that left a bare bot's process group (setsid,
 * setpgid) escape the group kill. sandbox_adopt_orphans() makes this
 * process their reaper (PR_SET_CHILD_SUBREAPER): when the bot dies they
 * become children of this process rather than of init.
 * sandbox_kill_orphans() then kills (SIGKILL) and reaps every child this
 * process still has, round after round until none is left, and returns
 * how many there were. Call it only when no bot is running (at the end of
 * `referee play`, `rerun` or a tournament). A jailed bot needs none of
 * this: its PID namespace dies with it.
 */
void sandbox_adopt_orphans(void);
int sandbox_kill_orphans(void);

/*
 * The guard (sandbox_adopt_orphans() starts it): a process that outlives
 * a referee killed outright and kills what is left of its bots: each live
 * bot's process group (the referee tells it of each) and what is in their
 * cgroups, which it removes. It runs the referee's own binary with
 * SANDBOX_GUARD_NAME as argv[0], so that no kill aimed at the referee's
 * name or command line takes it too; main() hands such a run to
 * sandbox_guard_main(), which returns the exit status (2, with one line on
 * stderr, when it was not started by a referee).
 */
#define SANDBOX_GUARD_NAME "tetrarena-guard"
int sandbox_guard_main(int argc, char **argv);

#endif
