/*
 * bot: bot processes. See bot.h for the contract.
 *
 * Invariants of Bot: buf[start..len) holds bytes read from stdout and not
 * yet handed out as lines; `overlong` once set stays set and every later
 * byte is discarded; err_fd is -1 once stderr reached EOF; the child is
 * reaped exactly once, in bot_free().
 */
#include "bot.h"
#include "keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <pthread.h>
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

struct Bot {
	BotSpec *spec;
	pid_t pid;
	gboolean own_group;	/* the bot leads its own process group */
	int in_fd, out_fd, err_fd;
	int err_file;		/* capped stderr copy, -1 when dropped */
	guint64 err_kept, err_dropped;
	clockid_t cpu_clock;	/* the process's CPU-time clock */
	gboolean has_cpu_clock;
	gboolean eof, overlong, reported_overlong;
	gsize start, len;
	int games;
	gboolean multi, moves;
	char *hello_name;
	char buf[BOT_LINE_MAX + 1];
};

void bot_limits_default(BotLimits *l)
{
	l->memory = G_GUINT64_CONSTANT(2) << 30;
	l->cpu = 600;
	l->processes = 256;
	l->file_size = G_GUINT64_CONSTANT(64) << 20;
	l->open_files = 64;
}

static const char *const interpreters[] = {
	"python", "python3", "python2", "pypy", "pypy3", "perl", "sh", "bash", "dash",
	"node", "nodejs", "ruby", "lua", "php", "Rscript", "julia", "java", NULL,
};

static gboolean is_interpreter(const char *argv0)
{
	g_autofree char *base = g_path_get_basename(argv0);

	for (int i = 0; interpreters[i]; i++) {
		size_t n = strlen(interpreters[i]);
		/* python3.11 counts as python3 */
		if (strncmp(base, interpreters[i], n) == 0 && (base[n] == '\0' || base[n] == '.'))
			return TRUE;
	}
	return FALSE;
}

/* The script an interpreter runs: the first argument naming a file. */
static char *script_path(const BotSpec *spec)
{
	if (!is_interpreter(spec->argv[0]))
		return NULL;
	for (int i = 1; spec->argv[i]; i++) {
		if (spec->argv[i][0] == '-')
			continue;
		g_autofree char *p = g_path_is_absolute(spec->argv[i]) || !spec->workdir
			? g_strdup(spec->argv[i])
			: g_build_filename(spec->workdir, spec->argv[i], NULL);
		if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
			return g_steal_pointer(&p);
	}
	return NULL;
}

BotSpec *bot_spec_new(const char *command, const char *name, GError **error)
{
	g_autoptr(BotSpec) spec = g_new0(BotSpec, 1);
	g_autoptr(GError) err = NULL;

	if (!g_shell_parse_argv(command, NULL, &spec->argv, &err)) {
		g_set_error(error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING, "bot command '%s': %s",
			    command, err->message);
		return NULL;
	}
	spec->command = g_strdup(command);
	bot_limits_default(&spec->limits);
	if (name) {
		spec->name = g_strdup(name);
	} else {
		g_autofree char *script = script_path(spec);
		spec->name = g_path_get_basename(script ? script : spec->argv[0]);
	}
	/* Names are one word in logs and results. */
	g_strdelimit(spec->name, " \t\r\n", '_');
	if (!spec->name[0]) {
		g_free(spec->name);
		spec->name = g_strdup("bot");
	}
	return g_steal_pointer(&spec);
}

BotSpec *bot_spec_copy(const BotSpec *spec)
{
	BotSpec *c = g_new0(BotSpec, 1);

	c->name = g_strdup(spec->name);
	c->argv = g_strdupv(spec->argv);
	c->command = g_strdup(spec->command);
	c->workdir = g_strdup(spec->workdir);
	c->limits = spec->limits;
	c->human = spec->human;
	c->sha256 = g_strdup(spec->sha256);
	return c;
}

void bot_spec_free(BotSpec *spec)
{
	if (!spec)
		return;
	g_free(spec->name);
	g_strfreev(spec->argv);
	g_free(spec->command);
	g_free(spec->workdir);
	g_free(spec->sha256);
	g_free(spec);
}

