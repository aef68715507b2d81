/*
 * prog-fakebot: one fake bot with many ways to behave, for the referee's
 * tests and benchmarks.
 *
 *   prog-fakebot MODE [N]
 *
 * It speaks protocol.md, asks for the `moves` feature and plays the first
 * legal move for N moves (default 0), then behaves as MODE says:
 *
 *   legal        keep playing the first legal move (the instant bot)
 *   multi        like legal, and announce `multi`
 *   illegal      answer `move` with a well-formed move that is not legal
 *   garbage      answer with a line of unknown type, and nothing else
 *                (ignored by the referee: the move times out)
 *   multiexit    like multi (announce it, play legal moves), but exit on
 *                `result` as if every game had its own process
 *   strict       like legal, but exit(4) on a line of a type it does not
 *                know (what a bot must not do)
 *   chatter      before each legal move send an unknown line, an empty
 *                line and a `#` comment (all to be ignored)
 *   badmove      answer `move` with notation that does not parse
 *   crash        exit(3) instead of answering
 *   abort        abort() (SIGABRT) instead of answering
 *   hang         stop reading and sleep forever
 *   family       fork a child that sleeps forever (in the bot's process
 *                group), then hang
 *   slow         answer after twice the time `go` gave
 *   spin         burn CPU for the time `go` gave, then answer
 *   busy         burn 10 ms of its own CPU time, then play legal moves
 *   flood        write 10 MB without a newline, then sleep
 *   nonewline    write "move X" without the newline, then sleep
 *   closeout     close stdout and stdin, then sleep forever
 *   grandchild   fork a child that sleeps forever holding stdout, exit
 *   escape       fork a child that leaves the process group (setsid),
 *                closes its pipes and sleeps forever; then play legal moves
 *   stderr       write 100 MB to stderr, then play legal moves
 *   decline      answer `game` with decline
 *   nohello      never answer `game` (but keep reading)
 *   info         send 100 info lines before each legal move
 *
 * The default N is 0, so most modes misbehave at the first `go`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void forever(void)
{
	for (;;)
		pause();
}

static void say(const char *s)
{
	fputs(s, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "legal";
	long after = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	long played = 0;
	char *line = NULL, *first = NULL;
	size_t cap = 0;
	ssize_t n;

	signal(SIGPIPE, SIG_DFL);
	if (strcmp(mode, "stderr") == 0) {
		static char block[1 << 16];
		memset(block, 'e', sizeof(block));
		for (int i = 0; i < 100 * 16; i++)
			if (fwrite(block, 1, sizeof(block), stderr) != sizeof(block))
				break;
		fflush(stderr);
	}
	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (strncmp(line, "game ", 5) == 0) {
			if (strcmp(mode, "decline") == 0)
				say("decline not today");
			else if (strcmp(mode, "nohello") == 0)
				continue;
			else if (strcmp(mode, "multi") == 0 || strcmp(mode, "multiexit") == 0)
				say("hello fakebot 1 moves multi");
			else
				say("hello fakebot 1 moves");
		} else if (strncmp(line, "moves", 5) == 0) {
			free(first);
			first = NULL;
			if (line[5] == ' ') {
				char *end = strchr(line + 6, ' ');
				size_t len = end ? (size_t)(end - (line + 6)) : strlen(line + 6);
				first = strndup(line + 6, len);
			}
		} else if (strncmp(line, "go ", 3) == 0) {
			long ms = strtol(line + 3, NULL, 10);
			if (strcmp(mode, "busy") == 0) {
				struct timespec a, b;
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
				do
					clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
				while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 10000000L);
			}
			if (strcmp(mode, "escape") == 0 && played == after) {
				fflush(stdout);
				if (fork() == 0) {
					setsid();
					close(0);
					close(1);
					close(2);
					forever();
				}
			}
			int good = strcmp(mode, "legal") == 0 || strcmp(mode, "multi") == 0 ||
				   strcmp(mode, "escape") == 0 ||
				   strcmp(mode, "busy") == 0 ||
				   strcmp(mode, "stderr") == 0 || strcmp(mode, "info") == 0 ||
				   strcmp(mode, "chatter") == 0 || strcmp(mode, "multiexit") == 0 ||
				   strcmp(mode, "strict") == 0 ||
				   played < after;
			if (good) {
				if (strcmp(mode, "info") == 0)
					for (int i = 0; i < 100; i++)
						printf("info depth %d\n", i);
				if (strcmp(mode, "chatter") == 0)
					printf("ping 1\n\n# thinking\n");
				printf("move %s\n", first ? first : "none");
				fflush(stdout);
				played++;
				continue;
			}
			if (strcmp(mode, "illegal") == 0) {
				say("move I0@15");	/* well-formed, never inside a tower */
			} else if (strcmp(mode, "garbage") == 0) {
				say("what is this game");
			} else if (strcmp(mode, "badmove") == 0) {
				say("move ???");
			} else if (strcmp(mode, "crash") == 0) {
				exit(3);
			} else if (strcmp(mode, "abort") == 0) {
				abort();
			} else if (strcmp(mode, "hang") == 0) {
				forever();
			} else if (strcmp(mode, "family") == 0) {
				if (fork() == 0)
					forever();
				forever();
			} else if (strcmp(mode, "slow") == 0) {
				sleep_ms(2 * ms + 100);
				printf("move %s\n", first ? first : "none");
				fflush(stdout);
			} else if (strcmp(mode, "spin") == 0) {
				struct timespec a, b;
				clock_gettime(CLOCK_MONOTONIC, &a);
				do
					clock_gettime(CLOCK_MONOTONIC, &b);
				while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms / 2);
				printf("move %s\n", first ? first : "none");
				fflush(stdout);
			} else if (strcmp(mode, "flood") == 0) {
				static char block[1 << 16];
				memset(block, 'x', sizeof(block));
				for (int i = 0; i < 160; i++)
					if (fwrite(block, 1, sizeof(block), stdout) != sizeof(block))
						break;
				fflush(stdout);
				forever();
			} else if (strcmp(mode, "nonewline") == 0) {
				printf("move %s", first ? first : "none");
				fflush(stdout);
				forever();
			} else if (strcmp(mode, "closeout") == 0) {
				fclose(stdout);
				fclose(stdin);
				forever();
			} else if (strcmp(mode, "grandchild") == 0) {
				if (fork() == 0)
					forever();
				exit(0);
			} else {
				fprintf(stderr, "prog-fakebot: unknown mode %s\n", mode);
				exit(2);
			}
		} else if (strcmp(line, "quit") == 0) {
			break;
		} else if (strncmp(line, "result ", 7) == 0) {
			if (strcmp(mode, "multiexit") == 0)
				exit(0);
		} else if (strcmp(mode, "strict") == 0 && strncmp(line, "tetrarena ", 10) != 0 &&
			   strncmp(line, "update ", 7) != 0) {
			exit(4);
		}
	}
	free(line);
	free(first);
	return 0;
}
