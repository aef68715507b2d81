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
 *   multi        like legal, and announce `multi` (and write a line on
 *                stderr at each `game`)
 *   quiet        like multi, but nothing on stderr (the instant bot of
 *                bench/bench-record.sh: bots that say nothing cost no file)
 *   illegal      answer `move` with a well-formed move that is not legal
 *                (link's I0@15; `illegal:MOVE` sends MOVE instead)
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
 *   sigkill      kill itself with SIGKILL instead of answering
 *   hang         stop reading and sleep forever
 *   family       fork a child that sleeps forever (in the bot's process
 *                group), then hang
 *   slow         answer after twice the time `go` gave
 *   lag          like legal, each move MS ms after its `go` (`lag N MS`:
 *                MS takes the place of the marker)
 *   clock        a legal move picked by the clock (the microseconds of the
 *                time of day): a bot whose choice a rerun cannot repeat
 *   spin         burn CPU for half the time `go` gave, then answer after
 *                `info spin wall=MS cpu=MS`: how long it spun and how much
 *                CPU it got meanwhile (t2014: nobody else's children slow it)
 *   busy         burn 10 ms of its own CPU time, then play legal moves
 *   burn         like multi, and before the first move of its k-th game
 *                burn k times N ms of its own CPU time (here N counts
 *                milliseconds, not moves); at each `game` it writes its
 *                cpu limits to stderr: "cpu limit SOFT HARD" (seconds)
 *   hog          like multi, but it ignores SIGXCPU (writing "SIGXCPU" to
 *                stderr each time) and at the first `go` of its N-th game
 *                burns CPU without end (N counts games)
 *   flood        write 10 MB without a newline, then sleep
 *   floodlines   never read again: write lines forever (its first legal
 *                move over and over, and unknown lines), as fast as the
 *                pipe takes them
 *   nonewline    write "move X" without the newline, then sleep
 *   closeout     close stdout and stdin, then sleep forever
 *   grandchild   fork a child that sleeps forever holding stdout, exit
 *   escape       fork a child that leaves the process group (setsid),
 *                closes its pipes and sleeps forever; then play legal moves
 *   stderr       write 100 MB to stderr, then play legal moves
 *   decline      answer `game` with decline
 *   nohello      never answer `game` (but keep reading)
 *   stay         like legal, but on `quit` (or the end of its input) it
 *                sleeps forever instead of exiting
 *   info         send 100 info lines before each legal move
 *
 * Attacks (the sandbox must make each fail; each then plays legal moves
 * and reports what it achieved in an `info` line before its first move):
 *
 *   pipes        write "move" lines into every other process's stdin and
 *                stdout through /proc/PID/fd      (info attack pipes=N)
 *   signals      SIGSTOP every other process it can see (info ... stopped=N)
 *   spy PATH...  read /proc/PID/cmdline, environ, mem,
 *                /proc/PID/fd/N and the PATHs given; N = how many held
 *                "seed" or opened at all for mem and PATHs (info ... spied=N)
 *   forkbomb     fork up to 5000 sleeping children     (info ... forks=N)
 *   memhog       fork 4 children that each touch 48 MiB (info ... hogs=N,
 *                how many got all of it)
 *   diskfill     write up to 5 GB into its working directory
 *                                                     (info ... wrote=MiB)
 *   escape2      fork, setsid, fork again: the grandchild sleeps forever
 *   nul          answer `move FIRST\0junk`
 *   prehello     exit at once, before reading anything
 *   multi also writes "stderr of game N" to stderr at each `game`.
 *
 * The default N is 0, so most modes misbehave at the first `go`.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef TETRARENA_SANITIZE
/* Run jailed as a bot: LeakSanitizer's stop-the-world needs ptrace, which
 * the jail's filter refuses (bots/botio.c says the same for our bots). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Use `ms` milliseconds of this process's CPU time. */
static void burn_cpu(long ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ms * 1000000L);
}

/* SIGXCPU, noted and otherwise ignored */
static void note_xcpu(int sig)
{
	static const char text[] = "SIGXCPU\n";

	(void)sig;
	if (write(2, text, sizeof(text) - 1) < 0)
		return;
}

/* "cpu limit SOFT HARD" on stderr, in seconds or "unlimited". */
static void say_cpu_limit(void)
{
	struct rlimit rl;
	char soft[32] = "unlimited", hard[32] = "unlimited";

	getrlimit(RLIMIT_CPU, &rl);
	if (rl.rlim_cur != RLIM_INFINITY)
		snprintf(soft, sizeof(soft), "%llu", (unsigned long long)rl.rlim_cur);
	if (rl.rlim_max != RLIM_INFINITY)
		snprintf(hard, sizeof(hard), "%llu", (unsigned long long)rl.rlim_max);
	fprintf(stderr, "cpu limit %s %s\n", soft, hard);
	fflush(stderr);
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


/* The PIDs in /proc other than ours and init's (in a jail, init is the
 * jail's own, which waits for us), up to max. */
static int other_pids(int *out, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		int pid = atoi(e->d_name);
		if (pid > 1 && pid != getpid())
			out[n++] = pid;
	}
	closedir(d);
	return n;
}

/* Whether the file holds "seed" (or, with any_open, opens at all). */
static int leaks(const char *path, int any_open)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	char buf[65536];
	ssize_t len;

	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (any_open)
		return 1;
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	for (ssize_t i = 0; i < len; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	return strstr(buf, "seed") != NULL;
}

static int is_attack(const char *mode)
{
	static const char *const attacks[] = {"pipes", "signals", "spy", "forkbomb", "memhog",
					      "diskfill", "escape2", NULL};
	for (int i = 0; attacks[i]; i++)
		if (strcmp(mode, attacks[i]) == 0)
			return 1;
	return 0;
}

/* Run one attack; what it achieved, as a number. */
static long attack(const char *mode, int argc, char **argv)
{
	int pids[4096];
	int np = other_pids(pids, 4096);
	long hits = 0;
	char path[256];

	if (strcmp(mode, "pipes") == 0) {
		for (int i = 0; i < np; i++)
			for (int fd = 0; fd < 2; fd++) {
				snprintf(path, sizeof(path), "/proc/%d/fd/%d", pids[i], fd);
				int w = open(path, O_WRONLY | O_NONBLOCK);
				if (w >= 0) {
					hits += write(w, "move I0@0\n", 10) == 10;
					close(w);
				}
			}
	} else if (strcmp(mode, "signals") == 0) {
		for (int i = 0; i < np; i++)
			hits += kill(pids[i], SIGSTOP) == 0;
	} else if (strcmp(mode, "spy") == 0) {
		for (int i = 0; i < np; i++) {
			snprintf(path, sizeof(path), "/proc/%d/cmdline", pids[i]);
			hits += leaks(path, 0);
			snprintf(path, sizeof(path), "/proc/%d/environ", pids[i]);
			hits += leaks(path, 0);
			snprintf(path, sizeof(path), "/proc/%d/mem", pids[i]);
			hits += leaks(path, 1);
			for (int fd = 0; fd < 64; fd++) {
				snprintf(path, sizeof(path), "/proc/%d/fd/%d", pids[i], fd);
				hits += leaks(path, 0);
			}
		}
		for (int i = 4; i < argc; i++)
			hits += leaks(argv[i], 1);
	} else if (strcmp(mode, "forkbomb") == 0) {
		for (int i = 0; i < 5000; i++) {
			pid_t c = fork();
			if (c < 0)
				break;
			if (c == 0) {
				close(0);
				close(1);
				sleep(600);
				_exit(0);
			}
			hits++;
		}
	} else if (strcmp(mode, "memhog") == 0) {
		for (int i = 0; i < 4; i++)
			if (fork() == 0) {
				close(0);
				close(1);
				size_t size = 48u << 20;
				char *p = malloc(size);
				if (!p)
					_exit(1);
				for (size_t k = 0; k < size; k += 4096)
					p[k] = 1;
				usleep(300000);	/* hold it while the others grow */
				_exit(0);
			}
		for (int i = 0; i < 4; i++) {
			int st;
			if (wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
				hits++;
		}
	} else if (strcmp(mode, "diskfill") == 0) {
		static char block[1 << 20];
		signal(SIGXFSZ, SIG_IGN);
		memset(block, 'd', sizeof(block));
		for (int f = 0; f < 80 && hits < 5000; f++) {
			snprintf(path, sizeof(path), "fill%d", f);
			int w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (w < 0)
				break;
			int wrote = 0;
			while (hits < 5000 && write(w, block, sizeof(block)) == (ssize_t)sizeof(block)) {
				hits++;
				wrote++;
			}
			close(w);
			if (wrote == 0)
				break;
		}
	} else if (strcmp(mode, "escape2") == 0) {
		fflush(stdout);
		if (fork() == 0) {
			setsid();
			if (fork() == 0) {
				close(0);
				close(1);
				close(2);
				forever();
			}
			_exit(0);
		}
		wait(NULL);
	} else {
		return -1;
	}
	return hits;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "legal";
	const char *illegal_move = NULL;	/* mode illegal:MOVE */
	if (strncmp(mode, "illegal:", 8) == 0) {
		illegal_move = mode + 8;
		mode = "illegal";
	}
	long after = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	long played = 0, games = 0, burnt = 0;	/* burnt: the last game it burnt in */
	char *line = NULL, *first = NULL, *all = NULL;
	size_t cap = 0;
	ssize_t n;

	signal(SIGPIPE, SIG_DFL);
	if (strcmp(mode, "hog") == 0)
		signal(SIGXCPU, note_xcpu);
	if (strcmp(mode, "prehello") == 0)
		return 0;
	int attacked = 0;
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
			games++;
			if (strcmp(mode, "decline") == 0)
				say("decline not today");
			else if (strcmp(mode, "nohello") == 0)
				continue;
			else if (strcmp(mode, "quiet") == 0)
				say("hello fakebot 1 moves multi");
			else if (strcmp(mode, "multi") == 0 || strcmp(mode, "multiexit") == 0 ||
				 strcmp(mode, "burn") == 0 || strcmp(mode, "hog") == 0) {
				say("hello fakebot 1 moves multi");
				fprintf(stderr, "stderr of %s\n", line);
				fflush(stderr);
				if (strcmp(mode, "burn") == 0)
					say_cpu_limit();
			}
			else
				say("hello fakebot 1 moves");
		} else if (strncmp(line, "moves", 5) == 0) {
			free(first);
			free(all);
			first = all = NULL;
			if (line[5] == ' ') {
				all = strdup(line + 6);
				char *end = strchr(line + 6, ' ');
				size_t len = end ? (size_t)(end - (line + 6)) : strlen(line + 6);
				first = strndup(line + 6, len);
			}
		} else if (strncmp(line, "go ", 3) == 0) {
			long ms = strtol(line + 3, NULL, 10);
			if (strcmp(mode, "busy") == 0)
				burn_cpu(10);
			if (strcmp(mode, "burn") == 0 && burnt < games) {
				burnt = games;
				burn_cpu(games * after);
			}
			if (strcmp(mode, "hog") == 0 && games == after)
				for (;;)
					burn_cpu(1000);
			if (!attacked && played == after) {
				attacked = 1;
				long hits = is_attack(mode) ? attack(mode, argc, argv) : -1;
				if (hits >= 0) {
					printf("info attack %s=%ld\n", mode, hits);
					fflush(stdout);
				}
			}
			if (strcmp(mode, "clock") == 0 && all) {
				struct timespec now;
				clock_gettime(CLOCK_REALTIME, &now);
				int count = 1;
				for (const char *c = all; *c; c++)
					count += *c == ' ';
				int pick = (int)((now.tv_nsec / 1000) % count);
				const char *m = all;
				for (int i = 0; i < pick; i++)
					m = strchr(m, ' ') + 1;
				printf("move %.*s\n", (int)strcspn(m, " "), m);
				fflush(stdout);
				played++;
				continue;
			}
			if (strcmp(mode, "nul") == 0 && played == after) {
				char bad[300];
				int len = snprintf(bad, sizeof(bad), "move %s", first ? first : "none");
				fwrite(bad, 1, (size_t)len, stdout);
				fwrite("\0junk\n", 1, 6, stdout);
				fflush(stdout);
				played++;
				continue;
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
				   strcmp(mode, "quiet") == 0 ||
				   strcmp(mode, "escape") == 0 || is_attack(mode) ||
				   strcmp(mode, "busy") == 0 ||
				   strcmp(mode, "stderr") == 0 || strcmp(mode, "info") == 0 ||
				   strcmp(mode, "chatter") == 0 || strcmp(mode, "multiexit") == 0 ||
				   strcmp(mode, "strict") == 0 || strcmp(mode, "burn") == 0 ||
				   strcmp(mode, "hog") == 0 || strcmp(mode, "lag") == 0 ||
				   strcmp(mode, "stay") == 0 || played < after;
			if (good) {
				if (strcmp(mode, "lag") == 0 && argc > 3)
					sleep_ms(strtol(argv[3], NULL, 10));
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
				/* well-formed, never inside a tower; or the move
				 * the mode names (another variant's) */
				if (illegal_move) {
					printf("move %s\n", illegal_move);
					fflush(stdout);
				} else {
					say("move I0@15");
				}
			} else if (strcmp(mode, "garbage") == 0) {
				say("what is this game");
			} else if (strcmp(mode, "badmove") == 0) {
				say("move ???");
			} else if (strcmp(mode, "crash") == 0) {
				exit(3);
			} else if (strcmp(mode, "abort") == 0) {
				abort();
			} else if (strcmp(mode, "sigkill") == 0) {
				kill(getpid(), SIGKILL);
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
				struct timespec a, b, ca, cb;
				clock_gettime(CLOCK_MONOTONIC, &a);
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
				do
					clock_gettime(CLOCK_MONOTONIC, &b);
				while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms / 2);
				clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
				printf("info spin wall=%ld cpu=%ld\n",
				       (long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000),
				       (long)((cb.tv_sec - ca.tv_sec) * 1000 + (cb.tv_nsec - ca.tv_nsec) / 1000000));
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
			} else if (strcmp(mode, "floodlines") == 0) {
				for (;;)
					printf("move %s\nspam spam spam\n", first ? first : "none");
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
	if (strcmp(mode, "stay") == 0)
		forever();
	free(line);
	free(first);
	free(all);	/* (a leak report on stderr would give a quiet seat a stderr file: t2017) */
	return 0;
}
