/*
 * matrix: the Main Match. See matrix.h for the rules as played here.
 *
 * Invariants of MatrixState: rounds 0 .. dealt-1 are dealt and those from
 * dealt - MATRIX_DEAL_SPAN on are kept in deal[]; in the place stage
 * round + 1 < dealt (everyone can see their next piece) and held[] starts
 * as the round's deal (trades and gifts move pieces: the social layer below); score[p] is the sum of
 * every outcome's delta; the board never holds a full row between rounds.
 */
#include "matrix.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"
#include "wire.h"

static const VariantOption matrix_options[MATRIX_OPT_COUNT] = {
	{"width", 10, 4, MATRIX_MAX_WIDTH, "columns of the matrix"},
	{"height", 20, 4, 40, "rows of the matrix"},
	{"buffer", 20, 4, 22, "rows of buffer above the matrix"},
	{"target", 49, 1, 999, "points that end the game"},
	{"rounds", 1000, 1, 9999, "rounds after which the game stops (a safety net)"},
	/* Read by the referee, not the rules (protocol.md, table talk). */
	{"talk", 0, 0, 600000, "ms of talk a round before moves are final (0: none; a server: 20000 with a person)"},
};

/* ---- moves ---------------------------------------------------------- */

static uint16_t pack(const SrsPos *p)
{
	assert(p->kind >= 0 && p->kind < PIECE_COUNT && p->x >= -2 && p->x <= 29);
	assert(p->y >= 0 && p->y < 64);
	return (uint16_t)((p->kind + 1) << 13 | p->rot << 11 | (p->x + 2) << 6 | p->y);
}

static SrsPos unpack(uint16_t v)
{
	return (SrsPos){(int8_t)((v >> 13) - 1), (int8_t)(v >> 11 & 3),
			(int8_t)((v >> 6 & 31) - 2), (int8_t)(v & 63)};
}

Move matrix_move(const SrsPos *p)
{
	return pack(p);
}

bool matrix_move_add(Move *m, const SrsPos *p)
{
	for (int i = 0; i < MATRIX_MAX_HELD; i++) {
		if ((*m >> (16 * i) & 0xffff) == 0) {
			*m |= (Move)pack(p) << (16 * i);
			return true;
		}
	}
	return false;
}

int matrix_move_positions(Move m, SrsPos *out)
{
	int n = 0;

	for (int i = 0; i < MATRIX_MAX_HELD; i++) {
		uint16_t v = (uint16_t)(m >> (16 * i));
		if (v)
			out[n++] = unpack(v);
	}
	return n;
}

/* ---- placement ------------------------------------------------------ */

bool matrix_spawn(const MatrixState *s, PieceKind kind, SrsPos *out)
{
	return srs_spawn(&s->board, kind, (s->width - 1) / 2, s->height, out);
}

int matrix_placements(const MatrixState *s, PieceKind kind, SrsPos *out)
{
	SrsPos spawn;

	if (!matrix_spawn(s, kind, &spawn))
		return 0;
	return srs_landings(&s->board, &spawn, true, out);
}

PieceKind matrix_piece(const MatrixState *s, int player)
{
	if (s->stage != MATRIX_STAGE_PLACE || s->nheld[player] < 1)
		return PIECE_NONE;
	return (PieceKind)s->held[player][0];
}

PieceKind matrix_next_piece(const MatrixState *s, int player)
{
	int r = s->round + 1;

	if (s->stage == MATRIX_STAGE_OVER || r >= s->dealt)
		return PIECE_NONE;
	return (PieceKind)s->deal[r % MATRIX_DEAL_SPAN][player];
}

/* Whether move m places exactly the pieces `player` holds, legally. */
static bool move_legal(const MatrixState *s, int player, Move m)
{
	SrsPos pos[MATRIX_MAX_HELD], spawn;
	int n = matrix_move_positions(m, pos);

	if (s->nheld[player] != 1)
		return matrix_move_legal(s, player, m);	/* traded or given pieces */
	if (n != 1 || m != matrix_move(&pos[0]) || s->nheld[player] != 1)
		return false;
	if (pos[0].kind != s->held[player][0] || pos[0].rot >= SRS_ROTS)
		return false;
	if (!matrix_spawn(s, (PieceKind)pos[0].kind, &spawn))
		return false;
	return srs_reachable(&s->board, &spawn, true, &pos[0]);
}

void matrix_holes(const Board *b, BoardRow *hole)
{
	BoardRow full = board_full_row(b->width);
	BoardRow edge = (BoardRow)(1u << (b->width - 1));

	for (int y = 0; y < b->height; y++) {
		BoardRow row = b->rows[y];
		BoardRow left = (BoardRow)((row << 1) | 1u);	/* x - 1 filled or wall */
		BoardRow right = (BoardRow)((row >> 1) | edge);
		BoardRow down = y > 0 ? b->rows[y - 1] : full;
		BoardRow up = y + 1 < b->height ? b->rows[y + 1] : full;
		hole[y] = (BoardRow)(~row & full & left & right & down & up);
	}
}

int matrix_resolve(const Board *board, int height, int n, const Move *moves,
		   MatrixOutcome *out, Board *after)
{
	SrsPos pos[MATRIX_MAX_PLAYERS][MATRIX_MAX_HELD];
	int npos[MATRIX_MAX_PLAYERS];
	BoardRow once[BOARD_MAX_HEIGHT] = {0}, many[BOARD_MAX_HEIGHT] = {0};
	BoardRow hole[BOARD_MAX_HEIGHT];
	Board b = *board;
	uint64_t cleared;
	int ncleared;

	assert(n >= 1 && n <= MATRIX_MAX_PLAYERS);
	/* Coverage: `once` has cells covered at least once, `many` twice. */
	for (int p = 0; p < n; p++) {
		npos[p] = matrix_move_positions(moves[p], pos[p]);
		for (int k = 0; k < npos[p]; k++) {
			int cx[4], cy[4];
			srs_cells(&pos[p][k], cx, cy);
			for (int i = 0; i < 4; i++) {
				BoardRow bit = (BoardRow)(1u << cx[i]);
				assert(board_inside(&b, cx[i], cy[i]) && !board_get(board, cx[i], cy[i]));
				many[cy[i]] |= (BoardRow)(once[cy[i]] & bit);
				once[cy[i]] |= bit;
			}
		}
	}
	for (int y = 0; y < b.height; y++)
		b.rows[y] |= once[y];
	cleared = board_clear_full_rows(&b);
	ncleared = __builtin_popcountll(cleared);
	matrix_holes(&b, hole);
	for (int p = 0; p < n; p++) {
		MatrixOutcome *o = &out[p];
		memset(o, 0, sizeof(*o));
		if (npos[p] == 0) {
			o->missed = 1;
			o->delta = -MATRIX_MISS_PENALTY;
			continue;
		}
		uint64_t mine = 0;
		for (int k = 0; k < npos[p]; k++) {
			int cx[4], cy[4], low = 99;
			srs_cells(&pos[p][k], cx, cy);
			for (int i = 0; i < 4; i++) {
				if (!(many[cy[i]] >> cx[i] & 1u))
					o->unique++;
				mine |= (uint64_t)1 << cy[i];
				if (cy[i] < low)
					low = cy[i];
				if ((cleared >> cy[i]) & 1u)
					continue;
				/* Where this cell went after the clear. */
				int y = cy[i] - __builtin_popcountll(cleared & (((uint64_t)1 << cy[i]) - 1));
				int x = cx[i];
				if ((x > 0 && (hole[y] >> (x - 1) & 1u)) ||
				    (x + 1 < b.width && (hole[y] >> (x + 1) & 1u)) ||
				    (y > 0 && (hole[y - 1] >> x & 1u)) ||
				    (y + 1 < b.height && (hole[y + 1] >> x & 1u)))
					o->hole = 1;
			}
			if (low >= height)
				o->above = 1;
		}
		o->rows = (int8_t)__builtin_popcountll(mine & cleared);
		o->delta = (int16_t)(o->unique + MATRIX_ROW_POINTS * o->rows -
				     MATRIX_HOLE_PENALTY * o->hole);
	}
	if (after)
		*after = b;
	return ncleared;
}

