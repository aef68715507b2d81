/*
 * botdir: what a ladder lets a stranger's bot bring, and what it shows it.
 *
 * A submitted directory (`ladder add DIR NAME BOTDIR`) is walked with
 * lstat before anything is copied: it holds only directories, regular
 * files and links that resolve inside it (no device, fifo or socket, no
 * link that leads out or nowhere), at most caps->files entries and
 * caps->size bytes of files (the ladder's settings, `ladder init
 * --bot-size --bot-files`). Then it is copied into DIR/bots/NAME-N with
 * the same checks (files opened without following links, the byte cap
 * held while copying), modes made plain (directories 0755, files 0644,
 * or 0755 when executable), and the copy walked once more.
 *
 * Its command, run there, may name paths only inside it: its arguments
 * (and its program, when given as a path) are refused when they lead out,
 * as written or through links (bot_spec_outside()); the jail binds
 * nothing else of it (BotSpec.confined, set by the ladder for every entry
 * with a directory) and never anything of the ladder's own directory but
 * the bot's (SandboxLaunch.hide).
 */
#ifndef TETRARENA_LADDER_BOTDIR_H
#define TETRARENA_LADDER_BOTDIR_H

#include <glib.h>

#define LADDER_BOT_SIZE_DEFAULT (G_GUINT64_CONSTANT(64) << 20)	/* bytes */
#define LADDER_BOT_FILES_DEFAULT 2000
#define LADDER_BOTS_DIR "bots"

typedef struct {
	guint64 size;		/* bytes of regular files, at most */
	guint64 files;		/* entries (files, directories, links), at most */
} LadderBotCaps;

/*
 * Check the directory `src` as above, reading no file. FALSE with error
 * (LADDER_ERROR_SUBMISSION) naming the file at fault and the cap.
 */
gboolean ladder_bot_dir_check(const char *src, const LadderBotCaps *caps, GError **error);

/*
 * Check `src`, then copy it into `ladder_dir`/bots/NAME-N (the first N
 * free); the copy's absolute path, or NULL with error (a partial copy is
 * removed).
 */
char *ladder_bot_dir_copy(const char *ladder_dir, const char *name, const char *src, const LadderBotCaps *caps,
			  GError **error);

/*
 * Make the directory `ladder_dir`/bots/NAME-N (the first N free; mode
 * 0755, bots/ made 0700 when missing) for a bot's files. Its absolute
 * path, or NULL with error.
 */
char *ladder_bot_dir_make(const char *ladder_dir, const char *name, GError **error);

/* A size as `ladder init --bot-size` takes it, for messages: "64 MiB", or
 * "N bytes". Newly allocated. */
char *ladder_bot_size_text(guint64 n);

/*
 * Whether `workdir` is one of the ladder's copies: directly in
 * `ladder_dir`/bots/, as written and (when it is there) after links. FALSE
 * with error naming it.
 */
gboolean ladder_bot_dir_valid(const char *ladder_dir, const char *workdir, GError **error);

/*
 * What a submission's command may name. With `workdir` (a submitted
 * directory): nothing outside it (bot_spec_outside()); without (a command
 * the ladder's keeper gave): nothing in `ladder_dir`, which no bot sees.
 * A command that does not parse passes (admission rejects it). FALSE with
 * error (LADDER_ERROR_SUBMISSION) naming the word at fault.
 */
gboolean ladder_command_check(const char *command, const char *workdir, const char *ladder_dir, GError **error);

#endif
