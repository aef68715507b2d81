/* humanview: what the terminal player shows. See humanview.h. */
#include "humanview.h"

#include <string.h>

#include "gamelog.h"
#include "piece.h"

/* The stem of move m into out (see humanview.h); OUT *rest: what follows
 * the stem's '@' or ':' ("" when nothing), *sep that separator or 0. */
static void stem_of(const char *m, char *out, size_t cap, const char **rest, char *sep)
{
	const char *cut = strchr(m, '@');

	if (!cut)
		cut = strrchr(m, ':');
	size_t n = cut ? (size_t)(cut - m) : strlen(m);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, m, n);
	out[n] = '\0';
	*rest = cut ? cut + 1 : "";
	*sep = cut ? *cut : 0;
}

GArray *humanview_groups(char **moves, int n, const gboolean *keep)
{
	GArray *groups = g_array_new(FALSE, TRUE, sizeof(HumanGroup));
	HumanGroup *last = NULL;

	for (int i = 0; i < n; i++) {
		if (keep && !keep[i])
			continue;
		char stem[VARIANT_MOVE_TEXT_MAX];
		const char *rest;
		char sep;
		stem_of(moves[i], stem, sizeof(stem), &rest, &sep);
		if (last && last->first + last->count == i && strcmp(last->stem, stem) == 0) {
			last->count++;
			continue;
		}
		HumanGroup g = {.first = i, .count = 1};
		g_strlcpy(g.stem, stem, sizeof(g.stem));
		g_array_append_val(groups, g);
		last = &g_array_index(groups, HumanGroup, groups->len - 1);
	}
	return groups;
}

/* The group's numbers, from 1: "7" or "12-19". */
static void numbers(char *buf, size_t cap, const HumanGroup *g)
{
	if (g->count == 1)
		g_snprintf(buf, cap, "%d", g->first + 1);
	else
		g_snprintf(buf, cap, "%d-%d", g->first + 1, g->first + g->count);
}

/* Whether every rest of the group is a plain number, each one more than
 * the one before; OUT the first and last. */
static gboolean number_run(char **moves, const HumanGroup *g, long *lo, long *hi)
{
	for (int i = 0; i < g->count; i++) {
		const char *rest;
		char sep, stem[VARIANT_MOVE_TEXT_MAX];
		stem_of(moves[g->first + i], stem, sizeof(stem), &rest, &sep);
		if (!*rest || strspn(rest, "0123456789") != strlen(rest) || strlen(rest) > 6)
			return FALSE;
		long v = strtol(rest, NULL, 10);
		if (i == 0)
			*lo = v;
		else if (v != *hi + 1)
			return FALSE;
		*hi = v;
	}
	return TRUE;
}

void humanview_group_line(GString *out, char **moves, const HumanGroup *g, int width)
{
	char num[32];
	gsize start = out->len;
	const char *rest;
	char sep, stem[VARIANT_MOVE_TEXT_MAX];
	long lo = 0, hi = 0;

	numbers(num, sizeof(num), g);
	stem_of(moves[g->first], stem, sizeof(stem), &rest, &sep);
	g_string_append_printf(out, "%9s  %s", num, g->stem);
	if (sep && number_run(moves, g, &lo, &hi)) {
		if (lo == hi)
			g_string_append_printf(out, " %c %ld", sep, lo);
		else
			g_string_append_printf(out, " %c %ld-%ld", sep, lo, hi);
	} else if (sep) {
		g_string_append_printf(out, " %c", sep);
		for (int i = 0; i < g->count; i++) {
			stem_of(moves[g->first + i], stem, sizeof(stem), &rest, &sep);
			g_string_append_printf(out, " %s", rest);
			if (out->len - start > (gsize)width + 8)
				break;
		}
	}
	if (width > 8 && out->len - start > (gsize)width) {
		g_string_truncate(out, start + (gsize)width - 4);
		g_string_append(out, " ...");
	}
	g_string_append_c(out, '\n');
}

/* The orientation a stem ends with ("T0", "SR", "place:J1"), or NULL. */
static const Orientation *stem_piece(const char *stem)
{
	size_t n = strlen(stem);

	if (n < 2 || (n > 2 && stem[n - 3] != ':'))
		return NULL;
	PieceKind k = piece_from_letter(stem[n - 2]);
	if (k == PIECE_NONE || stem[n - 2] < 'A' || stem[n - 2] > 'Z')
		return NULL;
	const char *rots = "0R2L";
	int rot = stem[n - 1] >= '0' && stem[n - 1] <= '3' ? stem[n - 1] - '0'
		: strchr(rots, stem[n - 1]) && stem[n - 1] ? (int)(strchr(rots, stem[n - 1]) - rots) : -1;
	if (rot < 0)
		return NULL;
	return piece_orientation(k, rot % piece_rotations(k));
}

