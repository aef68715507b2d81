/*
 * sandbox-jail: the bubblewrap command line that jails one bot. See
 * sandbox-int.h; what the jail promises is in sandbox.h.
 *
 * The bot's root is a fresh tmpfs holding only what it needs, in the
 * manner of IOI's isolate and Halite's workers:
 *   - the system, read-only: /usr (and /bin, /lib* as the host has them,
 *     links or directories), a few files of /etc that programs read at
 *     start (none with secrets), and a passwd and group naming it alone;
 *   - its own program, the files and directories its command names, its
 *     `workdir=`, and the interpreter its program asks for wherever it is
 *     installed: a file under a tool tree in a home directory or /opt
 *     (/root/.pyenv, /home/u/.nvm, /opt/java) brings that whole tree, so
 *     that pyenv's and nvm's shims still work; anything else comes alone;
 *   - a fresh /proc (its /proc/sys read-only), a minimal /dev, and a
 *     private /tmp (its working directory /tmp/bot) and /dev/shm, each a
 *     tmpfs capped at the disk limit (and all of it charged to the bot's
 *     memory cgroup).
 * A confined bot (BotSpec.confined: a ladder's submitted one) gets what
 * its command names, and a program named by a path or a "#!" line, only
 * when it lies in its workdir (after links) or is the system's. Nothing
 * at or under a hidden path (SandboxLaunch.hide: the log, stderr files,
 * a tournament's output, a ladder's directory) is bound, as named or
 * through links, but the bot's own workdir in it (DIR/bots/NAME-N); a
 * hidden path inside something bound is covered where it shows.
 * Nothing of /root, /home, /run, /var, /sys, other bots' files, the
 * referee's logs and outputs is there, and bwrap's own arguments come
 * from a memory file (--args), so the jail's /proc/1/cmdline names no host
 * path.
 *
 * Never the host's root: a referee running as root starts bwrap as root
 * (so that it can reach and bind what the bot needs), every capability
 * dropped but the two that setpriv(1) uses, at the end of the setup, to
 * become a uid of the bot's own, unused on the host; bwrap has set
 * no_new_privs, so no set-user-ID program gives any back. A referee that
 * is not root runs bwrap in a user namespace, as itself.
 *
 * A seccomp filter closes what a namespace does not: its table and why
 * are in sandbox-filter.c; here it is only handed to bwrap, compiled once
 * per process. The machine's memory, CPU and load counters in /proc
 * (Shmem was a channel) are replaced by the jail's own (proc_files()).
 */
#include "sandbox-int.h"
#include "sandbox-filter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define JAIL_UID_BASE 0x70000000u	/* above systemd's container range */
#define JAIL_INSIDE_UID 1000		/* the bot's uid in a user namespace */
#define SETPRIV "/usr/bin/setpriv"

/* ---- does bwrap work here ----------------------------------------------- */

static char *bwrap_path;
static const char *bwrap_why;

/* The namespaces and privileges every jail gets. */
static void add_common(GPtrArray *a)
{
	static const char *const common[] = {
		"--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL", NULL,
	};
	for (int i = 0; common[i]; i++)
		g_ptr_array_add(a, g_strdup(common[i]));
	if (geteuid() == 0) {
		/* for setpriv, which drops them with root */
		static const char *const root[] = {"--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", NULL};
		for (int i = 0; root[i]; i++)
			g_ptr_array_add(a, g_strdup(root[i]));
	} else {
		g_ptr_array_add(a, g_strdup("--unshare-user"));
	}
}

