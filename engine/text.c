/* text: bounded string building. */
#include "text.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void text_init(Text *t, char *buf, size_t cap)
{
	assert(cap > 0);
	t->buf = buf;
	t->cap = cap;
	t->len = 0;
	t->overflow = false;
	buf[0] = '\0';
}

void text_printf(Text *t, const char *fmt, ...)
{
	va_list ap;
	size_t room = t->cap - t->len;

	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		t->overflow = true;
		t->len = t->cap - 1;
	} else {
		t->len += (size_t)n;
	}
}

void text_putn(Text *t, const char *s, size_t n)
{
	if (t->len + n >= t->cap) {
		n = t->cap - 1 - t->len;
		t->overflow = true;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

void text_puts(Text *t, const char *s)
{
	text_putn(t, s, strlen(s));
}

void text_int(Text *t, long v)
{
	if (v >= 0 && v < 10) {	/* most numbers in a state line */
		text_putc(t, (char)('0' + v));
		return;
	}
	char s[24];
	char *p = s + sizeof(s) - 1;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	*p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*--p = '-';
	text_putn(t, p, (size_t)(s + sizeof(s) - 1 - p));
}
