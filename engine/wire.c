/* wire: the protocol lines the referee, the engine and the bots share. See wire.h. */
#include "wire.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool wire_line_is(const char *line, const char *word)
{
	size_t n = strlen(word);

	return strncmp(line, word, n) == 0 && (line[n] == ' ' || line[n] == '\0');
}

/* A decimal number of digits alone at *s that fits a long, moving *s past it. */
static bool digits(const char **s, long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return false;
	errno = 0;
	long x = strtol(*s, &end, 10);
	if (errno == ERANGE)
		return false;
	*v = x;
	*s = end;
	return true;
}

bool wire_parse_go(const char *line, long *ms, long *bank, const char **state)
{
	const char *s = line;

	if (strncmp(s, "go ", 3) != 0)
		return false;
	s += 3;
	if (!digits(&s, ms) || strncmp(s, " bank=", 6) != 0)
		return false;
	s += 6;
	if (!digits(&s, bank) || *s != ' ')
		return false;
	*state = s + 1;
	return true;
}

/* Past the word at p and the spaces after it. */
static const char *next_word(const char *p)
{
	p += strcspn(p, " ");
	while (*p == ' ')
		p++;
	return p;
}

const char *wire_go_state(const char *line, long *ms)
{
	const char *p = line;

	if (ms)
		*ms = 0;
	if (wire_line_is(p, "go")) {
		p += 2;
		while (*p == ' ')
			p++;
		if (ms && *p != '\0') {
			char *end;
			errno = 0;
			long x = strtol(p, &end, 10);
			if (end != p && (*end == ' ' || *end == '\0') && errno == 0 && x >= -1000000000L &&
			    x <= 1000000000L)
				*ms = x;
		}
		p = next_word(p);
	}
	if (strncmp(p, "bank=", 5) == 0)
		p = next_word(p);
	return p;
}

void wire_move(Text *t, const char *move)
{
	text_puts(t, "move ");
	text_puts(t, move);
}

void wire_refused(Text *t, const char *verb, size_t verb_len, const char *why)
{
	text_puts(t, "refused ");
	text_putn(t, verb, verb_len);
	text_putc(t, ' ');
	text_puts(t, why);
}