static gpointer probe(gpointer unused)
{
	(void)unused;
	bwrap_path = g_find_program_in_path("bwrap");
	if (!bwrap_path) {
		bwrap_why = "bwrap is not installed (Debian package bubblewrap)";
		return NULL;
	}
	if (geteuid() == 0 && access(SETPRIV, X_OK) != 0) {
		bwrap_why = "no " SETPRIV " to run bots as a user of their own (Debian package util-linux)";
		return NULL;
	}
	g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(a, g_strdup(bwrap_path));
	add_common(a);
	const char *rest[] = {"--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "true", NULL};
	for (int i = 0; rest[i]; i++)
		g_ptr_array_add(a, g_strdup(rest[i]));
	g_ptr_array_add(a, NULL);
	int status = -1;
	g_autofree char *err = NULL;
	if (!g_spawn_sync(NULL, (char **)a->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
			  NULL, NULL, NULL, &err, &status, NULL) ||
	    !g_spawn_check_wait_status(status, NULL)) {
		/* e.g. "bwrap: No permissions to creating new namespace" */
		static char why[256];
		g_strchomp(err ? err : (err = g_strdup("")));
		g_snprintf(why, sizeof(why), "bwrap cannot make a jail here%s%s", err[0] ? ": " : "", err);
		bwrap_why = why;
	}
	return NULL;
}

const char *sandbox_jail_bwrap(const char **why)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, probe, NULL);
	if (why)
		*why = bwrap_why;
	return bwrap_why ? NULL : bwrap_path;
}

/* ---- what the bot sees --------------------------------------------------- */

/* The arguments under construction, and the directories made so far. */
typedef struct {
	GPtrArray *a;
	GHashTable *made;	/* directories in the jail, and bound trees */
	GPtrArray *hidden;	/* what the bot must not see: each path as
				 * given (canonical) and as it resolves */
	const char *inside;	/* confined: its workdir, or NULL */
	gboolean confined;	/* BotSpec.confined */
} Args;

static void add(Args *j, const char *arg)
{
	g_ptr_array_add(j->a, g_strdup(arg));
}

static void add3(Args *j, const char *a, const char *b, const char *c)
{
	add(j, a), add(j, b);
	if (c)
		add(j, c);
}

/* Shown by the system part already. */
static gboolean is_system(const char *path)
{
	static const char *const sys[] = {"/usr/", "/bin/", "/sbin/", "/lib/", "/lib32/", "/lib64/", "/libx32/",
					  "/etc/", "/proc/", "/dev/", NULL};
	for (int i = 0; sys[i]; i++)
		if (g_str_has_prefix(path, sys[i]))
			return TRUE;
	return FALSE;
}

/* Whether `path` is at or under a path already bound. */
static gboolean bound(const Args *j, const char *path)
{
	g_autofree char *p = g_strdup(path);

	for (;;) {
		if (g_hash_table_contains(j->made, p))
			return GPOINTER_TO_INT(g_hash_table_lookup(j->made, p)) == 2;
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			return FALSE;
		*slash = '\0';
	}
}

/* The directories above `path` (not itself), made 0755 where they are
 * not yet: bwrap would copy the host's modes (/root is 0700). */
static void add_parents(Args *j, const char *path)
{
	g_autofree char *p = g_strdup(path);

	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (!g_hash_table_contains(j->made, p) && !is_system(p) && strcmp(p, "/tmp") != 0) {
			g_hash_table_insert(j->made, g_strdup(p), GINT_TO_POINTER(1));
			add3(j, "--perms", "0755", NULL);
			add3(j, "--dir", p, NULL);
		}
		*s = '/';
	}
}

/* Whether `path` is `dir` or below it (both absolute and canonical). */
static gboolean under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strcmp(dir, "/") == 0 || (strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/'));
}

/* Whether `path` (absolute, canonical) is, or lies in, something hidden,
 * as written or as it resolves. */
static gboolean is_hidden(const Args *j, const char *path)
{
	g_autofree char *real = realpath(path, NULL);

	for (guint i = 0; i < j->hidden->len; i++) {
		const char *h = g_ptr_array_index(j->hidden, i);
		if (under(path, h) || (real && under(real, h)))
			return TRUE;
	}
	return FALSE;
}

/* Bind `path` (absolute, no "..") read-only at the same place: never
 * what is hidden, nor anything in it. */
static void bind_path(Args *j, const char *path)
{
	if (is_system(path) || bound(j, path) || !g_file_test(path, G_FILE_TEST_EXISTS) || is_hidden(j, path))
		return;
	add_parents(j, path);
	g_hash_table_insert(j->made, g_strdup(path), GINT_TO_POINTER(2));
	add3(j, "--ro-bind", path, path);
}

/* The workdir: bound even inside something hidden (the ladder's
 * DIR/bots/NAME-N), which it alone brings into view. */
