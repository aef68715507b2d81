/*
 * sandbox-int: what the pieces of the sandbox module share, and nobody
 * else (SQLite's and git's private-header style). The module's contract
 * is sandbox.h; this header only splits its work:
 *
 *   sandbox.c         modes, starting a bot, how it ended, reaping
 *   sandbox-jail.c    the jail's bubblewrap command line: the minimal
 *                     root, the bot's own files, its /proc counters
 *   sandbox-filter.c  the seccomp filter's table (its own header)
 *   sandbox-futex.c   the supervisor that answers jailed shared futex waits
 *   sandbox-cgroup.c  a bot's cgroups: memory, processes, CPU share and
 *                     cpuset, the freezer; the sweep of a dead referee's
 *   sandbox-spawn.c   the child between vfork and exec, the registry of
 *                     live bots, orphans and the guard process
 */
#ifndef TETRARENA_REFEREE_SANDBOX_INT_H
#define TETRARENA_REFEREE_SANDBOX_INT_H

#include <glib.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandbox.h"

#define SANDBOX_HOME "/tmp/bot"		/* the jailed bot's working dir and HOME */
#define SANDBOX_FDS_MAX 16		/* descriptors handed to a child, 0.. */

/* ---- cgroups (sandbox-cgroup.c) ---------------------------------------- */

enum { CG_MEMORY, CG_PIDS, CG_CPU, CG_CPUSET, CG_FREEZER, CG_COUNT };

/* One bot's cgroups: a directory per controller (v2: one for all), or
 * NULL where that controller is not ours. */
typedef struct {
	char *dir[CG_COUNT];
	int freeze_fd;		/* freezer.state (v1) or cgroup.freeze (v2), or -1 */
	gboolean frozen;
} SandboxCgroups;

/* Probe once; a line for people (sandbox_cgroup_status()). */
const char *sandbox_cg_status(void);
/* Whether memory and pids are ours (the limits that bind the whole bot). */
gboolean sandbox_cg_limits(void);
/* Make the bot's cgroups with its limits and CPUs (`cpu` >= 0: that CPU
 * only, else the referee's). Memory and pids are all or none; cpu,
 * cpuset and freezer each where offered. */
void sandbox_cg_make(SandboxCgroups *cg, const BotLimits *l, int cpu);
/* The cgroup.procs files the child writes itself into (-1: none);
 * close them after the start. */
void sandbox_cg_open_procs(const SandboxCgroups *cg, int fds[CG_COUNT]);
const char *sandbox_cg_breach(const SandboxCgroups *cg);
/* Freeze or thaw every process of the bot; FALSE when it cannot be. */
gboolean sandbox_cg_freeze(SandboxCgroups *cg, gboolean frozen);
/* Thaw, kill what is left, remove the cgroups, free the names. */
void sandbox_cg_remove(SandboxCgroups *cg);
/* The same for every cgroup that referee `owner` left; how many. */
int sandbox_cg_sweep(pid_t owner);

/* ---- the jail (sandbox-jail.c) ------------------------------------------ */

/* bwrap's path, once bwrap was found working, else NULL with *why. */
const char *sandbox_jail_bwrap(const char **why);

/* The descriptors a jailed child gets besides 0..2: bwrap's status pipe,
 * then the memory files of sandbox_jail_make(). */
enum {
	JAIL_FD_STATUS = 3,	/* --json-status-fd */
	JAIL_FD_ARGS,		/* --args: every other argument, so that the
				 * jail's /proc/1/cmdline names no host path */
	JAIL_FD_SECCOMP,	/* --seccomp: the compiled filter */
	JAIL_FD_PASSWD,		/* --ro-bind-data on /etc/passwd */
	JAIL_FD_GROUP,		/* --ro-bind-data on /etc/group */
	JAIL_FD_MEMINFO,	/* --ro-bind-data on /proc/meminfo, */
	JAIL_FD_STAT,		/* /proc/stat */
	JAIL_FD_LOADAVG,	/* and /proc/loadavg: the jail's own */
	JAIL_FD_COUNT
};

