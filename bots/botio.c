/*
 * botio: protocol.md for C bots. See botio.h for the contract.
 *
 * A session keeps the current game (variant, seat, options), one state
 * buffer of the variant's state_size and the referee's last `moves` list;
 * each `go` overwrites the state from its text, so nothing else carries
 * over between moves.
 */
#include "botio.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"
#include "wire.h"

#ifdef TETRARENA_SANITIZE
/* Built with ASan (make SANITIZE=1): a jailed bot may not ptrace (the
 * jail's filter, referee/sandbox-filter.c), and LeakSanitizer stops the
 * world with ptrace at exit, so it would fail there with a fatal error on
 * the bot's stderr. Leaks are looked for in the referee and the unit
 * tests, which run unjailed; in bots (and the tests' fake bots) they are not. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif

#define WORD_MAX 64

/* A bounded decimal integer of a whole word; false when it is not one. */
static bool parse_long(const char *s, size_t n, long lo, long hi, long *out)
{
	char buf[24];
	char *end = NULL;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end = NULL;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* Copy the field at s (up to a space or the end) into buf[cap]; false if too long. */
static bool copy_word(const char *s, size_t n, char *buf, size_t cap)
{
	if (n >= cap)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* Set the options of `options=K:V,K:V`; false with a reason. */
static bool parse_options(const Variant *v, VariantConfig *cfg, const char *s, size_t n,
			  char *why, size_t cap)
{
	const char *end = s + n;

	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *item_end = comma ? comma : end;
		const char *colon = memchr(s, ':', (size_t)(item_end - s));
		char key[WORD_MAX], value[WORD_MAX];

		if (!colon || !copy_word(s, (size_t)(colon - s), key, sizeof(key)) ||
		    !copy_word(colon + 1, (size_t)(item_end - colon - 1), value, sizeof(value))) {
			snprintf(why, cap, "malformed option");
			return false;
		}
		VariantError err = variant_option_set(v, cfg, key, value);
		if (err != VARIANT_OK) {
			snprintf(why, cap, "option %s: %s", key, variant_error_string(err));
			return false;
		}
		s = item_end + (comma ? 1 : 0);
	}
	return true;
}

bool botio_parse_game(const char *line, BotGame *out, char *why, size_t cap)
{
	const char *p = line;
	const char *opt = NULL;
	size_t opt_len = 0;
	long n;
	char name[WORD_MAX] = "";

	memset(out, 0, sizeof(*out));
	out->seat = -1;
	if (strncmp(p, "game ", 5) != 0) {
		snprintf(why, cap, "not a game line");
		return false;
	}
	p += 5;
	size_t len = strcspn(p, " ");
	if (!parse_long(p, len, 1, 1000000000L, &n)) {
		snprintf(why, cap, "bad game number");
		return false;
	}
	out->number = (int)n;
	p += len;
	while (*p) {
		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);
		if (eq) {
			size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
			const char *val = eq + 1;
			if (klen == 7 && !strncmp(p, "variant", 7)) {
				if (!copy_word(val, vlen, name, sizeof(name)))
					name[0] = '\0';
			} else if (klen == 4 && !strncmp(p, "seat", 4)) {
				if (parse_long(val, vlen, 0, VARIANT_MAX_PLAYERS - 1, &n))
					out->seat = (int)n;
			} else if (klen == 7 && !strncmp(p, "players", 7)) {
				if (parse_long(val, vlen, 1, VARIANT_MAX_PLAYERS, &n))
					out->cfg.nplayers = (int)n;
			} else if (klen == 7 && !strncmp(p, "options", 7)) {
				opt = val;
				opt_len = vlen;
			}
		}
		p += len;
	}
	out->variant = name[0] ? variant_find(name) : NULL;
	if (!out->variant) {
		snprintf(why, cap, "unknown variant %s", name[0] ? name : "(none)");
		return false;
	}
	if (out->cfg.nplayers == 0 || out->seat < 0 || out->seat >= out->cfg.nplayers) {
		snprintf(why, cap, "bad seat or players");
		return false;
	}
	int nplayers = out->cfg.nplayers;
	variant_config_default(out->variant, nplayers, &out->cfg);
	if (opt && !parse_options(out->variant, &out->cfg, opt, opt_len, why, cap))
		return false;
	VariantError err = variant_config_check(out->variant, &out->cfg);
	if (err != VARIANT_OK) {
		snprintf(why, cap, "%s", variant_error_string(err));
		return false;
	}
	return true;
}

bool botio_read_line(FILE *in, char *buf)
{
	size_t n = 0;
	bool too_long = false;
	int c;

	while ((c = getc(in)) != EOF && c != '\n') {
		if (n < BOTIO_LINE_MAX - 1)
			buf[n++] = (char)c;
		else
			too_long = true;
	}
	if (c == EOF && n == 0 && !too_long)
		return false;
	if (too_long)
		n = 0;
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return true;
}

