/* gamelog: writing and reading game logs. See gamelog.h and docs/gamelog.md. */
#include "gamelog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asyncfile.h"
#include "protocol.h"
#include "sandbox.h"
#include "text.h"

G_DEFINE_QUARK(tetrarena-gamelog-error-quark, gamelog_error)

static const char *const kind_names[] = {
	[GAMELOG_CHANCE] = "chance",
	[GAMELOG_MOVE] = "move",
	[GAMELOG_RANDOM] = "random",
	[GAMELOG_SUBMIT] = "submit",
	[GAMELOG_SUBMIT_RANDOM] = "submit-random",
	[GAMELOG_MISSING] = "missing",
	[GAMELOG_JOINT] = "joint",
	[GAMELOG_RETIRE] = "retire",
	[GAMELOG_OUT] = "out",
	[GAMELOG_FAULT] = "fault",
	[GAMELOG_REJECTED] = "rejected",
	[GAMELOG_HALT] = "halt",
	[GAMELOG_RESULT] = "result",
	[GAMELOG_SIDE] = "side",
	[GAMELOG_CLOSE] = "close",
	[GAMELOG_SENT] = ">",
	[GAMELOG_RECEIVED] = "<",
};

const char *gamelog_kind_name(GameLogKind kind)
{
	g_return_val_if_fail((unsigned)kind < G_N_ELEMENTS(kind_names), "");
	return kind_names[kind];
}

/* ---- writing ---------------------------------------------------------- */

struct GameLogWriter {
	FILE *f;
	char *buf;		/* f's buffer (fopen's own: NULL) */
	char *path;
	int nplayers;		/* from the header */
	guint traffic[2][VARIANT_MAX_PLAYERS];	/* lines written: [0] sent, [1] received */
};

GameLogWriter *gamelog_writer_new(const char *path, GError **error)
{
	return gamelog_writer_new_tapped(path, NULL, NULL, error);
}

/* A tapped log's stream: the file's bytes also go to the tap. */
typedef struct {
	FILE *file;
	GameLogTap tap;
	void *data;
} Tapped;

static ssize_t tapped_write(void *cookie, const char *buf, size_t len)
{
	Tapped *t = cookie;
	size_t n = fwrite(buf, 1, len, t->file);

	if (n)
		t->tap(t->data, buf, n);
	return n == len ? (ssize_t)len : -1;
}

static int tapped_close(void *cookie)
{
	Tapped *t = cookie;
	int r = fclose(t->file);

	t->tap(t->data, NULL, 0);
	g_free(t);
	return r;
}

GameLogWriter *gamelog_writer_new_tapped(const char *path, GameLogTap tap, void *data, GError **error)
{
	FILE *f = fopen(path, "we");

	if (!f) {
		g_set_error(error, GAMELOG_ERROR, GAMELOG_ERROR_WRITE, "cannot write the log %s: %s", path, g_strerror(errno));
		return NULL;
	}
	GameLogWriter *w = g_new0(GameLogWriter, 1);
	if (tap) {
		/* line by line, through the tap: someone watches the game. The
		 * file unbuffered: the line-buffered stream on top hands it a
		 * line at a time, so the file grows a line at a time too (a
		 * spectator who reads the file sees what the tap saw). */
		setvbuf(f, NULL, _IONBF, 0);
		Tapped *t = g_new(Tapped, 1);
		*t = (Tapped){f, tap, data};
		FILE *c = fopencookie(t, "w", (cookie_io_functions_t){.write = tapped_write, .close = tapped_close});
		if (!c) {
			fclose(t->file);
			g_free(t);
			g_free(w);
			g_set_error(error, GAMELOG_ERROR, GAMELOG_ERROR_WRITE, "cannot write the log %s: %s", path,
				    g_strerror(errno));
			return NULL;
		}
		setvbuf(c, NULL, _IOLBF, 1 << 16);
		f = c;
	} else {
		/* (glibc takes the size only with a buffer: else 4 KiB) */
		w->buf = g_malloc(GAMELOG_BUFFER);
		setvbuf(f, w->buf, _IOFBF, GAMELOG_BUFFER);
	}
	w->f = f;
	w->path = g_strdup(path);
	return w;
}