static void bind_workdir(Args *j, const char *path)
{
	add_parents(j, path);
	g_hash_table_insert(j->made, g_strdup(path), GINT_TO_POINTER(2));
	add3(j, "--ro-bind", path, path);
}

/* The tool tree a path lies in ("/root/.pyenv", "/home/u/.nvm",
 * "/opt/java"), or NULL. */
static char *tool_tree(const char *path)
{
	g_auto(GStrv) part = g_strsplit(path, "/", -1);	/* "", "root", ".pyenv", ... */
	guint n = g_strv_length(part);

	if (n >= 4 && strcmp(part[1], "root") == 0 && part[2][0] == '.')
		return g_strdup_printf("/root/%s", part[2]);
	if (n >= 5 && strcmp(part[1], "home") == 0 && part[3][0] == '.')
		return g_strdup_printf("/home/%s/%s", part[2], part[3]);
	if (n >= 4 && strcmp(part[1], "opt") == 0)
		return g_strdup_printf("/opt/%s", part[2]);
	return NULL;
}

/* A program the bot runs: bound with its tool tree, both as named and as
 * its links resolve, and the interpreter of its "#!" line likewise. A
 * confined bot's program `named` by a path of its choosing (its command's
 * first word with a '/', a "#!" line) only when it is the system's or lies
 * in its workdir; one PATH finds is the referee's choice. */
static void bind_program(Args *j, const char *path, int depth, gboolean named)
{
	g_autofree char *abs = g_canonicalize_filename(path, NULL);
	g_autofree char *real = realpath(abs, NULL);

	if (j->confined && named && !(is_system(abs) && real && is_system(real)) &&
	    !(j->inside && bot_spec_path_within(abs, j->inside)))
		return;

	for (int k = 0; k < 2; k++) {
		const char *p = k ? real : abs;
		if (!p)
			continue;
		g_autofree char *tree = tool_tree(p);
		bind_path(j, tree ? tree : p);
	}
	if (depth >= 3 || !real)
		return;
	char line[256];
	FILE *f = fopen(real, "re");
	size_t n = f ? fread(line, 1, sizeof(line) - 1, f) : 0;
	if (f)
		fclose(f);
	line[n] = '\0';
	if (n < 3 || line[0] != '#' || line[1] != '!')
		return;
	line[strcspn(line, "\n")] = '\0';
	g_auto(GStrv) w = g_strsplit_set(line + 2, " \t", -1);
	int i = 0;
	while (w[i] && !w[i][0])
		i++;
	if (!w[i])
		return;
	bind_program(j, w[i], depth + 1, TRUE);
	/* "#!/usr/bin/env [-S] prog": prog as PATH finds it */
	if (g_str_has_suffix(w[i], "/env"))
		for (i++; w[i]; i++)
			if (w[i][0] && w[i][0] != '-') {
				g_autofree char *prog = g_find_program_in_path(w[i]);
				if (prog)
					bind_program(j, prog, depth + 1, FALSE);
				break;
			}
}

/* Note a host path the bot must not see, as given and as it resolves. */
static void add_hidden(Args *j, const char *path)
{
	g_autofree char *abs = g_canonicalize_filename(path, NULL);
	char *real = realpath(abs, NULL);

	g_ptr_array_add(j->hidden, g_strdup(abs));
	if (real && strcmp(real, abs) != 0)
		g_ptr_array_add(j->hidden, real);
	else
		free(real);
}