void botio_info(const char *fmt, ...)
{
	va_list ap;

	fputs("info ", stdout);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void botio_analyse(const Variant *v, const void *state, int seat, const Move *moves, const double *values, int n,
		   const char *unit)
{
	static char line[BOTIO_LINE_MAX];
	char one[256];
	Text t;
	size_t len = (size_t)snprintf(line, sizeof(line), "info analyse unit=%s", unit);

	for (int i = 0; i < n && len < sizeof(line); i++) {
		text_init(&t, one, sizeof(one) - 32);
		v->move_format(state, seat, moves[i], &t);
		int k = snprintf(line + len, sizeof(line) - len, " %s=%.2f", one, values[i]);
		if (k < 0 || (size_t)k >= sizeof(line) - len - 1)
			break;
		len += (size_t)k;
	}
	line[len] = '\n';
	fwrite(line, 1, len + 1, stdout);
	fflush(stdout);
}

typedef struct {
	const BotioSpec *spec;
	FILE *in, *out;
	BotGame game;
	bool playing;		/* a game was accepted and not yet over */
	void *state;
	size_t state_cap;
	Rng rng;
	char *moves;		/* the `moves` payloads since the last `go`,
				 * joined (a long list comes over several
				 * lines), NUL-terminated */
	size_t moves_cap;
	bool have_moves;
} Session;

/* Whether the word `w` is among the space-separated words of list. */
static bool list_has(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && !strncmp(p, w, n))
			return true;
		p += len;
		while (*p == ' ')
			p++;
	}
	return false;
}

/* A uniformly random word of the list into buf[cap]; false if the list is empty. */
static bool list_pick(const char *list, Rng *rng, char *buf, size_t cap)
{
	uint32_t count = 0, k;
	const char *p;

	for (p = list; *p;) {
		size_t len = strcspn(p, " ");
		count += len > 0;
		p += len;
		while (*p == ' ')
			p++;
	}
	if (!count)
		return false;
	k = rng_below(rng, count);
	for (p = list; *p;) {
		size_t len = strcspn(p, " ");
		if (len > 0 && k-- == 0)
			return copy_word(p, len, buf, cap);
		p += len;
		while (*p == ' ')
			p++;
	}
	return false;
}

static void on_game(Session *s, const char *line)
{
	char why[160];

	s->playing = false;
	s->have_moves = false;
	if (!botio_parse_game(line, &s->game, why, sizeof(why))) {
		fprintf(s->out, "decline %s\n", why);
		fflush(s->out);
		return;
	}
	const char *refuse = s->spec->start
		? s->spec->start(s->game.variant, &s->game.cfg, s->game.seat, s->spec->ctx)
		: NULL;
	if (refuse) {
		fprintf(s->out, "decline %s\n", refuse);
		fflush(s->out);
		return;
	}
	size_t need = s->game.variant->state_size;
	if (need > s->state_cap) {
		void *p = realloc(s->state, need);
		if (!p) {
			fprintf(s->out, "decline out of memory\n");
			fflush(s->out);
			return;
		}
		s->state = p;
		s->state_cap = need;
	}
	rng_seed(&s->rng, s->spec->seed);
	s->playing = true;
	fprintf(s->out, "hello %s %s moves multi\n", s->spec->name, s->spec->version);
	fflush(s->out);
}

static void on_go(Session *s, const char *line)
{
	const Variant *v = s->game.variant;
	long ms;
	const char *p = wire_go_state(line, &ms);	/* (the whole bank, beside MS, skipped) */
	char text[VARIANT_MOVE_TEXT_MAX];
	Text t;

	if (!s->playing)
		return;
	text_init(&t, text, sizeof(text));
	/* This move's draws: from --seed, the seat and the state shown, so they
	 * differ from game to game and a rerun of the log draws them again. */
	rng_seed(&s->rng, rng_derive(s->spec->seed, p, (uint64_t)s->game.seat));
	memset(s->state, 0, v->state_size);
	if (v->state_parse(s->state, &s->game.cfg, p)) {
		if (s->spec->side)
			s->spec->side(v, s->state, s->game.seat, p, (int)ms, s->in, s->out,
				      s->spec->side_ctx);
		Move m = s->spec->choose(v, s->state, s->game.seat, (int)ms, &s->rng,
					 s->spec->ctx);
		v->move_format(s->state, s->game.seat, m, &t);
		if (s->have_moves && !s->spec->side && !list_has(s->moves, text)) {
			fprintf(stderr, "%s: chose %s, not among the listed moves\n",
				s->spec->name, text);
			text_init(&t, text, sizeof(text));
		}
	} else {
		fprintf(stderr, "%s: could not parse the state of go\n", s->spec->name);
	}
	if (t.len == 0 && s->have_moves)
		list_pick(s->moves, &s->rng, text, sizeof(text));
	char line_out[VARIANT_MOVE_TEXT_MAX + sizeof("move ")];
	Text w;
	text_init(&w, line_out, sizeof(line_out));
	wire_move(&w, text);
	fprintf(s->out, "%s\n", line_out);
	fflush(s->out);
	s->have_moves = false;
}