static gboolean limit_key(GKeyFile *kf, const char *path, const char *group, const char *key,
			  guint64 unit, guint64 *out, GError **error)
{
	if (!g_key_file_has_key(kf, group, key, NULL))
		return TRUE;
	g_autofree char *v = g_key_file_get_string(kf, group, key, NULL);
	guint64 n;
	g_autoptr(GError) err = NULL;
	if (!v || !g_ascii_string_to_unsigned(g_strstrip(v), 10, 0, G_MAXUINT64 / unit, &n, &err)) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
			    "%s: [%s] %s: %s", path, group, key, err ? err->message : "bad value");
		return FALSE;
	}
	*out = n * unit;
	return TRUE;
}

GHashTable *bot_file_load(const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) err = NULL;
	g_autoptr(GHashTable) table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							      (GDestroyNotify)bot_spec_free);

	if (!keyfile_load(kf, path, &err)) {
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE, "bots file %s: %s", path,
			    err->message);
		return NULL;
	}
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	for (int i = 0; groups[i]; i++) {
		const char *g = groups[i];
		if (!g_str_has_prefix(g, "bot ") || !g[4]) {
			g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
				    "bots file %s: group [%s] is not [bot NAME]", path, g);
			return NULL;
		}
		const char *name = g + 4;
		g_autoptr(GError) e1 = NULL;
		g_autofree char *command = g_key_file_get_string(kf, g, "command", &e1);
		if (!command) {
			if (g_error_matches(e1, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND))
				g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND,
					    "bots file %s: [%s] has no command=", path, g);
			else
				g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
					    "bots file %s: [%s] command: %s", path, g, e1->message);
			return NULL;
		}
		g_autoptr(GError) e2 = NULL;
		g_autoptr(BotSpec) spec = bot_spec_new(command, name, &e2);
		if (!spec) {
			g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
				    "bots file %s: [%s] %s", path, g, e2->message);
			return NULL;
		}
		spec->workdir = g_key_file_get_string(kf, g, "workdir", NULL);
		if (spec->workdir && !g_path_is_absolute(spec->workdir)) {
			g_autofree char *dir = g_path_get_dirname(path);
			g_autofree char *abs = g_build_filename(dir, spec->workdir, NULL);
			g_free(spec->workdir);
			spec->workdir = g_canonicalize_filename(abs, NULL);
		}
		BotLimits *l = &spec->limits;
		if (!limit_key(kf, path, g, "memory", 1 << 20, &l->memory, error) ||
		    !limit_key(kf, path, g, "cpu", 1, &l->cpu, error) ||
		    !limit_key(kf, path, g, "processes", 1, &l->processes, error) ||
		    !limit_key(kf, path, g, "file-size", 1 << 20, &l->file_size, error) ||
		    !limit_key(kf, path, g, "open-files", 1, &l->open_files, error))
			return NULL;
		g_auto(GStrv) keys = g_key_file_get_keys(kf, g, NULL, NULL);
		static const char *const known[] = {"command", "workdir", "memory", "cpu", "processes",
						    "file-size", "open-files", NULL};
		for (int k = 0; keys && keys[k]; k++)
			if (!g_strv_contains(known, keys[k])) {
				g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND,
					    "bots file %s: [%s] unknown key %s", path, g, keys[k]);
				return NULL;
			}
		g_hash_table_insert(table, g_strdup(name), g_steal_pointer(&spec));
	}
	return g_steal_pointer(&table);
}

static char *file_sha256(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	char block[65536];
	ssize_t n;
	while ((n = read(fd, block, sizeof(block))) > 0)
		g_checksum_update(sum, (const guchar *)block, n);
	close(fd);
	if (n < 0)
		return NULL;
	return g_strdup(g_checksum_get_string(sum));
}

