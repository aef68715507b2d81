/*
 * matrixsocial: the Main Match AI's table talk. See matrixsocial.h.
 *
 * Reading with a time limit needs poll() on the input descriptor, which is
 * only exact when stdio holds nothing back: bot-matrix makes its standard
 * input unbuffered in protocol mode.
 */
#include "matrixsocial.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "botclock.h"
#include "botio.h"
#include "scan.h"
#include "matrix.h"

#define LISTEN_MS 40		/* how long to wait for offers when none are ours */
#define OPEN_MS 150		/* the most to wait for answers to our offers */
#define MARGIN 1.0		/* a trade must gain more than this */
#define MAX_COMBOS 1024
#define WINDOW_MARGIN_MS 100	/* moves this long before a talk window ends */

void matrixsocial_init(MatrixSocial *m)
{
	m->round = 0;
	m->piece = -1;
}

double matrixsocial_value(const MatrixState *s, int me, const int8_t *held, int n, Move *best)
{
	static MatrixState t;
	static Move moves[MAX_COMBOS];
	double v = -MATRIX_MISS_PENALTY;

	if (best)
		*best = 0;
	if (n == 0)
		return 0;
	t = *s;
	t.nheld[me] = 0;
	for (int i = 0; i < n; i++) {
		/* sorted by kind, as the rules keep a holding */
		int k = t.nheld[me]++;
		while (k > 0 && t.held[me][k - 1] > held[i]) {
			t.held[me][k] = t.held[me][k - 1];
			k--;
		}
		t.held[me][k] = held[i];
	}
	int nm = matrix_held_moves(&t, me, moves, MAX_COMBOS);
	for (int i = 0; i < nm; i++) {
		MatrixOutcome o;
		matrix_resolve(&t.board, t.height, 1, &moves[i], &o, NULL);
		if (i == 0 || o.delta > v) {
			v = o.delta;
			if (best)
				*best = moves[i];
		}
	}
	return v;
}


/* A holding with piece `take` instead of `give` (give -1: added). */
static int swap_held(const MatrixState *s, int me, int give, int take, int8_t *out)
{
	int n = 0;

	for (int i = 0; i < s->nheld[me]; i++)
		if (s->held[me][i] != give)
			out[n++] = s->held[me][i];
	if (take >= 0 && n < MATRIX_MAX_HELD)
		out[n++] = (int8_t)take;
	return n;
}

static double held_value(const MatrixState *s, int me)
{
	return matrixsocial_value(s, me, s->held[me], s->nheld[me], NULL);
}

/* Answer `offered ID FROM GIVE WANT`. */
static void answer(MatrixState *s, int me, const char *args, FILE *out)
{
	int id, from;
	char give, want;
	int8_t h[MATRIX_MAX_HELD];

	if (sscanf(args, "%d %d %c %c", &id, &from, &give, &want) != 4)
		return;
	int g = piece_from_letter(give), w = want == '-' ? -1 : piece_from_letter(want);
	bool have = w < 0 ? s->nheld[me] < MATRIX_MAX_HELD : false;
	for (int i = 0; w >= 0 && i < s->nheld[me]; i++)
		have |= s->held[me][i] == w;
	if (g != PIECE_NONE && have) {
		int n = w < 0 ? swap_held(s, me, -1, g, h) : swap_held(s, me, w, g, h);
		if (matrixsocial_value(s, me, h, n, NULL) > held_value(s, me) + 0.5) {
			fprintf(out, "accept %d\n", id);
			fflush(out);
			return;
		}
	}
	fprintf(out, "refuse %d\n", id);
	fflush(out);
}

/* `held PIECES`: the holding after a trade or gift. */
static void set_held(MatrixState *s, int me, const char *letters)
{
	s->nheld[me] = 0;
	for (const char *c = letters; *c && *c != ' ' && *c != '-'; c++) {
		PieceKind k = piece_from_letter(*c);
		if (k != PIECE_NONE && s->nheld[me] < MATRIX_MAX_HELD)
			s->held[me][s->nheld[me]++] = (int8_t)k;
	}
}

