/*
 * sandbox-spawn: the bot's process from vfork to exec, the registry of
 * live bots that a dying referee kills, orphans and the guard process.
 * See sandbox-int.h.
 *
 * The child is started with vfork(): everything it needs (argv, env,
 * rlimits, descriptors, the cgroup files to join) is computed before, and
 * between vfork() and exec it only makes system calls. Under valgrind,
 * which runs vfork() as fork() and cannot follow it well,
 * TETRARENA_SPAWN=fork (or valgrind's own LD_PRELOAD marker) selects a
 * plain fork().
 */
#include "sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- every live bot, for a dying referee ------------------------------ */

/*
 * The one piece of global state about bots: what a signal handler needs
 * to kill every bot of this process. A slot holds 0, a bot's PID, or minus
 * its process group; slots change by atomic compare-and-swap, so spawning
 * and reaping threads and a handler may all use it at once. A bot is added
 * while signals are blocked, before its PID can be seen anywhere, and
 * removed just after it is reaped (under registry_lock, so no bot spawned
 * meanwhile can have reused the PID; a handler's kill in that instant is
 * the one window left).
 */
#define SANDBOX_REGISTRY 1024
static gint registry[SANDBOX_REGISTRY];
/* Held from vfork until the new bot is registered, and while an exited
 * bot leaves the registry, so that reap_orphans() never takes a bot's
 * zombie for an orphan's. */
static GMutex registry_lock;
static gint adopting;	/* sandbox_adopt_orphans() was called */

static void guard_tell(gint op, gint target);

static void registry_add(gint target)
{
	guard_tell(1, target);
	for (int i = 0; i < SANDBOX_REGISTRY; i++)
		if (g_atomic_int_compare_and_exchange(&registry[i], 0, target))
			return;
	/* Full (over a thousand live bots): that bot relies on PDEATHSIG. */
}

static void registry_remove(gint target)
{
	guard_tell(0, target);
	for (int i = 0; i < SANDBOX_REGISTRY; i++)
		if (g_atomic_int_compare_and_exchange(&registry[i], target, 0))
			return;
}

static gboolean registered(pid_t pid)
{
	for (int i = 0; i < SANDBOX_REGISTRY; i++) {
		gint target = g_atomic_int_get(&registry[i]);
		if (target == pid || target == -pid)
			return TRUE;
	}
	return FALSE;
}

/*
 * Reap the adopted orphans that have exited (the children a bot left when
 * its group was killed), so that their zombies do not pile up over a
 * tournament. Only children that are no registered bot are reaped; the
 * look stops at the first zombie that is a bot (its owner reaps it), and
 * the next call goes on.
 */
static void reap_orphans(void)
{
	if (!g_atomic_int_get(&adopting))
		return;
	g_mutex_lock(&registry_lock);
	for (int i = 0; i < 64; i++) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == 0 ||
		    registered(si.si_pid))
			break;
		waitpid(si.si_pid, NULL, WNOHANG);
	}
	g_mutex_unlock(&registry_lock);
}

void sandbox_kill_all(void)
{
	for (int i = 0; i < SANDBOX_REGISTRY; i++) {
		gint target = g_atomic_int_get(&registry[i]);
		if (target != 0)
			kill(target, SIGKILL);
	}
}

/* ---- the child --------------------------------------------------------- */

gboolean sandbox_use_fork(void)
{
	const char *how = g_getenv("TETRARENA_SPAWN");
	const char *preload = g_getenv("LD_PRELOAD");

	return g_strcmp0(how, "fork") == 0 || (preload && strstr(preload, "vgpreload"));
}