static int by_path(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Cover what is hidden wherever it shows in something bound (a bound
 * directory holding it, as named or through links): a directory under an
 * empty tmpfs, a file under /dev/null. The points covered go to `covers`. */
static void cover_hidden(Args *j, GPtrArray *covers)
{
	g_autoptr(GPtrArray) dests = g_ptr_array_new();
	GHashTableIter it;
	gpointer key, value;

	g_hash_table_iter_init(&it, j->made);
	while (g_hash_table_iter_next(&it, &key, &value))
		if (GPOINTER_TO_INT(value) == 2)
			g_ptr_array_add(dests, key);
	g_ptr_array_sort(dests, by_path);
	for (guint h = 0; h < j->hidden->len; h++) {
		const char *hid = g_ptr_array_index(j->hidden, h);
		g_autofree char *hreal = realpath(hid, NULL);
		struct stat st;
		if (!hreal || stat(hreal, &st) != 0)
			continue;
		for (guint d = 0; d < dests->len; d++) {
			const char *dest = g_ptr_array_index(dests, d);
			g_autofree char *dreal = realpath(dest, NULL);
			g_autofree char *at = NULL;
			if (under(hid, dest))
				at = g_strdup(hid);
			else if (dreal && under(hreal, dreal))
				at = g_strconcat(dest, hreal + strlen(strcmp(dreal, "/") ? dreal : ""), NULL);
			if (!at)
				continue;
			gboolean seen = FALSE;
			for (guint c = 0; c < covers->len && !seen; c++)
				seen = strcmp(g_ptr_array_index(covers, c), at) == 0;
			if (seen)
				continue;
			if (S_ISDIR(st.st_mode))
				add3(j, "--tmpfs", at, NULL);
			else
				add3(j, "--ro-bind", "/dev/null", at);
			g_ptr_array_add(covers, g_steal_pointer(&at));
		}
	}
}

/* The system, read-only. */
static void add_system(Args *j)
{
	static const char *const top[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL};
	static const char *const etc[] = {
		"alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone",
		"nsswitch.conf", "host.conf", "hosts", "gai.conf", "mime.types", "os-release",
		"debian_version", "perl", "python3", "ssl/openssl.cnf", "ssl/certs", "java-17-openjdk", NULL,
	};
	add3(j, "--ro-bind", "/usr", "/usr");
	for (int i = 0; top[i]; i++) {
		g_autofree char *target = g_file_read_link(top[i], NULL);
		if (target)
			add3(j, "--symlink", target, top[i]);
		else if (g_file_test(top[i], G_FILE_TEST_IS_DIR))
			add3(j, "--ro-bind", top[i], top[i]);
	}
	add3(j, "--perms", "0755", NULL);
	add3(j, "--dir", "/etc", NULL);
	for (int i = 0; etc[i]; i++) {
		g_autofree char *path = g_build_filename("/etc", etc[i], NULL);
		if (g_file_test(path, G_FILE_TEST_EXISTS)) {
			if (strchr(etc[i], '/')) {
				g_autofree char *dir = g_path_get_dirname(path);
				if (!g_hash_table_contains(j->made, dir)) {
					g_hash_table_insert(j->made, g_strdup(dir), GINT_TO_POINTER(1));
					add3(j, "--perms", "0755", NULL);
					add3(j, "--dir", dir, NULL);
				}
			}
			add3(j, "--ro-bind", path, path);
		}
	}
	char fd[16];
	g_snprintf(fd, sizeof(fd), "%d", JAIL_FD_PASSWD);
	add3(j, "--perms", "0644", NULL);
	add3(j, "--ro-bind-data", fd, "/etc/passwd");
	g_snprintf(fd, sizeof(fd), "%d", JAIL_FD_GROUP);
	add3(j, "--perms", "0644", NULL);
	add3(j, "--ro-bind-data", fd, "/etc/group");
	add3(j, "--proc", "/proc", NULL);
	add3(j, "--ro-bind", "/proc/sys", "/proc/sys");
	/* the machine's counters, which every bot could move and read, are
	 * the jail's own (proc_files()); vmstat and zoneinfo, which count
	 * Shmem too, cannot be read (a device on bwrap's nodev bind:
	 * EACCES). sysinfo(2) still tells it (sandbox-filter.c) */
	static const struct { int fd; const char *path; } own[] = {
		{JAIL_FD_MEMINFO, "/proc/meminfo"}, {JAIL_FD_STAT, "/proc/stat"}, {JAIL_FD_LOADAVG, "/proc/loadavg"},
	};
	for (guint i = 0; i < G_N_ELEMENTS(own); i++) {
		g_snprintf(fd, sizeof(fd), "%d", own[i].fd);
		add3(j, "--perms", "0444", NULL);
		add3(j, "--ro-bind-data", fd, own[i].path);
	}
	add3(j, "--ro-bind", "/dev/null", "/proc/vmstat");
	add3(j, "--ro-bind", "/dev/null", "/proc/zoneinfo");
	add3(j, "--dev", "/dev", NULL);
}

/* ---- putting it together -------------------------------------------------- */

static int memfd_with(const char *name, const void *data, gsize len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		p += w, len -= (gsize)w;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* The boot time of /proc/stat (a constant of the machine, which ps and
 * friends add process start times to), or 0. */
static gpointer read_btime(gpointer unused)
{
	(void)unused;
	g_autofree char *stat = NULL;
	guint64 t = 0;
	if (g_file_get_contents("/proc/stat", &stat, NULL, NULL)) {
		const char *b = strstr(stat, "\nbtime ");
		if (b)
			t = g_ascii_strtoull(b + 7, NULL, 10);
	}
	return GSIZE_TO_POINTER((gsize)t);
}

/*
 * The jail's /proc/meminfo, /proc/stat and /proc/loadavg, in the kernel's
 * formats: fixed numbers that say what the bot has (its memory limit,
 * all of it free; its CPUs, idle; nothing shared, nothing running but
 * itself), so that no counter of the machine's, which other bots move,
 * reaches it (the Shmem line was a channel). The CPU lines name the CPUs
 * the bot may run on, so that counting them (glibc's get_nprocs without
 * /sys) agrees with sched_getaffinity().
 */
static void proc_files(SandboxJail *jail, guint64 memory, int cpu)
{
	static GOnce once = G_ONCE_INIT;
	guint64 kb = (memory ? memory : (guint64)2 << 30) / 1024;
	g_autoptr(GString) m = g_string_new(NULL);
	static const char *const zero[] = {
		"Buffers", "Cached", "SwapCached", "Active", "Inactive", "Active(anon)", "Inactive(anon)",
		"Active(file)", "Inactive(file)", "Unevictable", "Mlocked", "SwapTotal", "SwapFree", "Dirty",
		"Writeback", "AnonPages", "Mapped", "Shmem", "KReclaimable", "Slab", "SReclaimable", "SUnreclaim",
		"KernelStack", "PageTables", "CommitLimit", "Committed_AS", "VmallocTotal", "VmallocUsed",
		"AnonHugePages", "ShmemHugePages", "ShmemPmdMapped", NULL,
	};
	g_string_append_printf(m, "%-16s%8" G_GUINT64_FORMAT " kB\n", "MemTotal:", kb);
	g_string_append_printf(m, "%-16s%8" G_GUINT64_FORMAT " kB\n", "MemFree:", kb);
	g_string_append_printf(m, "%-16s%8" G_GUINT64_FORMAT " kB\n", "MemAvailable:", kb);
	for (int i = 0; zero[i]; i++) {
		g_autofree char *key = g_strconcat(zero[i], ":", NULL);
		g_string_append_printf(m, "%-16s%8d kB\n", key, 0);
	}
	g_string_append(m, "HugePages_Total:       0\nHugePages_Free:        0\nHugePages_Rsvd:        0\n"
			   "HugePages_Surp:        0\nHugepagesize:       2048 kB\n");

	cpu_set_t set;
	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	else if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) == 0)
		CPU_SET(0, &set);
	static const char idle[] = " 0 0 0 0 0 0 0 0 0 0\n";
	g_autoptr(GString) s = g_string_new(NULL);
	g_string_append_printf(s, "cpu %s", idle);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			g_string_append_printf(s, "cpu%d%s", c, idle);
	g_string_append_printf(s, "intr 0\nctxt 0\nbtime %" G_GSIZE_FORMAT "\nprocesses 1\nprocs_running 1\n"
			       "procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
			       GPOINTER_TO_SIZE(g_once(&once, read_btime, NULL)));
	static const char load[] = "0.00 0.00 0.00 1/1 1\n";

	jail->fd[JAIL_FD_MEMINFO] = memfd_with("tetrarena-meminfo", m->str, m->len);
	jail->fd[JAIL_FD_STAT] = memfd_with("tetrarena-stat", s->str, s->len);
	jail->fd[JAIL_FD_LOADAVG] = memfd_with("tetrarena-loadavg", load, strlen(load));
}

