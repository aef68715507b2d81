/*
 * sandbox: starting and confining bot processes. See sandbox.h.
 *
 * The child is started with vfork(): everything it needs (argv, env,
 * rlimits, the cgroup files to join) is computed before, and between
 * vfork() and exec it only makes system calls. Under valgrind, which runs
 * vfork() as fork() and cannot follow it well, TETRARENA_SPAWN=fork (or
 * valgrind's own LD_PRELOAD marker) selects a plain fork().
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SANDBOX_INFO_WAIT_US 10000000	/* bwrap reports its child within this */
#define SANDBOX_HOME "/tmp/bot"		/* the jailed bot's working dir and HOME */

const char *sandbox_mode_name(SandboxMode m)
{
	static const char *const names[] = {"auto", "on", "off"};
	return names[m];
}

gboolean sandbox_mode_parse(const char *s, SandboxMode *out)
{
	for (int m = SANDBOX_AUTO; m <= SANDBOX_OFF; m++)
		if (g_strcmp0(s, sandbox_mode_name(m)) == 0) {
			*out = m;
			return TRUE;
		}
	return FALSE;
}

/* ---- what this machine offers ----------------------------------------- */

static char *bwrap_path;	/* set once by probe_bwrap() */
static const char *bwrap_why;	/* NULL: bwrap works */

/* The flags every jail gets (before the per-bot mounts). */
static void jail_common(GPtrArray *a)
{
	static const char *const common[] = {
		"--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", NULL,
	};
	for (int i = 0; common[i]; i++)
		g_ptr_array_add(a, g_strdup(common[i]));
	/* Root needs no user namespace, and with one bwrap's jail waits for
	 * its parent to map it, which a referee killed at that instant never
	 * does: the half-made jail would outlive it. Root drops every
	 * capability instead. */
	if (geteuid() == 0) {
		g_ptr_array_add(a, g_strdup("--cap-drop"));
		g_ptr_array_add(a, g_strdup("ALL"));
	} else {
		g_ptr_array_add(a, g_strdup("--unshare-user"));
	}
}

static gpointer probe_bwrap(gpointer unused)
{
	(void)unused;
	bwrap_path = g_find_program_in_path("bwrap");
	if (!bwrap_path) {
		bwrap_why = "bwrap is not installed (Debian package bubblewrap)";
		return NULL;
	}
	g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(a, g_strdup(bwrap_path));
	jail_common(a);
	g_ptr_array_add(a, g_strdup("--"));
	g_ptr_array_add(a, g_strdup("true"));
	g_ptr_array_add(a, NULL);
	int status = -1;
	g_autofree char *err = NULL;
	if (!g_spawn_sync(NULL, (char **)a->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
			  NULL, NULL, NULL, &err, &status, NULL) ||
	    !g_spawn_check_wait_status(status, NULL)) {
		/* e.g. "bwrap: No permissions to creating new namespace" */
		static char why[256];
		g_strchomp(err ? err : (err = g_strdup("")));
		g_snprintf(why, sizeof(why), "bwrap cannot make a jail here%s%s", err[0] ? ": " : "",
			   err);
		bwrap_why = why;
	}
	return NULL;
}

const char *sandbox_unavailable(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, probe_bwrap, NULL);
	return bwrap_why;
}

/*
 * cgroups: for each controller we use (memory, pids), the directory of
 * this process's own cgroup, where bots get a child cgroup each; NULL
 * when the controller is missing or not ours to write.
 */
enum { CG_MEMORY, CG_PIDS, CG_COUNT };
static const char *const cg_names[CG_COUNT] = {"memory", "pids"};
static char *cg_dir[CG_COUNT];
static gboolean cg_v2;
static char cg_status[160];

static gboolean writable_dir(const char *dir)
{
	return dir && access(dir, W_OK) == 0;
}

