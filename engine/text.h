/*
 * text: a bounded string builder over a caller's buffer, so that the
 * engine can format notation, protocol payloads and pictures without I/O
 * or allocation.
 *
 * The buffer always holds a NUL-terminated string. Writing past the
 * capacity truncates and sets `overflow`; callers that need the whole text
 * check it. A Text with cap 0 is invalid.
 */
#ifndef TETRARENA_ENGINE_TEXT_H
#define TETRARENA_ENGINE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct {
	char *buf;	/* caller's storage, cap bytes */
	size_t cap;	/* capacity including the NUL */
	size_t len;	/* bytes written, excluding the NUL */
	bool overflow;	/* something did not fit */
} Text;

/* Start an empty text in buf[cap]. */
void text_init(Text *t, char *buf, size_t cap);

/* Append formatted text (printf rules). */
void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The appenders below are inline: state lines, boards and move lists are
 * formatted for every move the referee asks for, a few bytes at a time.
 */

/* Append one character. */
static inline void text_putc(Text *t, char c)
{
	if (t->len + 1 >= t->cap) {
		t->overflow = true;
		return;
	}
	t->buf[t->len++] = c;
	t->buf[t->len] = '\0';
}

/* Append the n bytes at s. */
static inline void text_putn(Text *t, const char *s, size_t n)
{
	if (t->len + n >= t->cap) {
		n = t->cap - 1 - t->len;
		t->overflow = true;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* Append a string. */
static inline void text_puts(Text *t, const char *s)
{
	text_putn(t, s, strlen(s));
}

/* Append a decimal integer, as "%ld" would. */
static inline void text_int(Text *t, long v)
{
	if (v >= 0 && v < 10) {	/* most numbers in a state line */
		text_putc(t, (char)('0' + v));
		return;
	}
	char s[24];
	char *p = s + sizeof(s);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*--p = '-';
	text_putn(t, p, (size_t)(s + sizeof(s) - p));
}

#endif
