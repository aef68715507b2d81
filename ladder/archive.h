/*
 * archive: a bot uploaded as one file, a .tar.gz (or .tgz, or a plain
 * .tar) or a .zip holding its manifest.ini (ladder/manifest.h), unpacked
 * with libarchive into DIR/bots/NAME-N, the place a submitted directory is
 * copied to (ladder/botdir.h). `ladder add DIR NAME ARCHIVE` and the web's
 * upload both go through ladder_archive_bot(), so they refuse the same
 * things, with the same messages.
 *
 * The archive is read twice. The first pass reads only its headers and
 * refuses, before anything is written, an entry whose name is absolute,
 * empty or holds a `..`, a symbolic or hard link, a device, fifo, socket
 * or any other special file, an encrypted entry, names more than
 * LADDER_ARCHIVE_DEPTH directories deep, and more entries than the
 * ladder's file cap (caps->files, `ladder init --bot-files`). The second
 * writes: each directory made with mkdirat and opened with O_NOFOLLOW,
 * each file created with O_CREAT | O_EXCL | O_NOFOLLOW under the
 * directory it names (so nothing is ever written outside the target, nor
 * through a link, nor twice), with the mode the ladder gives (directories
 * 0755, files 0644, or 0755 when the archive marks them executable:
 * neither owner, times nor other bits of the archive are kept). While it
 * writes it holds the byte cap (caps->size, `ladder init --bot-size`) on
 * what the entries unpack to, whatever their headers say, and the
 * compression ratio: past LADDER_ARCHIVE_FLOOR bytes, at most
 * LADDER_ARCHIVE_RATIO bytes unpacked per byte of archive (a zip bomb
 * stops there, having written little). The archive itself is at most the
 * byte cap.
 *
 * When the archive's top holds no manifest.ini but one directory that
 * does (`tar czf bot.tar.gz mybot/`), that directory is the bot's: its
 * entries are unpacked one level up.
 *
 * Every refusal is a LADDER_ERROR_SUBMISSION naming the entry (escaped)
 * and the rule, e.g. "../x: a path that leads out of the bot's directory
 * ('..')", and a failed unpacking leaves nothing behind.
 */
#ifndef TETRARENA_LADDER_ARCHIVE_H
#define TETRARENA_LADDER_ARCHIVE_H

#include <glib.h>

#include "ladder/botdir.h"
#include "ladder/manifest.h"

#define LADDER_ARCHIVE_RATIO 100	/* bytes unpacked per byte of archive */
#define LADDER_ARCHIVE_FLOOR (G_GUINT64_CONSTANT(1) << 20)	/* unpacked bytes the ratio allows anyway */
#define LADDER_ARCHIVE_DEPTH 64	/* directories inside directories */

/* Whether `path` is named as an archive this module takes: it ends in
 * .tar.gz, .tgz, .tar or .zip (any case). Reads nothing. */
gboolean ladder_archive_named(const char *path);

/*
 * Unpack the archive held in `data` (`size` bytes; `what` names it in
 * messages, e.g. its file name) into the directory `dst`, which exists
 * and is empty, as above. FALSE with error (LADDER_ERROR_SUBMISSION for
 * what the archive holds, LADDER_DB_ERROR_FULL for a full disk); `dst`
 * may then hold part of it (the caller removes it).
 */
gboolean ladder_archive_unpack(const void *data, gsize size, const char *what, const char *dst,
			       const LadderBotCaps *caps, GError **error);

/*
 * A bot from an archive, for `ladder add` and the web's upload alike:
 * unpack `data` into `ladder_dir`/bots/NAME-N (the first N free), read its
 * manifest.ini, and check the command it gives (ladder_command_check())
 * and the directory it made (ladder_bot_dir_check()). Returns the new
 * directory's absolute path (newly allocated) and OUT: *manifest (owned by
 * the caller); the bot then goes through admission as a submitted
 * directory does (ladder/admit.h), where a name's next upload is its next
 * version. NULL with error (LADDER_ERROR_SUBMISSION, prefixed by `what`:
 * the reason shown to the author) and nothing left behind.
 */
char *ladder_archive_bot(const char *ladder_dir, const char *name, const void *data, gsize size,
			 const char *what, const LadderBotCaps *caps, LadderManifest **manifest, GError **error);

/* As ladder_archive_bot(), the archive read from the file at `path`
 * (refused, unread, when it is not a regular file or is over the byte
 * cap). */
char *ladder_archive_bot_file(const char *ladder_dir, const char *name, const char *path,
			      const LadderBotCaps *caps, LadderManifest **manifest, GError **error);

#endif
