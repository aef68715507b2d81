/* human: the terminal player. See human.h. */
#include "human.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <glib.h>

#include "humanview.h"
#include "protocol.h"
#include "variant.h"

/* The slowest real-time rush a person is offered: each seat acts at most
 * once in this many ms (the `pace` option). */
#define HUMAN_PACE_MIN 1000

#define CTRL_C 0x03
#define CTRL_D 0x04
#define CTRL_L 0x0c
#define CTRL_U 0x15

typedef struct {
	int tty;			/* the terminal, read and written */
	gboolean colour;
	const Variant *v;
	VariantConfig cfg;
	void *state;
	int seat, players;
	GPtrArray *moves;		/* the legal moves of the coming `go` */
	gboolean fresh;			/* the next `moves` line starts a new list */
	char *go;			/* the state of the outstanding `go`, or NULL */
	GString *typed;			/* the line being typed */
	GString *from_ref;		/* bytes from the referee not yet a line */
	gboolean *keep;			/* the moves the list shows (a filter) */
	int page;			/* the first group `more` shows */
	gboolean done;
} Human;

static struct termios saved_termios;
static int saved_tty = -1;

static void restore_tty(void)
{
	if (saved_tty >= 0)
		tcsetattr(saved_tty, TCSAFLUSH, &saved_termios);
}

static void on_signal(int sig)
{
	restore_tty();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The terminal reads key by key, echo and signals off: Ctrl-C and Ctrl-D
 * reach the player here (who resigns), not the referee. */
static void raw_tty(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &saved_termios) != 0)
		return;
	saved_tty = fd;
	atexit(restore_tty);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	t = saved_termios;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	tcsetattr(fd, TCSAFLUSH, &t);
}