GameLogWriter *gamelog_writer_new_async(const char *path)
{
	GameLogWriter *w = g_new0(GameLogWriter, 1);

	w->f = asyncfile_open(path, 0644, GAMELOG_BUFFER);
	w->path = g_strdup(path);
	if (!w->f)
		g_error("gamelog: no memory for the log %s", path);
	return w;
}

void gamelog_writer_close_later(GameLogWriter *w)
{
	if (!w)
		return;
	g_return_if_fail(!w->buf);	/* an async writer's */
	asyncfile_close_later(w->f, w->path);
	g_free(w->path);
	g_free(w);
}

gboolean gamelog_writer_close(GameLogWriter *w, GError **error)
{
	gboolean ok;

	if (!w)
		return TRUE;
	ok = !ferror(w->f);
	ok = fclose(w->f) == 0 && ok;
	if (!ok)
		g_set_error(error, GAMELOG_ERROR, GAMELOG_ERROR_WRITE, "cannot write the log %s: %s", w->path,
			    g_strerror(errno));
	g_free(w->buf);
	g_free(w->path);
	g_free(w);
	return ok;
}

void gamelog_write_header(GameLogWriter *w, const GameLog *h)
{
	if (!w)
		return;
	g_autofree char *opts = protocol_options_text(h->variant, &h->config, '=');
	g_autofree char *tc = timectl_format_full(&h->time);
	fprintf(w->f, "tetrarena-log 1\n");
	fprintf(w->f, "referee %s\n", h->referee_version);
	fprintf(w->f, "protocol %d\n", h->protocol);
	fprintf(w->f, "variant %s\n", h->variant->name);
	fprintf(w->f, "options %s\n", opts[0] ? opts : "-");
	fprintf(w->f, "seed %" G_GUINT64_FORMAT "\n", h->seed);
	fprintf(w->f, "players %d\n", h->config.nplayers);
	w->nplayers = h->config.nplayers;
	fprintf(w->f, "time %s\n", tc);
	for (int p = 0; p < h->config.nplayers; p++)
		if (h->seat_timed & (1u << p)) {
			g_autofree char *st = timectl_format_full(&h->seat_time[p]);
			fprintf(w->f, "seat-time %d %s\n", p, st);
		}
	fprintf(w->f, "policy %s\n", gamelog_policy_name(h->policy));
	fprintf(w->f, "sandbox %s\n", sandbox_mode_name((SandboxMode)h->sandbox));
	fprintf(w->f, "max-faults %d\n", h->max_faults);
	for (int i = 0; h->chatter && h->chatter[i]; i++)
		fprintf(w->f, "chatter %s\n", h->chatter[i]);
	for (int p = 0; p < h->config.nplayers; p++) {
		fprintf(w->f, "bot %d %s %s %s\n", p, h->name[p], h->sha256[p], h->command[p]);
		if (h->workdir[p])
			fprintf(w->f, "workdir %d %s\n", p, h->workdir[p]);
	}
	fprintf(w->f, "begin\n");
}

void gamelog_write_event(GameLogWriter *w, GameLogKind kind, int seat, const char *text)
{
	if (!w)
		return;
	g_return_if_fail(kind != GAMELOG_SENT && kind != GAMELOG_RECEIVED);
	fputs(kind_names[kind], w->f);
	if (seat >= 0)
		fprintf(w->f, " %d", seat);
	if (text) {
		fputc(' ', w->f);
		fputs(text, w->f);
	}
	fputc('\n', w->f);
}

void gamelog_write_side(GameLogWriter *w, int seat, const char *reason, const char *line)
{
	if (!w)
		return;
	if (reason)
		fprintf(w->f, "side %d refused %s %s\n", seat, reason, line);
	else
		fprintf(w->f, "side %d ok %s\n", seat, line);
}

void gamelog_write_comment(GameLogWriter *w, const char *fmt, ...)
{
	va_list ap;

	if (!w)
		return;
	fputs("# ", w->f);
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	fputc('\n', w->f);
}

