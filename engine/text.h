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

/* Append one character. (Inline: boards are drawn a cell at a time.) */
static inline void text_putc(Text *t, char c)
{
	if (t->len + 1 >= t->cap) {
		t->overflow = true;
		return;
	}
	t->buf[t->len++] = c;
	t->buf[t->len] = '\0';
}

/* Append a string. */
void text_puts(Text *t, const char *s);

/* Append the n bytes at s. */
void text_putn(Text *t, const char *s, size_t n);

/* Append a decimal integer (as "%ld" would, without printf's cost: state
 * lines are formatted for every move). */
void text_int(Text *t, long v);

#endif