static gpointer probe_cgroups(gpointer unused)
{
	(void)unused;
	g_autofree char *text = NULL;
	if (!g_file_get_contents("/proc/self/cgroup", &text, NULL, NULL)) {
		g_snprintf(cg_status, sizeof(cg_status), "no cgroups: memory and processes limited per process");
		return NULL;
	}
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	char *v2path = NULL;
	for (int i = 0; lines[i]; i++) {
		/* "ID:CONTROLLERS:PATH" */
		char **f = g_strsplit(lines[i], ":", 3);
		if (g_strv_length(f) == 3) {
			if (f[1][0] == '\0' && strcmp(f[0], "0") == 0) {
				g_free(v2path);
				v2path = g_strdup(f[2]);
			}
			g_auto(GStrv) ctl = g_strsplit(f[1], ",", -1);
			for (int c = 0; c < CG_COUNT; c++)
				if (g_strv_contains((const char *const *)ctl, cg_names[c])) {
					g_autofree char *d = g_build_filename("/sys/fs/cgroup", cg_names[c],
									      f[2], NULL);
					if (writable_dir(d) && !cg_dir[c])
						cg_dir[c] = g_steal_pointer(&d);
				}
		}
		g_strfreev(f);
	}
	/* Pure v2 with both controllers delegated to our subtree. */
	if (!cg_dir[CG_MEMORY] && !cg_dir[CG_PIDS] && v2path) {
		g_autofree char *d = g_build_filename("/sys/fs/cgroup", v2path, NULL);
		g_autofree char *sub = g_build_filename(d, "cgroup.subtree_control", NULL);
		g_autofree char *ctl = NULL;
		if (writable_dir(d) && g_file_get_contents(sub, &ctl, NULL, NULL) && strstr(ctl, "memory") &&
		    strstr(ctl, "pids")) {
			cg_v2 = TRUE;
			cg_dir[CG_MEMORY] = g_strdup(d);
			cg_dir[CG_PIDS] = g_strdup(d);
		}
	}
	g_free(v2path);
	if (cg_dir[CG_MEMORY] && cg_dir[CG_PIDS])
		g_snprintf(cg_status, sizeof(cg_status), "cgroup %s: memory and process count limited per bot",
			   cg_v2 ? "v2" : "v1");
	else
		g_snprintf(cg_status, sizeof(cg_status),
			   "no writable cgroup for %s%s%s: limited per process only (rlimits; the process "
			   "count does not bind for root)",
			   cg_dir[CG_MEMORY] ? "" : "memory", cg_dir[CG_MEMORY] || cg_dir[CG_PIDS] ? "" : " and ",
			   cg_dir[CG_PIDS] ? "" : "processes");
	return NULL;
}

const char *sandbox_cgroup_status(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, probe_cgroups, NULL);
	return cg_status;
}

gboolean sandbox_resolve(SandboxMode want, SandboxMode *out, GError **error)
{
	static gint warned;

	if (want == SANDBOX_OFF) {
		*out = SANDBOX_OFF;
		return TRUE;
	}
	const char *why = sandbox_unavailable();
	if (!why) {
		static gint told;
		sandbox_cgroup_status();
		if ((!cg_dir[CG_MEMORY] || !cg_dir[CG_PIDS]) && g_atomic_int_compare_and_exchange(&told, 0, 1))
			g_printerr("referee: note: %s\n", cg_status);
		*out = SANDBOX_ON;
		return TRUE;
	}
	if (want == SANDBOX_ON) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "--sandbox on: %s", why);
		return FALSE;
	}
	if (g_atomic_int_compare_and_exchange(&warned, 0, 1))
		g_printerr("referee: warning: bots run without a sandbox (%s): they can see and signal "
			   "each other and the referee, read its logs and write anywhere this user may; "
			   "--sandbox on refuses to play like this\n", why);
	*out = SANDBOX_OFF;
	return TRUE;
}

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

static void registry_add(gint target)
{
	for (int i = 0; i < SANDBOX_REGISTRY; i++)
		if (g_atomic_int_compare_and_exchange(&registry[i], 0, target))
			return;
	/* Full (over a thousand live bots): that bot relies on PDEATHSIG. */
}

