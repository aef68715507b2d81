/* scan: bounded scanning of engine text. See scan.h. */
#include "scan.h"

#include <string.h>

bool scan_int(const char **p, int lo, int hi, int *out)
{
	const char *q = *p;
	int v = 0, digits = 0;
	bool neg = false;

	if (*q == '-' && lo < 0) {
		neg = true;
		q++;
	}
	if (q[0] == '0' && q[1] >= '0' && q[1] <= '9')
		return false;	/* no leading zeros: one spelling per number */
	while (*q >= '0' && *q <= '9' && digits < 6) {
		v = v * 10 + (*q - '0');
		q++;
		digits++;
	}
	if (!digits || (*q >= '0' && *q <= '9'))
		return false;
	if (neg)
		v = -v;
	if (v < lo || v > hi)
		return false;
	*out = v;
	*p = q;
	return true;
}

bool scan_key(const char **p, const char *key)
{
	const char *q = *p;
	size_t n = strlen(key);

	while (*q == ' ')
		q++;
	if (strncmp(q, key, n) != 0 || q[n] != '=')
		return false;
	*p = q + n + 1;
	return true;
}

bool scan_name(const char **p, const char *const *names, int n, const char *stops, int *out)
{
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		char next;
		if (!len || strncmp(*p, names[i], len) != 0)
			continue;
		next = (*p)[len];
		if (next == '\0' || next == ' ' || strchr(stops, next)) {
			*out = i;
			*p += len;
			return true;
		}
	}
	return false;
}

bool scan_char(const char **p, char c)
{
	if (**p != c || c == '\0')
		return false;
	(*p)++;
	return true;
}

const char *scan_field(const char *text, const char *key, size_t *len)
{
	size_t n = strlen(key);
	const char *p = text;

	while (*p) {
		while (*p == ' ')
			p++;
		size_t word = strcspn(p, " ");
		if (word > n && strncmp(p, key, n) == 0 && p[n] == '=') {
			if (len)
				*len = word - n - 1;
			return p + n + 1;
		}
		p += word;
	}
	return NULL;
}

void scan_skip_value(const char **p)
{
	while (**p && **p != ' ')
		(*p)++;
}
