/*
 * sandbox: starting and confining bot processes. See sandbox.h; the
 * pieces are listed in sandbox-int.h.
 */
#include "sandbox-int.h"
#include "sandbox-filter.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

G_DEFINE_QUARK(tetrarena-sandbox-error-quark, sandbox_error)


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

const char *sandbox_unavailable(void)
{
	const char *why = NULL;

	sandbox_jail_bwrap(&why);
	return why;
}

const char *sandbox_cgroup_status(void)
{
	return sandbox_cg_status();
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
		if (!sandbox_cg_limits() && g_atomic_int_compare_and_exchange(&told, 0, 1))
			g_printerr("referee: note: %s\n", sandbox_cg_status());
		*out = SANDBOX_ON;
		return TRUE;
	}
	if (want == SANDBOX_ON) {
		g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_UNAVAILABLE, "--sandbox on: %s", why);
		return FALSE;
	}
	if (g_atomic_int_compare_and_exchange(&warned, 0, 1))
		g_printerr("referee: warning: bots run without a sandbox (%s): they can see and signal "
			   "each other and the referee, read its logs and write anywhere this user may; "
			   "--sandbox on refuses to play like this\n", why);
	*out = SANDBOX_OFF;
	return TRUE;
}

/* ---- one bot -------------------------------------------------------------- */

static void status_read(Sandbox *sb, gboolean exit, gint64 deadline);

struct Sandbox {
	SandboxCgroups cg;	/* its cgroups, where this machine has them */
	pid_t jail_pid;		/* the jail's first process, bwrap's init, or 0 */
	int jail_fd;		/* pidfd of the jail's first process (its PID
				 * namespace's init), or -1 */
	int status_fd;		/* bwrap's --json-status-fd, read end, or -1 */
	gboolean status_eof;	/* bwrap closed it (it wrote all it will) */
	size_t status_len;	/* bytes of an unfinished line in status[] */
	char status[512];
	gint64 exit_code;	/* the bot's as bwrap reported it, or -1 */
	guint64 futex;		/* its listener's token (sandbox-futex.c), or 0 */
};

pid_t sandbox_bot_pid(Sandbox *sb)
{
	if (sb && sb->jail_pid <= 0 && sb->status_fd >= 0)
		status_read(sb, FALSE, 0);
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
	pid_t pid = (pid_t)g_ascii_strtoll(text, NULL, 10);
	/* run as root, the jail's init starts setpriv, which becomes the bot */
	return pid;
}

const char *sandbox_breach(const Sandbox *sb)
{
	return sb ? sandbox_cg_breach(&sb->cg) : NULL;
}

gboolean sandbox_freeze(Sandbox *sb, gboolean frozen)
{
	return sb && sandbox_cg_freeze(&sb->cg, frozen);
}

void sandbox_reap(Sandbox *sb, pid_t pid, gboolean own_group)
{
	/* thawed first: a frozen process does not die */
	if (sb)
		sandbox_cg_freeze(&sb->cg, FALSE);
	/* The jail's init next: its PID namespace dies with it, whatever its
	 * processes did to their groups (and however far bwrap had got). Not
	 * named yet: bwrap is killed below, and the init with it
	 * (--die-with-parent), as is all in the bot's cgroups. */
	if (sb && sb->jail_pid <= 0 && sb->status_fd >= 0)
		status_read(sb, FALSE, 0);
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
		sandbox_forget(pid, own_group);
	}
	if (!sb)
		return;
	sandbox_cg_remove(&sb->cg);
	sandbox_futex_forget(sb->futex);
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
		g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_NOENT, "bot %s: cannot run '%s': %s",
			    spec->name, spec->human ? "the referee itself" : spec->argv[0],
			    prog ? g_strerror(errno) : "not found in PATH");
		g_free(prog);
		return NULL;
	}
	return prog;
}

/* The jail's init, once bwrap named it: a pidfd opened at once (bwrap,
 * our child, waits for it, so the PID is still the init's), or -1. */
static void jail_known(Sandbox *sb, gint64 pid)
{
	if (pid <= 0 || sb->jail_pid > 0)
		return;
	sb->jail_pid = (pid_t)pid;
	sb->jail_fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}