static void registry_remove(gint target)
{
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

/* What the child does between vfork() and exec, all decided beforehand. */
typedef struct {
	const char *prog;
	char *const *argv, *const *envp;
	int in, out, err;	/* become 0, 1, 2 (err -1: inherit) */
	int info;		/* becomes 3 (bwrap's --json-status-fd), or -1 */
	int cg[CG_COUNT];	/* cgroup.procs files to join first, or -1 */
	gboolean own_group;
	gboolean lenient;	/* under valgrind: a refused rlimit is set by
				 * the parent after the start (prlimit) */
	const char *workdir;
	int nres;
	const int *res;
	const struct rlimit *rl;
	int cpu;
	const cpu_set_t *cpus;
} ChildSetup;

static gboolean use_fork(void)
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
	if (cs->own_group && setpgid(0, 0) < 0)
		_exit(126);
	/* Whatever ends the referee (even SIGKILL) ends the bot. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		_exit(126);
	if (dup2(cs->in, 0) < 0 || dup2(cs->out, 1) < 0 || (cs->err >= 0 && dup2(cs->err, 2) < 0))
		_exit(126);
	if (cs->info >= 0 && dup2(cs->info, 3) < 0)
		_exit(126);
	if (cs->workdir && chdir(cs->workdir) < 0)
		_exit(126);
	for (int i = 0; i < cs->nres; i++)
		if (setrlimit(cs->res[i], &cs->rl[i]) < 0 && !cs->lenient)
			_exit(126);
	if (cs->cpu >= 0)
		sched_setaffinity(0, sizeof(*cs->cpus), cs->cpus);
	syscall(SYS_close_range, cs->info >= 0 ? 4 : 3, ~0U, 0);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(cs->prog, cs->argv, cs->envp);
	_exit(127);
}

/*
 * Start the child: the parent thread blocks every signal meanwhile (a
 * vfork child shares its memory until exec), and the child, which has its
 * own signal table, resets every disposition before unblocking. Returns
 * the pid, registered, or -1 with errno.
 */
static pid_t spawn_child(const ChildSetup *cs)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t parent = getpid();	/* gone by the time PDEATHSIG is set: give up */
	/* With fork() the parent does not wait for the exec as vfork() makes
	 * it: a close-on-exec pipe tells it when the child is gone to exec. */
	gboolean forked = use_fork();
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
		registry_add(cs->own_group ? -pid : pid);
	g_mutex_unlock(&registry_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

/* ---- a bot's cgroups --------------------------------------------------- */

struct Sandbox {
	char *cg[CG_COUNT];	/* this bot's cgroup directories, or NULL */
	pid_t jail_pid;		/* the jail's first process, bwrap's init, or 0 */
	int jail_fd;		/* pidfd of the jail's first process (its PID
				 * namespace's init), or -1 */
	int status_fd;		/* bwrap's --json-status-fd, read end, or -1 */
	gboolean status_eof;	/* bwrap closed it (it wrote all it will) */
	size_t status_len;	/* bytes of an unfinished line in status[] */
	char status[512];
	gint64 exit_code;	/* the bot's as bwrap reported it, or -1 */
};

static gboolean write_file(const char *dir, const char *name, const char *value)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return FALSE;
	gboolean ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok;
}

/* The number after `key` in file dir/name ("key N" lines), or 0. */
static guint64 read_counter(const char *dir, const char *name, const char *key)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return 0;
	size_t klen = strlen(key);
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, klen) == 0 && l[klen] == ' ')
			return g_ascii_strtoull(l + klen + 1, NULL, 10);
	return 0;
}

/* Make the bot's cgroups with their limits; on any failure, none. */
static void cgroups_make(Sandbox *sb, const BotLimits *l)
{
	static gint serial;

	sandbox_cgroup_status();
	if (!cg_dir[CG_MEMORY] || !cg_dir[CG_PIDS])
		return;
	char name[64];
	g_snprintf(name, sizeof(name), "tetrarena-%d-%d", (int)getpid(), g_atomic_int_add(&serial, 1));
	char value[32];
	for (int c = 0; c < CG_COUNT; c++) {
		if (cg_v2 && c > 0) {
			sb->cg[c] = g_strdup(sb->cg[0]);
			break;
		}
		sb->cg[c] = g_build_filename(cg_dir[c], name, NULL);
		if (mkdir(sb->cg[c], 0700) != 0) {
			g_clear_pointer(&sb->cg[c], g_free);
			goto fail;
		}
	}
	/* (resident memory: even a sanitized bot, which reserves terabytes
	 * of address space and so gets no RLIMIT_DATA, is held to it) */
	if (l->memory) {
		g_snprintf(value, sizeof(value), "%" G_GUINT64_FORMAT, l->memory);
		if (!write_file(sb->cg[CG_MEMORY], cg_v2 ? "memory.max" : "memory.limit_in_bytes", value))
			goto fail;
		/* no swapping around the limit */
		if (cg_v2)
			write_file(sb->cg[CG_MEMORY], "memory.swap.max", "0");
	}
	if (l->processes) {
		g_snprintf(value, sizeof(value), "%" G_GUINT64_FORMAT, l->processes);
		if (!write_file(sb->cg[CG_PIDS], "pids.max", value))
			goto fail;
	}
	return;
fail:
	for (int c = CG_COUNT - 1; c >= 0; c--) {
		if (sb->cg[c] && !(cg_v2 && c > 0))
			rmdir(sb->cg[c]);
		g_clear_pointer(&sb->cg[c], g_free);
	}
}

pid_t sandbox_bot_pid(const Sandbox *sb)
{
	if (!sb || sb->jail_pid <= 0)
		return 0;
	char path[64], text[64];
	g_snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)sb->jail_pid, (int)sb->jail_pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	return (pid_t)g_ascii_strtoll(text, NULL, 10);
}