char *bot_spec_hash(const BotSpec *spec)
{
	g_autofree char *script = script_path(spec);
	g_autofree char *prog = NULL;
	char *h;

	if (script) {
		h = file_sha256(script);
		return h ? h : g_strdup("-");
	}
	if (strchr(spec->argv[0], '/'))
		prog = g_path_is_absolute(spec->argv[0]) || !spec->workdir
			? g_strdup(spec->argv[0])
			: g_build_filename(spec->workdir, spec->argv[0], NULL);
	else
		prog = g_find_program_in_path(spec->argv[0]);
	h = prog ? file_sha256(prog) : NULL;
	return h ? h : g_strdup("-");
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* What the child does between vfork() and exec, all decided beforehand. */
typedef struct {
	const char *prog;
	char *const *argv, *const *envp;
	int in, out, err;	/* become 0, 1, 2 (err -1: inherit) */
	gboolean own_group;
	const char *workdir;
	int nres;
	const int *res;
	const struct rlimit *rl;
	int cpu;
	const cpu_set_t *cpus;
} ChildSetup;

/*
 * Start the child with vfork(): the parent thread blocks every signal
 * meanwhile (the child shares its memory until exec), and the child, which
 * has its own signal table, resets every disposition before unblocking.
 * The child only makes system calls. Returns the pid, or -1 with errno.
 */
/* ---- every live bot, for a dying referee ------------------------------ */

/*
 * The one piece of global state here: what a signal handler needs to kill
 * every bot of this process. A slot holds 0, a bot's PID, or minus its
 * process group; slots change by atomic compare-and-swap, so spawning and
 * reaping threads and a handler may all use it at once. A bot is added
 * while signals are blocked, before its PID can be seen anywhere, and
 * removed just after it is reaped (under registry_lock, so no bot spawned
 * meanwhile can have reused the PID; a handler's kill in that instant is
 * the one window left).
 */
#define BOT_REGISTRY 1024
static gint registry[BOT_REGISTRY];
/* Held from vfork until the new bot is registered, and while an exited
 * bot leaves the registry, so that reap_orphans() never takes a bot's
 * zombie for an orphan's. */
static GMutex registry_lock;
static gint adopting;	/* bot_adopt_orphans() was called */

static void registry_add(gint target)
{
	for (int i = 0; i < BOT_REGISTRY; i++)
		if (g_atomic_int_compare_and_exchange(&registry[i], 0, target))
			return;
	/* Full (over a thousand live bots): that bot relies on PDEATHSIG. */
}

static void registry_remove(gint target)
{
	for (int i = 0; i < BOT_REGISTRY; i++)
		if (g_atomic_int_compare_and_exchange(&registry[i], target, 0))
			return;
}

static gboolean registered(pid_t pid)
{
	for (int i = 0; i < BOT_REGISTRY; i++) {
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

void bot_kill_all(void)
{
	for (int i = 0; i < BOT_REGISTRY; i++) {
		gint target = g_atomic_int_get(&registry[i]);
		if (target != 0)
			kill(target, SIGKILL);
	}
}

static pid_t spawn_child(const ChildSetup *cs)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t parent = getpid();	/* gone by the time PDEATHSIG is set: give up */
	g_mutex_lock(&registry_lock);
	pid_t pid = vfork();
	if (pid == 0) {
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				sigaction(sig, &dfl, NULL);
		if (cs->own_group && setpgid(0, 0) < 0)
			_exit(126);
		/* Whatever ends the referee (even SIGKILL) ends the bot. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
			_exit(126);
		if (dup2(cs->in, 0) < 0 || dup2(cs->out, 1) < 0 || (cs->err >= 0 && dup2(cs->err, 2) < 0))
			_exit(126);
		if (cs->workdir && chdir(cs->workdir) < 0)
			_exit(126);
		for (int i = 0; i < cs->nres; i++)
			if (setrlimit(cs->res[i], &cs->rl[i]) < 0)
				_exit(126);
		if (cs->cpu >= 0)
			sched_setaffinity(0, sizeof(*cs->cpus), cs->cpus);
		syscall(SYS_close_range, 3, ~0U, 0);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve(cs->prog, cs->argv, cs->envp);
		_exit(127);
	}
	int e = errno;
	if (pid > 0)
		registry_add(cs->own_group ? -pid : pid);
	g_mutex_unlock(&registry_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

Bot *bot_spawn(const BotSpec *spec, const char *stderr_path, int cpu, GError **error)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
	g_autofree char *prog = NULL;
	g_autofree char *self = NULL;
	char **argv = spec->argv;
	char *human_argv[] = {NULL, (char *)"_human", NULL};

	/* A write to a bot that exited must be an error, not our death. */
	signal(SIGPIPE, SIG_IGN);

	if (spec->human) {
		self = g_file_read_link("/proc/self/exe", NULL);
		if (!self) {
			g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
				    "cannot find the referee's own program for the human player");
			return NULL;
		}
		human_argv[0] = self;
		argv = human_argv;
		prog = g_strdup(self);
	} else if (strchr(argv[0], '/')) {
		prog = g_path_is_absolute(argv[0]) || !spec->workdir
			? g_strdup(argv[0]) : g_build_filename(spec->workdir, argv[0], NULL);
	} else {
		prog = g_find_program_in_path(argv[0]);
	}
	if (!prog || access(prog, X_OK) != 0) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
			    "bot %s: cannot run '%s': %s", spec->name, argv[0],
			    prog ? g_strerror(errno) : "not found in PATH");
		return NULL;
	}
	if (spec->workdir && !g_file_test(spec->workdir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_CHDIR,
			    "bot %s: working directory '%s' does not exist", spec->name, spec->workdir);
		return NULL;
	}
	int err_file = -1;
	if (stderr_path) {
		err_file = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (err_file < 0) {
			g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
				    "stderr file %s: %s", stderr_path, g_strerror(errno));
			return NULL;
		}
	}
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		int e = errno;
		close_fd(&in[0]), close_fd(&in[1]), close_fd(&out[0]), close_fd(&out[1]);
		close_fd(&err[0]), close_fd(&err[1]), close_fd(&err_file);
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "pipe: %s", g_strerror(e));
		return NULL;
	}

	/* Environment: PATH, HOME, LANG=C and nothing else (the human's
	 * terminal needs TERM too). */
	const char *path = g_getenv("PATH");
	const char *home = g_getenv("HOME");
	g_autofree char *env_path = g_strconcat("PATH=", path ? path : "/usr/bin:/bin", NULL);
	g_autofree char *env_home = g_strconcat("HOME=", home ? home : "/", NULL);
	g_autofree char *env_term = g_strconcat("TERM=", g_getenv("TERM") ? g_getenv("TERM") : "dumb", NULL);
	char *envp[] = {env_path, env_home, (char *)"LANG=C", spec->human ? env_term : NULL, NULL};

	/* Everything the child needs is computed before vfork(): the child
	 * only makes system calls, then execs or _exits. */
	const BotLimits *l = &spec->limits;
	struct rlimit rl[5];
	int res[5], nres = 0;
	gboolean memlimit = g_strcmp0(g_getenv("TETRARENA_NO_MEMLIMIT"), "1") != 0;
	const guint64 want[5] = {memlimit ? l->memory : 0, l->cpu, l->processes, l->file_size, l->open_files};
	const int which[5] = {RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_NOFILE};
	for (int i = 0; i < 5 && !spec->human; i++)
		if (want[i]) {
			rl[nres].rlim_cur = rl[nres].rlim_max = (rlim_t)want[i];
			res[nres++] = which[i];
		}
	cpu_set_t cpus;
	CPU_ZERO(&cpus);
	if (cpu >= 0)
		CPU_SET(cpu, &cpus);
	ChildSetup cs = {
		.prog = prog, .argv = argv, .envp = envp, .in = in[0], .out = out[1],
		.err = spec->human ? -1 : err[1], .own_group = !spec->human, .workdir = spec->workdir,
		.nres = nres, .res = res, .rl = rl, .cpu = cpu, .cpus = &cpus,
	};
	pid_t pid = spawn_child(&cs);
	int spawn_errno = errno;
	close_fd(&in[0]);
	close_fd(&out[1]);
	close_fd(&err[1]);
	if (pid < 0) {
		close_fd(&in[1]), close_fd(&out[0]), close_fd(&err[0]), close_fd(&err_file);
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "bot %s: cannot start '%s': %s",
			    spec->name, prog, g_strerror(spawn_errno));
		return NULL;
	}

	Bot *bot = g_new(Bot, 1);
	bot->spec = bot_spec_copy(spec);
	bot->pid = pid;
	bot->own_group = !spec->human;
	bot->in_fd = in[1];
	bot->out_fd = out[0];
	bot->err_fd = spec->human ? -1 : err[0];
	if (spec->human)
		close_fd(&err[0]);
	bot->err_file = err_file;
	bot->err_kept = bot->err_dropped = 0;
	bot->has_cpu_clock = clock_getcpuclockid(pid, &bot->cpu_clock) == 0;
	bot->eof = bot->overlong = bot->reported_overlong = FALSE;
	bot->start = bot->len = 0;
	bot->games = 0;
	bot->multi = bot->moves = FALSE;
	bot->hello_name = NULL;
	fcntl(bot->in_fd, F_SETFL, fcntl(bot->in_fd, F_GETFL) | O_NONBLOCK);
	fcntl(bot->out_fd, F_SETFL, fcntl(bot->out_fd, F_GETFL) | O_NONBLOCK);
	if (bot->err_fd >= 0)
		fcntl(bot->err_fd, F_SETFL, fcntl(bot->err_fd, F_GETFL) | O_NONBLOCK);
	return bot;
}

