/* form: the start page's request for a new game. See form.h. */
#include "form.h"

#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(tetrarena-form-error-quark, form_error)

#define BAD(FIELD, ...)                                                            \
	do {                                                                       \
		field = (FIELD);                                                   \
		g_set_error(error, FORM_ERROR, FORM_ERROR_INVALID, __VA_ARGS__);   \
		goto fail;                                                         \
	} while (0)

const FormClock form_clocks[] = {
	{"relaxed", "relaxed: no limit a move, an hour in all",
	 "bank:3600000,inc:0,move:3600000,start:30000,grace:1000", TRUE},
	{"10+5", "10 minutes, plus 5 s a move", "bank:600000,inc:5000,move:600000,start:30000,grace:1000", FALSE},
	{"3+2", "3 minutes, plus 2 s a move", "bank:180000,inc:2000,move:180000,start:30000,grace:1000", FALSE},
	{NULL, NULL, NULL, FALSE},
};

int form_default_seats(const Variant *v)
{
	int n = strcmp(v->name, "matrix") == 0 ? 7 : 2;

	return CLAMP(n, v->min_players, v->max_players);
}

char *form_default_ai(const Variant *v, gboolean (*known)(const char *name, void *data), void *data)
{
	g_autofree char *medium = g_strdup_printf("bot-%s-level3", v->name);
	g_autofree char *own = g_strdup_printf("bot-%s", v->name);

	if (known(medium, data))
		return g_steal_pointer(&medium);
	if (known(own, data))
		return g_steal_pointer(&own);
	return known("bot-random", data) ? g_strdup("bot-random") : NULL;
}

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
	g_autoptr(GPtrArray) seat_times = g_ptr_array_new_with_free_func(g_free);	/* seat, spec, ... */
	char *seed = NULL, *time = NULL, *variant = NULL, *clock = NULL, *count = NULL;
	const char *field = "form";
	int nseats = 0;

	memset(out, 0, sizeof(*out));
	timectl_default(&out->time);
	if (len > FORM_MAX)
		BAD("form", "the request is too long (%zu bytes, at most %d)", (size_t)len, FORM_MAX);
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
			BAD("form", "a field holds a bad %%-escape or a control character");
		if (strcmp(key, "variant") == 0) {
			if (variant)
				BAD("variant", "variant is given twice");
			variant = g_strdup(val);
		} else if (strcmp(key, "seat") == 0) {
			if (nseats >= VARIANT_MAX_PLAYERS)
				BAD("seat", "more than %d seats", VARIANT_MAX_PLAYERS);
			if (!word_ok(val))
				BAD("seat", "seat %d: want person or an opponent's name", nseats);
			if (strcmp(val, FORM_PERSON) != 0 && !known(val, data))
				BAD("seat", "seat %d: no opponent named '%s'", nseats, val);
			out->seat[nseats++] = g_strdup(val);
		} else if (strcmp(key, "seed") == 0) {
			if (seed)
				BAD("seed", "seed is given twice");
			seed = g_strdup(val);
		} else if (strcmp(key, "time") == 0) {
			if (time)
				BAD("time", "time is given twice");
			time = g_strdup(val);
		} else if (strcmp(key, "clock") == 0) {
			if (clock)
				BAD("clock", "clock is given twice");
			clock = g_strdup(val);
		} else if (strcmp(key, "seats") == 0) {
			if (count)
				BAD("seats", "seats is given twice");
			count = g_strdup(val);
		} else if (g_str_has_prefix(key, "time.") && key[5]) {
			guint64 p;
			if (!g_ascii_string_to_unsigned(key + 5, 10, 0, VARIANT_MAX_PLAYERS - 1, &p, NULL))
				BAD("time", "time.%.8s: no such seat", key + 5);
			g_ptr_array_add(seat_times, g_strdup(key + 5));
			g_ptr_array_add(seat_times, g_strdup(val));
		} else if (g_str_has_prefix(key, "opt.") && key[4]) {
			g_ptr_array_add(opts, g_strdup(key + 4));
			g_ptr_array_add(opts, g_strdup(val));
		} else {
			g_autofree char *shown = g_strescape(key, NULL);
			BAD("form", "unknown field '%.40s'", shown);
		}
	}
	if (!variant || !(out->variant = variant_find(variant)))
		BAD("variant", variant ? "unknown variant" : "no variant");
	const Variant *v = out->variant;
	if (count && count[0]) {
		guint64 want;
		if (!g_ascii_string_to_unsigned(count, 10, 0, VARIANT_MAX_PLAYERS, &want, NULL) ||
		    (int)want < v->min_players || (int)want > v->max_players)
			BAD("seats", "%s takes %d to %d seats", v->name, v->min_players, v->max_players);
		if ((int)want < nseats)
			BAD("seats", "%d seats named, more than seats=%d", nseats, (int)want);
	}
	/* the rest filled with our medium AI: up to seats=N, or, when none or
	 * too few for the game are named, up to its default count */
	if (nseats < v->min_players || (count && count[0])) {
		guint64 want = (guint64)form_default_seats(v);
		if (count && count[0])
			g_ascii_string_to_unsigned(count, 10, 0, VARIANT_MAX_PLAYERS, &want, NULL);
		if (nseats == 0)
			out->seat[nseats++] = g_strdup(FORM_PERSON);
		while (nseats < (int)want) {
			char *ai = form_default_ai(v, known, data);
			if (!ai)
				BAD("seats", "no AI of %s to fill the seats with", v->name);
			out->seat[nseats++] = ai;
		}
	}
	if (nseats < v->min_players || nseats > v->max_players)
		BAD("seats", "%s takes %d to %d seats, not %d", v->name, v->min_players, v->max_players, nseats);
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
			BAD("options", "%s has no option of that name", v->name);
		VariantError ve = variant_option_set(v, &out->config, k, val);
		if (ve != VARIANT_OK)
			BAD("options", "option %s: %s", k, variant_error_string(ve));
	}
	if (variant_config_check(v, &out->config) != VARIANT_OK)
		BAD("options", "the options do not go together");
	if (seed && seed[0]) {
		if (!g_ascii_string_to_unsigned(seed, 10, 0, G_MAXUINT64, &out->seed, NULL))
			BAD("seed", "want a whole number");
	} else {
		out->random_seed = TRUE;
	}
	if (time && time[0]) {
		GError *e = NULL;
		if (!timectl_parse(&out->time, time, &e)) {
			field = "time";
			g_set_error(error, FORM_ERROR, FORM_ERROR_INVALID, "%s", e->message);
			g_error_free(e);
			goto fail;
		}
		out->time_given = TRUE;
	}
	if (clock && clock[0]) {
		for (const FormClock *c = form_clocks; c->name; c++)
			if (strcmp(clock, c->name) == 0)
				out->clock = c;
		if (!out->clock)
			BAD("clock", "want relaxed, 10+5 or 3+2");
	} else if (!out->time_given) {
		out->clock = &form_clocks[0];	/* no clock named: relaxed */
	}
	for (int p = 0; out->clock && p < nseats; p++)
		if (strcmp(out->seat[p], FORM_PERSON) == 0) {
			out->seat_time[p] = out->time;
			timectl_parse(&out->seat_time[p], out->clock->time, NULL);
			out->seat_timed |= 1u << p;
		}
	for (guint i = 0; i < seat_times->len; i += 2) {
		int p = atoi(seat_times->pdata[i]);
		GError *e = NULL;
		if (p >= nseats)
			BAD("time", "time.%d: there is no seat %d", p, p);
		out->seat_time[p] = out->time;
		if (!timectl_parse(&out->seat_time[p], seat_times->pdata[i + 1], &e)) {
			field = "time";
			g_set_error(error, FORM_ERROR, FORM_ERROR_INVALID, "time.%d: %s", p, e->message);
			g_error_free(e);
			goto fail;
		}
		out->seat_timed |= 1u << p;
	}
	g_free(variant), g_free(seed), g_free(time), g_free(clock), g_free(count);
	return TRUE;
fail:
	g_free(variant), g_free(seed), g_free(time), g_free(clock), g_free(count);
	form_game_clear(out);
	out->bad_field = field;
	return FALSE;
}

void form_game_clear(FormGame *g)
{
	for (int i = 0; i < VARIANT_MAX_PLAYERS; i++)
		g_clear_pointer(&g->seat[i], g_free);
}