const char *sandbox_breach(const Sandbox *sb)
{
	if (!sb)
		return NULL;
	if (sb->cg[CG_MEMORY] &&
	    read_counter(sb->cg[CG_MEMORY], cg_v2 ? "memory.events" : "memory.oom_control", "oom_kill") > 0)
		return "memory limit";
	if (sb->cg[CG_PIDS] && read_counter(sb->cg[CG_PIDS], "pids.events", "max") > 0)
		return "process limit";
	return NULL;
}

/* Kill what is left in a cgroup, then remove it (a dying process holds it
 * for a moment). */
static void cgroup_remove(const char *dir)
{
	for (int tries = 0; tries < 200; tries++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return;
		g_autofree char *procs = g_build_filename(dir, "cgroup.procs", NULL);
		g_autofree char *text = NULL;
		if (g_file_get_contents(procs, &text, NULL, NULL)) {
			g_auto(GStrv) pids = g_strsplit(text, "\n", -1);
			for (int i = 0; pids[i]; i++)
				if (pids[i][0])
					kill((pid_t)g_ascii_strtoll(pids[i], NULL, 10), SIGKILL);
		}
		g_usleep(1000);
	}
}

void sandbox_reap(Sandbox *sb, pid_t pid, gboolean own_group)
{
	/* The jail's init first: its PID namespace dies with it, whatever its
	 * processes did to their groups (and however far bwrap had got). */
	if (sb && sb->jail_fd >= 0) {
		syscall(SYS_pidfd_send_signal, sb->jail_fd, SIGKILL, NULL, 0);
		close(sb->jail_fd);
		sb->jail_fd = -1;
	}
	if (sb && sb->status_fd >= 0) {
		close(sb->status_fd);
		sb->status_fd = -1;
	}
	if (pid > 0) {
		if (own_group)
			kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		g_mutex_lock(&registry_lock);
		registry_remove(own_group ? -pid : pid);
		g_mutex_unlock(&registry_lock);
		reap_orphans();
	}
	if (!sb)
		return;
	for (int c = 0; c < CG_COUNT; c++) {
		if (sb->cg[c] && !(cg_v2 && c > 0))
			cgroup_remove(sb->cg[c]);
		g_free(sb->cg[c]);
	}
	g_free(sb);
}

/* ---- starting ---------------------------------------------------------- */

/* The program to run: argv[0] resolved as a shell would (or the referee
 * itself for the human player); NULL with error set. */
static char *resolve_program(const BotSpec *spec, GError **error)
{
	char *prog;

	if (spec->human)
		prog = g_file_read_link("/proc/self/exe", NULL);
	else if (strchr(spec->argv[0], '/'))
		prog = g_path_is_absolute(spec->argv[0]) || !spec->workdir
			? g_canonicalize_filename(spec->argv[0], NULL)
			: g_build_filename(spec->workdir, spec->argv[0], NULL);
	else
		prog = g_find_program_in_path(spec->argv[0]);
	if (!prog || access(prog, X_OK) != 0) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT, "bot %s: cannot run '%s': %s",
			    spec->name, spec->human ? "the referee itself" : spec->argv[0],
			    prog ? g_strerror(errno) : "not found in PATH");
		g_free(prog);
		return NULL;
	}
	return prog;
}

/* The bot's arguments inside the jail: a relative path to an existing
 * file (a script, a weights file) becomes absolute, since the bot starts in
 * its own fresh directory. */
static void add_jailed_args(GPtrArray *a, const BotSpec *spec)
{
	g_autofree char *base = spec->workdir ? g_strdup(spec->workdir) : g_get_current_dir();

	for (int i = 1; spec->argv[i]; i++) {
		const char *arg = spec->argv[i];
		g_autofree char *abs = NULL;
		if (arg[0] && arg[0] != '-' && !g_path_is_absolute(arg)) {
			abs = g_build_filename(base, arg, NULL);
			if (!g_file_test(abs, G_FILE_TEST_EXISTS))
				g_clear_pointer(&abs, g_free);
		}
		g_ptr_array_add(a, abs ? g_canonicalize_filename(abs, NULL) : g_strdup(arg));
	}
}

/* The jail's /tmp is its own: a directory of the host's /tmp that holds
 * the bot's program, a file its command names, or its workdir is bound
 * back in, read-only (a test's or a script's temporary directory). */
