/*
 * manifest: a submitted bot directory's manifest.ini. See manifest.h.
 */
#include "manifest.h"

#include <string.h>

G_DEFINE_QUARK(tetrarena-ladder-manifest-error-quark, ladder_manifest_error)

#define GROUP "bot"

static const char *const keys[] = {"command", "name", "author", "description", NULL};

void ladder_manifest_free(LadderManifest *m)
{
	if (!m)
		return;
	g_free(m->command);
	g_free(m->name);
	g_free(m->author);
	g_free(m->description);
	g_free(m);
}

static LadderManifest *invalid(GError **error, const char *path, const char *why, const char *what)
{
	g_set_error(error, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_INVALID, "%s: %s%s", path, why, what);
	return NULL;
}

/* A key's value, stripped, or NULL when absent or empty. */
static char *value(GKeyFile *kf, const char *key)
{
	g_autofree char *v = g_key_file_get_string(kf, GROUP, key, NULL);

	if (!v)
		return NULL;
	g_strstrip(v);
	return v[0] ? g_steal_pointer(&v) : NULL;
}

LadderManifest *ladder_manifest_read(const char *path, GError **error)
{
	g_autofree char *data = NULL;
	gsize len = 0;
	g_autoptr(GError) err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		g_set_error(error, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_READ, "%s", err->message);
		return NULL;
	}
	if (len > LADDER_MANIFEST_MAX) {
		g_set_error(error, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_READ,
			    "%s: %zu bytes, more than a manifest's %d", path, (size_t)len, LADDER_MANIFEST_MAX);
		return NULL;
	}
	if (memchr(data, '\0', len) || !g_utf8_validate(data, len, NULL))
		return invalid(error, path, "not UTF-8 text", "");
	g_autoptr(GKeyFile) kf = g_key_file_new();
	if (!g_key_file_load_from_data(kf, data, len, G_KEY_FILE_NONE, &err))
		return invalid(error, path, err->message, "");
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	for (int i = 0; groups[i]; i++)
		if (strcmp(groups[i], GROUP) != 0)
			return invalid(error, path, "unknown group, want only [bot]: ", groups[i]);
	if (!g_key_file_has_group(kf, GROUP))
		return invalid(error, path, "no [bot] group", "");
	g_auto(GStrv) present = g_key_file_get_keys(kf, GROUP, NULL, NULL);
	for (int i = 0; present && present[i]; i++)
		if (!g_strv_contains(keys, present[i]))
			return invalid(error, path, "unknown key (command, name, author, description): ",
				       present[i]);
	g_autoptr(LadderManifest) m = g_new0(LadderManifest, 1);
	m->command = value(kf, "command");
	if (!m->command)
		return invalid(error, path, "no command= in [bot]", "");
	m->name = value(kf, "name");
	m->author = value(kf, "author");
	m->description = value(kf, "description");
	return g_steal_pointer(&m);
}
