/* form: the start page's request for a new game. See form.h. */
#include "form.h"

#include <string.h>

G_DEFINE_QUARK(tetrarena-form-error-quark, form_error)

#define BAD(...)                                                                   \
	do {                                                                       \
		g_set_error(error, FORM_ERROR, FORM_ERROR_INVALID, __VA_ARGS__);   \
		goto fail;                                                         \
	} while (0)

/* A field's name or value, %-decoded ('+' is a space); NULL when it holds
 * a bad escape, a control byte or a NUL. */
static char *decode(const char *s, gsize len)
{
	GString *out = g_string_sized_new(len);

	for (gsize i = 0; i < len; i++) {
		char c = s[i];
		if (c == '+') {
			c = ' ';
		} else if (c == '%') {
			if (i + 2 >= len || !g_ascii_isxdigit(s[i + 1]) || !g_ascii_isxdigit(s[i + 2]))
				goto bad;
			c = (char)(g_ascii_xdigit_value(s[i + 1]) * 16 + g_ascii_xdigit_value(s[i + 2]));
			i += 2;
		}
		if ((unsigned char)c < 0x20 || c == 0x7f)
			goto bad;
		g_string_append_c(out, c);
	}
	return g_string_free(out, FALSE);
bad:
	g_string_free(out, TRUE);
	return NULL;
}

/* Names of bots and values are printable words: shown in errors as given. */
static gboolean word_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return FALSE;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("_.-:,", *s))
			return FALSE;
	return TRUE;
}

gboolean form_parse(const char *body, gsize len, gboolean (*known)(const char *name, void *data), void *data,
		    FormGame *out, GError **error)
{
	g_autoptr(GPtrArray) opts = g_ptr_array_new_with_free_func(g_free);	/* key, value, ... */
	char *seed = NULL, *time = NULL, *variant = NULL;
	int nseats = 0;

	memset(out, 0, sizeof(*out));
	timectl_default(&out->time);
	if (len > FORM_MAX)
		BAD("the request is too long (%zu bytes, at most %d)", (size_t)len, FORM_MAX);
	for (gsize at = 0; at < len;) {
		const char *amp = memchr(body + at, '&', len - at);
		gsize end = amp ? (gsize)(amp - body) : len;
		const char *eq = memchr(body + at, '=', end - at);
		if (end == at) {
			at = end + 1;
			continue;
		}
		g_autofree char *key = decode(body + at, (eq ? (gsize)(eq - body) : end) - at);
		g_autofree char *val = eq ? decode(eq + 1, end - (gsize)(eq + 1 - body)) : g_strdup("");
		at = end + 1;
		if (!key || !val)
			BAD("a field holds a bad %%-escape or a control character");
		if (strcmp(key, "variant") == 0) {
			if (variant)
				BAD("variant is given twice");
			variant = g_strdup(val);
		} else if (strcmp(key, "seat") == 0) {
			if (nseats >= VARIANT_MAX_PLAYERS)
				BAD("more than %d seats", VARIANT_MAX_PLAYERS);
			if (!word_ok(val))
				BAD("seat %d: want person or an opponent's name", nseats);
			if (strcmp(val, FORM_PERSON) != 0 && !known(val, data))
				BAD("seat %d: no opponent named '%s'", nseats, val);
			out->seat[nseats++] = g_strdup(val);
		} else if (strcmp(key, "seed") == 0) {
			if (seed)
				BAD("seed is given twice");
			seed = g_strdup(val);
		} else if (strcmp(key, "time") == 0) {
			if (time)
				BAD("time is given twice");
			time = g_strdup(val);
		} else if (g_str_has_prefix(key, "opt.") && key[4]) {
			g_ptr_array_add(opts, g_strdup(key + 4));
			g_ptr_array_add(opts, g_strdup(val));
		} else {
			g_autofree char *shown = g_strescape(key, NULL);
			BAD("unknown field '%.40s'", shown);
		}
	}
	if (!variant || !(out->variant = variant_find(variant)))
		BAD(variant ? "unknown variant" : "no variant");
	const Variant *v = out->variant;
	if (nseats < v->min_players || nseats > v->max_players)
		BAD("%s takes %d to %d seats, not %d", v->name, v->min_players, v->max_players, nseats);
	variant_config_default(v, nseats, &out->config);
	/* A person at a table with talk (the Main Match): each round opens
	 * with a talk window at a person's pace, unless opt.talk says else. */
	int talk = variant_option_index(v, "talk");
	for (int p = 0; talk >= 0 && p < nseats; p++)
		if (strcmp(out->seat[p], FORM_PERSON) == 0)
			out->config.opt[talk] = FORM_TALK_MS;
	for (guint i = 0; i < opts->len; i += 2) {
		const char *k = opts->pdata[i], *val = opts->pdata[i + 1];
		if (!word_ok(k) || variant_option_index(v, k) < 0)
			BAD("%s has no option of that name", v->name);
		VariantError ve = variant_option_set(v, &out->config, k, val);
		if (ve != VARIANT_OK)
			BAD("option %s: %s", k, variant_error_string(ve));
	}
	if (variant_config_check(v, &out->config) != VARIANT_OK)
		BAD("the options do not go together");
	if (seed && seed[0]) {
		if (!g_ascii_string_to_unsigned(seed, 10, 0, G_MAXUINT64, &out->seed, NULL))
			BAD("seed: want a whole number");
	} else {
		out->random_seed = TRUE;
	}
	if (time && time[0]) {
		GError *e = NULL;
		if (!timectl_parse(&out->time, time, &e)) {
			g_set_error(error, FORM_ERROR, FORM_ERROR_INVALID, "time: %s", e->message);
			g_error_free(e);
			goto fail;
		}
	}
	g_free(variant), g_free(seed), g_free(time);
	return TRUE;
fail:
	g_free(variant), g_free(seed), g_free(time);
	form_game_clear(out);
	return FALSE;
}

void form_game_clear(FormGame *g)
{
	for (int i = 0; i < VARIANT_MAX_PLAYERS; i++)
		g_clear_pointer(&g->seat[i], g_free);
}
