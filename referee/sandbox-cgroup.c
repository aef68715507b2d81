/*
 * sandbox-cgroup: a cgroup per bot and controller, made in the cgroups
 * this process belongs to where it may write them (v1, or a v2 subtree
 * with the controllers delegated). See sandbox-int.h.
 *
 *   memory, pids   the limits that bind the bot as a whole (root too);
 *                  both or neither
 *   cpu            a share of its own: a bot is one weight however many
 *                  processes it spins, so bots running at once get equal
 *                  CPU (v1 cpu.shares, v2 cpu.weight, the defaults)
 *   cpuset         the CPUs it may run on (the pinned one, or the
 *                  referee's): sched_setaffinity() cannot widen it
 *   freezer        stopped whole while it is not its turn (game.c)
 */
#include "sandbox-int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const cg_names[CG_COUNT] = {"memory", "pids", "cpu", "cpuset", "freezer"};
static char *cg_dir[CG_COUNT];	/* this process's cgroup per controller, if ours */
static gboolean cg_v2;
static char cg_status[256];

static gboolean writable_dir(const char *dir)
{
	return dir && access(dir, W_OK) == 0;
}

/* v2: which of our controllers the subtree `d` delegates (cgroup.freeze
 * exists in every non-root v2 cgroup). */
static void probe_v2(const char *d)
{
	g_autofree char *sub = g_build_filename(d, "cgroup.subtree_control", NULL);
	g_autofree char *ctl = NULL;

	if (!writable_dir(d) || !g_file_get_contents(sub, &ctl, NULL, NULL))
		return;
	g_auto(GStrv) have = g_strsplit_set(g_strstrip(ctl), " \n", -1);
	if (!g_strv_contains((const char *const *)have, "memory") ||
	    !g_strv_contains((const char *const *)have, "pids"))
		return;
	cg_v2 = TRUE;
	for (int c = 0; c < CG_COUNT; c++)
		if (c == CG_FREEZER || g_strv_contains((const char *const *)have, cg_names[c]))
			cg_dir[c] = g_strdup(d);
}

static gpointer probe(gpointer unused)
{
	(void)unused;
	g_autofree char *text = NULL;
	if (!g_file_get_contents("/proc/self/cgroup", &text, NULL, NULL)) {
		g_snprintf(cg_status, sizeof(cg_status), "no cgroups: memory and processes limited per process");
		return NULL;
	}
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *v2path = NULL;
	for (int i = 0; lines[i]; i++) {
		/* "ID:CONTROLLERS:PATH" */
		g_auto(GStrv) f = g_strsplit(lines[i], ":", 3);
		if (g_strv_length(f) != 3)
			continue;
		if (f[1][0] == '\0' && strcmp(f[0], "0") == 0) {
			g_free(v2path);
			v2path = g_strdup(f[2]);
		}
		g_auto(GStrv) ctl = g_strsplit(f[1], ",", -1);
		for (int c = 0; c < CG_COUNT; c++)
			if (g_strv_contains((const char *const *)ctl, cg_names[c])) {
				g_autofree char *d = g_build_filename("/sys/fs/cgroup", cg_names[c], f[2], NULL);
				if (writable_dir(d) && !cg_dir[c])
					cg_dir[c] = g_steal_pointer(&d);
			}
	}
	/* v1 limits only count with both; else a delegated v2 subtree */
	if (!cg_dir[CG_MEMORY] || !cg_dir[CG_PIDS]) {
		for (int c = 0; c < CG_COUNT; c++)
			g_clear_pointer(&cg_dir[c], g_free);
		if (v2path) {
			g_autofree char *d = g_build_filename("/sys/fs/cgroup", v2path, NULL);
			probe_v2(d);
		}
	}
	if (!cg_dir[CG_MEMORY]) {
		g_snprintf(cg_status, sizeof(cg_status),
			   "no writable cgroup for memory and processes: limited per process only (rlimits); "
			   "no CPU share, cpuset or freezing per bot");
		return NULL;
	}
	GString *s = g_string_new(NULL);
	g_string_append_printf(s, "cgroup %s: memory and process count limited per bot", cg_v2 ? "v2" : "v1");
	for (int c = CG_CPU; c < CG_COUNT; c++)
		if (!cg_dir[c])
			g_string_append_printf(s, "; no %s controller (%s)", cg_names[c],
					       c == CG_CPU ? "no CPU share of its own"
					       : c == CG_CPUSET ? "a bot may widen its CPUs"
					       : "bots are not frozen off their turn");
	g_strlcpy(cg_status, s->str, sizeof(cg_status));
	g_string_free(s, TRUE);
	return NULL;
}

