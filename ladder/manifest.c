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

GKeyFile *ladder_keyfile_load(const char *path, gsize max, const char *group, const char *const *known,
			      GError **error)
{
	g_autofree char *data = NULL;
	gsize len = 0;
	g_autoptr(GError) err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		g_set_error(error, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_READ, "%s", err->message);
		return NULL;
	}
	if (len > max) {
		g_set_error(error, LADDER_MANIFEST_ERROR, LADDER_MANIFEST_ERROR_READ,
			    "%s: %zu bytes, more than the %zu allowed", path, (size_t)len, (size_t)max);
		return NULL;
	}
	if (memchr(data, '\0', len) || !g_utf8_validate(data, len, NULL))
		return invalid(error, path, "not UTF-8 text", ""), NULL;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	if (!g_key_file_load_from_data(kf, data, len, G_KEY_FILE_NONE, &err))
		return invalid(error, path, err->message, ""), NULL;
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	g_autofree char *want = g_strdup_printf("[%s]", group);
	for (int i = 0; groups[i]; i++)
		if (strcmp(groups[i], group) != 0) {
			g_autofree char *why = g_strdup_printf("unknown group, want only %s: ", want);
			return invalid(error, path, why, groups[i]), NULL;
		}
	if (!g_key_file_has_group(kf, group))
		return invalid(error, path, "no group ", want), NULL;
	g_auto(GStrv) present = g_key_file_get_keys(kf, group, NULL, NULL);
	for (int i = 0; present && present[i]; i++)
		if (!g_strv_contains(known, present[i])) {
			g_autofree char *list = g_strjoinv(", ", (char **)known);
			g_autofree char *why = g_strdup_printf("unknown key (%s): ", list);
			return invalid(error, path, why, present[i]), NULL;
		}
	return g_steal_pointer(&kf);
}

char *ladder_keyfile_value(GKeyFile *kf, const char *group, const char *key)
{
	g_autofree char *v = g_key_file_get_string(kf, group, key, NULL);

	if (!v)
		return NULL;
	g_strstrip(v);
	return v[0] ? g_steal_pointer(&v) : NULL;
}

LadderManifest *ladder_manifest_read(const char *path, GError **error)
{
	g_autoptr(GKeyFile) kf = ladder_keyfile_load(path, LADDER_MANIFEST_MAX, GROUP, keys, error);

	if (!kf)
		return NULL;
	g_autoptr(LadderManifest) m = g_new0(LadderManifest, 1);
	m->command = ladder_keyfile_value(kf, GROUP, "command");
	if (!m->command)
		return invalid(error, path, "no command= in [bot]", "");
	m->name = ladder_keyfile_value(kf, GROUP, "name");
	m->author = ladder_keyfile_value(kf, GROUP, "author");
	m->description = ladder_keyfile_value(kf, GROUP, "description");
	return g_steal_pointer(&m);
}
