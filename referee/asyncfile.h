/*
 * asyncfile: a file written through stdio whose creation does not hold up
 * the thread that writes it. On a busy disk, creating a file waits for
 * the filesystem's journal (milliseconds when other processes sync): a
 * tournament's game thread would wait so for every game's log. Here a
 * helper thread creates (truncates) the file while the caller goes on
 * writing into the FILE's buffer; the first time the buffer is handed on
 * (it is full, or at fclose) the creation is waited for, which by then
 * has usually long happened. The FILE is fully buffered, `bufsize` bytes.
 *
 * A file that cannot be created shows as a write error (ferror, or
 * fclose failing, errno set): the caller reports it as for any file.
 *
 * The last write and the close may go to a helper too
 * (asyncfile_close_later()): then whoever relies on the file being whole
 * (a tournament, before it records the game) calls asyncfile_settle() and
 * asks asyncfile_failure() about it.
 * Thread-safe; the helper threads are shared and live with the process.
 */
#ifndef TETRARENA_REFEREE_ASYNCFILE_H
#define TETRARENA_REFEREE_ASYNCFILE_H

#include <stdio.h>

#include <glib.h>

/* Open `path` for writing (created or truncated with `mode`,
 * close-on-exec) on a helper thread; NULL only when no FILE can be made
 * (no memory). */
FILE *asyncfile_open(const char *path, int mode, size_t bufsize);

/* fclose(f) (an asyncfile_open() FILE of `path`) on a helper thread: its
 * buffer written, the file closed; a failure is kept for
 * asyncfile_failure(path). */
void asyncfile_close_later(FILE *f, const char *path);

/* Wait until every file handed to asyncfile_close_later() before this
 * call is written and closed (or failed). */
void asyncfile_settle(void);

/* Why the file at `path`, closed later and settled, could not be written
 * whole ("cannot write PATH: WHY"), forgotten once told; NULL when it was.
 * (A failure nobody asks about is kept: a few bytes each.)
 * The caller frees the text. */
char *asyncfile_failure(const char *path);

#endif
