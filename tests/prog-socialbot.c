/*
 * prog-socialbot: a matrix bot for the social layer's shell tests. Every
 * round it says "hi" to every other seat (from round 2 the referee lets
 * two of them through and refuses the rest), accepts every offer and gift
 * made to it within a listening window, and then places what it holds:
 * the first legal move of the engine's list for its (traded) pieces.
 * With --give (first argument) it also gives its piece to the next seat
 * every round, while the referee lets it (3 gifts a game); with
 * --give-to SEAT, to that seat (--from ROUND: from that round on). With --stale it ignores the `held` lines
 * that tell it of gifts and trades, so its move places only the piece its
 * `go` showed: outdated by the gifts it accepted (`rejected ... traded`),
 * it answers the fresh `go` with the pieces it holds by then. With --jitter
 * it waits 0-4 ms (drawn from the clock) before it speaks, so that seats'
 * talk comes in an order a rerun cannot repeat. With --listen MS its
 * listening window is MS (at most half the move's time) instead of
 * LISTEN_MS (at most a quarter): a person on a page, on a loaded
 * machine, needs longer than a bot to answer its gift before it moves
 * and the gift closes.
 */
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/botio.h"
#include "matrix.h"
#include "variants.h"


#define LISTEN_MS 150

typedef struct {
	bool give;	/* give its piece away every round */
	int to;		/* to this seat; -1: the next one */
	int from;	/* from this round on */
	bool stale;	/* ignore `held` */
	bool jitter;	/* wait 0-4 ms by the clock before speaking */
	int listen;	/* > 0: the listening window, ms (--listen) */
} Social;

static void side(const Variant *v, void *state, int seat, const char *text, int ms_left,
		 FILE *in, FILE *out, void *ctx)
{
	static char line[BOTIO_LINE_MAX + 1];
	MatrixState *s = state;
	const Social *so = ctx;
	int listen = ms_left / 4 < LISTEN_MS ? ms_left / 4 : LISTEN_MS;

	if (so->listen > 0)
		listen = ms_left / 2 < so->listen ? ms_left / 2 : so->listen;
	(void)v;
	(void)text;
	if (so->give && s->nheld[seat] == 1 && so->to != seat && s->round >= so->from) {
		fprintf(out, "gift %d %c\n", so->to >= 0 ? so->to : (seat + 1) % s->nplayers,
			piece_letter((PieceKind)s->held[seat][0]));
		fflush(out);
	}
	if (so->jitter) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		poll(NULL, 0, (int)((now.tv_nsec / 1000) % 5));
	}
	for (int q = 0; q < s->nplayers; q++)
		if (q != seat)
			fprintf(out, "say %d hi from %d\n", q, seat);
	fflush(out);
	for (;;) {
		struct pollfd pfd = {.fd = fileno(in), .events = POLLIN};
		if (poll(&pfd, 1, listen) <= 0 || !botio_read_line(in, line))
			break;
		int id;
		if (sscanf(line, "offered %d", &id) == 1) {
			fprintf(out, "accept %d\n", id);
			fflush(out);
		} else if (strncmp(line, "held ", 5) == 0 && !so->stale) {
			s->nheld[seat] = 0;
			for (const char *c = line + 5; *c && *c != '-'; c++)
				s->held[seat][s->nheld[seat]++] = (int8_t)piece_from_letter(*c);
		}
	}
}

static Move choose(const Variant *v, const void *state, int seat, int ms_left, Rng *rng,
		   void *ctx)
{
	static Move moves[SRS_MAX_LANDINGS];

	(void)ms_left;
	(void)rng;
	(void)ctx;
	return v->legal_moves(state, seat, moves) > 0 ? moves[0] : 0;
}

int main(int argc, char **argv)
{
	static Social so = {.to = -1};

	for (;;) {
		if (argc > 1 && strcmp(argv[1], "--give") == 0) {
			so.give = true;
		} else if (argc > 2 && strcmp(argv[1], "--give-to") == 0) {
			so.give = true;
			so.to = (int)strtol(argv[2], NULL, 10);
			argv[2] = argv[0];
			argv++;
			argc--;
		} else if (argc > 2 && strcmp(argv[1], "--listen") == 0) {
			so.listen = (int)strtol(argv[2], NULL, 10);
			argv[2] = argv[0];
			argv++;
			argc--;
		} else if (argc > 2 && strcmp(argv[1], "--from") == 0) {
			so.from = (int)strtol(argv[2], NULL, 10);
			argv[2] = argv[0];
			argv++;
			argc--;
		} else if (argc > 1 && strcmp(argv[1], "--stale") == 0) {
			so.stale = true;
		} else if (argc > 1 && strcmp(argv[1], "--jitter") == 0) {
			so.jitter = true;
		} else {
			break;
		}
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	setvbuf(stdin, NULL, _IONBF, 0);
	BotioSpec spec = {.name = "socialbot", .version = "1", .choose = choose, .side = side,
			  .side_ctx = &so};
	return botio_main(&spec, argc, argv);
}