static void bot_kill_and_reap(Bot *bot)
{
	if (bot->pid <= 0)
		return;
	if (bot->own_group)
		kill(-bot->pid, SIGKILL);
	kill(bot->pid, SIGKILL);
	while (waitpid(bot->pid, NULL, 0) < 0 && errno == EINTR)
		;
	g_mutex_lock(&registry_lock);
	registry_remove(bot->own_group ? -bot->pid : bot->pid);
	g_mutex_unlock(&registry_lock);
	bot->pid = 0;
	reap_orphans();
}

Bot *bot_new_reader(int out_fd)
{
	Bot *bot = g_new0(Bot, 1);

	bot->in_fd = bot->err_fd = bot->err_file = -1;
	bot->out_fd = out_fd;
	return bot;
}

void bot_free(Bot *bot)
{
	if (!bot)
		return;
	bot_kill_and_reap(bot);
	close_fd(&bot->in_fd);
	close_fd(&bot->out_fd);
	/* Keep what is left in the stderr pipe (the bot's last words). */
	if (bot->err_fd >= 0)
		bot_drain_stderr(bot);
	close_fd(&bot->err_fd);
	if (bot->err_file >= 0 && bot->err_dropped) {
		char note[96];
		int n = g_snprintf(note, sizeof(note), "\n[referee: %" G_GUINT64_FORMAT
				   " more bytes of stderr dropped]\n", bot->err_dropped);
		if (write(bot->err_file, note, n) < 0) {
			/* nothing to do: the note is a courtesy */
		}
	}
	close_fd(&bot->err_file);
	bot_spec_free(bot->spec);
	g_free(bot->hello_name);
	g_free(bot);
}

