/*
 * api: the engine for other languages (api.h), a thin layer over the
 * variant tables. A TetraState owns its variant state and a scratch array
 * of max_moves moves, both on the heap; nothing here keeps global state.
 */
#include "api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"
#include "wire.h"

struct TetraState {
	const Variant *v;
	int seat;		/* the viewer the state was parsed for */
	int nplayers;
	Move *scratch;		/* v->max_moves moves */
	void *state;		/* v->state_size bytes */
};

int tetra_api_version(void)
{
	return TETRA_API_VERSION;
}

const char *tetra_variant_name(int i)
{
	const Variant *const *v = variant_all();

	for (int k = 0; v[k]; k++)
		if (k == i)
			return v[k]->name;
	return NULL;
}

static TetraState *state_new(const Variant *v)
{
	TetraState *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->v = v;
	s->state = calloc(1, v->state_size);
	s->scratch = malloc(sizeof(Move) * (size_t)(v->max_moves > 0 ? v->max_moves : 1));
	if (!s->state || !s->scratch) {
		tetra_free(s);
		return NULL;
	}
	return s;
}

void tetra_free(TetraState *s)
{
	if (!s)
		return;
	free(s->state);
	free(s->scratch);
	free(s);
}

/* The value of field `players=` in a state line, or -1. */
static int players_field(const char *text)
{
	for (const char *p = text; (p = strstr(p, "players=")) != NULL; p++) {
		if (p > text && p[-1] != ' ')
			continue;
		int n = 0;
		const char *q = p + 8;
		while (*q >= '0' && *q <= '9' && n < 100)
			n = n * 10 + (*q++ - '0');
		return q > p + 8 ? n : -1;
	}
	return -1;
}

TetraState *tetra_parse(const char *variant, int seat, const char *line)
{
	const Variant *v = variant && line ? variant_find(variant) : NULL;
	VariantConfig cfg;
	uint32_t mask;

	if (!v)
		return NULL;
	/* Skip `go MS bank=B`, keep the fields; drop the line's end. */
	const char *p = wire_go_state(line, NULL);
	size_t len = strcspn(p, "\r\n");
	char *text = malloc(len + 1);
	if (!text)
		return NULL;
	memcpy(text, p, len);
	text[len] = '\0';

	TetraState *s = state_new(v);
	int np = players_field(text);
	if (!s || np < v->min_players || np > v->max_players)
		goto fail;
	variant_config_default(v, np, &cfg);
	if (!v->state_parse(s->state, &cfg, text))
		goto fail;
	s->nplayers = np;
	if (seat < 0) {
		if (v->phase(s->state, &mask) != VARIANT_PHASE_TURN)
			goto fail;
		seat = variant_mask_player(mask);
	}
	if (seat >= np)
		goto fail;
	s->seat = seat;
	free(text);
	return s;
fail:
	free(text);
	tetra_free(s);
	return NULL;
}

TetraState *tetra_copy(const TetraState *s)
{
	TetraState *c = s ? state_new(s->v) : NULL;

	if (!c)
		return NULL;
	c->seat = s->seat;
	c->nplayers = s->nplayers;
	memcpy(c->state, s->state, s->v->state_size);
	return c;
}

const char *tetra_variant(const TetraState *s)
{
	return s ? s->v->name : "";
}

int tetra_seat(const TetraState *s)
{
	return s ? s->seat : TETRA_ERR_ARGUMENT;
}

int tetra_players(const TetraState *s)
{
	return s ? s->nplayers : TETRA_ERR_ARGUMENT;
}

int tetra_phase(const TetraState *s, unsigned *mask)
{
	uint32_t m = 0;

	if (!s)
		return TETRA_ERR_ARGUMENT;
	int phase = (int)s->v->phase(s->state, &m);
	if (mask)
		*mask = m;
	return phase;
}

/* Whether `player` decides now (chance in the chance phase). */
static bool decides(const TetraState *s, int player)
{
	uint32_t mask;
	VariantPhase ph = s->v->phase(s->state, &mask);

	if (player == TETRA_CHANCE)
		return ph == VARIANT_PHASE_CHANCE;
	return ph != VARIANT_PHASE_OVER && ph != VARIANT_PHASE_CHANCE && (mask >> player & 1u);
}

static bool player_ok(const TetraState *s, int player)
{
	return s && (player == TETRA_CHANCE || (player >= 0 && player < s->nplayers));
}

/* Copy a Text's whole length into the caller's buffer, snprintf-style. */
static long text_out(const char *text, size_t len, char *buf, size_t cap)
{
	if (buf && cap) {
		size_t n = len < cap ? len : cap - 1;
		memcpy(buf, text, n);
		buf[n] = '\0';
	}
	return (long)len;
}

