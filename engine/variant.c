/* variant: the helpers every caller of a variant table shares (the registry
 * of games is in variants.c). */
#include "variant.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void variant_config_default(const Variant *v, int nplayers, VariantConfig *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nplayers = nplayers;
	assert(v->n_options <= VARIANT_MAX_OPTIONS);
	for (int i = 0; i < v->n_options; i++)
		cfg->opt[i] = v->options[i].def;
}

int variant_option_index(const Variant *v, const char *key)
{
	for (int i = 0; i < v->n_options; i++)
		if (strcmp(v->options[i].key, key) == 0)
			return i;
	return -1;
}

VariantError variant_option_set(const Variant *v, VariantConfig *cfg,
				const char *key, const char *value)
{
	int i = variant_option_index(v, key);
	char *end = NULL;
	long n;

	if (i < 0)
		return VARIANT_ERR_OPTION;
	if (!*value)
		return VARIANT_ERR_VALUE;
	errno = 0;
	n = strtol(value, &end, 10);
	if (errno || *end || n < v->options[i].min || n > v->options[i].max)
		return VARIANT_ERR_VALUE;
	cfg->opt[i] = (int)n;
	return VARIANT_OK;
}

const char *variant_option_error_text(const Variant *v, const char *key, VariantError err, char *buf,
				      size_t cap)
{
	int i = variant_option_index(v, key);
	size_t n;

	if (cap == 0)
		return buf;
	if (err == VARIANT_ERR_VALUE && i >= 0) {
		snprintf(buf, cap, "want a whole number from %d to %d", v->options[i].min, v->options[i].max);
		return buf;
	}
	if (err != VARIANT_ERR_OPTION || v->n_options == 0) {
		snprintf(buf, cap, "%s", variant_error_string(err));
		return buf;
	}
	snprintf(buf, cap, "unknown option; %s takes", v->name);
	for (int k = 0; k < v->n_options && (n = strlen(buf)) < cap; k++)
		snprintf(buf + n, cap - n, "%s %s", k ? "," : "", v->options[k].key);
	return buf;
}

VariantError variant_config_check(const Variant *v, const VariantConfig *cfg)
{
	if (cfg->nplayers < v->min_players || cfg->nplayers > v->max_players)
		return VARIANT_ERR_PLAYERS;
	for (int i = 0; i < v->n_options; i++)
		if (cfg->opt[i] < v->options[i].min || cfg->opt[i] > v->options[i].max)
			return VARIANT_ERR_VALUE;
	return VARIANT_OK;
}

const char *variant_error_string(VariantError err)
{
	switch (err) {
	case VARIANT_OK:
		return "ok";
	case VARIANT_ERR_PLAYERS:
		return "player count out of range";
	case VARIANT_ERR_OPTION:
		return "unknown option";
	case VARIANT_ERR_VALUE:
		return "option value is not a whole number within its bounds";
	}
	return "unknown error";
}

bool variant_move_is_legal(const Variant *v, const void *state, int player,
			   Move move, Move *scratch)
{
	if (v->move_legal)
		return v->move_legal(state, player, move);
	int n = v->legal_moves(state, player, scratch);

	for (int i = 0; i < n; i++)
		if (scratch[i] == move)
			return true;
	return false;
}

int variant_mask_player(uint32_t mask)
{
	assert(mask && !(mask & (mask - 1)));
	return __builtin_ctz(mask);
}
