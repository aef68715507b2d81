/*
 * social: the Main Match's table talk. See social.h for the rules.
 *
 * Invariants (place stage): held[p][0 .. nheld[p]-1] is sorted by piece
 * kind and, over all seats, holds each dealt piece of the round once;
 * open[0 .. nopen-1] are offers and gifts between two seats whose rounds
 * are not closed; gifts_left[p] >= 0.
 */
#include "social.h"

#include <string.h>

#include "scan.h"

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

	text_printf(line_to(out, player, &t), "refused %s %s", verb, why);
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

bool social_may_talk(const MatrixState *s, int from, int to)
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

void social_round_begin(MatrixState *s)
{
	s->nopen = 0;
	s->closed = 0;
}

bool social_cannot_win(const MatrixState *s, int player)
{
	return s->tome[player] && s->lines[player] < MATRIX_TOME_LINES;
}

bool social_ranking(const MatrixState *s, int *rank)
{
	bool penalised = false, eligible = false;
	int best = -32768;

	for (int p = 0; p < s->nplayers; p++) {
		if (!seat_active(s, p))
			continue;
		if (social_cannot_win(s, p)) {
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
		nwin += seat_active(s, p) && !social_cannot_win(s, p) && s->score[p] == best;
	}
	for (int p = 0; p < s->nplayers; p++) {
		bool win = seat_active(s, p) && !social_cannot_win(s, p) && s->score[p] == best;
		if (win) {
			rank[p] = 1;
			continue;
		}
		rank[p] = 1 + (seat_active(s, p) ? nwin : nactive);
		for (int q = 0; q < s->nplayers; q++) {
			bool qwin = seat_active(s, q) && !social_cannot_win(s, q) && s->score[q] == best;
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
	if (!social_may_talk(s, player, to))
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
	if (!gift && !social_may_talk(s, player, to))
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

const char *const social_verbs[] = {"say", "offer", "gift", "accept", "refuse", "tome", NULL};

VariantSideResult social_side(void *state, int player, const char *text, VariantSide *out)
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

void social_close(void *state, int player, VariantSide *out)
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

bool social_move_legal(const void *state, int player, Move m)
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

int social_legal_moves(const MatrixState *s, int player, Move *out, int max)
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

void social_format(const MatrixState *s, int viewer, Text *out)
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

bool social_parse(MatrixState *s, const char *text)
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