void bot_wait_exit(Bot *bot, gint64 deadline)
{
	if (!bot || bot->pid <= 0)
		return;
	close_fd(&bot->in_fd);
	int pfd = (int)syscall(SYS_pidfd_open, bot->pid, 0);
	if (pfd < 0)
		return;
	struct pollfd p = {.fd = pfd, .events = POLLIN};
	gint64 left;
	while ((left = deadline - g_get_monotonic_time()) > 0) {
		int r = poll(&p, 1, (int)((left + 999) / 1000));
		if (r > 0 || (r < 0 && errno != EINTR))
			break;
	}
	close(pfd);
}

void bot_quit(Bot *bot, gint64 grace_ms)
{
	if (!bot)
		return;
	gint64 deadline = g_get_monotonic_time() + grace_ms * 1000;
	if (bot_write(bot, "quit\n", 5, deadline) == BOT_WRITE_OK)
		bot_wait_exit(bot, deadline);
	bot_free(bot);
}

const BotSpec *bot_spec(const Bot *bot)
{
	return bot->spec;
}

pid_t bot_pid(const Bot *bot)
{
	return bot->pid;
}

int bot_stdout_fd(const Bot *bot)
{
	return bot->out_fd;
}

int bot_stderr_fd(const Bot *bot)
{
	return bot->err_fd;
}

BotWriteStatus bot_write(Bot *bot, const char *data, gsize len, gint64 deadline)
{
	if (bot->in_fd < 0)
		return BOT_WRITE_CLOSED;
	while (len > 0) {
		ssize_t n = write(bot->in_fd, data, len);
		if (n > 0) {
			data += n;
			len -= (gsize)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			gint64 left = deadline - g_get_monotonic_time();
			if (left <= 0)
				return BOT_WRITE_STUCK;
			struct pollfd p = {.fd = bot->in_fd, .events = POLLOUT};
			poll(&p, 1, (int)((left + 999) / 1000));
			continue;
		}
		close_fd(&bot->in_fd);
		return BOT_WRITE_CLOSED;
	}
	return BOT_WRITE_OK;
}