/* A host uid of the bot's own: unused on the host (above the ranges that
 * systems hand out) and apart from every other bot of this referee that
 * is alive, and of other referees unless their PIDs agree in 18 bits. */
static uid_t bot_uid(void)
{
	static gint serial;

	return JAIL_UID_BASE + (((guint)getpid() & 0x3ffff) << 10) + ((guint)g_atomic_int_add(&serial, 1) & 0x3ff);
}

gboolean sandbox_jail_make(SandboxJail *jail, const BotSpec *spec, const char *prog, const char *const *hidden,
			   int cpu, GError **error)
{
	guint64 disk = spec->limits.disk;
	gsize filter_len = 0;
	const char *filter_why = NULL;
	const guint8 *filter = jailfilter_program(sandbox_futex_supervised(), &filter_len, &filter_why);

	for (int i = 0; i < JAIL_FD_COUNT; i++)
		jail->fd[i] = -1;
	jail->command = NULL;
	if (!filter) {
		g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_UNAVAILABLE, "bot %s: %s", spec->name, filter_why);
		return FALSE;
	}
	gboolean root = geteuid() == 0;
	jail->uid = root ? bot_uid() : geteuid();
	guint inside = root ? (guint)jail->uid : JAIL_INSIDE_UID;

	Args j = {g_ptr_array_new_with_free_func(g_free), g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
		  g_ptr_array_new_with_free_func(g_free), NULL, spec->confined};
	for (int i = 0; hidden && hidden[i]; i++)
		add_hidden(&j, hidden[i]);
	add_common(j.a);
	if (!root) {
		char id[16];
		g_snprintf(id, sizeof(id), "%u", inside);
		add3(&j, "--uid", id, NULL);
		add3(&j, "--gid", id, NULL);
	}
	add_system(&j);
	char size[32];
	g_snprintf(size, sizeof(size), "%" G_GUINT64_FORMAT, disk ? disk : G_MAXINT64);
	const char *tmp[] = {"--perms", "1777", "--size", size, "--tmpfs", "/tmp",
			     "--perms", "1777", "--size", size, "--tmpfs", "/dev/shm",
			     "--perms", root ? "1777" : "0700", "--dir", SANDBOX_HOME, NULL};
	for (int i = 0; tmp[i]; i++)
		add(&j, tmp[i]);
	g_hash_table_insert(j.made, g_strdup(SANDBOX_HOME), GINT_TO_POINTER(1));

	/* the bot's own: its workdir, its program, what its command names.
	 * The workdir first, so that a file inside it is not bound again
	 * (and then hidden under it); and only where the bot may enter it
	 * (run by root, the bot is a user of its own: a directory closed to
	 * others, such as mktemp -d's, would be bound and useless, so it
	 * starts in its /tmp/bot with the files its command names). */
	g_autofree char *base = spec->workdir ? g_canonicalize_filename(spec->workdir, NULL) : g_get_current_dir();
	struct stat wst;
	gboolean workdir = spec->workdir &&
			   (!root || (stat(base, &wst) == 0 && (wst.st_mode & 05) == 05));
	if (workdir)
		bind_workdir(&j, base);
	if (spec->confined && spec->workdir)
		j.inside = base;
	bind_program(&j, prog, 0, strchr(spec->argv[0], '/') != NULL);
	for (int i = 1; spec->argv[i]; i++) {
		const char *arg = spec->argv[i];
		if (!arg[0] || arg[0] == '-')
			continue;
		g_autofree char *abs = g_canonicalize_filename(arg, base);
		/* a confined bot's only inside its workdir, after links */
		if (g_file_test(abs, G_FILE_TEST_EXISTS) &&
		    (!spec->confined || (j.inside && bot_spec_path_within(abs, j.inside))))
			bind_path(&j, abs);
	}
	g_autoptr(GPtrArray) covers = g_ptr_array_new_with_free_func(g_free);
	cover_hidden(&j, covers);
	/* a workdir inside something covered comes back on top of it */
	for (guint c = 0; workdir && c < covers->len; c++)
		if (under(base, g_ptr_array_index(covers, c)) && strcmp(base, g_ptr_array_index(covers, c)) != 0) {
			g_autofree char *p = g_strdup(base);
			const char *at = g_ptr_array_index(covers, c);
			for (char *sl = strchr(p + strlen(at) + 1, '/'); sl; sl = strchr(sl + 1, '/')) {
				*sl = '\0';
				add3(&j, "--perms", "0755", NULL);
				add3(&j, "--dir", p, NULL);
				*sl = '/';
			}
			add3(&j, "--ro-bind", base, base);
			break;
		}
	add3(&j, "--chdir", workdir ? base : SANDBOX_HOME, NULL);

	char fd[16];
	g_snprintf(fd, sizeof(fd), "%d", JAIL_FD_SECCOMP);
	add3(&j, "--seccomp", fd, NULL);
	g_snprintf(fd, sizeof(fd), "%d", JAIL_FD_STATUS);
	add3(&j, "--json-status-fd", fd, NULL);
	/* after "--" on bwrap's own command line: the command it runs */
	jail->command = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(jail->command, g_strdup("--"));
	if (root) {
		/* the last step of the setup: the bot's own uid, nothing kept */
		const char *drop[] = {SETPRIV, NULL, NULL, "--clear-groups", "--inh-caps=-all", "--", NULL};
		g_ptr_array_add(jail->command, g_strdup(drop[0]));
		g_ptr_array_add(jail->command, g_strdup_printf("--reuid=%u", inside));
		g_ptr_array_add(jail->command, g_strdup_printf("--regid=%u", inside));
		for (int i = 3; drop[i]; i++)
			g_ptr_array_add(jail->command, g_strdup(drop[i]));
	}
	g_ptr_array_add(jail->command, g_strdup(prog));
	for (int i = 1; spec->argv[i]; i++) {
		const char *arg = spec->argv[i];
		g_autofree char *abs = arg[0] && arg[0] != '-' ? g_canonicalize_filename(arg, base) : NULL;
		g_ptr_array_add(jail->command, g_strdup(abs && g_file_test(abs, G_FILE_TEST_EXISTS) ? abs : arg));
	}

	GString *args = g_string_new(NULL);
	for (guint i = 0; i < j.a->len; i++)
		g_string_append_len(args, g_ptr_array_index(j.a, i), (gssize)strlen(g_ptr_array_index(j.a, i)) + 1);
	g_autofree char *passwd = g_strdup_printf("bot:x:%u:%u:bot:" SANDBOX_HOME ":/bin/sh\n", inside, inside);
	g_autofree char *group = g_strdup_printf("bot:x:%u:\n", inside);
	jail->fd[JAIL_FD_ARGS] = memfd_with("tetrarena-jail-args", args->str, args->len);
	jail->fd[JAIL_FD_SECCOMP] = memfd_with("tetrarena-seccomp", filter, filter_len);
	jail->fd[JAIL_FD_PASSWD] = memfd_with("tetrarena-passwd", passwd, strlen(passwd));
	jail->fd[JAIL_FD_GROUP] = memfd_with("tetrarena-group", group, strlen(group));
	proc_files(jail, spec->limits.memory, cpu);
	g_string_free(args, TRUE);
	g_ptr_array_free(j.a, TRUE);
	g_hash_table_destroy(j.made);
	g_ptr_array_free(j.hidden, TRUE);
	for (int i = JAIL_FD_ARGS; i < JAIL_FD_COUNT; i++)
		if (jail->fd[i] < 0) {
			int e = errno;
			sandbox_jail_clear(jail);
			g_set_error(error, SANDBOX_ERROR, SANDBOX_ERROR_FAILED, "bot %s: memfd: %s", spec->name,
				    g_strerror(e));
			return FALSE;
		}
	return TRUE;
}

void sandbox_jail_clear(SandboxJail *jail)
{
	if (jail->command)
		g_ptr_array_free(jail->command, TRUE);
	jail->command = NULL;
	for (int i = 0; i < JAIL_FD_COUNT; i++)
		if (jail->fd[i] >= 0) {
			close(jail->fd[i]);
			jail->fd[i] = -1;
		}
}