void gamelog_write_end(GameLogWriter *w)
{
	if (!w)
		return;
	/* what verify counts again: a traffic line deleted or added shows */
	for (int p = 0; p < w->nplayers && p < VARIANT_MAX_PLAYERS; p++)
		fprintf(w->f, "traffic %d %u %u\n", p, w->traffic[0][p], w->traffic[1][p]);
	fputs("end\n", w->f);
}

/* Append ms (>= 0) with three decimals, as "%.3f" would. */
static void text_ms(Text *t, double ms)
{
	long us = ms > 0 ? (long)(ms * 1000.0 + 0.5) : 0;
	char frac[4] = {(char)('0' + us / 100 % 10), (char)('0' + us / 10 % 10), (char)('0' + us % 10), 0};

	text_int(t, us / 1000);
	text_putc(t, '.');
	text_puts(t, frac);
}

/* A byte the log (and a terminal) shows as it is. */
static gboolean plain(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f && c != '\\';
}

void gamelog_write_traffic(GameLogWriter *w, char dir, int seat, gint64 us, const char *text,
			   size_t len)
{
	char head[48];
	Text t;

	if (!w)
		return;
	if (seat >= 0 && seat < VARIANT_MAX_PLAYERS)
		w->traffic[dir == '>' ? 0 : 1][seat]++;
	text_init(&t, head, sizeof(head));
	text_putc(&t, dir);
	text_putc(&t, ' ');
	text_int(&t, seat);
	text_puts(&t, " +");
	text_int(&t, (long)MAX(us, 0));
	text_putc(&t, ' ');
	fwrite(head, 1, t.len, w->f);
	/* ASCII only (gamelog_escape_append()); most lines are clean */
	size_t clean = 0;
	while (clean < len && plain(text[clean]))
		clean++;
	fwrite(text, 1, clean, w->f);
	if (clean < len) {
		g_autoptr(GString) rest = g_string_new(NULL);
		gamelog_escape_append(rest, text + clean, len - clean);
		fwrite(rest->str, 1, rest->len, w->f);
	}
	fputc('\n', w->f);
}

void gamelog_escape_append(GString *out, const char *text, gsize len)
{
	for (gsize i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (plain((char)c))
			g_string_append_c(out, (char)c);
		else if (c == '\\')
			g_string_append(out, "\\\\");
		else if (c >= 0x80)
			g_string_append_printf(out, "\\x%02x", c);
		else
			g_string_append_c(out, '?');
	}
}

char *gamelog_escape(const char *text, GameLogEscape how)
{
	if (!text)
		return NULL;
	GString *out = g_string_sized_new(strlen(text));
	for (const char *p = text; *p;) {
		gsize n = 0;
		while (p[n] && !((how & GAMELOG_ESCAPE_LINES) && p[n] == '\n') &&
		       !((how & GAMELOG_ESCAPE_LOGGED) && p[n] == '\\'))
			n++;
		gamelog_escape_append(out, p, n);
		p += n;
		if (*p)
			g_string_append_c(out, *p++);	/* a newline or a logged '\\' */
	}
	return g_string_free(out, FALSE);
}

void gamelog_write_timed(GameLogWriter *w, GameLogKind kind, int seat, const char *text,
			 double wall_ms, double cpu_ms)
{
	char line[VARIANT_MOVE_TEXT_MAX + 128];
	Text t;

	if (!w)
		return;
	text_init(&t, line, sizeof(line));
	text_puts(&t, kind_names[kind]);
	text_putc(&t, ' ');
	text_int(&t, seat);
	text_putc(&t, ' ');
	text_puts(&t, text);
	text_puts(&t, " wall=");
	text_ms(&t, wall_ms);
	text_puts(&t, " cpu=");
	text_ms(&t, cpu_ms);
	text_putc(&t, '\n');
	fwrite(line, 1, t.len, w->f);
}

/* ---- reading ---------------------------------------------------------- */

static const char *const policy_names[] = {"forfeit", "random", "nothing"};