int humanview_pictures(GString *out, const HumanGroup *groups, int n, int width)
{
	GString *row[5];
	int used = 0, tall = 0, shown = 0;

	for (int r = 0; r < 5; r++)
		row[r] = g_string_new(NULL);
	for (int i = 0; i < n; i++) {
		const Orientation *o = stem_piece(groups[i].stem);
		if (!o)
			continue;
		char num[32], label[64];
		numbers(num, sizeof(num), &groups[i]);
		g_snprintf(label, sizeof(label), "%s %s", num, groups[i].stem);
		int w = MAX((int)strlen(label), 2 * o->width) + 3;
		if (used + w > width)
			break;
		g_string_append_printf(row[0], "%-*s", w, label);
		for (int y = 0; y < 4; y++) {
			char cells[16];
			int line = o->height - 1 - y;	/* the picture's top row first */
			memset(cells, ' ', 8);
			cells[2 * o->width] = '\0';
			for (int c = 0; c < 4 && line >= 0; c++)
				if (o->y[c] == line)
					memcpy(cells + 2 * o->x[c], "[]", 2);
			g_string_append_printf(row[y + 1], "%-*s", w, line >= 0 ? cells : "");
		}
		tall = MAX(tall, o->height);
		used += w;
		shown++;
	}
	int lines = 0;
	if (shown)
		for (int r = 0; r <= tall; r++) {
			g_strchomp(row[r]->str);
			g_string_append_printf(out, "   %s\n", row[r]->str);
			lines++;
		}
	for (int r = 0; r < 5; r++)
		g_string_free(row[r], TRUE);
	return lines;
}

/* Whether `line` is a board row with nothing on it: a row number, then
 * only dots, spaces and frame (ANSI colour sequences skipped). */
static gboolean empty_row(const char *line)
{
	gboolean number = FALSE, cell = FALSE;
	const char *p = line;

	while (*p == ' ')
		p++;
	while (g_ascii_isdigit(*p)) {
		p++;
		number = TRUE;
	}
	for (; *p; p++) {
		if (*p == '\033') {
			while (*p && *p != 'm')
				p++;
			if (!*p)
				break;
			continue;
		}
		if (*p == '.') {
			cell = TRUE;
		} else if (g_ascii_isdigit(*p)) {
			/* only another board's row number, before its frame (a
			 * digit in a cell is something on the board) */
			const char *q = p;
			while (g_ascii_isdigit(*q) || *q == ' ')
				q++;
			if (*q != '|' && *q != '+')
				return FALSE;
			p = q - 1;
		} else if (!strchr(" |+", *p)) {
			return FALSE;
		}
	}
	return number && cell;
}

/* Whether `line` holds nothing but frame: spaces, ':' and '|' (one ':'
 * at least). */
static gboolean filler(const char *line)
{
	return strchr(line, ':') && strspn(line, " :|") == strlen(line);
}

char *humanview_fit(const char *pic, int max_lines)
{
	g_auto(GStrv) lines = g_strsplit(pic, "\n", -1);
	int n = (int)g_strv_length(lines);

	if (n > 0 && !*lines[n - 1])
		n--;	/* the last line's newline */
	int first = 0;
	while (first < n && !empty_row(lines[first]))
		first++;
	int run = 0;
	while (first + run < n && empty_row(lines[first + run]))
		run++;
	/* drop the empty rows but two, or more (keeping one) to fit, a note
	 * in their place */
	int drop = MIN(run - 1, MAX(run - 2, n - max_lines + 1));
	/* still too tall: the empty rows above a line (tetroll's above its
	 * dashed line, `   :      |`) go too */
	int left = n - (drop > 1 ? drop - 1 : 0), fillers = 0;
	for (int i = 0; i < n && left > max_lines; i++)
		if (filler(lines[i])) {
			left--;
			fillers++;
		}
	GString *out = g_string_new(NULL);
	for (int i = 0; i < n; i++) {
		if (drop > 1 && i == first)
			g_string_append_printf(out, "   (%d empty rows above)\n", drop);
		if (drop > 1 && i >= first && i < first + drop)
			continue;
		if (fillers > 0 && filler(lines[i])) {
			fillers--;
			continue;
		}
		g_string_append_printf(out, "%s\n", lines[i]);
	}
	return g_string_free(out, FALSE);
}

/* The value of field `key` in a state line ("key=value ..."), or NULL;
 * newly allocated. */
static char *field(const char *state, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = state; p && *p; p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL)
		if (strncmp(p, key, n) == 0 && p[n] == '=') {
			const char *v = p + n + 1;
			return g_strndup(v, strcspn(v, " "));
		}
	return NULL;
}

/* Seat s's entry of a comma-separated field value, or "?". */
static char *nth(const char *list, int s)
{
	g_auto(GStrv) parts = g_strsplit(list ? list : "", ",", -1);

	return g_strdup(s >= 0 && s < (int)g_strv_length(parts) ? parts[s] : "?");
}

