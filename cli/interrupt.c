/*
 * interrupt: Ctrl-C (SIGINT) and SIGTERM turned into a descriptor a game
 * watches (GameSpec.abort_fd, referee/game.h), so that `play` ends its
 * game with a well-formed log rather than dying mid-line. A second signal
 * takes the usual course: the bots are killed and the referee dies of it.
 */
#include "cli.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "referee/sandbox.h"

static int pipe_fd[2] = {-1, -1};
static volatile sig_atomic_t caught;

static void on_interrupt(int sig)
{
	if (caught) {
		sandbox_kill_all();
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	caught = sig;
	char byte = 1;
	ssize_t n = write(pipe_fd[1], &byte, 1);
	(void)n;
}

int cli_catch_interrupt(void)
{
	static const int sigs[] = {SIGINT, SIGTERM};

	if (pipe_fd[0] >= 0)
		return pipe_fd[0];
	if (pipe2(pipe_fd, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_interrupt;
		sigemptyset(&sa.sa_mask);
		/* (caught even where the shell ignored it, in a background
		 * job: as a tournament does, a signal sent is a stop asked) */
		sigaction(sigs[i], &sa, NULL);
	}
	return pipe_fd[0];
}

int cli_interrupted(void)
{
	return caught;
}