/* In the child: set everything up, exec; only system calls. */
static void child(const ChildSetup *cs, pid_t parent)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	/* Into the bot's cgroups first: every process it starts follows. */
	for (int c = 0; c < CG_COUNT; c++)
		if (cs->cg[c] >= 0 && write(cs->cg[c], "0", 1) != 1)
			_exit(126);
	/* The supervisor's filter, before anything of the bot's runs (it
	 * holds for bwrap and all it starts); the listener goes to the
	 * parent, never into the jail. */
	if (cs->poll_sock != -1 && !sandbox_futex_install(cs->poll_prog, cs->poll_len, cs->poll_sock))
		_exit(126);
	/* A session of its own: no controlling terminal, so no TIOCSTI into
	 * the organizer's shell and no foreground group to steal; it also
	 * leads its own process group, killed as one. */
	if (cs->new_session && setsid() < 0)
		_exit(126);
	/* Whatever ends the referee (even SIGKILL) ends the bot. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		_exit(126);
	/* Descriptors: each source moved above all of them, then down to
	 * 0, 1, 2, ... (a source may sit on another's target). */
	int top = cs->nfds;
	for (int i = 0; i < cs->nfds; i++)
		top = cs->fds[i] >= top ? cs->fds[i] + 1 : top;
	int moved[SANDBOX_FDS_MAX];
	for (int i = 0; i < cs->nfds; i++)
		if (cs->fds[i] >= 0 && (moved[i] = fcntl(cs->fds[i], F_DUPFD, top)) < 0)
			_exit(126);
	for (int i = 0; i < cs->nfds; i++)
		if (cs->fds[i] >= 0 && dup2(moved[i], i) < 0)
			_exit(126);
	syscall(SYS_close_range, cs->nfds, ~0U, 0);
	if (cs->workdir && chdir(cs->workdir) < 0)
		_exit(126);
	for (int i = 0; i < cs->nres; i++)
		if (setrlimit(cs->res[i], &cs->rl[i]) < 0 && !cs->lenient)
			_exit(126);
	if (cs->cpu >= 0)
		sched_setaffinity(0, sizeof(*cs->cpus), cs->cpus);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(cs->prog, cs->argv, cs->envp);
	_exit(127);
}

/*
 * Start the child: the parent thread blocks every signal meanwhile (a
 * vfork child shares its memory until exec), and the child, which has its
 * own signal table, resets every disposition before unblocking.
 */