static void tty_write(Human *h, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		ssize_t w = write(h->tty, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Text on the terminal: every "\n" as "\r\n" (output processing may be
 * off), above the prompt when one is shown (it is drawn again). */
static void show(Human *h, const char *text)
{
	GString *s = g_string_new(h->go ? "\r\033[K" : NULL);

	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			g_string_append_c(s, '\r');
		g_string_append_c(s, *p);
	}
	if (h->go)
		g_string_append_printf(s, "your move (number, move, or help): %s", h->typed->str);
	tty_write(h, s->str);
	g_string_free(s, TRUE);
}

static void G_GNUC_PRINTF(2, 3) showf(Human *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *s = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	show(h, s);
}

/* A line to the referee. */
static void send_line(const char *line)
{
	printf("%s\n", line);
	fflush(stdout);
}

static void terminal_size(Human *h, int *rows, int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (ioctl(h->tty, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* Append the groups of the moves shown from group h->page on, in at most
 * `lines` lines (the last one says what is left). */
static void list_moves(Human *h, GString *out, int lines, int cols, gboolean pictures)
{
	char **mv = (char **)h->moves->pdata;
	int n = (int)h->moves->len;
	g_autoptr(GArray) groups = humanview_groups(mv, n, h->keep);
	int ng = (int)groups->len;
	HumanGroup *g = (HumanGroup *)(void *)groups->data;

	if (n == 0 || ng == 0) {
		g_string_append(out, n ? "No move begins so.\n" : "No move is listed.\n");
		return;
	}
	if (h->page >= ng)
		h->page = 0;
	int from = h->page;
	int fit = MIN(ng - from, MAX(lines, 2));
	if (fit < ng - from)
		fit--;	/* room for the line saying what is left */
	if (pictures && fit > 0 && lines - fit >= 5) {
		GString *band = g_string_new(NULL);
		if (humanview_pictures(band, g + from, fit, cols - 4) <= lines - fit)
			g_string_append(out, band->str);
		g_string_free(band, TRUE);
	}
	for (int i = from; i < from + fit; i++)
		humanview_group_line(out, mv, &g[i], cols);
	h->page = from + fit;
	if (h->page < ng) {
		int left = 0;
		for (int i = h->page; i < ng; i++)
			left += g[i].count;
		g_string_append_printf(out, "   ... %d more moves: `more` lists them; type the start of a move "
				       "(%s) to list those.\n", left, g[h->page].stem);
	}
}

/* Show the decision at hand: the board first, what to decide, the moves. */
static void show_decision(Human *h)
{
	int rows, cols;
	g_autoptr(GString) out = g_string_new("\n");
	g_autoptr(GString) about = g_string_new(NULL);

	terminal_size(h, &rows, &cols);
	humanview_describe(about, h->v, h->seat, h->go);
	int about_lines = 0;
	for (const char *p = about->str; *p; p++)
		about_lines += *p == '\n';
	int room = rows - 2 - about_lines;	/* the prompt, the blank line */
	int for_moves = MIN(6, MAX(3, room / 3));
	if (h->v->state_parse(h->state, &h->cfg, h->go)) {
		char *pic = g_malloc(1 << 16);
		Text t;
		text_init(&t, pic, 1 << 16);
		h->v->render(h->state, h->colour, &t);
		g_autofree char *fit = humanview_fit(pic, room - for_moves);
		g_string_append(out, fit);
		for (const char *p = fit; *p; p++)
			room -= *p == '\n';
		g_free(pic);
	}
	g_string_append(out, about->str);
	h->page = 0;
	list_moves(h, out, MAX(room, 3), cols, TRUE);
	show(h, out->str);
}

static void help(Human *h)
{
	g_autoptr(GString) s = g_string_new(
		"Type a move's number from the list, or the move itself, then Enter.\n"
		"  12 or T0@3   play that move\n"
		"  T0           list the moves that begin so (any start of a move)\n"
		"  more         the next moves of the list; `board` shows the board again\n"
		"  resign       give the game up (Ctrl-C or Ctrl-D do the same): the game\n"
		"               ends for you at once, logged as the fault `resigned`\n");
	if (h->v && h->v->side_verbs) {
		g_string_append(s, "Table talk (before your move; protocol.md, Table talk):\n"
				"  say SEAT TEXT   offer SEAT GIVE WANT   gift SEAT PIECE\n"
				"  accept ID   refuse ID   tome (round 1)\n");
	}
	show(h, s->str);
}

static void resign(Human *h, const char *how)
{
	g_clear_pointer(&h->go, g_free);
	show(h, "");
	showf(h, "\r\n%s: you resign. The game ends for you (seat %d); the referee gives the result.\n",
	      how, h->seat);
	send_line(protocol_resign_line());
	h->done = TRUE;
}

/* Whether `in` is a side action of the variant (table talk). */
static gboolean side_line(Human *h, const char *in)
{
	if (!h->v || !h->v->side_verbs)
		return FALSE;
	for (const char *const *w = h->v->side_verbs; *w; w++)
		if (protocol_line_is(in, *w))
			return TRUE;
	return FALSE;
}

/* A line typed at the prompt. */
static void entered(Human *h, char *in)
{
	g_strstrip(in);
	char **mv = (char **)h->moves->pdata;
	int n = (int)h->moves->len;
	guint64 k;
	const char *pick = NULL;

	if (!*in) {
		show(h, "");
		return;
	}
	tty_write(h, "\r\n");	/* the typed line stays as it was */
	if (g_ascii_string_to_unsigned(in, 10, 1, (guint64)MAX(n, 1), &k, NULL) && n)
		pick = mv[k - 1];
	for (int i = 0; !pick && i < n; i++)
		if (strcmp(in, mv[i]) == 0)
			pick = mv[i];
	if (pick) {
		g_autofree char *line = protocol_move_line(pick);
		g_autofree char *say = g_strdup_printf("you play %s\n", pick);
		g_clear_pointer(&h->go, g_free);
		show(h, say);
		send_line(line);
		return;
	}
	if (strcmp(in, "help") == 0 || strcmp(in, "?") == 0) {
		help(h);
	} else if (strcmp(in, protocol_resign_line()) == 0) {	/* the command is the line's word */
		resign(h, "As you typed");
	} else if (strcmp(in, "board") == 0) {
		g_clear_pointer(&h->keep, g_free);
		show_decision(h);
	} else if (strcmp(in, "more") == 0) {
		g_autoptr(GString) s = g_string_new(NULL);
		int rows, cols;
		terminal_size(h, &rows, &cols);
		list_moves(h, s, rows - 2, cols, FALSE);
		show(h, s->str);
	} else if (side_line(h, in)) {
		send_line(in);
	} else {
		gboolean *keep = g_new0(gboolean, MAX(n, 1));
		int found = 0;
		for (int i = 0; i < n; i++)
			found += keep[i] = g_str_has_prefix(mv[i], in);
		if (!found) {
			g_free(keep);
			g_autofree char *e = humanview_escape(in);
			showf(h, "'%s' is neither a move of the list nor a command (`help` lists them)\n", e);
			return;
		}
		g_free(h->keep);
		h->keep = keep;
		h->page = 0;
		g_autoptr(GString) s = g_string_new(NULL);
		int rows, cols;
		terminal_size(h, &rows, &cols);
		list_moves(h, s, rows - 2, cols, TRUE);
		show(h, s->str);
	}
}

/* Keys from the terminal: a small line editor. */
static void keys(Human *h, const char *buf, ssize_t n)
{
	for (ssize_t i = 0; i < n && !h->done; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == CTRL_C) {
			resign(h, "Ctrl-C");
		} else if (c == CTRL_D && h->typed->len == 0) {
			resign(h, "Ctrl-D (end of input)");
		} else if (!h->go) {
			continue;	/* nothing is asked: typing ahead is dropped */
		} else if (c == '\r' || c == '\n') {
			g_autofree char *in = g_strdup(h->typed->str);
			g_string_truncate(h->typed, 0);
			entered(h, in);
		} else if ((c == 0x7f || c == '\b') && h->typed->len) {
			g_string_truncate(h->typed, h->typed->len - 1);
			show(h, "");
		} else if (c == CTRL_U) {
			g_string_truncate(h->typed, 0);
			show(h, "");
		} else if (c == CTRL_L) {
			show_decision(h);
		} else if (c >= 0x20 && c < 0x7f && h->typed->len < 240) {
			g_string_append_c(h->typed, (char)c);
			char echo[2] = {(char)c, 0};
			tty_write(h, echo);
		}
	}
}

/* "key=value" field of a `game` line, or NULL. */
static const char *word_field(char **words, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; words[i]; i++)
		if (strncmp(words[i], key, n) == 0 && words[i][n] == '=')
			return words[i] + n + 1;
	return NULL;
}

/* Why a person cannot take this game's seat at the terminal, or NULL. */
const char *human_refusal(const Variant *v, const VariantConfig *cfg)
{
	int lockstep = variant_option_index(v, "lockstep");
	int pace = variant_option_index(v, "pace");

	if (lockstep < 0 || cfg->opt[lockstep] || pace < 0 || cfg->opt[pace] >= HUMAN_PACE_MIN)
		return NULL;
	return "real-time rush is too fast to play by typing: add --option lockstep=1 (turn by turn) "
	       "or --option pace=3000 (each seat acts at most every 3 s; 1000 or more)";
}

static void game_line(Human *h, const char *line)
{
	g_auto(GStrv) w = g_strsplit(line, " ", -1);
	const char *name = word_field(w, "variant");

	h->v = name ? variant_find(name) : NULL;
	if (!h->v) {
		g_autofree char *d = protocol_decline_line("unknown variant");
		send_line(d);
		return;
	}
	gint64 np = 2, s = 0;
	g_ascii_string_to_signed(word_field(w, "players") ? word_field(w, "players") : "2", 10, 1, 8, &np, NULL);
	g_ascii_string_to_signed(word_field(w, "seat") ? word_field(w, "seat") : "0", 10, 0, 7, &s, NULL);
	h->seat = (int)s;
	h->players = (int)np;
	variant_config_default(h->v, (int)np, &h->cfg);
	const char *opts = word_field(w, "options");
	if (opts) {
		g_auto(GStrv) kv = g_strsplit(opts, ",", -1);
		for (int i = 0; kv[i]; i++) {
			char *c = strchr(kv[i], ':');
			if (c) {
				*c = '\0';
				variant_option_set(h->v, &h->cfg, kv[i], c + 1);
			}
		}
	}
	const char *why = human_refusal(h->v, &h->cfg);
	if (why) {
		showf(h, "\n%s\n", why);
		g_autofree char *d = protocol_decline_line(why);
		send_line(d);
		return;
	}
	g_free(h->state);
	h->state = g_malloc0(h->v->state_size);
	showf(h, "\n%s, you are seat %d of %d. Type `help` at the prompt; Ctrl-C resigns.\n",
	      h->v->title, h->seat, (int)np);
	g_autofree char *hello = protocol_hello_line("human", "1", TRUE, FALSE);
	send_line(hello);
}

/* The result in words. */
static void result_line(Human *h, const char *fields)
{
	g_auto(GStrv) w = g_strsplit(fields, " ", -1);
	g_autoptr(GString) s = g_string_new("\nGame over");
	const char *reason = word_field(w, "reason");
	g_auto(GStrv) ranks = g_strsplit(word_field(w, "ranks") ? word_field(w, "ranks") : "", ",", -1);
	g_auto(GStrv) scores = g_strsplit(word_field(w, "scores") ? word_field(w, "scores") : "", ",", -1);
	g_auto(GStrv) faults = g_strsplit(word_field(w, "faults") ? word_field(w, "faults") : "", ",", -1);
	int n = (int)g_strv_length(ranks);

	if (reason)
		g_string_append(s, strcmp(reason, "end") == 0 ? " (the rules ended it)"
			      : strcmp(reason, "faults") == 0 ? " (no seat could go on)"
			      : strcmp(reason, "limit") == 0 ? " (the game's time ran out)" : "");
	g_string_append(s, ":\n");
	for (int p = 0; p < n; p++) {
		g_string_append_printf(s, "  %s %d: rank %s of %d, score %s", p == h->seat ? "you, seat" : "seat",
				       p, ranks[p], n, p < (int)g_strv_length(scores) ? scores[p] : "?");
		if (p < (int)g_strv_length(faults) && strcmp(faults[p], "-") != 0) {
			g_autofree char *e = humanview_escape(faults[p]);
			g_string_append_printf(s, " (fault: %s)", e);
		}
		g_string_append_c(s, '\n');
	}
	if (h->v && h->v->lower_score_wins)
		g_string_append(s, "  (the lower score wins)\n");
	show(h, s->str);
}

/* A line from the referee. */
static void referee_line(Human *h, const char *line)
{
	ProtocolVerb verb = protocol_verb(line);
	ProtocolUpdate update;
	const char *rest;

	if (verb == PROTOCOL_GAME && line[4] == ' ') {
		game_line(h, line);
	} else if (verb == PROTOCOL_MOVES) {
		if (h->fresh)
			g_ptr_array_set_size(h->moves, 0);
		h->fresh = FALSE;
		g_auto(GStrv) m = g_strsplit(protocol_args(line), " ", -1);
		for (int i = 0; m[i]; i++)
			if (*m[i])
				g_ptr_array_add(h->moves, g_strdup(m[i]));
	} else if (protocol_parse_update(line, &update, &rest)) {
		g_autofree char *e = humanview_escape(rest);
		char *sp = strchr(e, ' ');
		if (update == PROTOCOL_UPDATE_CHANCE)
			showf(h, "chance: %s\n", e);
		else if (sp)
			showf(h, "seat %.*s %s %s\n", (int)(sp - e), e,
			      update == PROTOCOL_UPDATE_FAULT ? "faults:" : "plays", sp + 1);
	} else if (verb == PROTOCOL_GO && line[2] == ' ' && h->v) {
		long ms, bank;
		const char *st;
		if (!protocol_parse_go(line, &ms, &bank, &st)) {
			/* (a referee that sends no bank: "go MS STATE") */
			st = strchr(protocol_args(line), ' ');
			st = st ? st + 1 : "";
		}
		if (h->fresh)
			g_ptr_array_set_size(h->moves, 0);	/* no `moves` came */
		h->fresh = TRUE;
		g_clear_pointer(&h->keep, g_free);
		g_free(h->go);
		h->go = g_strdup(st);
		show_decision(h);
	} else if (verb == PROTOCOL_RESULT && line[6] == ' ') {
		result_line(h, protocol_args(line));
	} else if (verb == PROTOCOL_QUIT) {
		h->done = TRUE;
	} else if (verb != PROTOCOL_TETRARENA && *line) {
		/* table talk (heard, offered, traded, held, ok, refused, closed)
		 * and whatever else comes: shown as it came, escaped */
		g_autofree char *e = humanview_escape(line);
		showf(h, "referee: %s\n", e);
	}
}

static void from_referee(Human *h, const char *buf, ssize_t n)
{
	g_string_append_len(h->from_ref, buf, n);
	char *nl;
	while (!h->done && (nl = memchr(h->from_ref->str, '\n', h->from_ref->len))) {
		*nl = '\0';
		if (nl > h->from_ref->str && nl[-1] == '\r')
			nl[-1] = '\0';
		referee_line(h, h->from_ref->str);
		g_string_erase(h->from_ref, 0, nl - h->from_ref->str + 1);
	}
}

int human_run(void)
{
	Human h = {.tty = open("/dev/tty", O_RDWR | O_CLOEXEC)};

	if (h.tty < 0) {
		fprintf(stderr, "referee: the human player needs a terminal (/dev/tty)\n");
		return 1;
	}
	h.colour = isatty(h.tty);
	h.moves = g_ptr_array_new_with_free_func(g_free);
	h.typed = g_string_new(NULL);
	h.from_ref = g_string_new(NULL);
	raw_tty(h.tty);
	signal(SIGPIPE, SIG_IGN);
	int status = 0;
	while (!h.done) {
		struct pollfd pfd[2] = {{.fd = 0, .events = POLLIN}, {.fd = h.tty, .events = POLLIN}};
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		char buf[8192];
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t n = read(h.tty, buf, sizeof(buf));
			if (n <= 0) {
				status = 1;	/* the terminal is gone */
				break;
			}
			keys(&h, buf, n);
		}
		if (!h.done && pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t n = read(0, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;	/* the referee is gone */
			from_referee(&h, buf, n);
		}
	}
	restore_tty();
	saved_tty = -1;
	close(h.tty);
	g_ptr_array_unref(h.moves);
	g_string_free(h.typed, TRUE);
	g_string_free(h.from_ref, TRUE);
	g_free(h.keep);
	g_free(h.go);
	g_free(h.state);
	return status;
}