static void add_expose(GPtrArray *a, GPtrArray *seen, const char *path)
{
	g_autofree char *abs = g_canonicalize_filename(path, NULL);
	struct stat st;

	if (!g_str_has_prefix(abs, "/tmp/") || stat(abs, &st) != 0)
		return;
	char *dir = S_ISDIR(st.st_mode) ? g_strdup(abs) : g_path_get_dirname(abs);
	/* (never the whole of /tmp, nor over the bot's own directory) */
	if (strcmp(dir, "/tmp") == 0 || g_str_has_prefix(SANDBOX_HOME "/", dir)) {
		g_free(dir);
		return;
	}
	for (guint i = 0; i < seen->len; i++)
		if (strcmp(g_ptr_array_index(seen, i), dir) == 0) {
			g_free(dir);
			return;
		}
	g_ptr_array_add(seen, dir);
	g_ptr_array_add(a, g_strdup("--ro-bind"));
	g_ptr_array_add(a, g_strdup(dir));
	g_ptr_array_add(a, g_strdup(dir));
}

/* Hide a host path from the jail: a directory under an empty tmpfs, a file
 * under /dev/null (after every other mount, so that a directory bound in
 * cannot show it). A path under /tmp that is not bound in is out of sight
 * already. */
static void add_hide(GPtrArray *a, const GPtrArray *exposed, const char *path)
{
	struct stat st;
	g_autofree char *abs = g_canonicalize_filename(path, NULL);

	if (stat(abs, &st) != 0)
		return;
	if (g_str_has_prefix(abs, "/tmp/")) {
		gboolean inside = FALSE;
		for (guint i = 0; i < exposed->len; i++) {
			const char *dir = g_ptr_array_index(exposed, i);
			size_t n = strlen(dir);
			inside |= strncmp(abs, dir, n) == 0 && (abs[n] == '/' || abs[n] == '\0');
		}
		if (!inside)
			return;
	}
	if (S_ISDIR(st.st_mode)) {
		g_ptr_array_add(a, g_strdup("--tmpfs"));
	} else {
		g_ptr_array_add(a, g_strdup("--ro-bind"));
		g_ptr_array_add(a, g_strdup("/dev/null"));
	}
	g_ptr_array_add(a, g_steal_pointer(&abs));
}

/*
 * The number of `key` ("child-pid", "exit-code") in bwrap's JSON lines on
 * its --json-status-fd, reading them until a line holds it, bwrap closes
 * the pipe or `deadline` (monotonic us) passes (a deadline now or past
 * still takes what bwrap has written); -1 if none came. Lines
 * without the key are dropped: each key is asked for once, in the order
 * bwrap writes them.
 */
static gint64 status_field(Sandbox *sb, const char *key, gint64 deadline)
{
	g_autofree char *quoted = g_strdup_printf("\"%s\"", key);

	for (;;) {
		char *nl;
		while ((nl = memchr(sb->status, '\n', sb->status_len))) {
			*nl = '\0';
			const char *k = strstr(sb->status, quoted);
			const char *colon = k ? strchr(k, ':') : NULL;
			gint64 v = colon ? g_ascii_strtoll(colon + 1, NULL, 10) : -1;
			sb->status_len -= (size_t)(nl + 1 - sb->status);
			memmove(sb->status, nl + 1, sb->status_len);
			if (colon)
				return v;
		}
		if (sb->status_len == sizeof(sb->status))
			sb->status_len = 0;	/* no line of bwrap's is this long */
		/* a deadline already past still reads what is there (poll 0) */
		gint64 left = MAX(deadline - g_get_monotonic_time(), 0);
		if (sb->status_fd < 0 || sb->status_eof)
			return -1;
		struct pollfd p = {.fd = sb->status_fd, .events = POLLIN};
		int r = poll(&p, 1, (int)((left + 999) / 1000));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t n = read(sb->status_fd, sb->status + sb->status_len, sizeof(sb->status) - sb->status_len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			sb->status_eof = TRUE;
		else
			sb->status_len += (size_t)n;
	}
}

/* How `pid`, our child, ended, peeked at (WNOWAIT: sandbox_reap() still
 * reaps it) once it has or `deadline` passes. */
static SandboxEnd child_end(pid_t pid, gint64 deadline)
{
	SandboxEnd end = {SANDBOX_END_RUNNING, 0, FALSE};
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	gint64 left;

	while (pfd >= 0 && (left = deadline - g_get_monotonic_time()) > 0) {
		struct pollfd p = {.fd = pfd, .events = POLLIN};
		int r = poll(&p, 1, (int)((left + 999) / 1000));
		if (r != 0 && !(r < 0 && errno == EINTR))
			break;
	}
	if (pfd >= 0)
		close(pfd);
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != pid)
		return end;
	end.kind = si.si_code == CLD_EXITED ? SANDBOX_END_EXITED : SANDBOX_END_SIGNALED;
	end.code = si.si_status;
	return end;
}

