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
 * Thread-safe; the helper threads are shared and live with the process.
 */
#ifndef TETRARENA_REFEREE_ASYNCFILE_H
#define TETRARENA_REFEREE_ASYNCFILE_H

#include <stdio.h>

#include <glib.h>

/* Open `path` for writing (created or truncated, mode 0644, close-on-exec)
 * on a helper thread; NULL only when no FILE can be made (no memory). */
FILE *asyncfile_open(const char *path, size_t bufsize);

#endif