BotReadStatus bot_read(Bot *bot)
{
	if (bot->eof || bot->out_fd < 0)
		return BOT_READ_EOF;
	if (bot->overlong) {
		char sink[65536];
		ssize_t n = read(bot->out_fd, sink, sizeof(sink));
		if (n == 0) {
			bot->eof = TRUE;
			return BOT_READ_EOF;
		}
		return n > 0 ? BOT_READ_OK : BOT_READ_NONE;
	}
	if (bot->start > 0 && bot->len == BOT_LINE_MAX) {
		memmove(bot->buf, bot->buf + bot->start, bot->len - bot->start);
		bot->len -= bot->start;
		bot->start = 0;
	}
	if (bot->len == BOT_LINE_MAX)
		return BOT_READ_OK;	/* full: bot_next_line() reports it */
	ssize_t n = read(bot->out_fd, bot->buf + bot->len, BOT_LINE_MAX - bot->len);
	if (n > 0) {
		bot->len += (gsize)n;
		return BOT_READ_OK;
	}
	if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		bot->eof = TRUE;
		return BOT_READ_EOF;
	}
	return BOT_READ_NONE;
}

void bot_drain_stderr(Bot *bot)
{
	char block[65536];

	while (bot->err_fd >= 0) {
		ssize_t n = read(bot->err_fd, block, sizeof(block));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close_fd(&bot->err_fd);
			return;
		}
		guint64 room = bot->err_kept < BOT_STDERR_CAP ? BOT_STDERR_CAP - bot->err_kept : 0;
		guint64 keep = MIN(room, (guint64)n);
		if (keep && bot->err_file >= 0 && write(bot->err_file, block, keep) < 0)
			keep = 0;
		bot->err_kept += keep;
		bot->err_dropped += (guint64)n - keep;
		if ((gsize)n < sizeof(block))
			return;	/* drained for now; do not starve the others */
	}
}

BotLineStatus bot_next_line(Bot *bot, const char **line)
{
	if (bot->overlong) {
		if (!bot->reported_overlong) {
			bot->reported_overlong = TRUE;
			return BOT_LINE_TOO_LONG;
		}
		return BOT_LINE_NONE;
	}
	char *s = bot->buf + bot->start;
	gsize avail = bot->len - bot->start;
	char *nl = memchr(s, '\n', avail);
	if (!nl) {
		if (bot->start == 0 && bot->len == BOT_LINE_MAX) {
			bot->overlong = TRUE;
			bot->reported_overlong = TRUE;
			bot->start = bot->len = 0;
			return BOT_LINE_TOO_LONG;
		}
		if (bot->start == bot->len)
			bot->start = bot->len = 0;
		return BOT_LINE_NONE;
	}
	*nl = '\0';
	if (nl > s && nl[-1] == '\r')
		nl[-1] = '\0';
	bot->start += (gsize)(nl - s) + 1;
	*line = s;
	return BOT_LINE_OK;
}

gboolean bot_eof(const Bot *bot)
{
	return bot->eof;
}

double bot_cpu_ms(Bot *bot)
{
	struct timespec ts;

	if (!bot->has_cpu_clock || clock_gettime(bot->cpu_clock, &ts) != 0)
		return -1;
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

guint64 bot_stderr_dropped(const Bot *bot)
{
	return bot->err_dropped;
}

int bot_games(const Bot *bot)
{
	return bot->games;
}

void bot_set_games(Bot *bot, int n)
{
	bot->games = n;
}

gboolean bot_multi(const Bot *bot)
{
	return bot->multi;
}

void bot_set_multi(Bot *bot, gboolean multi, gboolean moves)
{
	bot->multi = multi;
	bot->moves = moves;
}

gboolean bot_wants_moves(const Bot *bot)
{
	return bot->moves;
}

const char *bot_hello_name(const Bot *bot)
{
	return bot->hello_name;
}

void bot_set_hello_name(Bot *bot, const char *name)
{
	g_free(bot->hello_name);
	bot->hello_name = g_strdup(name);
}

void bot_set_sha256(Bot *bot, const char *sha256)
{
	g_free(bot->spec->sha256);
	bot->spec->sha256 = g_strdup(sha256);
}

/* ---- orphans ----------------------------------------------------------- */

void bot_adopt_orphans(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
		g_atomic_int_set(&adopting, 1);
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

int bot_kill_orphans(void)
{
	int killed = 0;

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
