/*
 * nostart: whether a seat never started, and why, from its game's log
 * (referee/nostart.h). The log's lines are docs/gamelog.md's: a seat that
 * never started has `fault SEAT start DETAIL` or a received
 * `< SEAT +US decline REASON` followed by `fault SEAT declined`.
 */
#include "nostart.h"
#include "protocol.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "gamelog.h"

gboolean nostart_seat(const int *faults, int moves)
{
	return moves == 0 && (faults[GAME_FAULT_START] > 0 || faults[GAME_FAULT_DECLINED] > 0);
}

gboolean nostart_faults_text(const char *faults, int moves)
{
	g_auto(GStrv) kinds = NULL;

	if (moves != 0 || !faults)
		return FALSE;
	kinds = g_strsplit(faults, "+", -1);
	for (int i = 0; kinds[i]; i++)
		if (g_str_has_prefix(kinds[i], "start:") || g_str_has_prefix(kinds[i], "declined:"))
			return TRUE;
	return FALSE;
}

/* The rest of `line` after the prefix "WORD SEAT " (and, for traffic
 * lines "< SEAT +US ", the time), or NULL. */
static const char *after_seat(const char *line, const char *word, int seat, gboolean timed)
{
	g_autofree char *prefix = g_strdup_printf("%s %d ", word, seat);
	const char *p;

	if (!g_str_has_prefix(line, prefix))
		return NULL;
	p = line + strlen(prefix);
	if (timed) {
		if (*p != '+')
			return NULL;
		p = strchr(p, ' ');
		if (!p)
			return NULL;
		p++;
	}
	return p;
}

/* Whether a line of stderr reads as the error itself: "Error: Cannot
 * find module", "can't open file", "No such file", "not found", ... (a
 * Node.js crash ends with its version, a stack trace with frames). */
static gboolean error_line(const char *line)
{
	static const char *const words[] = {"error", "cannot", "can't", "not found", "no such file",
					    "denied", "fatal", "failed", "unable", NULL};
	g_autofree char *low = g_ascii_strdown(line, -1);

	for (int i = 0; words[i]; i++)
		if (strstr(low, words[i]))
			return TRUE;
	return FALSE;
}

/* The line of the seat's stderr (LOG.seatN.stderr, its first 16 KiB)
 * that says what went wrong: the first that reads as an error, else the
 * last line; or NULL. */
static char *stderr_line(const char *log_path, int seat)
{
	g_autofree char *path = g_strdup_printf("%s.seat%d.stderr", log_path, seat);
	char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n;
	char *pick = NULL;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	g_auto(GStrv) lines = g_strsplit(buf, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		g_strstrip(lines[i]);
		if (!lines[i][0] || (!lines[i + 1] && n == sizeof(buf) - 1))
			continue;	/* empty, or cut off at the end of what was read */
		if (error_line(lines[i])) {
			pick = lines[i];
			break;
		}
		pick = lines[i];
	}
	if (!pick)
		return NULL;
	/* shown on a terminal: escaped as the log escapes a bot's line */
	return gamelog_escape(pick, 0);
}

/* Whether a line says a file was not there. */
static gboolean missing_file(const char *line)
{
	static const char *const words[] = {"no such file", "not found", "cannot find", "can't open file",
					    "cannot open", NULL};
	g_autofree char *low = g_ascii_strdown(line, -1);

	for (int i = 0; words[i]; i++)
		if (strstr(low, words[i]))
			return TRUE;
	return FALSE;
}

/* Whether the log says the bots ran jailed (its `sandbox on` line). */
static gboolean jailed(const char *log)
{
	return g_str_has_prefix(log, "sandbox on") || strstr(log, "\nsandbox on");
}

static char *with_stderr(char *reason, const char *log_path, const char *log, int seat)
{
	g_autofree char *line = stderr_line(log_path, seat);
	char *both;

	if (!line)
		return reason;
	if (jailed(log) && missing_file(line))
		both = g_strdup_printf("%s (stderr: %s); jailed, a bot sees only the files its command "
				       "names and its workdir: give the directory it reads from as "
				       "workdir= in a bots file (or check --workdir DIR)", reason, line);
	else
		both = g_strdup_printf("%s (stderr: %s)", reason, line);
	g_free(reason);
	return both;
}

char *nostart_reason(const char *log_path, int seat)
{
	g_autofree char *buf = g_malloc(NOSTART_SCAN_MAX + 1);
	g_autofree char *decline = NULL;
	g_auto(GStrv) lines = NULL;
	FILE *f = fopen(log_path, "r");
	size_t n;

	if (!f)
		return g_strdup_printf("no reason recorded (cannot read %s: %s)", log_path,
				       g_strerror(errno));
	n = fread(buf, 1, NOSTART_SCAN_MAX, f);
	fclose(f);
	buf[n] = '\0';
	lines = g_strsplit(buf, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		const char *rest;

		if ((rest = after_seat(lines[i], "<", seat, TRUE)) && protocol_verb(rest) == PROTOCOL_DECLINE) {
			rest += strlen(protocol_verb_name(PROTOCOL_DECLINE));
			g_free(decline);
			decline = g_strstrip(g_strdup(rest));
		} else if ((rest = after_seat(lines[i], "fault", seat, FALSE))) {
			if (g_str_has_prefix(rest, "start")) {
				rest += strlen("start");
				while (*rest == ' ')
					rest++;
				return with_stderr(g_strdup(*rest ? rest : "no hello in time"), log_path,
						   buf, seat);
			}
			if (g_str_has_prefix(rest, "declined"))
				return decline && *decline ? g_strdup_printf("declined: %s", decline)
							   : g_strdup("declined");
		}
	}
	return g_strdup("no reason recorded");
}
