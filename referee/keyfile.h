/*
 * keyfile: loading the key files people write (bots files, tournament
 * files) with errors that say where. GKeyFile itself reads any bytes and
 * only fails later, value by value, with no line number; here a file that
 * is not UTF-8 is refused at load, naming its line.
 */
#ifndef TETRARENA_REFEREE_KEYFILE_H
#define TETRARENA_REFEREE_KEYFILE_H

#include <glib.h>

/* Load `path` into kf. FALSE with error (G_KEY_FILE_ERROR or G_FILE_ERROR)
 * when it cannot be read, is not UTF-8 ("line N: ..."), or does not
 * parse. The message does not repeat the path: callers prefix it. */
gboolean keyfile_load(GKeyFile *kf, const char *path, GError **error);

#endif