SandboxEnd sandbox_end(Sandbox *sb, pid_t pid, gint64 deadline)
{
	SandboxEnd end = {SANDBOX_END_RUNNING, 0, FALSE};

	if (pid <= 0)
		return end;
	if (!sb || sb->status_fd < 0)
		return child_end(pid, deadline);
	if (sb->exit_code < 0)
		sb->exit_code = status_field(sb, "exit-code", deadline);
	gint64 code = sb->exit_code;
	if (code >= 0) {
		/* the shell's encoding: 128+N is signal N */
		gboolean sig = code > 128 && code < 128 + NSIG;
		end.kind = sig ? SANDBOX_END_SIGNALED : SANDBOX_END_EXITED;
		end.code = (int)(sig ? code - 128 : code);
		return end;
	}
	if (!sb->status_eof)
		return end;
	/* bwrap closed the pipe without a word on the bot: its own end */
	end = child_end(pid, deadline);
	end.jail = TRUE;
	return end;
}

/* ---- the cpu limit ----------------------------------------------------- */

/* a + b, or G_MAXUINT64 - 1 (RLIM_INFINITY - 1) if more: a finite limit */
static guint64 add_finite(guint64 a, guint64 b)
{
	guint64 sum = a + b;

	return sum < a || sum == G_MAXUINT64 ? G_MAXUINT64 - 1 : sum;
}

/* RLIMIT_CPU at the start of a process that may play `games` games of
 * `seconds` each (sandbox.h). At a hard CPU limit the kernel sends
 * SIGKILL, which says nothing; at the soft one, SIGXCPU, which names the
 * limit (and a bot may catch to say so). */
static struct rlimit cpu_rlimit(guint64 seconds, int games)
{
	guint64 n = games > 1 ? (guint64)games : 1;
	guint64 hard = add_finite(seconds > G_MAXUINT64 / n ? G_MAXUINT64 : seconds * n, 1);

	return (struct rlimit){.rlim_cur = MIN(seconds, hard - 1), .rlim_max = hard};
}

gboolean sandbox_renew_cpu(pid_t pid, guint64 cpu)
{
	static gint warned;
	clockid_t clock;
	struct timespec used;
	struct rlimit rl;

	if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &used) != 0)
		return TRUE;	/* gone */
	if (prlimit(pid, RLIMIT_CPU, NULL, &rl) == 0) {
		guint64 spent = (guint64)used.tv_sec + (used.tv_nsec > 0);
		/* the hard limit as it is: lowering or keeping needs no
		 * privilege, raising does */
		rl.rlim_cur = MIN(add_finite(spent, cpu), MAX(rl.rlim_max, 1) - 1);
		if (prlimit(pid, RLIMIT_CPU, &rl, NULL) == 0)
			return TRUE;
	}
	if (errno == ESRCH)
		return TRUE;
	int e = errno;
	if (g_atomic_int_compare_and_exchange(&warned, 0, 1))
		g_printerr("referee: warning: cannot renew the cpu limit of a bot kept between games "
			   "(prlimit: %s): it counts over all its games\n", g_strerror(e));
	return FALSE;
}

