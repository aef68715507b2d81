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