const char *gamelog_policy_name(int policy)
{
	return policy_names[policy];
}

int gamelog_policy_from_name(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (g_strcmp0(name, policy_names[i]) == 0)
			return i;
	return -1;
}

static void event_free(gpointer p)
{
	GameLogEvent *e = p;

	g_free(e->text);
	g_free(e);
}

const TimeControl *gamelog_seat_time(const GameLog *log, int p)
{
	return p >= 0 && p < VARIANT_MAX_PLAYERS && (log->seat_timed & (1u << p)) ? &log->seat_time[p] : &log->time;
}

void gamelog_free(GameLog *log)
{
	if (!log)
		return;
	g_free(log->path);
	g_free(log->referee_version);
	for (int p = 0; p < VARIANT_MAX_PLAYERS; p++) {
		g_free(log->name[p]);
		g_free(log->sha256[p]);
		g_free(log->command[p]);
		g_free(log->workdir[p]);
	}
	if (log->events)
		g_ptr_array_unref(log->events);
	g_strfreev(log->chatter);
	g_free(log);
}

static gboolean parse_int(const char *s, gint64 min, gint64 max, gint64 *out)
{
	return s && g_ascii_string_to_signed(s, 10, min, max, out, NULL);
}

static gboolean parse_seat(const char *s, const GameLog *log, int *seat)
{
	gint64 v;

	if (!parse_int(s, 0, log->config.nplayers - 1, &v))
		return FALSE;
	*seat = (int)v;
	return TRUE;
}

#define BAD(...)                                                                   \
	do {                                                                       \
		g_autofree char *why_ = g_strdup_printf(__VA_ARGS__);             \
		g_set_error(error, GAMELOG_ERROR, GAMELOG_ERROR_PARSE, "%s:%d: %s", path, lineno, why_); \
		return NULL;                                                       \
	} while (0)

GameLog *gamelog_read(const char *path, GError **error)
{
	return gamelog_read_with(path, NULL, error);
}

GameLog *gamelog_read_with(const char *path, const Variant *const *extra, GError **error)
{
	g_autofree char *data = NULL;
	gsize len;
	g_autoptr(GError) err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		g_set_error(error, GAMELOG_ERROR, GAMELOG_ERROR_READ, "cannot read log %s: %s", path, err->message);
		return NULL;
	}
	return gamelog_parse(path, data, len, extra, error);
}

/* The header's fields, each wanted exactly once. */
static const char *const header_fields[] = {
	"referee", "protocol", "variant", "options", "seed", "players", "time", "policy", NULL,
};

static int header_field(const char *word)
{
	for (int i = 0; header_fields[i]; i++)
		if (strcmp(word, header_fields[i]) == 0)
			return i;
	return -1;
}

/* "SEAT +US TEXT" after a traffic line's direction: the seat, the time
 * and the text. */
static gboolean parse_traffic(char *rest, const GameLog *log, int *seat, gint64 *us_out,
			      const char **text)
{
	char *sp = strchr(rest, ' ');

	if (!sp || sp[1] != '+')
		return FALSE;
	*sp = '\0';
	if (!parse_seat(rest, log, seat))
		return FALSE;
	char *time = sp + 2;
	char *sp2 = strchr(time, ' ');
	if (sp2)
		*sp2 = '\0';
	guint64 us;
	if (!g_ascii_string_to_unsigned(time, 10, 0, G_MAXINT64, &us, NULL))
		return FALSE;
	*us_out = (gint64)us;
	*text = sp2 ? sp2 + 1 : "";
	return TRUE;
}

