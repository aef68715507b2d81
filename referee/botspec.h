/*
 * botspec: how to start a bot. A BotSpec holds its argv (split as a shell
 * would, but no shell runs), the command line as given, its working
 * directory and its resource limits; bot files (GKeyFile, groups
 * [bot NAME]) hold named specs. Starting one is bot.h's and sandbox.h's
 * job; this module only describes.
 */
#ifndef TETRARENA_REFEREE_BOTSPEC_H
#define TETRARENA_REFEREE_BOTSPEC_H

#include <glib.h>

/* Resource limits; 0 means "no limit" for each. */
typedef struct {
	guint64 memory;		/* RLIMIT_DATA bytes: heap and private writable
				 * mappings, not reserved address space, so that
				 * runtimes that reserve much (V8, Go, the JVM)
				 * still start; skipped if TETRARENA_NO_MEMLIMIT=1 */
	guint64 cpu;		/* RLIMIT_CPU seconds per game: SIGXCPU then;
				 * SIGKILL one CPU second later, or for a
				 * process kept over n games once it has used
				 * cpu x n + 1 s in all (sandbox.h) */
	guint64 processes;	/* RLIMIT_NPROC */
	guint64 file_size;	/* RLIMIT_FSIZE bytes */
	guint64 open_files;	/* RLIMIT_NOFILE */
	guint64 disk;		/* bytes of its private /tmp and working
				 * directory (jailed only) */
} BotLimits;

/* How to start a bot. */
typedef struct {
	char *name;		/* shown in results and logs */
	char **argv;		/* NULL-terminated; argv[0] found in PATH */
	char *command;		/* the command line as given */
	char *workdir;		/* NULL: the referee's current directory */
	BotLimits limits;
	gboolean human;		/* the terminal player (referee's own _human) */
	gboolean confined;	/* a bot from a stranger (a ladder's submitted
				 * directory): of the host's files the jail
				 * shows it only its workdir (and the system);
				 * an argument, or a program named by a path,
				 * is bound only when it lies inside the
				 * workdir (bot_spec_within()) */
	char *sha256;		/* cached bot_spec_hash(), or NULL */
} BotSpec;

/* Defaults: 2 GiB memory, 600 s CPU, 256 processes, 64 MiB files, 64 fds,
 * 256 MiB disk. */
void bot_spec_limits_default(BotLimits *l);

/* The error domain of bot commands and bots files. */
#define BOTSPEC_ERROR (botspec_error_quark())
GQuark botspec_error_quark(void);

typedef enum {
	BOTSPEC_ERROR_COMMAND,	/* a command line that does not parse */
	BOTSPEC_ERROR_FILE,	/* a bots file that cannot be read or is invalid */
} BotSpecError;

/*
 * A spec from a command line (split with g_shell_parse_argv). The name is
 * the program's basename, or `name` when not NULL. NULL with error set on
 * an empty or unbalanced command.
 */
BotSpec *bot_spec_new(const char *command, const char *name, GError **error);
BotSpec *bot_spec_copy(const BotSpec *spec);
void bot_spec_free(BotSpec *spec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BotSpec, bot_spec_free)

/*
 * Whether `path` (absolute, or relative to `dir`) lies inside the
 * directory `dir` (itself included) both as written and after its links
 * resolve: the longest part of it that exists is resolved with realpath(3)
 * and the rest appended, so that neither ".." nor a link (to a path that
 * exists or not yet) leads out. FALSE when `dir` cannot be resolved.
 */
gboolean bot_spec_path_within(const char *path, const char *dir);

/*
 * For a confined spec: the first word of its command that names a path
 * the jail would not show it, or NULL when none does. Its program (argv[0])
 * counts when it holds a '/' (otherwise PATH finds it) and lies neither
 * inside the workdir nor under /usr, /bin or /sbin; an argument counts
 * unless it is empty, starts with '-' (an option, never bound) or lies
 * inside the workdir. Points into spec->argv.
 */
const char *bot_spec_outside(const BotSpec *spec);

/*
 * Bot files, one format for `play --bots` and tournaments: [bot NAME]
 * groups with command= (required), workdir= (relative to the file), and
 * the limit keys memory= (MiB), cpu= (s), processes=, file-size= (MiB),
 * open-files=, disk= (MiB); and/or a [bots] group of NAME = COMMAND lines
 * (default limits). A [tournament] group is skipped (a tournament file is
 * a bots file too); any other group, an unknown key or a name given twice
 * is an error. Returns a table name -> BotSpec*, or NULL with error set
 * naming the file, group and key at fault.
 */
GHashTable *bot_spec_file_load(const char *path, GError **error);

/* The same as a list of BotSpec* in the file's order (the caller owns it;
 * it frees its specs), from a file or a loaded key file. */
GPtrArray *bot_spec_file_load_list(const char *path, GError **error);
GPtrArray *bot_spec_keyfile_load(GKeyFile *kf, const char *path, GError **error);

/*
 * The SHA-256 (hex) of the program a spec runs: argv[0] found in PATH, or
 * for an interpreter (python3, perl, sh, node, ...) the first argument that
 * names an existing file. Newly allocated; "-" if nothing can be read.
 */
char *bot_spec_hash(const BotSpec *spec);

#endif