/*
 * Format into a heap buffer that grows until the text fits (state lines
 * and pictures are a few KiB; move lists of the Main Match with several
 * pieces a few hundred KiB), then copy out.
 */
typedef void (*Formatter)(const TetraState *s, int arg, Text *t);

static long format_out(const TetraState *s, int arg, Formatter f, char *buf, size_t cap)
{
	for (size_t size = 1 << 14; size <= ((size_t)1 << 26); size *= 4) {
		char *tmp = malloc(size);
		Text t;
		if (!tmp)
			return TETRA_ERR_ARGUMENT;
		text_init(&t, tmp, size);
		f(s, arg, &t);
		if (!t.overflow) {
			long n = text_out(tmp, t.len, buf, cap);
			free(tmp);
			return n;
		}
		free(tmp);
	}
	return TETRA_ERR_ARGUMENT;
}

static void put_moves(const TetraState *s, int player, Text *t)
{
	if (!decides(s, player))
		return;
	int n = s->v->legal_moves(s->state, player, s->scratch);
	for (int i = 0; i < n; i++) {
		if (i)
			text_putc(t, ' ');
		s->v->move_format(s->state, player, s->scratch[i], t);
	}
}

long tetra_moves(const TetraState *s, int player, char *buf, size_t cap)
{
	if (!player_ok(s, player))
		return TETRA_ERR_ARGUMENT;
	return format_out(s, player, put_moves, buf, cap);
}

static int judge(const TetraState *s, int player, const char *move, Move *m)
{
	if (!player_ok(s, player) || !move)
		return TETRA_ERR_ARGUMENT;
	if (strlen(move) >= VARIANT_MOVE_TEXT_MAX || !s->v->move_parse(s->state, player, move, m))
		return TETRA_ERR_MALFORMED;
	if (!decides(s, player))
		return TETRA_ERR_NOT_NOW;
	/* Chance too large to list (a deal) is legal whenever it parses. */
	if (player == TETRA_CHANCE && s->v->legal_moves(s->state, player, s->scratch) == 0)
		return TETRA_OK;
	if (!variant_move_is_legal(s->v, s->state, player, *m, s->scratch))
		return TETRA_ERR_ILLEGAL;
	return TETRA_OK;
}

int tetra_check(const TetraState *s, int player, const char *move)
{
	Move m;

	return judge(s, player, move, &m);
}

int tetra_apply(TetraState *s, int player, const char *move)
{
	Move m;
	uint32_t mask;
	int err = judge(s, player, move, &m);

	if (err != TETRA_OK)
		return err;
	if (player != TETRA_CHANCE &&
	    s->v->phase(s->state, &mask) == VARIANT_PHASE_SIMULTANEOUS) {
		Move moves[VARIANT_MAX_PLAYERS] = {0};
		moves[player] = m;
		s->v->apply_joint(s->state, moves, 1u << player);
	} else {
		s->v->apply(s->state, player, m);
	}
	return TETRA_OK;
}

int tetra_apply_round(TetraState *s, const char *const *moves)
{
	Move m[VARIANT_MAX_PLAYERS] = {0};
	uint32_t mask, submitted = 0;

	if (!s || !moves)
		return TETRA_ERR_ARGUMENT;
	if (s->v->phase(s->state, &mask) != VARIANT_PHASE_SIMULTANEOUS)
		return TETRA_ERR_NOT_NOW;
	for (int p = 0; p < s->nplayers; p++) {
		if (!moves[p] || !moves[p][0])
			continue;
		int err = judge(s, p, moves[p], &m[p]);
		if (err != TETRA_OK)
			return err;
		submitted |= 1u << p;
	}
	s->v->apply_joint(s->state, m, submitted);
	return TETRA_OK;
}

int tetra_scores(const TetraState *s, int *out, int cap)
{
	int sc[VARIANT_MAX_PLAYERS];

	if (!s || (cap > 0 && !out))
		return TETRA_ERR_ARGUMENT;
	s->v->scores(s->state, sc);
	for (int p = 0; p < s->nplayers && p < cap; p++)
		out[p] = sc[p];
	return s->nplayers;
}

int tetra_lower_score_wins(const TetraState *s)
{
	return s && s->v->lower_score_wins;
}

static void put_render(const TetraState *s, int arg, Text *t)
{
	(void)arg;
	s->v->render(s->state, false, t);
}

long tetra_render(const TetraState *s, char *buf, size_t cap)
{
	if (!s)
		return TETRA_ERR_ARGUMENT;
	return format_out(s, 0, put_render, buf, cap);
}

static void put_format(const TetraState *s, int viewer, Text *t)
{
	s->v->state_format(s->state, viewer, t);
}

long tetra_format(const TetraState *s, int viewer, char *buf, size_t cap)
{
	if (!player_ok(s, viewer))
		return TETRA_ERR_ARGUMENT;
	return format_out(s, viewer, put_format, buf, cap);
}