/*
 * Read bwrap's JSON lines on its --json-status-fd ("child-pid": the jail's
 * init; "exit-code": the bot's end) into sb, until the one asked for is
 * known (exit: exit-code, else child-pid), bwrap closes the pipe or
 * `deadline` (monotonic us) passes; a deadline now or past still takes
 * what bwrap has written. Nothing waits for bwrap at the start: the jail
 * is set up while the referee starts other bots.
 */
static void status_read(Sandbox *sb, gboolean exit, gint64 deadline)
{
	for (;;) {
		char *nl;
		while ((nl = memchr(sb->status, '\n', sb->status_len))) {
			*nl = '\0';
			const char *k;
			if ((k = strstr(sb->status, "\"child-pid\"")) && strchr(k, ':'))
				jail_known(sb, g_ascii_strtoll(strchr(k, ':') + 1, NULL, 10));
			if ((k = strstr(sb->status, "\"exit-code\"")) && strchr(k, ':'))
				sb->exit_code = g_ascii_strtoll(strchr(k, ':') + 1, NULL, 10);
			sb->status_len -= (size_t)(nl + 1 - sb->status);
			memmove(sb->status, nl + 1, sb->status_len);
		}
		if (exit ? sb->exit_code >= 0 : sb->jail_pid > 0)
			return;
		if (sb->status_len == sizeof(sb->status))
			sb->status_len = 0;	/* no line of bwrap's is this long */
		/* a deadline already past still reads what is there (poll 0) */
		gint64 left = MAX(deadline - g_get_monotonic_time(), 0);
		if (sb->status_fd < 0 || sb->status_eof)
			return;
		struct pollfd p = {.fd = sb->status_fd, .events = POLLIN};
		int r = poll(&p, 1, (int)((left + 999) / 1000));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
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
		status_read(sb, TRUE, deadline);
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

/* How many tasks (threads) the processes of this user run now: RLIMIT_NPROC
 * counts every task of the bot's real uid, which for a referee that is
 * not root is the user's own (a browser alone runs hundreds), so a bot's
 * `processes` limit is set above that. Each /proc/PID/task links to its
 * parent and itself besides its tasks. */
static guint64 user_tasks(void)
{
	GDir *d = g_dir_open("/proc", 0, NULL);
	const char *name;
	guint64 n = 0;
	uid_t me = getuid();

	while (d && (name = g_dir_read_name(d))) {
		char path[64];
		struct stat st;
		if (name[0] < '1' || name[0] > '9')
			continue;
		g_snprintf(path, sizeof(path), "/proc/%s/task", name);
		if (stat(path, &st) == 0 && st.st_uid == me && st.st_nlink > 2)
			n += (guint64)st.st_nlink - 2;
	}
	if (d)
		g_dir_close(d);
	return n;
}

/* The soft cpu limit of `pid` raised to `spent` + `cpu` seconds, at most
 * its hard limit - 1 (lowering or keeping the hard one needs no
 * privilege, raising does); 0 or an errno. */
static int renew(pid_t pid, guint64 spent, guint64 cpu)
{
	struct rlimit rl;

	if (prlimit(pid, RLIMIT_CPU, NULL, &rl) != 0)
		return errno;
	rl.rlim_cur = MIN(add_finite(spent, cpu), MAX(rl.rlim_max, 1) - 1);
	return prlimit(pid, RLIMIT_CPU, &rl, NULL) == 0 ? 0 : errno;
}

/* renew() with this thread's real uid and gid those of the bot: a jailed
 * bot runs as a uid of its own, and root without CAP_SYS_RESOURCE (in a
 * container) may change only the limits of processes whose ids are its
 * real ones. Raw system calls change this thread's credentials alone
 * (glibc's wrappers would change every thread's); the effective and saved
 * ids stay 0, so nothing of root's is dropped, and they are put back. */
static int renew_as_owner(pid_t pid, guint64 spent, guint64 cpu)
{
	char path[32];
	struct stat st;

	g_snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (stat(path, &st) != 0)
		return errno;
	if (syscall(SYS_setresgid, st.st_gid, (gid_t)-1, (gid_t)-1) != 0)
		return errno;
	if (syscall(SYS_setresuid, st.st_uid, (uid_t)-1, (uid_t)-1) != 0) {
		int e = errno;
		syscall(SYS_setresgid, 0, (gid_t)-1, (gid_t)-1);
		return e;
	}
	int e = renew(pid, spent, cpu);
	if (syscall(SYS_setresuid, 0, (uid_t)-1, (uid_t)-1) != 0 ||
	    syscall(SYS_setresgid, 0, (gid_t)-1, (gid_t)-1) != 0)
		g_error("sandbox: cannot take back the real uid 0 after renewing a cpu limit");
	return e;
}

gboolean sandbox_renew_cpu(pid_t pid, guint64 cpu, guint64 *spent_at)
{
	static gint warned;
	clockid_t clock;
	struct timespec used;

	if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &used) != 0)
		return TRUE;	/* gone */
	guint64 spent = (guint64)used.tv_sec + (used.tv_nsec > 0);
	if (spent == *spent_at)
		return TRUE;	/* the soft limit is spent + cpu already */
	int e = renew(pid, spent, cpu);
	if (e == EPERM && geteuid() == 0)
		e = renew_as_owner(pid, spent, cpu);
	if (e == 0)
		*spent_at = spent;
	if (e == 0 || e == ESRCH || e == ENOENT)
		return TRUE;
	if (g_atomic_int_compare_and_exchange(&warned, 0, 1))
		g_printerr("referee: warning: cannot renew the cpu limit of a bot kept between games "
			   "(prlimit: %s): it counts over all its games\n", g_strerror(e));
	return FALSE;
}