/* What sandbox-jail.c decided for one bot. */
typedef struct {
	int fd[JAIL_FD_COUNT];	/* [JAIL_FD_ARGS..]: memory files, or -1 */
	GPtrArray *command;	/* what follows bwrap's options: "--", the
				 * program and its arguments (owned) */
	uid_t uid;		/* the host uid the bot runs as: its own when
				 * the referee is root, else the referee's */
} SandboxJail;

/*
 * The jail for `spec` running `prog` (resolved): bwrap's arguments in a
 * memory file, the filter (sandbox-filter.h) in another, the uid, and
 * the /proc files that show the bot its own limits instead of the
 * machine's counters (its memory limit, the CPUs it runs on: `cpu` >= 0
 * that one, else the referee's). `hide` as in SandboxLaunch. FALSE with
 * error set when something cannot be made.
 */
gboolean sandbox_jail_make(SandboxJail *j, const BotSpec *spec, const char *prog, const char *const *hide,
			   int cpu, GError **error);
void sandbox_jail_clear(SandboxJail *j);

/* ---- shared futex waits (sandbox-futex.c) ------------------------------------ */

/* Whether jails get the supervisor of their shared futex waits here:
 * checked once, by a child that installs jailfilter_poll_program() with
 * a listener (TETRARENA_NO_FUTEX_SUPERVISOR=1: never, for measuring). */
gboolean sandbox_futex_supervised(void);
/* In the child, between vfork and exec (system calls only): set
 * no_new_privs, install `prog` with a listener and send the listener on
 * the socket `sock` (SCM_RIGHTS). FALSE when any of it fails: then the
 * child must not exec. */
gboolean sandbox_futex_install(const void *prog, gsize len, int sock);
/* In the parent once the child has exec'd: the listener it sent on
 * `sock`, or -1 (not blocking). */
int sandbox_futex_receive(int sock);
/* Hand `listener` to the supervisor thread (started at the first),
 * which answers its calls within 10 ms of this and closes it when the
 * bot is gone; a token for sandbox_futex_forget(). */
guint64 sandbox_futex_watch(int listener);
/* Close that listener now (the bot is being reaped), so that no
 * descriptor outlives the bot. 0, or one already closed: nothing. */
void sandbox_futex_forget(guint64 token);

/* ---- the child (sandbox-spawn.c) ----------------------------------------- */

/* What the child does between vfork() and exec, all decided beforehand. */
typedef struct {
	const char *prog;
	char *const *argv, *const *envp;
	int nfds;		/* fds[i] becomes descriptor i (-1: /dev/null
				 * is not opened; i is left closed, except
				 * 2, inherited) */
	int fds[SANDBOX_FDS_MAX];
	int cg[CG_COUNT];	/* cgroup.procs files to join first, or -1 */
	gboolean new_session;	/* setsid(): no terminal, its own group */
	gboolean lenient;	/* under valgrind: a refused rlimit is set by
				 * the parent after the start (prlimit) */
	const char *workdir;
	int nres;
	const int *res;
	const struct rlimit *rl;
	int cpu;
	const cpu_set_t *cpus;
	const void *poll_prog;	/* jailfilter_poll_program() to install with a */
	gsize poll_len;
	int poll_sock;		/* listener sent on this socket, or -1: none */
} ChildSetup;

/* fork() instead of vfork() (valgrind, TETRARENA_SPAWN=fork). */
gboolean sandbox_use_fork(void);
/* Start the child, registered for sandbox_kill_all(); -1 with errno. */
pid_t sandbox_spawn(const ChildSetup *cs);
/* Forget a reaped bot (own_group: it was registered as its group). */
void sandbox_forget(pid_t pid, gboolean own_group);

#endif
