/*
 * botspec: how to start a bot. See botspec.h.
 */
#include "botspec.h"
#include "keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(tetrarena-botspec-error-quark, botspec_error)

void bot_spec_limits_default(BotLimits *l)
{
	l->memory = G_GUINT64_CONSTANT(2) << 30;
	l->cpu = 600;
	l->processes = 256;
	l->file_size = G_GUINT64_CONSTANT(64) << 20;
	l->open_files = 64;
	l->disk = G_GUINT64_CONSTANT(256) << 20;
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
		g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_COMMAND, "bot command '%s': %s",
			    command, err->message);
		return NULL;
	}
	spec->command = g_strdup(command);
	bot_spec_limits_default(&spec->limits);
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
	c->confined = spec->confined;
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

/* `path` resolved as far as it exists (realpath of the longest existing
 * prefix, the rest appended); `path` is absolute and canonical. NULL when
 * a part of it is there but does not resolve (a dangling link, a loop). */
static char *resolve_existing(const char *path)
{
	g_autofree char *head = g_strdup(path);
	g_autoptr(GString) tail = g_string_new(NULL);

	for (;;) {
		char *real = realpath(head, NULL);
		if (real) {
			g_autofree char *r = real;
			if (!tail->len)
				return g_steal_pointer(&r);
			return g_strconcat(strcmp(r, "/") ? r : "", tail->str, NULL);
		}
		struct stat st;
		if (lstat(head, &st) == 0)
			return NULL;	/* there, but a link that leads nowhere */
		char *slash = strrchr(head, '/');
		if (!slash || !strcmp(head, "/"))
			return g_strdup(path);
		g_string_prepend(tail, slash);
		if (slash == head)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/* Whether `path` is `dir` or below it (both absolute and canonical). */
static gboolean is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return TRUE;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

gboolean bot_spec_path_within(const char *path, const char *dir)
{
	g_autofree char *abs_dir = g_canonicalize_filename(dir, NULL);
	g_autofree char *real_dir = realpath(abs_dir, NULL);
	g_autofree char *abs = g_canonicalize_filename(path, abs_dir);

	if (!real_dir || !is_under(abs, abs_dir))
		return FALSE;
	g_autofree char *real = resolve_existing(abs);
	return real && is_under(real, real_dir);
}

const char *bot_spec_outside(const BotSpec *spec)
{
	static const char *const system[] = {"/usr", "/bin", "/sbin", NULL};
	const char *prog = spec->argv[0];

	if (strchr(prog, '/') && !(spec->workdir && bot_spec_path_within(prog, spec->workdir))) {
		g_autofree char *abs = g_canonicalize_filename(prog, spec->workdir);
		g_autofree char *real = resolve_existing(abs);
		gboolean sys = FALSE;
		for (int i = 0; real && system[i]; i++)
			sys |= is_under(abs, system[i]) && is_under(real, system[i]);
		if (!sys)
			return prog;
	}
	for (int i = 1; spec->argv[i]; i++) {
		const char *arg = spec->argv[i];
		if (arg[0] && arg[0] != '-' && !(spec->workdir && bot_spec_path_within(arg, spec->workdir)))
			return arg;
	}
	return NULL;
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
		g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
			    "%s: [%s] %s: %s", path, group, key, err ? err->message : "bad value");
		return FALSE;
	}
	*out = n * unit;
	return TRUE;
}

/* One [bot NAME] group as a spec. NULL with error naming file, group
 * and key. */
static BotSpec *group_spec(GKeyFile *kf, const char *path, const char *g, GError **error)
{
	const char *name = g + 4;
	g_autoptr(GError) e1 = NULL;
	g_autofree char *command = g_key_file_get_string(kf, g, "command", &e1);
	if (!command) {
		if (g_error_matches(e1, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND))
			g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
				    "bots file %s: [%s] has no command=", path, g);
		else
			g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
				    "bots file %s: [%s] command: %s", path, g, e1->message);
		return NULL;
	}
	g_autoptr(GError) e2 = NULL;
	g_autoptr(BotSpec) spec = bot_spec_new(g_strstrip(command), name, &e2);
	if (!spec) {
		g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
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
	    !limit_key(kf, path, g, "open-files", 1, &l->open_files, error) ||
	    !limit_key(kf, path, g, "disk", 1 << 20, &l->disk, error))
		return NULL;
	g_auto(GStrv) keys = g_key_file_get_keys(kf, g, NULL, NULL);
	static const char *const known[] = {"command", "workdir", "memory", "cpu", "processes",
					    "file-size", "open-files", "disk", NULL};
	for (int k = 0; keys && keys[k]; k++)
		if (!g_strv_contains(known, keys[k])) {
			g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
				    "bots file %s: [%s] unknown key %s", path, g, keys[k]);
			return NULL;
		}
	return g_steal_pointer(&spec);
}

/* Add `spec` (taken) to the list, FALSE with error set when a bot of its
 * name is there already. */
static gboolean add_spec(GPtrArray *specs, GHashTable *seen, BotSpec *spec, const char *path, GError **error)
{
	if (g_hash_table_contains(seen, spec->name)) {
		g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE, "bots file %s: bot %s given twice", path,
			    spec->name);
		bot_spec_free(spec);
		return FALSE;
	}
	g_ptr_array_add(specs, spec);
	g_hash_table_add(seen, spec->name);
	return TRUE;
}

GPtrArray *bot_spec_keyfile_load(GKeyFile *kf, const char *path, GError **error)
{
	g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

	for (int i = 0; groups[i]; i++) {
		const char *g = groups[i];
		BotSpec *spec = NULL;

		if (!strcmp(g, "tournament"))
			continue;
		if (!strcmp(g, "bots")) {
			g_auto(GStrv) keys = g_key_file_get_keys(kf, g, NULL, NULL);

			for (int k = 0; keys && keys[k]; k++) {
				g_autoptr(GError) e = NULL;
				g_autofree char *command = g_key_file_get_string(kf, g, keys[k], &e);

				spec = command ? bot_spec_new(g_strstrip(command), keys[k], &e) : NULL;
				if (!spec) {
					g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
						    "bots file %s: [bots] %s: %s", path, keys[k], e->message);
					return NULL;
				}
				if (!add_spec(specs, seen, spec, path, error))
					return NULL;
			}
			continue;
		}
		if (!g_str_has_prefix(g, "bot ") || !g[4]) {
			g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE,
				    "bots file %s: group [%s] is not [bot NAME] (nor [bots] or [tournament])",
				    path, g);
			return NULL;
		}
		spec = group_spec(kf, path, g, error);
		if (!spec)
			return NULL;
		if (!add_spec(specs, seen, spec, path, error))
			return NULL;
	}
	return g_steal_pointer(&specs);
}

GPtrArray *bot_spec_file_load_list(const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) err = NULL;

	if (!keyfile_load(kf, path, &err)) {
		g_set_error(error, BOTSPEC_ERROR, BOTSPEC_ERROR_FILE, "bots file %s: %s", path,
			    err->message);
		return NULL;
	}
	return bot_spec_keyfile_load(kf, path, error);
}

GHashTable *bot_spec_file_load(const char *path, GError **error)
{
	g_autoptr(GPtrArray) list = bot_spec_file_load_list(path, error);
	GHashTable *table;

	if (!list)
		return NULL;
	table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)bot_spec_free);
	for (guint i = 0; i < list->len; i++) {
		BotSpec *spec = g_ptr_array_index(list, i);

		g_hash_table_insert(table, g_strdup(spec->name), spec);
	}
	g_ptr_array_set_free_func(list, NULL);
	return table;
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