/* Whether seat q is one we may talk to (`talk=all` or `talk=A,B`). */
static bool partner(const char *talk, int q)
{
	int a, b;

	if (!talk)
		return false;
	if (strncmp(talk, "all", 3) == 0)
		return true;
	if (sscanf(talk, "%d,%d", &a, &b) == 2)
		return q == a || q == b;
	return sscanf(talk, "%d", &a) == 1 && q == a;
}

/* Answer `heard FROM TEXT` from a partner, once a round each: what we
 * hold and the piece we would take for it. */
static void reply(MatrixState *s, int me, const char *talk, const char *args, uint32_t *replied, FILE *out)
{
	int from;

	if (sscanf(args, "%d", &from) != 1 || from < 0 || from >= s->nplayers || from == me ||
	    (*replied >> from & 1u) || !partner(talk, from))
		return;
	*replied |= 1u << from;
	if (s->nheld[me] != 1) {
		fprintf(out, "say %d hello, I hold %d pieces\n", from, s->nheld[me]);
		fflush(out);
		return;
	}
	int mine = s->held[me][0], best = -1;
	double bv = held_value(s, me) + MARGIN;
	int8_t h[MATRIX_MAX_HELD];
	for (int k = 0; k < PIECE_COUNT; k++) {
		if (k == mine)
			continue;
		int n = swap_held(s, me, mine, k, h);
		double val = matrixsocial_value(s, me, h, n, NULL);
		if (val > bv) {
			bv = val;
			best = k;
		}
	}
	if (best >= 0)
		fprintf(out, "say %d hello, I hold %c and would trade it for %c\n", from,
			piece_letter((PieceKind)mine), piece_letter((PieceKind)best));
	else
		fprintf(out, "say %d hello, I hold %c and keep it\n", from, piece_letter((PieceKind)mine));
	fflush(out);
}