static void on_moves(Session *s, const char *line)
{
	size_t n = strlen(line + 5);
	size_t at = s->have_moves ? strlen(s->moves) : 0;

	if (at + n + 1 > s->moves_cap) {
		char *more = realloc(s->moves, 2 * (at + n + 1));
		if (!more)
			return;	/* the list so far is still a list of legal moves */
		s->moves = more;
		s->moves_cap = 2 * (at + n + 1);
	}
	memcpy(s->moves + at, line + 5, n + 1);
	s->have_moves = true;
}

/* The line's type is `word`: the line is that word or starts with it and a space. */
static bool is_type(const char *line, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(line, word, n) && (line[n] == ' ' || line[n] == '\0');
}

int botio_run(const BotioSpec *spec, FILE *in, FILE *out)
{
	Session s = {.spec = spec, .in = in, .out = out};
	char *line = malloc(BOTIO_LINE_MAX + 1);
	int status = 0;

	s.moves = malloc(BOTIO_LINE_MAX + 1);
	s.moves_cap = BOTIO_LINE_MAX + 1;
	if (!line || !s.moves) {
		free(line);
		free(s.moves);
		return 1;
	}
	while (botio_read_line(in, line)) {
		if (is_type(line, "game"))
			on_game(&s, line);
		else if (is_type(line, "moves"))
			on_moves(&s, line);
		else if (is_type(line, "go"))
			on_go(&s, line);
		else if (is_type(line, "result"))
			s.playing = false;
		else if (is_type(line, "quit"))
			break;
		/* tetrarena, update, and anything unknown: nothing to do. */
	}
	if (ferror(in)) {
		fprintf(stderr, "%s: reading the referee's lines: %s\n", spec->name, strerror(errno));
		status = 1;
	}
	free(line);
	free(s.moves);
	free(s.state);
	return status;
}

/* What on_fatal writes (set once by botio_main), and the handlers it replaced. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU};
#define FATAL_COUNT (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction fatal_before[FATAL_COUNT];
static char fatal_line[96];
static size_t fatal_len;

/*
 * A fatal signal leaves one line in the bot's stderr file (which the
 * referee keeps with the game's log), then the handler from before (the
 * default action, or a sanitizer's report) takes it. Only
 * async-signal-safe calls.
 */
static void on_fatal(int sig)
{
	char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), '\n', 0};
	const char *digits = sig >= 10 ? num : num + 1;
	ssize_t ignored = write(2, fatal_line, fatal_len);
	ignored = write(2, digits, strlen(digits));
	(void)ignored;
	for (size_t i = 0; i < FATAL_COUNT; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &fatal_before[i], NULL);
	raise(sig);
}

static void catch_fatal(const char *name)
{
	struct sigaction sa;

	snprintf(fatal_line, sizeof(fatal_line), "%s: ended by signal ", name);
	fatal_len = strlen(fatal_line);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < FATAL_COUNT; i++)
		sigaction(fatal_signals[i], &sa, &fatal_before[i]);
}

static void usage(const BotioSpec *spec, FILE *to)
{
	fprintf(to, "Usage: %s [--seed N]\n", spec->name);
	if (spec->about)
		fprintf(to, "%s\n", spec->about);
	fprintf(to,
		"A tetrarena bot: speaks protocol.md on standard input and output.\n"
		"  --seed N   seed of the bot's own randomness (default %d)\n"
		"  --help     this text\n"
		"Variants: ", BOTIO_DEFAULT_SEED);
	for (const Variant *const *v = variant_all(); *v; v++)
		fprintf(to, "%s%s", v == variant_all() ? "" : " ", (*v)->name);
	fputc('\n', to);
}

int botio_main(BotioSpec *spec, int argc, char **argv)
{
	spec->seed = BOTIO_DEFAULT_SEED;
	catch_fatal(spec->name);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(spec, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--seed") && i + 1 < argc && parse_u64(argv[i + 1], &spec->seed)) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--seed=", 7) && parse_u64(argv[i] + 7, &spec->seed))
			continue;
		fprintf(stderr, "%s: bad argument %s\n", spec->name, argv[i]);
		usage(spec, stderr);
		return 2;
	}
	return botio_run(spec, stdin, stdout);
}