const char *sandbox_cg_status(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, probe, NULL);
	return cg_status;
}

gboolean sandbox_cg_limits(void)
{
	sandbox_cg_status();
	return cg_dir[CG_MEMORY] && cg_dir[CG_PIDS];
}

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

/* Whether dir[c] is the first of its directory (v2 has one for all). */
static gboolean owns(const SandboxCgroups *cg, int c)
{
	if (!cg->dir[c])
		return FALSE;
	for (int o = 0; o < c; o++)
		if (cg->dir[o] && strcmp(cg->dir[o], cg->dir[c]) == 0)
			return FALSE;
	return TRUE;
}

/* cpuset: the CPUs it may use; v1 wants the memory nodes too, copied from
 * the parent (a child cpuset starts empty there). */
static gboolean cpuset_setup(const char *dir, const char *parent, int cpu)
{
	g_autofree char *cpus = NULL;
	if (cpu >= 0) {
		cpus = g_strdup_printf("%d", cpu);
	} else {
		g_autofree char *path = g_build_filename(parent, cg_v2 ? "cpuset.cpus.effective" : "cpuset.cpus", NULL);
		if (!g_file_get_contents(path, &cpus, NULL, NULL))
			return FALSE;
		g_strstrip(cpus);
	}
	if (!cg_v2) {
		g_autofree char *mems = NULL;
		g_autofree char *path = g_build_filename(parent, "cpuset.mems", NULL);
		if (!g_file_get_contents(path, &mems, NULL, NULL) || !write_file(dir, "cpuset.mems", g_strstrip(mems)))
			return FALSE;
	}
	return cpus[0] == '\0' || write_file(dir, "cpuset.cpus", cpus);
}

