/*
 * prog-dicebot: a `multi` bot that writes down the dice it sees, for the
 * test that a kept process never plays two games of one seed (t3004).
 *
 *   prog-dicebot FILE
 *
 * It speaks protocol.md with the `moves` and `multi` features and plays
 * the first legal move. At each `result` it appends one line to FILE:
 *
 *   PID GAME CHANCE;CHANCE;...
 *
 * its process id, the game's number in this process (the `game` line's N)
 * and every `update chance` it was told in that game, in order. Two games
 * of one process with the same chances are what a bot that remembers
 * could have predicted. FILE must be writable by the bot: run it bare
 * (`--sandbox off`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void say(const char *s)
{
	printf("%s\n", s);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char *line = NULL, *first = NULL;
	size_t cap = 0, len = 0;
	ssize_t n;
	long game = 0;
	char dice[1 << 16];

	if (argc != 2) {
		fprintf(stderr, "usage: prog-dicebot FILE\n");
		return 2;
	}
	dice[0] = '\0';
	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (strncmp(line, "game ", 5) == 0) {
			game = strtol(line + 5, NULL, 10);
			len = 0;
			dice[0] = '\0';
			say("hello dicebot 1 moves multi");
		} else if (strncmp(line, "update chance ", 14) == 0) {
			int w = snprintf(dice + len, sizeof(dice) - len, "%s%s", len ? ";" : "", line + 14);

			if (w > 0 && (size_t)w < sizeof(dice) - len)
				len += (size_t)w;
		} else if (strncmp(line, "moves", 5) == 0) {
			free(first);
			first = NULL;
			if (line[5] == ' ')
				first = strndup(line + 6, strcspn(line + 6, " "));
		} else if (strncmp(line, "go ", 3) == 0) {
			printf("move %s\n", first ? first : "none");
			fflush(stdout);
		} else if (strncmp(line, "result ", 7) == 0) {
			FILE *f = fopen(argv[1], "a");

			if (!f) {
				perror(argv[1]);
				return 1;
			}
			fprintf(f, "%ld %ld %s\n", (long)getpid(), game, dice);
			fclose(f);
		} else if (strcmp(line, "quit") == 0) {
			break;
		}
	}
	free(line);
	free(first);
	return 0;
}
