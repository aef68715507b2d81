/*
 * Every variant's state and notation parsers, as C bots call them. The
 * input: "VARIANT PLAYERS\nSTATE\nMOVE\nMOVE...". A state that parses is
 * formatted for every viewer, rendered and asked for its moves; each MOVE
 * that parses for a seat to move and is legal is played. The state line
 * also goes through the C API other languages use (engine/api.h,
 * tetra_parse) for every seat and for the seat to move.
 */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "api.h"
#include "fuzz.h"
#include "text.h"
#include "variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *copy = g_strndup((const char *)data, size);
	g_auto(GStrv) lines = g_strsplit(copy, "\n", 0);

	if (!lines[0] || !lines[1])
		return 0;
	char *sp = strchr(lines[0], ' ');
	gint64 players = 2;
	if (sp) {
		*sp = '\0';
		if (!g_ascii_string_to_signed(sp + 1, 10, 1, VARIANT_MAX_PLAYERS, &players, NULL))
			return 0;
	}
	const Variant *v = variant_find(lines[0]);
	if (!v || players < v->min_players || players > v->max_players)
		return 0;
	for (int seat = -1; seat < (int)players; seat++)
		tetra_free(tetra_parse(lines[0], seat, lines[1]));
	VariantConfig cfg;
	variant_config_default(v, (int)players, &cfg);
	g_autofree void *state = g_malloc0(v->state_size);
	if (!v->state_parse(state, &cfg, lines[1]))
		return 0;
	g_autofree char *buf = g_malloc(1 << 16);
	g_autofree Move *moves = g_new(Move, v->max_moves > 0 ? v->max_moves : 1);
	Text t;
	for (int i = 2; lines[i]; i++) {
		for (int p = 0; p < cfg.nplayers; p++) {
			text_init(&t, buf, 1 << 16);
			v->state_format(state, p, &t);
		}
		text_init(&t, buf, 1 << 16);
		v->render(state, FALSE, &t);
		uint32_t mask = 0;
		VariantPhase ph = v->phase(state, &mask);
		if (ph == VARIANT_PHASE_OVER || ph == VARIANT_PHASE_CHANCE)
			break;
		for (int p = 0; p < cfg.nplayers; p++) {
			Move m;
			if (!(mask & (1u << p)) || !v->move_parse(state, p, lines[i], &m))
				continue;
			text_init(&t, buf, 1 << 16);
			v->move_format(state, p, m, &t);
			if (!variant_move_is_legal(v, state, p, m, moves))
				continue;
			if (ph == VARIANT_PHASE_SIMULTANEOUS) {
				Move joint[VARIANT_MAX_PLAYERS] = {0};
				joint[p] = m;
				v->apply_joint(state, joint, 1u << p);
			} else {
				v->apply(state, p, m);
			}
			break;
		}
	}
	return 0;
}