/* ---- the game ------------------------------------------------------- */

/* ==== the social layer ================================================= */

/*
 * The social layer: table talk, trades, gifts, several pieces, the tome
 * (matrix.h, "The social layer").
 *
 * Invariants (place stage): held[p][0 .. nheld[p]-1] is sorted by piece
 * kind and, over all seats, holds each dealt piece of the round once;
 * open[0 .. nopen-1] are offers and gifts between two seats whose rounds
 * are not closed; gifts_left[p] >= 0.
 */

/* ---- small helpers -------------------------------------------------- */

static bool seat_active(const MatrixState *s, int p)
{
	return p >= 0 && p < s->nplayers && !(s->retired >> p & 1u);
}

static bool closed(const MatrixState *s, int p)
{
	return s->closed >> p & 1u;
}

static int held_index(const MatrixState *s, int p, int kind)
{
	for (int i = 0; i < s->nheld[p]; i++)
		if (s->held[p][i] == kind)
			return i;
	return -1;
}

static void held_remove(MatrixState *s, int p, int i)
{
	for (int k = i + 1; k < s->nheld[p]; k++)
		s->held[p][k - 1] = s->held[p][k];
	s->nheld[p]--;
}

/* Insert keeping held[] sorted by kind. */
static void held_add(MatrixState *s, int p, int kind)
{
	int i = s->nheld[p];

	while (i > 0 && s->held[p][i - 1] > kind) {
		s->held[p][i] = s->held[p][i - 1];
		i--;
	}
	s->held[p][i] = (int8_t)kind;
	s->nheld[p]++;
}

static void put_held(const MatrixState *s, int p, Text *t)
{
	if (s->nheld[p] == 0)
		text_putc(t, '-');
	for (int i = 0; i < s->nheld[p]; i++)
		text_putc(t, piece_letter((PieceKind)s->held[p][i]));
}

/* Start line k of out for seat `to`; returns a Text over it. */
static Text *line_to(VariantSide *out, int to, Text *t)
{
	if (out->n >= VARIANT_SIDE_LINES) {
		/* Never happens: at most 5 lines per action, 12 per close (one
		 * open item per ordered pair). Overwrite the last line rather than
		 * write past the end. */
		out->n = VARIANT_SIDE_LINES - 1;
	}
	out->to[out->n] = to;
	text_init(t, out->line[out->n], VARIANT_SIDE_LINE_MAX);
	out->n++;
	return t;
}

static VariantSideResult refuse(VariantSide *out, int player, const char *verb, const char *why)
{
	Text t;

	wire_refused(line_to(out, player, &t), verb, strlen(verb), why);
	text_init(&t, out->reason, sizeof(out->reason));
	text_puts(&t, why);
	return VARIANT_SIDE_REFUSED;
}

/* A number word of at most `most` digits at *p (advances past it and one
 * space); -1 when malformed. */
static int read_number(const char **p, int most)
{
	const char *q = *p;
	int v = 0, digits = 0;

	while (*q >= '0' && *q <= '9' && digits < most) {
		v = v * 10 + (*q - '0');
		q++;
		digits++;
	}
	if (!digits || (*q != ' ' && *q != '\0'))
		return -1;
	*p = *q == ' ' ? q + 1 : q;
	return v;
}

static int read_seat(const char **p)
{
	return read_number(p, 3);
}

/* A piece letter word at *p; PIECE_NONE when malformed. */
static int read_piece(const char **p)
{
	const char *q = *p;
	PieceKind k = piece_from_letter(q[0]);

	if (k == PIECE_NONE || q[0] < 'A' || q[0] > 'Z' || (q[1] != ' ' && q[1] != '\0'))
		return PIECE_NONE;
	*p = q[1] == ' ' ? q + 2 : q + 1;
	return k;
}

static int find_open(const MatrixState *s, int id)
{
	for (int i = 0; i < s->nopen; i++)
		if (s->open[i].id == id)
			return i;
	return -1;
}

static void drop_open(MatrixState *s, int i)
{
	for (int k = i + 1; k < s->nopen; k++)
		s->open[k - 1] = s->open[k];
	s->nopen--;
}

/* ---- rules ---------------------------------------------------------- */

bool matrix_may_talk(const MatrixState *s, int from, int to)
{
	int partner[2];
	int n;

	if (s->stage != MATRIX_STAGE_PLACE || from == to || !seat_active(s, from) ||
	    !seat_active(s, to))
		return false;
	if (s->round == 0)
		return true;
	n = matrix_partners(s, from, partner);
	for (int i = 0; i < n; i++)
		if (partner[i] == to)
			return true;
	return false;
}

void matrix_social_begin(MatrixState *s)
{
	s->nopen = 0;
	s->closed = 0;
}

bool matrix_cannot_win(const MatrixState *s, int player)
{
	return s->tome[player] && s->lines[player] < MATRIX_TOME_LINES;
}

static bool social_ranking(const MatrixState *s, int *rank)
{
	bool penalised = false, eligible = false;
	int best = -32768;

	for (int p = 0; p < s->nplayers; p++) {
		if (!seat_active(s, p))
			continue;
		if (matrix_cannot_win(s, p)) {
			penalised = true;
		} else {
			eligible = true;
			if (s->score[p] > best)
				best = s->score[p];
		}
	}
	if (!penalised || !eligible)
		return false;
	int nwin = 0, nactive = 0;
	for (int p = 0; p < s->nplayers; p++) {
		nactive += seat_active(s, p);
		nwin += seat_active(s, p) && !matrix_cannot_win(s, p) && s->score[p] == best;
	}
	for (int p = 0; p < s->nplayers; p++) {
		bool win = seat_active(s, p) && !matrix_cannot_win(s, p) && s->score[p] == best;
		if (win) {
			rank[p] = 1;
			continue;
		}
		rank[p] = 1 + (seat_active(s, p) ? nwin : nactive);
		for (int q = 0; q < s->nplayers; q++) {
			bool qwin = seat_active(s, q) && !matrix_cannot_win(s, q) && s->score[q] == best;
			if (!qwin && seat_active(s, q) == seat_active(s, p) && s->score[q] > s->score[p])
				rank[p]++;
		}
	}
	return true;
}

/* Checks shared by offer and gift; NULL when fine, else the reason. */
static const char *check_target(const MatrixState *s, int player, int to)
{
	if (to < 0 || to >= s->nplayers)
		return "unknown-seat";
	if (to == player)
		return "self";
	if (!seat_active(s, to))
		return "retired";
	if (closed(s, to))
		return "moved";
	return NULL;
}