Sandbox *sandbox_start(const BotSpec *spec, const SandboxLaunch *launch, const int fds[3], pid_t *pid,
		       pid_t *bot_pid, GError **error)
{
	gboolean jail = launch && launch->mode == SANDBOX_ON && !spec->human;
	int cpu = launch ? launch->cpu : -1;
	g_autofree char *prog = resolve_program(spec, error);

	if (!prog)
		return NULL;
	if (spec->workdir && !g_file_test(spec->workdir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_CHDIR,
			    "bot %s: working directory '%s' does not exist", spec->name, spec->workdir);
		return NULL;
	}
	if (jail && sandbox_unavailable()) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "bot %s: %s", spec->name,
			    sandbox_unavailable());
		return NULL;
	}

	/* Environment: PATH, HOME, TMPDIR, LANG=C and nothing else (the
	 * human's terminal needs TERM too). */
	const char *path = g_getenv("PATH");
	const char *home = jail ? SANDBOX_HOME : g_getenv("HOME");
	g_autofree char *env_path = g_strconcat("PATH=", path ? path : "/usr/bin:/bin", NULL);
	g_autofree char *env_home = g_strconcat("HOME=", home ? home : "/", NULL);
	g_autofree char *env_term = g_strconcat("TERM=", g_getenv("TERM") ? g_getenv("TERM") : "dumb", NULL);
	char *envp[] = {env_path, env_home, (char *)"LANG=C", (char *)"TMPDIR=/tmp",
			spec->human ? env_term : NULL, NULL};

	const BotLimits *l = &spec->limits;
	gboolean memlimit = g_strcmp0(g_getenv("TETRARENA_NO_MEMLIMIT"), "1") != 0;

	/* The command: the program itself, or bwrap around it. */
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	const char *exe = prog;
	int info[2] = {-1, -1};
	if (jail) {
		exe = bwrap_path;
		g_ptr_array_add(argv, g_strdup(bwrap_path));
		jail_common(argv);
		char size[32];
		g_snprintf(size, sizeof(size), "%" G_GUINT64_FORMAT, l->disk ? l->disk : G_MAXINT64);
		const char *tmp[] = {"--size", size, "--tmpfs", "/tmp", "--dir", SANDBOX_HOME, "--chdir",
				     spec->workdir ? spec->workdir : SANDBOX_HOME, NULL};
		for (int i = 0; tmp[i]; i++)
			g_ptr_array_add(argv, g_strdup(tmp[i]));
		g_autoptr(GPtrArray) exposed = g_ptr_array_new_with_free_func(g_free);
		g_autofree char *base = spec->workdir ? g_strdup(spec->workdir) : g_get_current_dir();
		add_expose(argv, exposed, prog);
		if (spec->workdir)
			add_expose(argv, exposed, spec->workdir);
		for (int i = 1; spec->argv[i]; i++) {
			g_autofree char *abs = g_path_is_absolute(spec->argv[i])
				? g_strdup(spec->argv[i]) : g_build_filename(base, spec->argv[i], NULL);
			if (spec->argv[i][0] != '-' && g_file_test(abs, G_FILE_TEST_IS_REGULAR))
				add_expose(argv, exposed, abs);
		}
		for (int i = 0; launch->hide && launch->hide[i]; i++)
			add_hide(argv, exposed, launch->hide[i]);
		if (pipe2(info, O_CLOEXEC) < 0) {
			g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "pipe: %s", g_strerror(errno));
			return NULL;
		}
		g_ptr_array_add(argv, g_strdup("--json-status-fd"));
		g_ptr_array_add(argv, g_strdup("3"));
		g_ptr_array_add(argv, g_strdup("--"));
		g_ptr_array_add(argv, g_strdup(prog));
		add_jailed_args(argv, spec);
	} else if (spec->human) {
		g_ptr_array_add(argv, g_strdup(prog));
		g_ptr_array_add(argv, g_strdup("_human"));
	} else {
		for (int i = 0; spec->argv[i]; i++)
			g_ptr_array_add(argv, g_strdup(spec->argv[i]));
	}
	g_ptr_array_add(argv, NULL);

	/* Limits: rlimits per process, cgroups for the whole bot. */
	g_autofree Sandbox *sb = g_new0(Sandbox, 1);
	sb->jail_fd = sb->status_fd = -1;
	sb->exit_code = -1;
	struct rlimit rl[5];
	int res[5], nres = 0;
	const guint64 want[5] = {memlimit ? l->memory : 0, l->cpu, l->processes, l->file_size, l->open_files};
	const int which[5] = {RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_NOFILE};
	for (int i = 0; i < 5 && !spec->human; i++)
		if (want[i]) {
			rl[nres].rlim_cur = rl[nres].rlim_max = (rlim_t)want[i];
			if (which[i] == RLIMIT_CPU)
				rl[nres] = cpu_rlimit(want[i], launch ? launch->games : 1);
			res[nres++] = which[i];
		}
	int cgfd[CG_COUNT] = {-1, -1};
	if (!spec->human)
		cgroups_make(sb, l);
	for (int c = 0; c < CG_COUNT; c++)
		if (sb->cg[c] && !(cg_v2 && c > 0)) {
			g_autofree char *procs = g_build_filename(sb->cg[c], "cgroup.procs", NULL);
			cgfd[c] = open(procs, O_WRONLY | O_CLOEXEC);
		}
	cpu_set_t cpus;
	CPU_ZERO(&cpus);
	if (cpu >= 0)
		CPU_SET(cpu, &cpus);
	ChildSetup cs = {
		.prog = exe, .argv = (char *const *)argv->pdata, .envp = envp,
		.in = fds[0], .out = fds[1], .err = fds[2], .info = info[1],
		.cg = {cgfd[0], cgfd[1]}, .own_group = !spec->human, .lenient = use_fork(),
		.workdir = jail ? NULL : spec->workdir,
		.nres = nres, .res = res, .rl = rl, .cpu = cpu, .cpus = &cpus,
	};
	pid_t child_pid = spawn_child(&cs);
	int spawn_errno = errno;
	for (int c = 0; c < CG_COUNT; c++)
		if (cgfd[c] >= 0)
			close(cgfd[c]);
	if (info[1] >= 0)
		close(info[1]);
	if (child_pid < 0) {
		if (info[0] >= 0)
			close(info[0]);
		sandbox_reap(g_steal_pointer(&sb), 0, FALSE);
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "bot %s: cannot start '%s': %s",
			    spec->name, exe, g_strerror(spawn_errno));
		return NULL;
	}
	/* valgrind keeps descriptors of its own above the bot's limit, so
	 * the child's setrlimit(RLIMIT_NOFILE) fails there: set it now */
	for (int i = 0; cs.lenient && i < nres; i++)
		prlimit(child_pid, res[i], &rl[i], NULL);
	*pid = child_pid;
	*bot_pid = child_pid;
	if (info[0] >= 0) {
		/* bwrap writes the bot's exit code here when it ends */
		sb->status_fd = info[0];
		pid_t inner = (pid_t)status_field(sb, "child-pid", g_get_monotonic_time() + SANDBOX_INFO_WAIT_US);
		/* the bot is the child of the jail's init, found later */
		*bot_pid = 0;
		if (inner > 0) {
			sb->jail_pid = inner;
			sb->jail_fd = (int)syscall(SYS_pidfd_open, inner, 0);
		}
	}
	return g_steal_pointer(&sb);
}