void sandbox_cg_make(SandboxCgroups *cg, const BotLimits *l, int cpu)
{
	static gint serial;

	memset(cg, 0, sizeof(*cg));
	cg->freeze_fd = -1;
	if (!sandbox_cg_limits())
		return;
	char name[64], value[32];
	g_snprintf(name, sizeof(name), "tetrarena-%d-%d", (int)getpid(), g_atomic_int_add(&serial, 1));
	for (int c = 0; c < CG_COUNT; c++) {
		if (!cg_dir[c])
			continue;
		cg->dir[c] = g_build_filename(cg_dir[c], name, NULL);
		if (cg_v2 && c > 0)
			continue;	/* one directory, made for memory */
		if (mkdir(cg->dir[c], 0700) != 0) {
			g_clear_pointer(&cg->dir[c], g_free);
			if (c <= CG_PIDS)
				goto fail;
		}
	}
	/* (resident memory: even a sanitized bot, which reserves terabytes
	 * of address space and so gets no RLIMIT_DATA, is held to it) */
	if (l->memory) {
		g_snprintf(value, sizeof(value), "%" G_GUINT64_FORMAT, l->memory);
		if (!write_file(cg->dir[CG_MEMORY], cg_v2 ? "memory.max" : "memory.limit_in_bytes", value))
			goto fail;
		/* no swapping around the limit */
		if (cg_v2)
			write_file(cg->dir[CG_MEMORY], "memory.swap.max", "0");
	}
	if (l->processes) {
		g_snprintf(value, sizeof(value), "%" G_GUINT64_FORMAT, l->processes);
		if (!write_file(cg->dir[CG_PIDS], "pids.max", value))
			goto fail;
	}
	/* The optional ones: a failure drops that controller only. */
	if (cg->dir[CG_CPUSET] && !cpuset_setup(cg->dir[CG_CPUSET], cg_dir[CG_CPUSET], cpu)) {
		if (owns(cg, CG_CPUSET))
			rmdir(cg->dir[CG_CPUSET]);
		g_clear_pointer(&cg->dir[CG_CPUSET], g_free);
	}
	if (cg->dir[CG_FREEZER]) {
		g_autofree char *path = g_build_filename(cg->dir[CG_FREEZER], cg_v2 ? "cgroup.freeze" : "freezer.state",
							 NULL);
		cg->freeze_fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	return;
fail:
	sandbox_cg_remove(cg);
}

void sandbox_cg_open_procs(const SandboxCgroups *cg, int fds[CG_COUNT])
{
	for (int c = 0; c < CG_COUNT; c++) {
		fds[c] = -1;
		if (owns(cg, c)) {
			g_autofree char *procs = g_build_filename(cg->dir[c], "cgroup.procs", NULL);
			fds[c] = open(procs, O_WRONLY | O_CLOEXEC);
		}
	}
}

const char *sandbox_cg_breach(const SandboxCgroups *cg)
{
	if (cg->dir[CG_MEMORY] &&
	    read_counter(cg->dir[CG_MEMORY], cg_v2 ? "memory.events" : "memory.oom_control", "oom_kill") > 0)
		return "memory limit";
	if (cg->dir[CG_PIDS] && read_counter(cg->dir[CG_PIDS], "pids.events", "max") > 0)
		return "process limit";
	return NULL;
}

gboolean sandbox_cg_freeze(SandboxCgroups *cg, gboolean frozen)
{
	if (cg->freeze_fd < 0)
		return FALSE;
	if (cg->frozen == frozen)
		return TRUE;
	const char *v = cg_v2 ? (frozen ? "1" : "0") : (frozen ? "FROZEN" : "THAWED");
	if (pwrite(cg->freeze_fd, v, strlen(v), 0) != (ssize_t)strlen(v))
		return FALSE;
	cg->frozen = frozen;
	return TRUE;
}

/* Thaw a cgroup's processes, kill them, then remove it (a dying process
 * holds it for a moment). */
static void remove_dir(const char *dir, gboolean freezer)
{
	if (freezer)
		write_file(dir, cg_v2 ? "cgroup.freeze" : "freezer.state", cg_v2 ? "0" : "THAWED");
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

void sandbox_cg_remove(SandboxCgroups *cg)
{
	if (cg->freeze_fd >= 0)
		close(cg->freeze_fd);
	cg->freeze_fd = -1;
	/* the freezer first: a frozen process does not die */
	if (owns(cg, CG_FREEZER))
		remove_dir(cg->dir[CG_FREEZER], TRUE);
	for (int c = CG_COUNT - 1; c >= 0; c--)
		if (c != CG_FREEZER && owns(cg, c))
			remove_dir(cg->dir[c], cg_v2);
	for (int c = 0; c < CG_COUNT; c++)
		g_clear_pointer(&cg->dir[c], g_free);
}

int sandbox_cg_sweep(pid_t owner)
{
	char prefix[32];
	int n = 0;

	sandbox_cg_status();
	g_snprintf(prefix, sizeof(prefix), "tetrarena-%d-", (int)owner);
	/* the freezer first, as in sandbox_cg_remove() */
	static const int order[CG_COUNT] = {CG_FREEZER, CG_MEMORY, CG_PIDS, CG_CPU, CG_CPUSET};
	for (int i = 0; i < CG_COUNT; i++) {
		int c = order[i];
		if (cg_v2 && c != CG_MEMORY)
			continue;
		GDir *d = cg_dir[c] ? g_dir_open(cg_dir[c], 0, NULL) : NULL;
		const char *name;
		while (d && (name = g_dir_read_name(d)))
			if (g_str_has_prefix(name, prefix)) {
				g_autofree char *dir = g_build_filename(cg_dir[c], name, NULL);
				remove_dir(dir, c == CG_FREEZER || cg_v2);
				n++;
			}
		if (d)
			g_dir_close(d);
	}
	return n;
}