static VariantSideResult do_say(MatrixState *s, int player, const char *arg, VariantSide *out)
{
	int to = read_seat(&arg);
	Text t;

	if (to < 0 || *arg == '\0')
		return refuse(out, player, "say", "malformed");
	if (to >= s->nplayers)
		return refuse(out, player, "say", "unknown-seat");
	if (to == player)
		return refuse(out, player, "say", "self");
	if (!seat_active(s, to))
		return refuse(out, player, "say", "retired");
	if (!matrix_may_talk(s, player, to))
		return refuse(out, player, "say", "not-partner");
	text_puts(line_to(out, player, &t), "ok say");
	text_printf(line_to(out, to, &t), "heard %d %s", player, arg);
	return VARIANT_SIDE_DONE;
}

static VariantSideResult do_offer(MatrixState *s, int player, const char *arg, bool gift,
				  VariantSide *out)
{
	const char *verb = gift ? "gift" : "offer";
	int to = read_seat(&arg);
	int give = to < 0 ? PIECE_NONE : read_piece(&arg);
	int want = PIECE_NONE;
	const char *why;
	Text t;

	if (!gift && give != PIECE_NONE)
		want = read_piece(&arg);
	if (to < 0 || give == PIECE_NONE || (!gift && want == PIECE_NONE) || *arg)
		return refuse(out, player, verb, "malformed");
	if ((why = check_target(s, player, to)) != NULL)
		return refuse(out, player, verb, why);
	if (!gift && !matrix_may_talk(s, player, to))
		return refuse(out, player, verb, "not-partner");
	if (held_index(s, player, give) < 0)
		return refuse(out, player, verb, "not-held");
	if (gift && s->gifts_left[player] <= 0)
		return refuse(out, player, verb, "no-gifts");
	if (s->next_id >= 30000)
		return refuse(out, player, verb, "too-many");	/* ids are 16-bit */
	for (int i = 0; i < s->nopen; i++)
		if (s->open[i].from == player && s->open[i].to == to)
			return refuse(out, player, verb, "already-open");
	MatrixOffer *o = &s->open[s->nopen++];
	*o = (MatrixOffer){(int16_t)(s->next_id + 1), (int8_t)player, (int8_t)to, (int8_t)give,
			   (int8_t)(gift ? -1 : want)};
	s->next_id++;
	if (gift)
		s->gifts_left[player]--;
	text_printf(line_to(out, player, &t), "ok %s %d", verb, o->id);
	text_printf(line_to(out, to, &t), "offered %d %d %c %c", o->id, player,
		    piece_letter((PieceKind)give), gift ? '-' : piece_letter((PieceKind)want));
	return VARIANT_SIDE_DONE;
}

static VariantSideResult do_answer(MatrixState *s, int player, const char *arg, bool yes,
				   VariantSide *out)
{
	const char *verb = yes ? "accept" : "refuse";
	int id = read_number(&arg, 5);
	int i = id < 0 ? -1 : find_open(s, id);
	Text t;

	if (id < 0 || *arg)
		return refuse(out, player, verb, "malformed");
	if (i < 0)
		return refuse(out, player, verb, "unknown-id");
	MatrixOffer o = s->open[i];
	if (o.to != player)
		return refuse(out, player, verb, "not-yours");
	if (!yes) {
		drop_open(s, i);
		text_printf(line_to(out, player, &t), "ok refuse %d", id);
		text_printf(line_to(out, o.from, &t), "closed %d refused", id);
		return VARIANT_SIDE_DONE;
	}
	int gi = held_index(s, o.from, o.give);
	int wi = o.want < 0 ? 0 : held_index(s, player, o.want);
	if (gi < 0 || wi < 0)
		return refuse(out, player, verb, "not-held");
	if (o.want < 0 && s->nheld[player] >= MATRIX_MAX_HELD)
		return refuse(out, player, verb, "too-many-pieces");
	drop_open(s, i);
	held_remove(s, o.from, gi);
	if (o.want >= 0) {
		held_remove(s, player, held_index(s, player, o.want));
		held_add(s, o.from, o.want);
	}
	held_add(s, player, o.give);
	text_printf(line_to(out, player, &t), "ok accept %d", id);
	for (int k = 0; k < 2; k++) {
		int who = k ? player : o.from;
		text_printf(line_to(out, who, &t), "traded %d %d %c %d %c", id, o.from,
			    piece_letter((PieceKind)o.give), player,
			    o.want < 0 ? '-' : piece_letter((PieceKind)o.want));
		line_to(out, who, &t);
		text_puts(&t, "held ");
		put_held(s, who, &t);
	}
	return VARIANT_SIDE_DONE;
}

static const char *const social_verbs[] = {"say", "offer", "gift", "accept", "refuse", "tome", NULL};