/* ---- the guard ---------------------------------------------------------- */

/*
 * A referee killed outright (kill -9) cannot clean up; PR_SET_PDEATHSIG
 * takes each bwrap with it, and --die-with-parent each jail, but a jail
 * caught half made (bwrap's first process in the new PID namespace,
 * waiting for a word from the bwrap that was just killed) would wait
 * forever. So a guard process, forked at start, holds the read end of a
 * pipe from the referee; when it reads EOF (the referee is gone, however
 * it went) it kills every process left in the referee's bot cgroups and
 * removes them, for a few rounds, then exits.
 */
static int guard_fd = -1;	/* the referee's end of the guard's pipe */

static int cgroups_sweep(pid_t owner);

static void guard_main(int rfd, pid_t referee)
{
	char c;
	ssize_t r;

	prctl(PR_SET_NAME, "referee-guard", 0, 0, 0);
	do
		r = read(rfd, &c, 1);
	while (r > 0 || (r < 0 && errno == EINTR));
	/* (a half-made jail may still be on its way for a moment) */
	for (int round = 0; round < 20; round++) {
		cgroups_sweep(referee);
		g_usleep(10000);
	}
	_exit(0);
}

static void guard_start(void)
{
	int fds[2];

	sandbox_cgroup_status();
	if (!cg_dir[CG_MEMORY] || !cg_dir[CG_PIDS] || guard_fd >= 0 || pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid_t referee = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* its own group: a Ctrl-C to the referee's is the referee's */
		setpgid(0, 0);
		dup2(fds[0], 3);
		syscall(SYS_close_range, 4, ~0U, 0);
		for (int fd = 0; fd < 3; fd++) {
			int null = open("/dev/null", O_RDWR);
			dup2(null, fd);
			if (null > 2)
				close(null);
		}
		guard_main(3, referee);
	}
	close(fds[0]);
	if (pid > 0)
		guard_fd = fds[1];
	else
		close(fds[1]);
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

/* Kill and remove every cgroup of this process's bots that is left (a
 * bot whose jail was still being set up when its bwrap was killed can
 * outlive it, out of every process group and parentless). */
static int cgroups_sweep(pid_t owner)
{
	char prefix[32];
	int n = 0;

	sandbox_cgroup_status();
	g_snprintf(prefix, sizeof(prefix), "tetrarena-%d-", (int)owner);
	for (int c = 0; c < CG_COUNT; c++) {
		GDir *d = cg_dir[c] ? g_dir_open(cg_dir[c], 0, NULL) : NULL;
		const char *name;
		while (d && (name = g_dir_read_name(d)))
			if (g_str_has_prefix(name, prefix)) {
				g_autofree char *dir = g_build_filename(cg_dir[c], name, NULL);
				cgroup_remove(dir);
				n++;
			}
		if (d)
			g_dir_close(d);
	}
	return n;
}

int sandbox_kill_orphans(void)
{
	int killed = 0;

	cgroups_sweep(getpid());
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