void matrixsocial_side(const Variant *v, void *state, int seat, const char *text, int ms_left,
		       FILE *in, FILE *out, void *ctx)
{
	MatrixState *s = state;
	MatrixSocial *mem = ctx;
	const char *talk = scan_field(text, "talk", NULL);
	int round = s->round + 1;
	int last_piece = mem->round == round - 1 ? mem->piece : -1;
	int open = 0;		/* offers and gifts sent, not yet answered */
	int ours[MATRIX_MAX_OPEN], nours = 0;	/* ids of ours still open */
	static char line[BOTIO_LINE_MAX + 1];

	(void)v;
	/* (with nothing to place, only a talk window is worth listening to) */
	if (s->stage != MATRIX_STAGE_PLACE || (s->nheld[seat] < 1 && s->talk_ms == 0))
		return;
	mem->round = round;
	mem->piece = s->nheld[seat] ? s->held[seat][0] : -1;
	int mine = mem->piece;
	double now = held_value(s, seat);

	if (s->nheld[seat] == 1 && talk) {
		int8_t h[MATRIX_MAX_HELD];
		if (strncmp(talk, "all", 3) == 0) {
			/* Free talk: ask everyone for the best piece. */
			int best = -1;
			double bv = now + MARGIN;
			for (int k = 0; k < PIECE_COUNT; k++) {
				if (k == mine)
					continue;
				int n = swap_held(s, seat, mine, k, h);
				double val = matrixsocial_value(s, seat, h, n, NULL);
				if (val > bv) {
					bv = val;
					best = k;
				}
			}
			for (int q = 0; best >= 0 && q < s->nplayers; q++) {
				if (q == seat || (s->retired >> q & 1u))
					continue;
				fprintf(out, "offer %d %c %c\n", q, piece_letter((PieceKind)mine),
					piece_letter((PieceKind)best));
				fflush(out);
				open++;
			}
		} else if (last_piece >= 0 && last_piece != mine) {
			/* talk=A,B: B holds our last-round piece. */
			int a, b;
			if (sscanf(talk, "%d,%d", &a, &b) == 2) {
				int n = swap_held(s, seat, mine, last_piece, h);
				if (matrixsocial_value(s, seat, h, n, NULL) > now + MARGIN) {
					fprintf(out, "offer %d %c %c\n", b, piece_letter((PieceKind)mine),
						piece_letter((PieceKind)last_piece));
					fflush(out);
					open++;
				}
				/* A holds one of the other pieces, we do not know which:
				 * ask for the best of them, in case. */
				int best = -1;
				double bv = now + MARGIN;
				for (int k = 0; s->nplayers == MATRIX_MAX_PLAYERS && k < PIECE_COUNT; k++) {
					if (k == mine || k == last_piece)
						continue;
					int n2 = swap_held(s, seat, mine, k, h);
					double val = matrixsocial_value(s, seat, h, n2, NULL);
					if (val > bv) {
						bv = val;
						best = k;
					}
				}
				if (best >= 0) {
					fprintf(out, "offer %d %c %c\n", a, piece_letter((PieceKind)mine),
						piece_letter((PieceKind)best));
					fflush(out);
					open++;
				}
			}
		}
	}
	if (mine >= 0 && now <= -MATRIX_MISS_PENALTY && s->gifts_left[seat] > 0) {
		/* Cannot place it: give it to the weakest seat instead. */
		int to = -1;
		for (int q = 0; q < s->nplayers; q++)
			if (q != seat && !(s->retired >> q & 1u) && (to < 0 || s->score[q] < s->score[to]))
				to = q;
		if (to >= 0) {
			fprintf(out, "gift %d %c\n", to, piece_letter((PieceKind)mine));
			fflush(out);
			open++;
		}
	}
	double start = botclock_ms();
	long budget = ms_left / 4;
	if (budget > OPEN_MS)
		budget = OPEN_MS;
	/* A talk window (option `talk`): listen through it, at a person's
	 * pace, and move just before it ends (its time is not clocked). */
	long window = s->talk_ms > WINDOW_MARGIN_MS ? s->talk_ms - WINDOW_MARGIN_MS : 0;
	uint32_t replied = 0;
	for (;;) {
		long waited = (long)(botclock_ms() - start);
		long limit = window ? window : open + nours > 0 ? budget : (budget < LISTEN_MS ? budget : LISTEN_MS);
		if (waited >= limit)
			break;
		struct pollfd pfd = {.fd = fileno(in), .events = POLLIN};
		if (poll(&pfd, 1, (int)(limit - waited)) <= 0)
			break;
		if (!botio_read_line(in, line))
			break;
		if (strncmp(line, "offered ", 8) == 0) {
			answer(s, seat, line + 8, out);
		} else if (strncmp(line, "heard ", 6) == 0) {
			reply(s, seat, talk, line + 6, &replied, out);
		} else if (strncmp(line, "held ", 5) == 0) {
			set_held(s, seat, line + 5);
		} else if (strncmp(line, "ok offer ", 9) == 0 || strncmp(line, "ok gift ", 8) == 0) {
			int id;
			if (open > 0)
				open--;
			if (sscanf(line + (line[3] == 'o' ? 9 : 8), "%d", &id) == 1 &&
			    nours < MATRIX_MAX_OPEN)
				ours[nours++] = id;
		} else if (strncmp(line, "refused offer", 13) == 0 ||
			   strncmp(line, "refused gift", 12) == 0) {
			if (open > 0)
				open--;
		} else if (strncmp(line, "traded ", 7) == 0 || strncmp(line, "closed ", 7) == 0) {
			int id;
			if (sscanf(line + 7, "%d", &id) == 1)
				for (int i = 0; i < nours; i++)
					if (ours[i] == id) {
						ours[i] = ours[--nours];
						break;
					}
		}
		/* heard, ok, other lines: nothing to do */
	}
}
