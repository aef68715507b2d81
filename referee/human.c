/* human: the terminal player. See human.h. */
#include "human.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "protocol.h"
#include "variant.h"

#define HUMAN_LINE_MAX PROTOCOL_LINE_MAX

/* Read one protocol line from stdin into buf; false at EOF. */
static gboolean read_line(char *buf, size_t cap)
{
	if (!fgets(buf, (int)cap, stdin))
		return FALSE;
	buf[strcspn(buf, "\r\n")] = '\0';
	return TRUE;
}

/* A line to the referee. */
static void say(char *line)
{
	printf("%s\n", line);
	g_free(line);
}

/* "key=value" field of a `game` line, or NULL. */
static const char *field(char **words, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; words[i]; i++)
		if (strncmp(words[i], key, n) == 0 && words[i][n] == '=')
			return words[i] + n + 1;
	return NULL;
}

int human_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	FILE *tty = fopen("/dev/tty", "r+");
	if (!tty) {
		fprintf(stderr, "referee: the human player needs a terminal (/dev/tty)\n");
		return 1;
	}
	gboolean colour = isatty(fileno(tty));
	const Variant *v = NULL;
	VariantConfig cfg = {0};
	void *state = NULL;
	char *line = g_malloc(HUMAN_LINE_MAX);
	char *pic = g_malloc(1 << 16);
	g_auto(GStrv) moves = NULL;
	int seat = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (read_line(line, HUMAN_LINE_MAX)) {
		ProtocolVerb verb = protocol_verb(line);
		ProtocolUpdate update;
		const char *rest;
		if (verb == PROTOCOL_GAME && line[4] == ' ') {
			g_auto(GStrv) w = g_strsplit(line, " ", -1);
			const char *name = field(w, "variant");
			v = name ? variant_find(name) : NULL;
			if (!v) {
				say(protocol_decline_line("unknown variant"));
				continue;
			}
			gint64 np = 2, s = 0;
			g_ascii_string_to_signed(field(w, "players") ? field(w, "players") : "2", 10, 1, 8, &np, NULL);
			g_ascii_string_to_signed(field(w, "seat") ? field(w, "seat") : "0", 10, 0, 7, &s, NULL);
			seat = (int)s;
			variant_config_default(v, (int)np, &cfg);
			const char *opts = field(w, "options");
			if (opts) {
				g_auto(GStrv) kv = g_strsplit(opts, ",", -1);
				for (int i = 0; kv[i]; i++) {
					char *c = strchr(kv[i], ':');
					if (c) {
						*c = '\0';
						variant_option_set(v, &cfg, kv[i], c + 1);
					}
				}
			}
			g_free(state);
			state = g_malloc0(v->state_size);
			fprintf(tty, "\n%s, you are seat %d of %d\n", v->title, seat, (int)np);
			say(protocol_hello_line("human", "1", TRUE, FALSE));
		} else if (verb == PROTOCOL_MOVES) {
			g_strfreev(moves);
			moves = g_strsplit(protocol_args(line), " ", -1);
		} else if (protocol_parse_update(line, &update, &rest)) {
			if (update == PROTOCOL_UPDATE_CHANCE) {
				fprintf(tty, "chance: %s\n", rest);
			} else if (update == PROTOCOL_UPDATE_FAULT) {
				fprintf(tty, "fault: seat %s\n", rest);
			} else {
				const char *sp = strchr(rest, ' ');
				if (sp)
					fprintf(tty, "seat %.*s plays %s\n", (int)(sp - rest), rest, sp + 1);
			}
		} else if (verb == PROTOCOL_REJECTED) {
			fprintf(tty, "rejected: %s\n", protocol_args(line));
		} else if (verb == PROTOCOL_GO && line[2] == ' ' && v) {
			long ms, bank;
			const char *st;
			if (!protocol_parse_go(line, &ms, &bank, &st)) {
				/* (a referee that sends no bank: "go MS STATE") */
				st = strchr(protocol_args(line), ' ');
				st = st ? st + 1 : NULL;
			}
			if (st && v->state_parse(state, &cfg, st)) {
				Text t;
				text_init(&t, pic, 1 << 16);
				v->render(state, colour, &t);
				fprintf(tty, "\n%s", pic);
			}
			int n = moves ? (int)g_strv_length(moves) : 0;
			for (int i = 0; i < n; i++)
				fprintf(tty, "%3d %-10s%s", i + 1, moves[i], i % 6 == 5 || i == n - 1 ? "\n" : "");
			for (;;) {
				char in[256];
				fprintf(tty, "your move (number or notation): ");
				fflush(tty);
				if (!fgets(in, sizeof(in), tty))
					return 1;
				g_strstrip(in);
				guint64 k;
				const char *pick = NULL;
				if (g_ascii_string_to_unsigned(in, 10, 1, (guint64)MAX(n, 1), &k, NULL) && n)
					pick = moves[k - 1];
				for (int i = 0; !pick && i < n; i++)
					if (strcmp(in, moves[i]) == 0)
						pick = moves[i];
				if (pick) {
					say(protocol_move_line(pick));
					break;
				}
				fprintf(tty, "'%s' is not one of the moves above\n", in);
			}
		} else if (verb == PROTOCOL_RESULT && line[6] == ' ') {
			fprintf(tty, "\ngame over: %s (you are seat %d)\n", protocol_args(line), seat);
		} else if (strcmp(line, protocol_quit()) == 0) {
			break;
		}
	}
	g_free(line);
	g_free(pic);
	g_free(state);
	fclose(tty);
	return 0;
}