static VariantSideResult social_side(void *state, int player, const char *text, VariantSide *out)
{
	const char *const *verbs = social_verbs;
	MatrixState *s = state;
	int verb = -1;
	const char *arg = "";
	Text t;

	out->n = 0;
	out->reason[0] = '\0';
	for (int k = 0; k < 6 && verb < 0; k++) {
		size_t n = strlen(verbs[k]);
		if (strncmp(text, verbs[k], n) == 0 && (text[n] == ' ' || text[n] == '\0')) {
			verb = k;
			arg = text[n] ? text + n + 1 : text + n;
		}
	}
	if (verb < 0)
		return VARIANT_SIDE_NONE;
	for (const char *c = text; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			return refuse(out, player, verbs[verb], "bad-text");
	if (strlen(text) > 200)
		return refuse(out, player, verbs[verb], "too-long");
	if (s->stage != MATRIX_STAGE_PLACE || !seat_active(s, player))
		return refuse(out, player, verbs[verb], "not-now");
	if (closed(s, player))
		return refuse(out, player, verbs[verb], "moved");
	switch (verb) {
	case 0:
		return do_say(s, player, arg, out);
	case 1:
	case 2:
		return do_offer(s, player, arg, verb == 2, out);
	case 3:
	case 4:
		return do_answer(s, player, arg, verb == 3, out);
	default:
		break;
	}
	if (*arg)
		return refuse(out, player, "tome", "malformed");
	if (s->round != 0)
		return refuse(out, player, "tome", "round-1-only");
	if (s->tome[player])
		return refuse(out, player, "tome", "taken");
	s->tome[player] = 1;
	text_puts(line_to(out, player, &t), "ok tome");
	return VARIANT_SIDE_DONE;
}

static void social_close(void *state, int player, VariantSide *out)
{
	MatrixState *s = state;
	Text t;

	out->n = 0;
	out->reason[0] = '\0';
	s->closed |= 1u << player;
	for (int i = 0; i < s->nopen;) {
		MatrixOffer o = s->open[i];
		if (o.from != player && o.to != player) {
			i++;
			continue;
		}
		drop_open(s, i);
		text_printf(line_to(out, o.from == player ? o.to : o.from, &t), "closed %d moved", o.id);
	}
}

/* ---- several pieces ------------------------------------------------- */

static bool overlaps(const SrsPos *a, const SrsPos *b)
{
	int ax[4], ay[4], bx[4], by[4];

	srs_cells(a, ax, ay);
	srs_cells(b, bx, by);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			if (ax[i] == bx[j] && ay[i] == by[j])
				return true;
	return false;
}

bool matrix_move_legal(const void *state, int player, Move m)
{
	const MatrixState *s = state;
	SrsPos pos[MATRIX_MAX_HELD], spawn;
	int n;

	if (player < 0 || s->stage != MATRIX_STAGE_PLACE || !seat_active(s, player))
		return false;
	n = matrix_move_positions(m, pos);
	if (n != s->nheld[player])
		return false;
	if (n == 0)
		return m == 0;
	Move canon = 0;
	for (int i = 0; i < n; i++) {
		if (pos[i].kind != s->held[player][i] || pos[i].rot >= SRS_ROTS)
			return false;
		if (!matrix_move_add(&canon, &pos[i]))
			return false;
		if (!matrix_spawn(s, (PieceKind)pos[i].kind, &spawn) ||
		    !srs_reachable(&s->board, &spawn, true, &pos[i]))
			return false;
		for (int j = 0; j < i; j++)
			if (overlaps(&pos[i], &pos[j]))
				return false;
	}
	return canon == m;
}

typedef struct {
	const MatrixState *s;
	int player;
	SrsPos cand[MATRIX_MAX_HELD][SRS_MAX_LANDINGS];
	int ncand[MATRIX_MAX_HELD];
	SrsPos chosen[MATRIX_MAX_HELD];
	Move *out;
	int n, max;
} Combo;

static void combos(Combo *c, int depth)
{
	if (c->n >= c->max)
		return;
	if (depth == c->s->nheld[c->player]) {
		Move m = 0;
		for (int i = 0; i < depth; i++)
			matrix_move_add(&m, &c->chosen[i]);
		c->out[c->n++] = m;
		return;
	}
	for (int k = 0; k < c->ncand[depth] && c->n < c->max; k++) {
		bool ok = true;
		for (int j = 0; j < depth && ok; j++)
			ok = !overlaps(&c->cand[depth][k], &c->chosen[j]);
		if (!ok)
			continue;
		c->chosen[depth] = c->cand[depth][k];
		combos(c, depth + 1);
	}
}

int matrix_held_moves(const MatrixState *s, int player, Move *out, int max)
{
	if (!seat_active(s, player) || s->stage != MATRIX_STAGE_PLACE || max < 1)
		return 0;
	if (s->nheld[player] == 0) {
		out[0] = 0;
		return 1;
	}
	Combo c;
	c.s = s;
	c.player = player;
	c.out = out;
	c.n = 0;
	c.max = max;
	for (int i = 0; i < s->nheld[player]; i++)
		c.ncand[i] = matrix_placements(s, (PieceKind)s->held[player][i], c.cand[i]);
	combos(&c, 0);
	return c.n;
}

/* ---- views ---------------------------------------------------------- */

static void put_tome(const MatrixState *s, int p, Text *out)
{
	if (!s->tome[p] || s->round == 0 || s->stage == MATRIX_STAGE_OVER) {
		text_putc(out, '-');
		return;
	}
	for (int r = s->round; r < s->dealt; r++)
		text_putc(out, piece_letter((PieceKind)s->deal[r % MATRIX_DEAL_SPAN][p]));
}

static void social_format(const MatrixState *s, int viewer, Text *out)
{
	if (viewer == VARIANT_CHANCE) {
		text_puts(out, " held=");
		for (int p = 0; p < s->nplayers; p++) {
			if (p)
				text_putc(out, ';');
			put_held(s, p, out);
		}
		text_puts(out, " gifts=");
		for (int p = 0; p < s->nplayers; p++)
			text_printf(out, "%s%d", p ? "," : "", s->gifts_left[p]);
		text_puts(out, " tomes=");
		for (int p = 0; p < s->nplayers; p++)
			text_printf(out, "%s%d", p ? "," : "", s->tome[p]);
		text_puts(out, " lines=");
		for (int p = 0; p < s->nplayers; p++)
			text_printf(out, "%s%d", p ? "," : "", s->lines[p]);
		return;
	}
	int partner[2];
	int n = s->stage == MATRIX_STAGE_PLACE ? matrix_partners(s, viewer, partner) : 0;
	text_puts(out, " held=");
	put_held(s, viewer, out);
	text_printf(out, " gifts=%d talk=", s->gifts_left[viewer]);
	if (s->stage != MATRIX_STAGE_PLACE)
		text_putc(out, '-');
	else if (s->round == 0)
		text_puts(out, "all");
	else if (n == 0)
		text_putc(out, '-');
	for (int i = 0; i < n; i++)
		text_printf(out, "%s%d", i ? "," : "", partner[i]);
	text_printf(out, " taken=%d tome=", s->tome[viewer]);
	put_tome(s, viewer, out);
	text_printf(out, " lines=%d", s->lines[viewer]);
}


static bool read_held(MatrixState *s, int p, const char **v)
{
	s->nheld[p] = 0;
	if (**v == '-') {
		(*v)++;
		return true;
	}
	while (**v && **v != ' ' && **v != ';') {
		PieceKind k = piece_from_letter(**v);
		if (k == PIECE_NONE || s->nheld[p] >= MATRIX_MAX_HELD)
			return false;
		held_add(s, p, k);
		(*v)++;
	}
	return true;
}

static bool read_list(const char *v, int n, int lo, int hi, int *out)
{
	for (int p = 0; p < n; p++) {
		int x = 0, digits = 0;
		if (p && *v++ != ',')
			return false;
		while (*v >= '0' && *v <= '9' && digits < 5) {
			x = x * 10 + (*v++ - '0');
			digits++;
		}
		if (!digits || x < lo || x > hi)
			return false;
		out[p] = x;
	}
	return *v == ' ' || *v == '\0';
}

static bool social_parse(MatrixState *s, const char *text)
{
	const char *v;
	int vals[MATRIX_MAX_PLAYERS];
	bool chance = scan_field(text, "tomes", NULL) != NULL;

	if ((v = scan_field(text, "held", NULL)) != NULL && s->stage == MATRIX_STAGE_PLACE) {
		if (chance) {
			for (int p = 0; p < s->nplayers; p++)
				if ((p && *v++ != ';') || !read_held(s, p, &v))
					return false;
		} else {
			/* A player's view: the viewer is unknown, every seat gets it. */
			const char *start = v;
			for (int p = 0; p < s->nplayers; p++) {
				v = start;
				if (!read_held(s, p, &v))
					return false;
			}
		}
	}
	if ((v = scan_field(text, "gifts", NULL)) != NULL) {
		if (chance) {
			if (!read_list(v, s->nplayers, 0, MATRIX_GIFTS, vals))
				return false;
			for (int p = 0; p < s->nplayers; p++)
				s->gifts_left[p] = (int8_t)vals[p];
		} else {
			if (!read_list(v, 1, 0, MATRIX_GIFTS, vals))
				return false;
			for (int p = 0; p < s->nplayers; p++)
				s->gifts_left[p] = (int8_t)vals[0];
		}
	}
	if (chance) {
		if (!read_list(scan_field(text, "tomes", NULL), s->nplayers, 0, 1, vals))
			return false;
		for (int p = 0; p < s->nplayers; p++)
			s->tome[p] = (int8_t)vals[p];
		if ((v = scan_field(text, "lines", NULL)) != NULL) {
			if (!read_list(v, s->nplayers, 0, 30000, vals))
				return false;
			for (int p = 0; p < s->nplayers; p++)
				s->lines[p] = (int16_t)vals[p];
		}
	} else {
		if ((v = scan_field(text, "taken", NULL)) != NULL) {
			if (!read_list(v, 1, 0, 1, vals))
				return false;
			for (int p = 0; p < s->nplayers; p++)
				s->tome[p] = (int8_t)vals[0];
		}
		if ((v = scan_field(text, "lines", NULL)) != NULL) {
			if (!read_list(v, 1, 0, 30000, vals))
				return false;
			for (int p = 0; p < s->nplayers; p++)
				s->lines[p] = (int16_t)vals[0];
		}
	}
	return true;
}

/* ==== the game ========================================================= */

static bool active(const MatrixState *s, int p)
{
	return !(s->retired >> p & 1u);
}

static int active_count(const MatrixState *s)
{
	int n = 0;

	for (int p = 0; p < s->nplayers; p++)
		n += active(s, p);
	return n;
}

static void over(MatrixState *s, MatrixEnd why)
{
	s->stage = MATRIX_STAGE_OVER;
	s->end = (int8_t)why;
	for (int p = 0; p < s->nplayers; p++)
		s->nheld[p] = 0;
}

/* Start round s->round: deal first if its next round is not dealt yet. */
static void begin_round(MatrixState *s)
{
	if (active_count(s) < (s->nplayers > 1 ? 2 : 1)) {
		over(s, MATRIX_END_RETIRED);
		return;
	}
	if (s->round >= s->max_rounds) {
		over(s, MATRIX_END_ROUNDS);
		return;
	}
	if (s->round + 1 >= s->dealt) {
		s->stage = MATRIX_STAGE_DEAL;
		return;
	}
	s->stage = MATRIX_STAGE_PLACE;
	matrix_social_begin(s);
	bool anyone = false;
	for (int p = 0; p < s->nplayers; p++) {
		s->nheld[p] = 0;
		if (!active(s, p))
			continue;
		s->held[p][0] = s->deal[s->round % MATRIX_DEAL_SPAN][p];
		s->nheld[p] = 1;
		SrsPos spawn, scratch[SRS_MAX_LANDINGS];
		if (!anyone && matrix_spawn(s, (PieceKind)s->held[p][0], &spawn) &&
		    srs_landings(&s->board, &spawn, true, scratch) > 0)
			anyone = true;
	}
	if (!anyone)
		over(s, MATRIX_END_STUCK);
}

static void matrix_init(void *state, const VariantConfig *cfg)
{
	MatrixState *s = state;

	memset(s, 0, sizeof(*s));
	s->nplayers = (int8_t)cfg->nplayers;
	s->width = (int8_t)cfg->opt[MATRIX_OPT_WIDTH];
	s->height = (int8_t)cfg->opt[MATRIX_OPT_HEIGHT];
	s->buffer = (int8_t)cfg->opt[MATRIX_OPT_BUFFER];
	s->target = (int16_t)cfg->opt[MATRIX_OPT_TARGET];
	s->max_rounds = (int16_t)cfg->opt[MATRIX_OPT_ROUNDS];
	s->talk_ms = cfg->opt[MATRIX_OPT_TALK];
	memset(s->deal, -1, sizeof(s->deal));
	for (int p = 0; p < MATRIX_MAX_PLAYERS; p++)
		s->gifts_left[p] = MATRIX_GIFTS;
	board_init(&s->board, s->width, s->height + s->buffer);
	board_set(&s->board, 0, 0, true);
	board_set(&s->board, s->width - 1, 0, true);
	begin_round(s);
}

static VariantPhase matrix_phase(const void *state, uint32_t *mask)
{
	const MatrixState *s = state;

	*mask = 0;
	switch ((MatrixStage)s->stage) {
	case MATRIX_STAGE_DEAL:
		return VARIANT_PHASE_CHANCE;
	case MATRIX_STAGE_PLACE:
		for (int p = 0; p < s->nplayers; p++)
			if (active(s, p))
				*mask |= 1u << p;
		return VARIANT_PHASE_SIMULTANEOUS;
	case MATRIX_STAGE_OVER:
		break;
	}
	return VARIANT_PHASE_OVER;
}

static int matrix_legal_moves(const void *state, int player, Move *out)
{
	const MatrixState *s = state;
	SrsPos pos[SRS_MAX_LANDINGS];
	int n;

	if (player == VARIANT_CHANCE || s->stage != MATRIX_STAGE_PLACE || !active(s, player))
		return 0;
	if (s->nheld[player] != 1)
		return matrix_held_moves(s, player, out, SRS_MAX_LANDINGS);
	if (s->held[player][0] < 0)
		return 0;
	n = matrix_placements(s, (PieceKind)s->held[player][0], pos);
	for (int i = 0; i < n; i++)
		out[i] = matrix_move(&pos[i]);
	return n;
}

/* The deal chance move: a block seed. */
static void deal_next(MatrixState *s, uint64_t seed)
{
	int8_t block[DEAL_BLOCK][DEAL_MAX_PLAYERS];
	int8_t prev[DEAL_MAX_PLAYERS];
	const int8_t *pp = NULL;
	Rng rng;

	if (s->dealt > 0) {
		memcpy(prev, s->deal[(s->dealt - 1) % MATRIX_DEAL_SPAN], sizeof(prev));
		pp = prev;
	}
	rng_seed(&rng, seed);
	deal_block(&rng, s->nplayers, pp, block);
	for (int r = 0; r < DEAL_BLOCK; r++)
		memcpy(s->deal[(s->dealt + r) % MATRIX_DEAL_SPAN], block[r], DEAL_MAX_PLAYERS);
	s->dealt = (int16_t)(s->dealt + DEAL_BLOCK);
}

static void matrix_apply_joint(void *state, const Move *moves, uint32_t submitted)
{
	MatrixState *s = state;
	Move m[MATRIX_MAX_PLAYERS] = {0};
	MatrixOutcome out[MATRIX_MAX_PLAYERS];
	bool above = false, target = false;

	assert(s->stage == MATRIX_STAGE_PLACE);
	for (int p = 0; p < s->nplayers; p++)
		if (active(s, p) && (submitted >> p & 1u) && move_legal(s, p, moves[p]))
			m[p] = moves[p];
	s->last_cleared = (int8_t)matrix_resolve(&s->board, s->height, s->nplayers, m, out,
						 &s->board);
	for (int p = 0; p < s->nplayers; p++) {
		if (!active(s, p) || s->nheld[p] == 0) {
			/* retired, or gave its only piece away: nothing to place */
			memset(&out[p], 0, sizeof(out[p]));
			m[p] = 0;
		}
		s->last_move[p] = m[p];
		s->last[p] = out[p];
		s->score[p] = (int16_t)(s->score[p] + out[p].delta);
		s->lines[p] = (int16_t)(s->lines[p] + out[p].rows);
		above |= out[p].above;
		target |= active(s, p) && s->score[p] >= s->target;
	}
	s->round++;
	if (target)
		over(s, MATRIX_END_TARGET);
	else if (above)
		over(s, MATRIX_END_ABOVE);
	else
		begin_round(s);
}

static void matrix_apply(void *state, int player, Move m)
{
	MatrixState *s = state;

	/* Placements are simultaneous: they go through apply_joint(). */
	assert(player == VARIANT_CHANCE && s->stage == MATRIX_STAGE_DEAL);
	(void)player;
	deal_next(s, m);
	begin_round(s);
}

static Move matrix_chance_sample(const void *state, Rng *rng)
{
	(void)state;
	return rng_next(rng);
}

static void matrix_retire(void *state, int player)
{
	MatrixState *s = state;

	s->retired |= 1u << player;
	s->nheld[player] = 0;
	/* The last seat left in a game of several: it ends at once. */
	if (s->stage != MATRIX_STAGE_OVER && active_count(s) < (s->nplayers > 1 ? 2 : 1))
		over(s, MATRIX_END_RETIRED);
}

static void matrix_halt(void *state)
{
	MatrixState *s = state;

	if (s->stage != MATRIX_STAGE_OVER)
		over(s, MATRIX_END_HALT);
}

static void matrix_scores(const void *state, int *out)
{
	const MatrixState *s = state;

	for (int p = 0; p < s->nplayers; p++)
		out[p] = s->score[p];
}

static void matrix_ranking(const void *state, int *rank)
{
	const MatrixState *s = state;

	if (s->stage == MATRIX_STAGE_OVER && social_ranking(s, rank))
		return;	/* the tome's penalty changed the order */

	for (int p = 0; p < s->nplayers; p++) {
		rank[p] = 1;
		for (int q = 0; q < s->nplayers; q++) {
			if (active(s, q) != active(s, p)) {
				rank[p] += active(s, q);
				continue;
			}
			rank[p] += s->score[q] > s->score[p];
		}
	}
}

/* Whether seat p may be a leader (get a ToL): not retired, and not a tome
 * taker that failed its challenge. */
static bool leads(const MatrixState *s, int p)
{
	return !(s->retired >> p & 1u) && !matrix_cannot_win(s, p);
}

void matrix_awards(const MatrixState *s, int *tol, int *tod)
{
	int best = -32768, worst = 32767, leaders = 0;
	bool negative = false;

	for (int p = 0; p < s->nplayers; p++) {
		if (s->score[p] > best && leads(s, p))
			best = s->score[p];	/* a failed tome taker cannot win */
		if (s->score[p] < worst)
			worst = s->score[p];
		negative |= s->score[p] < 0;
	}
	for (int p = 0; p < s->nplayers; p++)
		leaders += s->score[p] == best && leads(s, p);
	for (int p = 0; p < s->nplayers; p++) {
		tol[p] = s->score[p] == best && leads(s, p) ? (leaders == 1 ? 2 : 1) : 0;
		tod[p] = negative ? s->score[p] < 0 : s->score[p] == worst;
	}
}

int matrix_partners(const MatrixState *s, int player, int *out)
{
	int n = 0;

	if (s->stage != MATRIX_STAGE_PLACE || s->round == 0)
		return 0;
	const int8_t *now = s->deal[s->round % MATRIX_DEAL_SPAN];
	const int8_t *before = s->deal[(s->round - 1) % MATRIX_DEAL_SPAN];
	for (int q = 0; q < s->nplayers && n < 2; q++)
		if (q != player && before[q] == now[player])
			out[n++] = q;
	for (int q = 0; q < s->nplayers && n < 2; q++)
		if (q != player && now[q] == before[player] && (n == 0 || out[0] != q))
			out[n++] = q;
	return n;
}

const char *matrix_end_name(int end)
{
	static const char *const names[] = {"-", "target", "above", "stuck", "rounds",
					     "halt", "retired"};

	return end >= 0 && end <= MATRIX_END_RETIRED ? names[end] : "-";
}

/* ---- notation ------------------------------------------------------- */

static void format_placements(Move m, Text *out)
{
	SrsPos pos[MATRIX_MAX_HELD];
	int n = matrix_move_positions(m, pos);

	if (n == 0)
		text_putc(out, '-');
	for (int i = 0; i < n; i++)
		text_printf(out, "%s%c%c@%d,%d", i ? "+" : "", piece_letter((PieceKind)pos[i].kind),
			    srs_rot_letter(pos[i].rot), pos[i].x, pos[i].y);
}

static void matrix_move_format(const void *state, int player, Move m, Text *out)
{
	(void)state;
	if (player == VARIANT_CHANCE) {
		text_printf(out, "deal %016" PRIx64, (uint64_t)m);
		return;
	}
	format_placements(m, out);
}


/* One placement `T0@4,1` at *p; advances *p. */
static bool parse_placement(const char **p, SrsPos *out)
{
	const char *q = *p;
	PieceKind kind = piece_from_letter(q[0]);
	int rot, x, y;

	if (kind == PIECE_NONE || q[0] < 'A' || q[0] > 'Z')
		return false;
	rot = srs_rot_from_letter(q[1]);
	if (rot < 0 || q[2] != '@')
		return false;
	q += 3;
	if (!scan_int(&q, -2, 29, &x) || *q++ != ',' || !scan_int(&q, 0, 63, &y))
		return false;
	*out = (SrsPos){(int8_t)kind, (int8_t)rot, (int8_t)x, (int8_t)y};
	*p = q;
	return true;
}

/* A move's placements up to the end of the word; '-' is the empty move. */
static bool parse_placements(const char **p, Move *out)
{
	Move m = 0;
	SrsPos pos;

	if (**p == '-' && ((*p)[1] == '\0' || (*p)[1] == ' ' || (*p)[1] == ';')) {
		(*p)++;
		*out = 0;
		return true;
	}
	do {
		if (!parse_placement(p, &pos) || !matrix_move_add(&m, &pos))
			return false;
	} while (**p == '+' && (*p)++);
	*out = m;
	return true;
}

static bool matrix_move_parse(const void *state, int player, const char *text, Move *out)
{
	const char *p = text;

	(void)state;
	if (player == VARIANT_CHANCE) {
		uint64_t v = 0;
		int digits = 0;
		if (strncmp(p, "deal ", 5) != 0)
			return false;
		for (p += 5; *p && digits < 17; p++, digits++) {
			int d;
			if (*p >= '0' && *p <= '9')
				d = *p - '0';
			else if (*p >= 'a' && *p <= 'f')
				d = *p - 'a' + 10;
			else if (*p >= 'A' && *p <= 'F')
				d = *p - 'A' + 10;
			else
				return false;
			v = v << 4 | (uint64_t)d;
		}
		if (digits < 1 || digits > 16 || *p)
			return false;
		*out = v;
		return true;
	}
	if (!parse_placements(&p, out) || *p)
		return false;
	if (*out == 0 && ((const MatrixState *)state)->nheld[player] != 0)
		return false;	/* `-`: only for a seat holding no piece */
	return true;
}

/* ---- state lines ---------------------------------------------------- */

static const char *const stage_names[] = {"deal", "place", "over"};

static void put_ints(Text *out, const char *key, const int16_t *v, int n)
{
	text_printf(out, " %s=", key);
	for (int p = 0; p < n; p++)
		text_printf(out, "%s%d", p ? "," : "", v[p]);
}

/*
 * One line of key=value fields (the `matrix` section of protocol.md):
 * settings, round and stage, scores, retired seats, the viewer's pieces
 * (`piece` and `next`; the chance viewer gets the whole known deal
 * instead), the field's rows from the highest filled one down, and the
 * last round.
 */
static void matrix_state_format(const void *state, int viewer, Text *out)
{
	const MatrixState *s = state;
	int16_t v[MATRIX_MAX_PLAYERS];

	text_printf(out, "players=%d width=%d height=%d buffer=%d target=%d round=%d stage=%s",
		    s->nplayers, s->width, s->height, s->buffer, s->target, s->round + 1,
		    stage_names[s->stage]);
	put_ints(out, "scores", s->score, s->nplayers);
	text_puts(out, " retired=");
	if (!s->retired)
		text_putc(out, '-');
	for (int p = 0, first = 1; p < s->nplayers; p++)
		if (!active(s, p)) {
			text_printf(out, "%s%d", first ? "" : ",", p);
			first = 0;
		}
	if (viewer == VARIANT_CHANCE) {
		/* Every dealt round from the current one: one letter per seat. */
		text_puts(out, " deal=");
		if (s->round >= s->dealt)
			text_putc(out, '-');
		for (int r = s->round; r < s->dealt; r++) {
			if (r > s->round)
				text_putc(out, '/');
			for (int p = 0; p < s->nplayers; p++)
				text_putc(out, piece_letter((PieceKind)s->deal[r % MATRIX_DEAL_SPAN][p]));
		}
	} else {
		PieceKind now = matrix_piece(s, viewer), next = matrix_next_piece(s, viewer);
		text_printf(out, " piece=%c next=%c", now == PIECE_NONE ? '-' : piece_letter(now),
			    next == PIECE_NONE ? '-' : piece_letter(next));
	}
	/* Rows from the highest filled one down to row 0; those above are empty. */
	int top = 0;
	for (int y = s->board.height - 1; y > 0 && !top; y--)
		if (s->board.rows[y])
			top = y;
	text_puts(out, " field=");
	for (int y = top; y >= 0; y--) {
		for (int x = 0; x < s->width; x++)
			text_putc(out, board_get(&s->board, x, y) ? '#' : '.');
		if (y)
			text_putc(out, '/');
	}
	text_puts(out, " last=");
	for (int p = 0; p < s->nplayers; p++) {
		if (p)
			text_putc(out, ';');
		format_placements(s->last_move[p], out);
	}
	for (int p = 0; p < s->nplayers; p++)
		v[p] = s->last[p].delta;
	put_ints(out, "gains", v, s->nplayers);
	text_printf(out, " cleared=%d", s->last_cleared);
	social_format(s, viewer, out);
	if (s->stage == MATRIX_STAGE_OVER) {
		int tol[MATRIX_MAX_PLAYERS], tod[MATRIX_MAX_PLAYERS];
		matrix_awards(s, tol, tod);
		text_printf(out, " end=%s tol=", matrix_end_name(s->end));
		for (int p = 0; p < s->nplayers; p++)
			text_printf(out, "%s%d", p ? "," : "", tol[p]);
		text_puts(out, " tod=");
		for (int p = 0; p < s->nplayers; p++)
			text_printf(out, "%s%d", p ? "," : "", tod[p]);
	}
}


static bool field_int(const char *text, const char *key, int lo, int hi, int *out)
{
	size_t len;
	const char *v = scan_field(text, key, &len);

	return v && scan_int(&v, lo, hi, out) && (*v == ' ' || *v == '\0');
}

static bool field_ints(const char *text, const char *key, int n, int16_t *out)
{
	size_t len;
	const char *v = scan_field(text, key, &len);

	if (!v)
		return false;
	for (int p = 0; p < n; p++) {
		int x;
		if ((p && *v++ != ',') || !scan_int(&v, -32000, 32000, &x))
			return false;
		out[p] = (int16_t)x;
	}
	return *v == ' ' || *v == '\0';
}

static int piece_or_none(char c)
{
	return c == '-' ? PIECE_NONE : piece_from_letter(c);
}

static bool matrix_state_parse(void *state, const VariantConfig *cfg, const char *text)
{
	MatrixState *s = state;
	VariantConfig c = *cfg;
	int np, w, h, buf, target, round, stage = -1;
	size_t len;
	const char *v;

	if (!field_int(text, "players", 2, MATRIX_MAX_PLAYERS, &np) ||
	    !field_int(text, "width", 4, MATRIX_MAX_WIDTH, &w) ||
	    !field_int(text, "height", 4, 40, &h) || !field_int(text, "buffer", 4, 22, &buf) ||
	    !field_int(text, "target", 1, 999, &target) ||
	    !field_int(text, "round", 1, 32000, &round))
		return false;
	c.nplayers = np;
	c.opt[MATRIX_OPT_WIDTH] = w;
	c.opt[MATRIX_OPT_HEIGHT] = h;
	c.opt[MATRIX_OPT_BUFFER] = buf;
	c.opt[MATRIX_OPT_TARGET] = target;
	if (c.opt[MATRIX_OPT_ROUNDS] < round)
		c.opt[MATRIX_OPT_ROUNDS] = 9999;
	matrix_init(s, &c);
	s->round = (int16_t)(round - 1);
	v = scan_field(text, "stage", &len);
	for (int k = 0; v && k <= MATRIX_STAGE_OVER; k++)
		if (len == strlen(stage_names[k]) && strncmp(v, stage_names[k], len) == 0)
			stage = k;
	if (stage < 0 || !field_ints(text, "scores", np, s->score))
		return false;
	v = scan_field(text, "retired", &len);
	if (!v)
		return false;
	if (*v != '-') {
		do {
			int p;
			if (!scan_int(&v, 0, np - 1, &p))
				return false;
			s->retired |= 1u << p;
		} while (*v == ',' && v++);
	}
	/* Field rows, top first. */
	v = scan_field(text, "field", &len);
	if (!v || (len + 1) % (size_t)(w + 1) != 0 || (len + 1) / (size_t)(w + 1) > (size_t)(h + buf))
		return false;
	board_init(&s->board, w, h + buf);
	for (int y = (int)((len + 1) / (size_t)(w + 1)) - 1; y >= 0; y--, v++) {
		for (int x = 0; x < w; x++, v++) {
			if (*v != '#' && *v != '.')
				return false;
			if (*v == '#')
				board_set(&s->board, x, y, true);
		}
		if (*v != (y ? '/' : ' ') && !(y == 0 && *v == '\0'))
			return false;
		if (!y)
			break;
	}
	/* Pieces: the chance viewer's deal, or one player's. */
	memset(s->deal, -1, sizeof(s->deal));
	s->dealt = (int16_t)s->round;
	v = scan_field(text, "deal", &len);
	if (v && *v != '-') {
		for (int r = s->round;; r++) {
			for (int p = 0; p < np; p++) {
				int k = piece_from_letter(*v++);
				if (k == PIECE_NONE)
					return false;
				s->deal[r % MATRIX_DEAL_SPAN][p] = (int8_t)k;
			}
			/* Each round deals distinct pieces (talk partners are
			 * found by piece: a repeat would give more than two). */
			if (!deal_round_ok(np, s->deal[r % MATRIX_DEAL_SPAN]))
				return false;
			s->dealt = (int16_t)(r + 1);
			if (*v != '/' || r + 1 - s->round >= MATRIX_DEAL_SPAN)
				break;
			v++;
		}
	} else if ((v = scan_field(text, "piece", &len)) != NULL) {
		size_t len2;
		const char *nx = scan_field(text, "next", &len2);
		int now = piece_or_none(*v), next = nx ? piece_or_none(*nx) : PIECE_NONE;
		/* The viewer is unknown here: the piece goes to every seat. */
		for (int p = 0; p < np; p++) {
			s->deal[s->round % MATRIX_DEAL_SPAN][p] = (int8_t)now;
			s->deal[(s->round + 1) % MATRIX_DEAL_SPAN][p] = (int8_t)next;
		}
		s->dealt = (int16_t)(s->round + 2);
	}
	v = scan_field(text, "last", &len);
	if (v) {
		for (int p = 0; p < np; p++) {
			if ((p && *v++ != ';') || !parse_placements(&v, &s->last_move[p]))
				return false;
			/* Every cell of a last-round piece lies on the board. */
			SrsPos pos[MATRIX_MAX_HELD];
			int n = matrix_move_positions(s->last_move[p], pos);
			for (int k = 0; k < n; k++) {
				int cx[4], cy[4];
				srs_cells(&pos[k], cx, cy);
				for (int i = 0; i < 4; i++)
					if (cx[i] < 0 || cx[i] >= w || cy[i] < 0 || cy[i] >= s->board.height)
						return false;
			}
		}
	}
	int16_t gains[MATRIX_MAX_PLAYERS];
	if (field_ints(text, "gains", np, gains))
		for (int p = 0; p < np; p++)
			s->last[p].delta = gains[p];
	int cl;
	if (field_int(text, "cleared", 0, 62, &cl))
		s->last_cleared = (int8_t)cl;
	s->stage = (int8_t)stage;
	for (int p = 0; p < np; p++) {
		s->nheld[p] = 0;
		if (stage == MATRIX_STAGE_PLACE && active(s, p) &&
		    s->deal[s->round % MATRIX_DEAL_SPAN][p] >= 0) {
			s->held[p][0] = s->deal[s->round % MATRIX_DEAL_SPAN][p];
			s->nheld[p] = 1;
		}
	}
	return social_parse(s, text);
}

static const char *const piece_colour[PIECE_COUNT] = {
	"\033[46m", "\033[43m", "\033[45m", "\033[44m", "\033[48;5;208m", "\033[42m", "\033[41m"
};

/* The field (buffer rows only from the highest filled one), then the seats. */
/* The shared field, for drawing (variant.h, field and round_cells). */
_Static_assert(4 * MATRIX_MAX_HELD <= VARIANT_MAX_ROUND_CELLS, "a round's cells fit");
static void matrix_field(const void *state, VariantField *out)
{
	const MatrixState *m = state;

	out->board = &m->board;
	out->round = m->round;
	out->nplayers = m->nplayers;
}

static int matrix_round_cells(const void *state, int player, int *cx, int *cy)
{
	const MatrixState *m = state;
	SrsPos pos[MATRIX_MAX_HELD];
	int n = matrix_move_positions(m->last_move[player], pos), k = 0;

	for (int i = 0; i < n; i++) {
		srs_cells(&pos[i], cx + k, cy + k);
		k += 4;
	}
	return k;
}

static void matrix_render(const void *state, bool colour, Text *out)
{
	const MatrixState *s = state;
	int top = s->height - 1;
	BoardRow fresh[BOARD_MAX_HEIGHT] = {0};
	int kind_at[BOARD_MAX_HEIGHT][MATRIX_MAX_WIDTH];

	/* Cells of the last round's pieces that are still where they landed
	 * (no clear) are drawn with their piece letter. */
	memset(kind_at, -1, sizeof(kind_at));
	if (s->round > 0 && s->last_cleared == 0) {
		for (int p = 0; p < s->nplayers; p++) {
			SrsPos pos[MATRIX_MAX_HELD];
			int n = matrix_move_positions(s->last_move[p], pos);
			for (int k = 0; k < n; k++) {
				int cx[4], cy[4];
				srs_cells(&pos[k], cx, cy);
				for (int i = 0; i < 4; i++) {
					kind_at[cy[i]][cx[i]] = fresh[cy[i]] >> cx[i] & 1u ? PIECE_COUNT : pos[k].kind;
					fresh[cy[i]] |= (BoardRow)(1u << cx[i]);
				}
			}
		}
	}
	for (int y = s->board.height - 1; y >= s->height; y--)
		if (s->board.rows[y]) {
			top = y;
			break;
		}
	for (int y = top; y >= 0; y--) {
		text_printf(out, "%2d %c", y, y == s->height - 1 ? '+' : '|');
		for (int x = 0; x < s->width; x++) {
			int k = kind_at[y][x];
			if (!board_get(&s->board, x, y))
				text_puts(out, " .");
			else if (k < 0)
				text_puts(out, colour ? "\033[100m  \033[0m" : " #");
			else if (k == PIECE_COUNT)
				text_puts(out, colour ? "\033[47m  \033[0m" : " *");
			else if (colour)
				text_printf(out, "%s %c\033[0m", piece_colour[k], piece_letter((PieceKind)k));
			else
				text_printf(out, " %c", piece_letter((PieceKind)k));
		}
		text_puts(out, " |\n");
	}
	text_puts(out, "   +");
	for (int x = 0; x < s->width; x++)
		text_puts(out, "--");
	text_puts(out, "-+\n    ");
	for (int x = 0; x < s->width; x++)
		text_printf(out, "%2d", x);
	text_printf(out, "\nround %d, %s\n", s->round + 1, stage_names[s->stage]);
	for (int p = 0; p < s->nplayers; p++) {
		PieceKind now = matrix_piece(s, p), next = matrix_next_piece(s, p);
		text_printf(out, "seat %d: score %d", p, s->score[p]);
		if (s->round > 0) {
			text_puts(out, ", last ");
			format_placements(s->last_move[p], out);
			text_printf(out, " %+d", s->last[p].delta);
		}
		if (now != PIECE_NONE)
			text_printf(out, ", piece %c next %c", piece_letter(now),
				    next == PIECE_NONE ? '-' : piece_letter(next));
		text_puts(out, active(s, p) ? "\n" : " (retired)\n");
	}
	if (s->stage == MATRIX_STAGE_OVER) {
		int tol[MATRIX_MAX_PLAYERS], tod[MATRIX_MAX_PLAYERS];
		matrix_awards(s, tol, tod);
		const char *sep = ":";
		text_printf(out, "game over: %s; tokens", matrix_end_name(s->end));
		for (int p = 0; p < s->nplayers; p++) {
			if (tol[p]) {
				text_printf(out, "%s seat %d %d ToL", sep, p, tol[p]);
				sep = ",";
			}
			if (tod[p]) {
				text_printf(out, "%s seat %d a ToD", sep, p);
				sep = ",";
			}
		}
		text_putc(out, '\n');
	}
}

/* The rulebook's tokens in the result: " tol=.. tod=..". */
static void matrix_result_extra(const void *state, Text *out)
{
	const MatrixState *s = state;
	int tol[MATRIX_MAX_PLAYERS], tod[MATRIX_MAX_PLAYERS];

	matrix_awards(s, tol, tod);
	text_puts(out, " tol=");
	for (int p = 0; p < s->nplayers; p++)
		text_printf(out, "%s%d", p ? "," : "", tol[p]);
	text_puts(out, " tod=");
	for (int p = 0; p < s->nplayers; p++)
		text_printf(out, "%s%d", p ? "," : "", tod[p]);
}

const Variant variant_matrix = {
	.name = "matrix",
	.title = "Main Match",
	.min_players = 2,
	.max_players = MATRIX_MAX_PLAYERS,
	.options = matrix_options,
	.n_options = MATRIX_OPT_COUNT,
	.quiet_options = 1u << MATRIX_OPT_TALK,
	.state_size = sizeof(MatrixState),
	.max_moves = SRS_MAX_LANDINGS,
	.chance_public = false,
	.lower_score_wins = false,
	.fault_policy = VARIANT_FAULT_NOTHING,
	.init = matrix_init,
	.phase = matrix_phase,
	.legal_moves = matrix_legal_moves,
	.apply = matrix_apply,
	.chance_sample = matrix_chance_sample,
	.apply_joint = matrix_apply_joint,
	.retire = matrix_retire,
	.halt = matrix_halt,
	.scores = matrix_scores,
	.ranking = matrix_ranking,
	.move_format = matrix_move_format,
	.move_parse = matrix_move_parse,
	.state_format = matrix_state_format,
	.state_parse = matrix_state_parse,
	.result_extra = matrix_result_extra,
	.render = matrix_render,
	.side = social_side,
	.side_close = social_close,
	.side_verbs = social_verbs,
	.move_legal = matrix_move_legal,
	.field = matrix_field,
	.round_cells = matrix_round_cells,
};