GameLog *gamelog_parse(const char *path, char *data, gsize len, const Variant *const *extra,
		       GError **error)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GameLog) log = g_new0(GameLog, 1);
	log->path = g_strdup(path);
	log->events = g_ptr_array_new_with_free_func(event_free);
	log->chatter = g_new0(char *, 1);
	log->policy = -1;
	log->sandbox = -1;
	log->max_faults = -1;
	timectl_default(&log->time);
	gboolean in_body = FALSE;
	int lineno = 0;
	guint seen = 0;		/* header fields read, bit i for header_fields[i] */
	guint bots = 0;		/* seats with a bot line */
	guint workdirs = 0;
	char *p = data, *end = len ? data + len : data;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;	/* a cut-off last line: ignore it */
		*nl = '\0';
		char *line = p;
		p = nl + 1;
		lineno++;
		if (memchr(line, '\0', (size_t)(nl - line)))
			BAD("a NUL byte in the line");
		if (lineno == 1) {
			if (strcmp(line, "tetrarena-log 1") != 0)
				BAD("not a tetrarena game log (first line is not 'tetrarena-log 1')");
			continue;
		}
		if (line[0] == '\0' || line[0] == '#')
			continue;
		if (line[0] == '>' || line[0] == '<') {
			GameLogEvent ev = {.lineno = lineno, .seat = -1};
			const char *text;
			if (!in_body)
				BAD("traffic before 'begin'");
			if (line[1] != ' ' || !parse_traffic(line + 2, log, &ev.seat, &ev.us, &text))
				BAD("bad traffic line (want: %c SEAT +MICROSECONDS TEXT)", line[0]);
			ev.kind = line[0] == '>' ? GAMELOG_SENT : GAMELOG_RECEIVED;
			ev.text = g_strdup(text);
			g_ptr_array_add(log->events, g_memdup2(&ev, sizeof(ev)));
			continue;
		}
		char *sp = strchr(line, ' ');
		g_autofree char *word = sp ? g_strndup(line, (gsize)(sp - line)) : g_strdup(line);
		const char *rest = sp ? sp + 1 : "";
		if (!in_body) {
			gint64 v;
			int field = header_field(word);
			if (field >= 0) {
				if (seen & (1u << field))
					BAD("a second '%s' line", word);
				seen |= 1u << field;
			}
			if (strcmp(word, "referee") == 0) {
				log->referee_version = g_strdup(rest);
			} else if (strcmp(word, "protocol") == 0) {
				if (!parse_int(rest, 1, 1000, &v))
					BAD("bad protocol version '%s'", rest);
				log->protocol = (int)v;
			} else if (strcmp(word, "variant") == 0) {
				log->variant = variant_find(rest);
				for (int i = 0; !log->variant && extra && extra[i]; i++)
					if (strcmp(extra[i]->name, rest) == 0)
						log->variant = extra[i];
				if (!log->variant)
					BAD("unknown variant '%s'", rest);
			} else if (strcmp(word, "options") == 0) {
				if (!log->variant)
					BAD("options before variant");
				if (seen & (1u << header_field("players")))
					BAD("options after players");
				variant_config_default(log->variant, 0, &log->config);
				if (strcmp(rest, "-") != 0) {
					g_auto(GStrv) kv = g_strsplit(rest, ",", -1);
					for (int i = 0; kv[i]; i++) {
						char *eq = strchr(kv[i], '=');
						if (!eq)
							BAD("bad option '%s'", kv[i]);
						*eq = '\0';
						VariantError ve = variant_option_set(log->variant, &log->config,
										     kv[i], eq + 1);
						if (ve != VARIANT_OK)
							BAD("option %s: %s", kv[i], variant_error_string(ve));
					}
				}
			} else if (strcmp(word, "seed") == 0) {
				if (!rest[0] || !g_ascii_string_to_unsigned(rest, 10, 0, G_MAXUINT64, &log->seed, NULL))
					BAD("bad seed '%s'", rest);
			} else if (strcmp(word, "players") == 0) {
				if (!log->variant || !(seen & (1u << header_field("options"))))
					BAD("players before variant and options");
				if (!parse_int(rest, log->variant->min_players, log->variant->max_players, &v))
					BAD("bad player count '%s'", rest);
				log->config.nplayers = (int)v;
			} else if (strcmp(word, "time") == 0) {
				if (!timectl_parse(&log->time, rest, &err))
					BAD("%s", err->message);
			} else if (strcmp(word, "seat-time") == 0) {
				g_auto(GStrv) f = g_strsplit(rest, " ", 2);
				int seat;
				if (!(seen & (1u << header_field("time"))) || !log->config.nplayers)
					BAD("seat-time before players and time");
				if (g_strv_length(f) < 2 || !parse_seat(f[0], log, &seat))
					BAD("bad seat-time line (want: seat-time SEAT TIME)");
				if (log->seat_timed & (1u << seat))
					BAD("a second seat-time line for seat %d", seat);
				log->seat_time[seat] = log->time;
				if (!timectl_parse(&log->seat_time[seat], f[1], &err))
					BAD("%s", err->message);
				log->seat_timed |= 1u << seat;
			} else if (strcmp(word, "policy") == 0) {
				log->policy = gamelog_policy_from_name(rest);
				if (log->policy < 0)
					BAD("unknown fault policy '%s'", rest);
			} else if (strcmp(word, "sandbox") == 0) {
				SandboxMode m;
				if (log->sandbox >= 0)
					BAD("a second 'sandbox' line");
				if (!sandbox_mode_parse(rest, &m) || m == SANDBOX_AUTO)
					BAD("bad sandbox line '%s' (want on or off)", rest);
				log->sandbox = (int)m;
			} else if (strcmp(word, "max-faults") == 0) {
				if (log->max_faults >= 0)
					BAD("a second 'max-faults' line");
				if (!parse_int(rest, 0, 1000000, &v))
					BAD("bad max-faults '%s'", rest);
				log->max_faults = (int)v;
			} else if (strcmp(word, "chatter") == 0) {
				guint n = g_strv_length(log->chatter);
				if (n >= 16)
					BAD("more than 16 chatter lines");
				log->chatter = g_renew(char *, log->chatter, n + 2);
				log->chatter[n] = g_strdup(rest);
				log->chatter[n + 1] = NULL;
			} else if (strcmp(word, "bot") == 0) {
				g_auto(GStrv) f = g_strsplit(rest, " ", 4);
				int seat;
				if (!log->config.nplayers)
					BAD("bot line before players");
				if (g_strv_length(f) < 4 || !parse_seat(f[0], log, &seat))
					BAD("bad bot line (want: bot SEAT NAME SHA256 COMMAND)");
				if (bots & (1u << seat))
					BAD("a second bot line for seat %d", seat);
				bots |= 1u << seat;
				log->name[seat] = g_strdup(f[1]);
				log->sha256[seat] = g_strdup(f[2]);
				log->command[seat] = g_strdup(f[3]);
			} else if (strcmp(word, "workdir") == 0) {
				g_auto(GStrv) f = g_strsplit(rest, " ", 2);
				int seat;
				if (!log->config.nplayers)
					BAD("workdir line before players");
				if (g_strv_length(f) < 2 || !parse_seat(f[0], log, &seat))
					BAD("bad workdir line");
				if (workdirs & (1u << seat))
					BAD("a second workdir line for seat %d", seat);
				workdirs |= 1u << seat;
				log->workdir[seat] = g_strdup(f[1]);
			} else if (strcmp(word, "begin") == 0) {
				for (int i = 0; header_fields[i]; i++)
					if (!(seen & (1u << i)))
						BAD("header incomplete before 'begin': no '%s' line", header_fields[i]);
				for (int s = 0; s < log->config.nplayers; s++)
					if (!(bots & (1u << s)))
						BAD("header incomplete before 'begin': no bot line for seat %d", s);
				in_body = TRUE;
			} else {
				BAD("unknown header line '%s'", word);
			}
			continue;
		}
		GameLogEvent ev = {.lineno = lineno, .seat = -1};
		g_auto(GStrv) f = g_strsplit(rest, " ", -1);
		if (strcmp(word, "chance") == 0) {
			ev.kind = GAMELOG_CHANCE;
			ev.text = g_strdup(rest);
		} else if (strcmp(word, "move") == 0 || strcmp(word, "random") == 0 ||
			   strcmp(word, "rejected") == 0 || strcmp(word, "submit") == 0 ||
			   strcmp(word, "submit-random") == 0) {
			ev.kind = strcmp(word, "move") == 0 ? GAMELOG_MOVE
				: strcmp(word, "random") == 0 ? GAMELOG_RANDOM
				: strcmp(word, "submit") == 0 ? GAMELOG_SUBMIT
				: strcmp(word, "submit-random") == 0 ? GAMELOG_SUBMIT_RANDOM
				: GAMELOG_REJECTED;
			if (!f[0] || !parse_seat(f[0], log, &ev.seat) || !f[1])
				BAD("bad %s line (want: %s SEAT MOVE)", word, word);
			/* Notation may contain spaces; timings are the key=value tail. */
			GString *t = g_string_new(NULL);
			for (int i = 1; f[i]; i++) {
				if (g_str_has_prefix(f[i], "wall=")) {
					ev.wall_ms = g_ascii_strtod(f[i] + 5, NULL);
					continue;
				}
				if (g_str_has_prefix(f[i], "cpu=")) {
					ev.cpu_ms = g_ascii_strtod(f[i] + 4, NULL);
					continue;
				}
				if (t->len)
					g_string_append_c(t, ' ');
				g_string_append(t, f[i]);
			}
			ev.text = g_string_free(t, FALSE);
		} else if (strcmp(word, "side") == 0) {
			ev.kind = GAMELOG_SIDE;
			const char *after = strchr(rest, ' ');
			if (!f[0] || !parse_seat(f[0], log, &ev.seat) || !after ||
			    (!g_str_has_prefix(after + 1, "ok ") && !g_str_has_prefix(after + 1, "refused ")))
				BAD("bad side line (want: side SEAT ok|refused ...)");
			ev.text = g_strdup(after + 1);
		} else if (strcmp(word, "close") == 0) {
			ev.kind = GAMELOG_CLOSE;
			if (!parse_seat(rest, log, &ev.seat))
				BAD("bad close line (want: close SEAT)");
		} else if (strcmp(word, "joint") == 0) {
			ev.kind = GAMELOG_JOINT;
		} else if (strcmp(word, "retire") == 0 || strcmp(word, "out") == 0 ||
			   strcmp(word, "missing") == 0) {
			ev.kind = word[0] == 'r' ? GAMELOG_RETIRE : word[0] == 'o' ? GAMELOG_OUT : GAMELOG_MISSING;
			if (!parse_seat(rest, log, &ev.seat))
				BAD("bad %s line (want: %s SEAT)", word, word);
		} else if (strcmp(word, "fault") == 0) {
			ev.kind = GAMELOG_FAULT;
			if (!f[0] || !parse_seat(f[0], log, &ev.seat) || !f[1] || protocol_fault_from_name(f[1]) < 0)
				BAD("bad fault line (want: fault SEAT KIND)");
			ev.text = g_strdup(f[1]);
		} else if (strcmp(word, "halt") == 0) {
			ev.kind = GAMELOG_HALT;
		} else if (strcmp(word, "result") == 0) {
			ev.kind = GAMELOG_RESULT;
			ev.text = g_strdup(rest);
		} else if (strcmp(word, "traffic") == 0) {
			int seat;
			guint sent, received;
			char tail;
			if (!f[0] || !parse_seat(f[0], log, &seat) || !f[1] || !f[2] ||
			    sscanf(f[1], "%u%c", &sent, &tail) != 1 || sscanf(f[2], "%u%c", &received, &tail) != 1 ||
			    f[3] || (log->counted & (1u << seat)))
				BAD("bad traffic line (want: traffic SEAT SENT RECEIVED, once a seat)");
			log->counted |= 1u << seat;
			log->sent[seat] = sent;
			log->received[seat] = received;
			continue;
		} else if (strcmp(word, "end") == 0) {
			log->complete = TRUE;
			continue;
		} else {
			BAD("unknown line '%s'", word);
		}
		g_ptr_array_add(log->events, g_memdup2(&ev, sizeof(ev)));
	}
	if (!in_body) {
		lineno++;
		BAD("the log ends inside its header");
	}
	return g_steal_pointer(&log);
}
