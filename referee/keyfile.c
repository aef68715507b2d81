/* keyfile: see keyfile.h. */
#include "keyfile.h"

#include <string.h>

gboolean keyfile_load(GKeyFile *kf, const char *path, GError **error)
{
	g_autofree char *data = NULL;
	gsize len;
	const char *bad;

	if (!g_file_get_contents(path, &data, &len, error))
		return FALSE;
	if (!g_utf8_validate(data, (gssize)len, &bad)) {
		int line = 1;
		for (const char *p = data; p < bad; p++)
			line += *p == '\n';
		g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_UNKNOWN_ENCODING,
			    "line %d: not UTF-8 (byte 0x%02x)%s", line, (unsigned char)*bad,
			    *bad ? "" : ", a NUL byte");
		return FALSE;
	}
	return g_key_file_load_from_data(kf, data, len, G_KEY_FILE_NONE, error);
}
