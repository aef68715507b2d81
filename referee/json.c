/*
 * json: the referee's JSON output. See json.h.
 */
#include "json.h"

void json_string(GString *out, const char *s)
{
	if (!s) {
		g_string_append(out, "null");
		return;
	}
	g_string_append_c(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || *p == '<')
			g_string_append_printf(out, "\\u%04x", *p);
		else
			g_string_append_c(out, (char)*p);
	}
	g_string_append_c(out, '"');
}

void json_double(GString *out, double x, int decimals)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	char fmt[8];

	g_snprintf(fmt, sizeof(fmt), "%%.%df", CLAMP(decimals, 0, 9));
	g_string_append(out, g_ascii_formatd(buf, sizeof(buf), fmt, x));
}