/* "I5 O5 T5": a supply "I5O5T5" with spaces before each letter. */
static void spaced(GString *out, const char *supply)
{
	for (const char *p = supply; *p; p++) {
		if (g_ascii_isalpha(*p) && p != supply)
			g_string_append_c(out, ' ');
		g_string_append_c(out, *p);
	}
}

static void describe_link(GString *out, int seat, const char *state)
{
	g_autofree char *roll = field(state, "roll");
	g_autofree char *supply = field(state, "supply");
	g_autofree char *mine = nth(supply, seat);

	g_string_append(out, "Your supply: ");
	spaced(out, mine);
	if (roll && strcmp(roll, "logo") == 0)
		g_string_append(out, ".\nA logo roll: drop any piece left in your supply, turned and flipped as you like.\n");
	else
		g_string_append_printf(out, ".\nYou rolled %s: drop it in a column, turned or flipped as you like "
				       "(an L may be played as a J, an S as a Z).\n", roll ? roll : "?");
}

static void describe_tetroll(GString *out, const char *state)
{
	g_autofree char *stage = field(state, "stage");
	g_autofree char *dice = field(state, "dice");
	g_autofree char *shape = field(state, "shape");
	g_autofree char *queue = field(state, "queue");
	const char *sh = shape ? shape : "-";
	g_autofree char *named = strcmp(sh, "joker") == 0
		? g_strdup("a joker (a majority of 6s): any shape you choose, every cell a 6")
		: strlen(sh) == 2 ? g_strdup_printf("the %c (its cells are %c's)", sh[1], sh[0])
		: g_strdup("no shape yet");

	if (!stage)
		return;
	if (strcmp(stage, "dice") == 0)
		g_string_append_printf(out, "Your dice: %s, they make %s.\n"
				       "keep them, or reroll some: reroll:VALUES:bN rerolls those dice and "
				       "crosses out your first prize of bonus #N.\n", dice ? dice : "-", named);
	else if (strcmp(stage, "place") == 0)
		g_string_append_printf(out, "Place %s: KR@X:Y puts orientation R of piece K with its "
				       "lower-left corner at column X, row Y.\n", named);
	else if (strcmp(stage, "copy") == 0)
		g_string_append_printf(out, "A copy space: write the same number (%s) into any empty cell "
				       "(copy@X:Y).\n", queue && strncmp(queue, "copy:", 5) == 0 ? queue + 5 : "?");
	else if (strcmp(stage, "ring") == 0)
		g_string_append(out, "Bonus #3's prize: mark one ring of another bonus (ring:N).\n");
	else if (strcmp(stage, "write") == 0)
		g_string_append(out, "Bonus #6's prize: write any number 1-6 into an empty cell "
				"(write:V@X:Y).\n");
}

static void describe_matrix(GString *out, const char *state, const char *const *verbs)
{
	g_autofree char *round = field(state, "round");
	g_autofree char *held = field(state, "held");
	g_autofree char *next = field(state, "next");
	g_autofree char *talk = field(state, "talk");
	g_autofree char *gifts = field(state, "gifts");

	g_string_append_printf(out, "Round %s: place %s %s (next %s); several pieces go in one move, "
			       "joined with +.\n", round ? round : "?",
			       held && strlen(held) > 1 ? "your pieces" : "your piece",
			       held ? held : "?", next ? next : "?");
	if (verbs && talk) {
		g_string_append_printf(out, "Table talk before you move, with %s (gifts left %s):",
				       strcmp(talk, "all") == 0 ? "anyone" : strcmp(talk, "-") == 0
				       ? "nobody this round (gifts only)" : talk, gifts ? gifts : "?");
		for (const char *const *w = verbs; *w; w++)
			g_string_append_printf(out, " %s", *w);
		g_string_append(out, " (`help` says how).\n");
	}
}

static void describe_rush(GString *out, int seat, const char *state)
{
	g_autofree char *hands = field(state, "hands");
	g_autofree char *slots = field(state, "slots");
	g_autofree char *box = field(state, "box");
	g_autofree char *hand = nth(hands, seat);
	g_autofree char *slot = nth(slots, seat);

	g_string_append_printf(out, "In your hand: %s, in your slot: %s. The box: %s.\n"
			       "take:K from the box, place:KR@X,Y your block, give:S to a seat's empty "
			       "slot, discard a block that fits nowhere. Fewest uncovered squares wins.\n",
			       hand, slot, box ? box : "?");
}

void humanview_describe(GString *out, const Variant *v, int seat, const char *state)
{
	if (strcmp(v->name, "link") == 0)
		describe_link(out, seat, state);
	else if (strcmp(v->name, "tetroll") == 0)
		describe_tetroll(out, state);
	else if (strcmp(v->name, "matrix") == 0)
		describe_matrix(out, state, v->side_verbs);
	else if (strcmp(v->name, "rush") == 0)
		describe_rush(out, seat, state);
}

char *humanview_escape(const char *text)
{
	return gamelog_escape(text, 0);
}