/* Environment: PATH, HOME, TMPDIR, LANG=C and nothing else (the human's
 * terminal needs TERM too). */
typedef struct {
	char *path, *home, *term;
	char *envp[6];
} Env;

static void env_make(Env *e, const BotSpec *spec, gboolean jail)
{
	const char *path = g_getenv("PATH");
	const char *home = jail ? SANDBOX_HOME : g_getenv("HOME");

	e->path = g_strconcat("PATH=", path ? path : "/usr/bin:/bin", NULL);
	e->home = g_strconcat("HOME=", home ? home : "/", NULL);
	e->term = g_strconcat("TERM=", g_getenv("TERM") ? g_getenv("TERM") : "dumb", NULL);
	char *envp[] = {e->path, e->home, (char *)"LANG=C", (char *)"TMPDIR=/tmp", spec->human ? e->term : NULL, NULL};
	memcpy(e->envp, envp, sizeof(envp));
}

static void env_clear(Env *e)
{
	g_free(e->path), g_free(e->home), g_free(e->term);
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
		g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_CHDIR,
			    "bot %s: working directory '%s' does not exist", spec->name, spec->workdir);
		return NULL;
	}
	const char *bwrap = NULL, *why = NULL;
	if (jail && !(bwrap = sandbox_jail_bwrap(&why))) {
		g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_UNAVAILABLE, "bot %s: %s", spec->name, why);
		return NULL;
	}
	const BotLimits *l = &spec->limits;
	SandboxJail sj;
	if (jail && !sandbox_jail_make(&sj, spec, prog, launch->hide, cpu, error))
		return NULL;

	/* The command: the program itself, or bwrap around it. */
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	const char *exe = jail ? bwrap : prog;
	int info[2] = {-1, -1};
	if (jail) {
		g_ptr_array_add(argv, g_strdup(bwrap));
		g_ptr_array_add(argv, g_strdup("--args"));
		g_ptr_array_add(argv, g_strdup_printf("%d", JAIL_FD_ARGS));
		for (guint i = 0; i < sj.command->len; i++)
			g_ptr_array_add(argv, g_strdup(g_ptr_array_index(sj.command, i)));
		if (pipe2(info, O_CLOEXEC) < 0) {
			g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "pipe: %s", g_strerror(errno));
			sandbox_jail_clear(&sj);
			return NULL;
		}
	} else if (spec->human) {
		g_ptr_array_add(argv, g_strdup(prog));
		g_ptr_array_add(argv, g_strdup("_human"));
	} else {
		for (int i = 0; spec->argv[i]; i++)
			g_ptr_array_add(argv, g_strdup(spec->argv[i]));
	}
	g_ptr_array_add(argv, NULL);

	/* Limits: rlimits per process, cgroups for the whole bot. */
	gboolean memlimit = g_strcmp0(g_getenv("TETRARENA_NO_MEMLIMIT"), "1") != 0;
	g_autofree Sandbox *sb = g_new0(Sandbox, 1);
	sb->jail_fd = sb->status_fd = -1;
	sb->exit_code = -1;
	sb->cg.freeze_fd = -1;
	struct rlimit rl[5];
	int res[5], nres = 0;
	const guint64 want[5] = {memlimit ? l->memory : 0, l->cpu, l->processes, l->file_size, l->open_files};
	const int which[5] = {RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_NOFILE};
	for (int i = 0; i < 5 && !spec->human; i++)
		if (want[i]) {
			rl[nres].rlim_cur = rl[nres].rlim_max = (rlim_t)want[i];
			if (which[i] == RLIMIT_CPU)
				rl[nres] = cpu_rlimit(want[i], launch ? launch->games : 1);
			if (which[i] == RLIMIT_NPROC && geteuid() != 0)	/* the user's own count */
				rl[nres].rlim_cur = rl[nres].rlim_max = add_finite(want[i], user_tasks());
			res[nres++] = which[i];
		}
	if (!spec->human)
		sandbox_cg_make(&sb->cg, l, cpu);
	int cgfd[CG_COUNT];
	sandbox_cg_open_procs(&sb->cg, cgfd);
	cpu_set_t cpus;
	CPU_ZERO(&cpus);
	if (cpu >= 0)
		CPU_SET(cpu, &cpus);
	Env env;
	env_make(&env, spec, jail);
	ChildSetup cs = {
		.prog = exe, .argv = (char *const *)argv->pdata, .envp = env.envp,
		.nfds = 3, .fds = {fds[0], fds[1], fds[2]},
		.new_session = !spec->human, .lenient = sandbox_use_fork(),
		.workdir = jail ? NULL : spec->workdir,
		.nres = nres, .res = res, .rl = rl, .cpu = cpu, .cpus = &cpus,
		.poll_sock = -1,
	};
	/* the supervisor of its shared futex waits: the child sends it the
	 * listener of the filter it installs (sandbox-futex.c) */
	int notify[2] = {-1, -1};
	if (jail && sandbox_futex_supervised()) {
		cs.poll_prog = jailfilter_poll_program(&cs.poll_len, NULL);
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, notify) == 0)
			cs.poll_sock = notify[1];
		else
			cs.poll_sock = -2;	/* no socket: the child refuses to start */
	}
	memcpy(cs.cg, cgfd, sizeof(cgfd));
	if (fds[2] < 0)
		cs.fds[2] = 2;	/* inherited */
	if (jail) {
		cs.nfds = JAIL_FD_COUNT;
		cs.fds[JAIL_FD_STATUS] = info[1];
		for (int i = JAIL_FD_ARGS; i < JAIL_FD_COUNT; i++)
			cs.fds[i] = sj.fd[i];
	}
	pid_t child_pid = sandbox_spawn(&cs);
	int spawn_errno = errno;
	if (notify[1] >= 0)
		close(notify[1]);
	if (notify[0] >= 0) {
		/* (none when the child failed before its exec: it exits 126) */
		int listener = sandbox_futex_receive(notify[0]);
		close(notify[0]);
		if (listener >= 0)
			sb->futex = sandbox_futex_watch(listener);
	}
	env_clear(&env);
	for (int c = 0; c < CG_COUNT; c++)
		if (cgfd[c] >= 0)
			close(cgfd[c]);
	if (info[1] >= 0)
		close(info[1]);
	if (jail)
		sandbox_jail_clear(&sj);
	if (child_pid < 0) {
		if (info[0] >= 0)
			close(info[0]);
		sandbox_reap(g_steal_pointer(&sb), 0, FALSE);
		g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "bot %s: cannot start '%s': %s",
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
		/* bwrap names the jail's init here, and the bot's exit code
		 * when it ends; the bot is the init's child, found later */
		sb->status_fd = info[0];
		*bot_pid = 0;
	}
	return g_steal_pointer(&sb);
}