pid_t sandbox_spawn(const ChildSetup *cs)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t parent = getpid();	/* gone by the time PDEATHSIG is set: give up */
	/* With fork() the parent does not wait for the exec as vfork() makes
	 * it: a close-on-exec pipe tells it when the child is gone to exec. */
	gboolean forked = sandbox_use_fork();
	int execed[2] = {-1, -1};
	if (forked && pipe2(execed, O_CLOEXEC) < 0)
		forked = FALSE;
	g_mutex_lock(&registry_lock);
	pid_t pid = forked ? fork() : vfork();
	if (pid == 0)
		child(cs, parent);
	int e = errno;
	if (forked) {
		char c;
		close(execed[1]);
		while (read(execed[0], &c, 1) < 0 && errno == EINTR)
			;
		close(execed[0]);
	}
	if (pid > 0)
		registry_add(cs->new_session ? -pid : pid);
	g_mutex_unlock(&registry_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

void sandbox_forget(pid_t pid, gboolean own_group)
{
	g_mutex_lock(&registry_lock);
	registry_remove(own_group ? -pid : pid);
	g_mutex_unlock(&registry_lock);
	reap_orphans();
}

/* ---- the guard ---------------------------------------------------------- */

/*
 * A referee killed outright (kill -9) cannot clean up; PR_SET_PDEATHSIG
 * takes each bwrap with it, and --die-with-parent each jail, but a jail
 * caught half made (bwrap's first process in the new PID namespace,
 * waiting for a word from the bwrap that was just killed) would wait
 * forever, and so would a bot frozen between its turns (a frozen process
 * does not die). So a guard process, forked at start, holds the read end
 * of a pipe from the referee; when it reads EOF (the referee is gone,
 * however it went) it kills every process left in the referee's bot
 * cgroups and removes them, for a few rounds, then exits.
 *
 * Without cgroups (a normal user) what a bare bot forked would outlive a
 * referee killed outright: PDEATHSIG ends the bot, not its children. So
 * the guard runs there too, and the referee tells it through the pipe
 * each registry change (GuardNote: a bot's PID or minus its process
 * group, added or removed); at EOF it kills every target still listed,
 * which takes a bot's whole group (t2020).
 *
 * Forked, the guard execs the referee's binary as SANDBOX_GUARD_NAME: a fork
 * alone kept the referee's command line, so `pkill -9 -f "referee
 * tournament"` (or `pkill -9 referee`, by the old name referee-guard)
 * killed both at once and left the frozen bots for ever.
 */
static int guard_fd = -1;	/* the referee's end of the guard's pipe */

typedef struct {
	gint op;	/* 1 added, 0 removed */
	gint target;	/* a registry slot's value */
} GuardNote;

/* One note to the guard (a pipe write under PIPE_BUF is whole). */
static void guard_tell(gint op, gint target)
{
	GuardNote note = {op, target};
	int fd = g_atomic_int_get(&guard_fd);

	if (fd >= 0)
		while (write(fd, &note, sizeof(note)) < 0 && errno == EINTR)
			;
}

static void guard_main(int rfd, pid_t referee)
{
	static gint live[SANDBOX_REGISTRY];
	GuardNote note;
	size_t got = 0;
	ssize_t r;

	prctl(PR_SET_NAME, SANDBOX_GUARD_NAME, 0, 0, 0);
	while ((r = read(rfd, (char *)&note + got, sizeof(note) - got)) > 0 || (r < 0 && errno == EINTR)) {
		if (r < 0 || (got += (size_t)r) < sizeof(note))
			continue;
		got = 0;
		for (int i = 0; i < SANDBOX_REGISTRY && note.target != 0; i++)
			if (note.op ? live[i] == 0 : live[i] == note.target) {
				live[i] = note.op ? note.target : 0;
				break;
			}
	}
	for (int i = 0; i < SANDBOX_REGISTRY; i++)
		if (live[i] != 0)
			kill(live[i], SIGKILL);
	/* (a half-made jail may still be on its way for a moment) */
	for (int round = 0; round < 20; round++) {
		sandbox_cg_sweep(referee);
		g_usleep(10000);
	}
	_exit(0);
}

static void guard_start(void)
{
	int fds[2];

	if (guard_fd >= 0 || pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid_t referee = getpid();
	char arg[24];
	g_snprintf(arg, sizeof(arg), "%d", (int)referee);
	pid_t pid = fork();
	if (pid == 0) {
		/* its own group: a Ctrl-C to the referee's is the referee's */
		setpgid(0, 0);
		dup2(fds[0], 3);
		fcntl(3, F_SETFD, 0);	/* (dup2 onto itself keeps O_CLOEXEC) */
		syscall(SYS_close_range, 4, ~0U, 0);
		for (int fd = 0; fd < 3; fd++) {
			int null = open("/dev/null", O_RDWR);
			dup2(null, fd);
			if (null > 2)
				close(null);
		}
		execl("/proc/self/exe", SANDBOX_GUARD_NAME, arg, (char *)NULL);
		guard_main(3, referee);	/* no /proc: the fork guards, as it is */
	}
	close(fds[0]);
	if (pid > 0)
		g_atomic_int_set(&guard_fd, fds[1]);
	else
		close(fds[1]);
}

int sandbox_guard_main(int argc, char **argv)
{
	char *end = NULL;
	long referee = argc == 2 ? strtol(argv[1], &end, 10) : 0;

	if (!end || *end || referee <= 1 || referee > G_MAXINT || fcntl(3, F_GETFD) < 0) {
		fprintf(stderr, "%s: started by the referee only (a referee's PID, its pipe on descriptor 3)\n",
			SANDBOX_GUARD_NAME);
		return 2;
	}
	guard_main(3, (pid_t)referee);
	return 0;
}

/* ---- orphans ----------------------------------------------------------- */

void sandbox_adopt_orphans(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
		g_atomic_int_set(&adopting, 1);
	guard_start();
}

/* The PIDs of this process's children (up to max), from /proc/PID/stat. */
static int list_children(pid_t *out, int max)
{
	pid_t self = getpid();
	GDir *d = g_dir_open("/proc", 0, NULL);
	const char *name;
	int n = 0;

	if (!d)
		return 0;
	while ((name = g_dir_read_name(d)) && n < max) {
		if (name[0] < '1' || name[0] > '9')
			continue;
		char path[64], stat[512];
		g_snprintf(path, sizeof(path), "/proc/%s/stat", name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t len = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (len <= 0)
			continue;
		stat[len] = '\0';
		/* "PID (COMM) STATE PPID ...": COMM may hold anything but the
		 * last ')' ends it */
		const char *p = strrchr(stat, ')');
		int ppid;
		if (p && sscanf(p + 1, " %*c %d", &ppid) == 1 && ppid == self)
			out[n++] = (pid_t)g_ascii_strtoll(name, NULL, 10);
	}
	g_dir_close(d);
	return n;
}

int sandbox_kill_orphans(void)
{
	int killed = 0;

	sandbox_cg_sweep(getpid());
	/* Each round's dead leave their own children to us: go again. The
	 * bound only stops a pathological fork race (RLIMIT_NPROC caps it). */
	for (int round = 0; round < 1000; round++) {
		pid_t kids[256];
		int n = list_children(kids, G_N_ELEMENTS(kids));
		if (n == 0)
			break;
		for (int i = 0; i < n; i++)
			kill(kids[i], SIGKILL);
		for (int i = 0; i < n; i++)
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
		killed += n;
	}
	return killed;
}
