/*
 * prog-engine: the engine's own answers, straight from the variant tables
 * (variant.h, never engine/api.h), for the tests that hold protocol.md's
 * examples (t4008) and the Python module (t4009) against them.
 *
 *   prog-engine judge <RECORDS
 *       Each record is one line of tab-separated fields:
 *       WHERE VARIANT SEAT EXPECT MOVE STATE
 *       (STATE: a `go` line or its key=value fields; EXPECT: legal,
 *       illegal or malformed; WHERE: any label). Each prints
 *       `PASS WHERE MOVE` or `FAIL WHERE MOVE: expected E, got G`; a
 *       state that does not parse is `FAIL WHERE: state does not parse`.
 *       Exits 1 when any record failed, 0 otherwise.
 *
 *   prog-engine dump <RECORDS
 *       Each record: VARIANT SEAT STATE (tab-separated). Prints for each
 *       the state's legal moves of SEAT, its scores and picture, and for
 *       a fixed sample of those moves (see sample() in tetrarena.py's
 *       test, t4009-dump.py) the state after the move and its scores,
 *       in the exact format t4009-dump.py prints through the Python
 *       module. Start reading at main().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

#define TEXT_CAP (1 << 22)

static char text_buf[TEXT_CAP];

/* Skip `go MS bank=B`, keep the key=value fields. */
static const char *fields(const char *line)
{
	const char *p = line;

	if (strncmp(p, "go ", 3) == 0) {
		p += 3;
		p += strcspn(p, " ");
		while (*p == ' ')
			p++;
	}
	if (strncmp(p, "bank=", 5) == 0) {
		p += strcspn(p, " ");
		while (*p == ' ')
			p++;
	}
	return p;
}

static bool parse_state(const Variant *v, const char *line, void *state)
{
	const char *p = fields(line);
	const char *np = strstr(p, "players=");
	VariantConfig cfg;

	if (!np)
		return false;
	variant_config_default(v, (int)strtol(np + 8, NULL, 10), &cfg);
	memset(state, 0, v->state_size);
	return v->state_parse(state, &cfg, p);
}

/* Split a line at tabs into at most n fields; returns how many. */
static int split(char *line, char **out, int n)
{
	int k = 0;

	while (k < n) {
		out[k++] = line;
		char *t = strchr(line, '\t');
		if (!t || k == n)
			break;
		*t = '\0';
		line = t + 1;
	}
	return k;
}

static const char *verdict(const Variant *v, const void *state, int seat, const char *text,
			   Move *scratch)
{
	Move m;

	if (!v->move_parse(state, seat, text, &m))
		return "malformed";
	return variant_move_is_legal(v, state, seat, m, scratch) ? "legal" : "illegal";
}

static int judge(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int failed = 0;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		char *f[6];
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (split(line, f, 6) != 6) {
			printf("FAIL bad record: %s\n", line);
			failed = 1;
			continue;
		}
		const Variant *v = variant_find(f[1]);
		if (!v) {
			printf("FAIL %s: unknown variant %s\n", f[0], f[1]);
			failed = 1;
			continue;
		}
		void *state = calloc(1, v->state_size);
		Move *scratch = malloc(sizeof(Move) * (size_t)v->max_moves);
		if (!state || !scratch)
			return 2;
		if (!parse_state(v, f[5], state)) {
			printf("FAIL %s: state does not parse\n", f[0]);
			failed = 1;
		} else {
			const char *got = verdict(v, state, atoi(f[2]), f[4], scratch);
			if (strcmp(got, f[3]) == 0) {
				printf("PASS %s %s\n", f[0], f[4]);
			} else {
				printf("FAIL %s %s: expected %s, got %s\n", f[0], f[4], f[3], got);
				failed = 1;
			}
		}
		free(state);
		free(scratch);
	}
	free(line);
	return failed;
}

static void put_scores(const Variant *v, const void *state, int np)
{
	int sc[VARIANT_MAX_PLAYERS];

	v->scores(state, sc);
	printf("scores");
	for (int p = 0; p < np; p++)
		printf(" %d", sc[p]);
	printf("\n");
}

/* The indices of the sampled moves of a list of n: every step-th, and the
 * last. The same rule is in t4009-dump.py. */
static bool sampled(int i, int n)
{
	int step = n / 6 + 1;

	return i % step == 0 || i == n - 1;
}

static int dump(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		char *f[3];
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (split(line, f, 3) != 3)
			return 2;
		const Variant *v = variant_find(f[0]);
		int seat = atoi(f[1]);
		const char *np = strstr(f[2], "players=");
		if (!v || !np)
			return 2;
		int nplayers = (int)strtol(np + 8, NULL, 10);
		void *state = calloc(1, v->state_size), *after = calloc(1, v->state_size);
		Move *moves = malloc(sizeof(Move) * (size_t)v->max_moves);
		Text t;
		uint32_t mask;
		if (!state || !after || !moves)
			return 2;
		printf("state %s %d\n", v->name, seat);
		if (!parse_state(v, f[2], state)) {
			printf("unparsed\n");
			goto next;
		}
		VariantPhase ph = v->phase(state, &mask);
		int k = ph == VARIANT_PHASE_OVER || ph == VARIANT_PHASE_CHANCE || !(mask >> seat & 1u)
				? 0 : v->legal_moves(state, seat, moves);
		printf("moves");
		for (int i = 0; i < k; i++) {
			text_init(&t, text_buf, TEXT_CAP);
			v->move_format(state, seat, moves[i], &t);
			printf(" %s", text_buf);
		}
		printf("\n");
		put_scores(v, state, nplayers);
		text_init(&t, text_buf, TEXT_CAP);
		v->render(state, false, &t);
		printf("render\n%s\n", text_buf);
		for (int i = 0; i < k; i++) {
			if (!sampled(i, k))
				continue;
			memcpy(after, state, v->state_size);
			text_init(&t, text_buf, TEXT_CAP);
			v->move_format(state, seat, moves[i], &t);
			printf("apply %s\n", text_buf);
			if (ph == VARIANT_PHASE_SIMULTANEOUS) {
				Move joint[VARIANT_MAX_PLAYERS] = {0};
				joint[seat] = moves[i];
				v->apply_joint(after, joint, 1u << seat);
			} else {
				v->apply(after, seat, moves[i]);
			}
			text_init(&t, text_buf, TEXT_CAP);
			v->state_format(after, seat, &t);
			printf("after %s\n", text_buf);
			put_scores(v, after, nplayers);
		}
next:
		free(state);
		free(after);
		free(moves);
	}
	free(line);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "judge") == 0)
		return judge();
	if (argc == 2 && strcmp(argv[1], "dump") == 0)
		return dump();
	fprintf(stderr, "usage: prog-engine judge|dump <RECORDS\n");
	return 2;
}
