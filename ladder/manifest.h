/*
 * manifest: a bot submitted as a directory (`ladder add DIR NAME BOTDIR`)
 * says how to run it in BOTDIR/manifest.ini:
 *
 *   [bot]
 *   command = python3 bot.py     # required: run in the bot's directory
 *   name = mybot                 # optional: the name it is entered under
 *   author = Ada                 # optional, shown on its page
 *   description = greedy, 2 ply  # optional, shown on its page
 *
 * One [bot] group; any other group or key, a missing or empty command, a
 * file over LADDER_MANIFEST_MAX bytes or text that is not UTF-8 is an
 * error naming the file and what is wrong.
 */
#ifndef TETRARENA_LADDER_MANIFEST_H
#define TETRARENA_LADDER_MANIFEST_H

#include <glib.h>

#define LADDER_MANIFEST_FILE "manifest.ini"
#define LADDER_MANIFEST_MAX (64 * 1024)

#define LADDER_MANIFEST_ERROR (ladder_manifest_error_quark())
GQuark ladder_manifest_error_quark(void);

typedef enum {
	LADDER_MANIFEST_ERROR_READ,	/* cannot be read, or too big */
	LADDER_MANIFEST_ERROR_INVALID,	/* not a valid manifest */
} LadderManifestError;

typedef struct {
	char *command;
	char *name;		/* NULL when not given */
	char *author;		/* NULL when not given */
	char *description;	/* NULL when not given */
} LadderManifest;

/* Read the manifest file at `path`. NULL with error. */
LadderManifest *ladder_manifest_read(const char *path, GError **error);
void ladder_manifest_free(LadderManifest *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderManifest, ladder_manifest_free)

/*
 * The key file at `path` (at most `max` bytes of UTF-8) holding one group,
 * `group`, with no key outside `known` (NULL-terminated): what a manifest
 * and an inbox file (ladder/inbox.h) share. NULL with error (this
 * module's domain) naming the file and the problem.
 */
GKeyFile *ladder_keyfile_load(const char *path, gsize max, const char *group, const char *const *known,
			      GError **error);

/* A key's value in `group`, stripped; NULL when absent or empty. */
char *ladder_keyfile_value(GKeyFile *kf, const char *group, const char *key);

#endif
