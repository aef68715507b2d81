/*
 * cli: what the subcommands of the `referee` command share (private to
 * cli/).
 *
 * Each subcommand lives in a file of its own, cli/NAME.c, and is entered
 * through `int cmd_NAME(int argc, char **argv)`: argv[0] is the
 * subcommand's name (so GOptionContext works as usual) and the return
 * value is the exit status: 0 success, 1 a runtime failure (or a
 * verification that fails), 2 a usage error. cli/main.c dispatches to
 * them. Library logic does not belong here: it lives in referee/ and
 * tournaments/, which cli/ uses and which never include cli/.
 */
#ifndef TETRARENA_CLI_CLI_H
#define TETRARENA_CLI_CLI_H

#include <glib.h>

#include "referee/gamelog.h"

#define EXIT_USAGE 2	/* the exit status of a usage error */

/* The subcommands, one file each. */
int cmd_play(int argc, char **argv);		/* cli/play.c */
int cmd_verify(int argc, char **argv);		/* cli/verify.c */
int cmd_view(int argc, char **argv);		/* cli/view.c */
int cmd_rerun(int argc, char **argv);		/* cli/rerun.c */
int cmd_check(int argc, char **argv);		/* cli/check.c */
int cmd_position(int argc, char **argv);	/* cli/position.c */
int cmd_review(int argc, char **argv);		/* cli/review.c */
int cmd_tournament(int argc, char **argv);	/* cli/tournament.c */
int cmd_merge(int argc, char **argv);		/* cli/merge.c */
int cmd_export(int argc, char **argv);		/* cli/export.c */
int cmd_ladder(int argc, char **argv);		/* cli/ladder.c */
int cmd_human(int argc, char **argv);		/* cli/human.c (`_human`) */
int cmd_serve(int argc, char **argv);		/* cli/serve.c */

/* Print "referee: MESSAGE" on stderr and return EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* Print "referee: WHAT: MESSAGE" (WHAT NULL: "referee: MESSAGE") on
 * stderr, the message escaped as a log's text (gamelog_escape()): errors
 * quote logs and bots, whose text must not reach a terminal raw. */
void cli_error(const char *what, const GError *err);

/* Parse a subcommand's options with ctx, updating *argc and *argv. FALSE
 * after printing "referee: WHY" on stderr; the caller returns EXIT_USAGE. */
gboolean cli_parse_options(GOptionContext *ctx, int *argc, char ***argv);

/* Read the game log at path. NULL after printing "referee: WHY" on
 * stderr. The caller owns the result (gamelog_free). */
GameLog *cli_load_log(const char *path);

/*
 * A log is untrusted input: `what` (position, rerun), about to run the
 * `n` bot commands the log at `path` names outside a jail, refuses. TRUE
 * when none is a command (every seat is "human"); else FALSE after saying
 * on stderr why, with the commands (escaped), and how to go on: name the
 * bots again on the command line, or --trust-log.
 */
gboolean cli_log_trusted(const char *what, const char *path, const char *const *commands, int n);

/* Catch SIGINT and SIGTERM from now on (cli/interrupt.c): the first one
 * makes the returned descriptor readable (for GameSpec.abort_fd) and is
 * remembered; a second kills the bots and ends the referee by the signal.
 * -1 when no pipe can be had (then the signals keep their course). */
int cli_catch_interrupt(void);

/* The signal cli_catch_interrupt() caught, or 0. */
int cli_interrupted(void);

/* This program's path, for the commands that a tournament's output
 * suggests: relative to the current directory when below it, "referee"
 * when /proc/self/exe cannot be read. Allocated; the caller frees it. */
char *cli_program_path(void);

#endif
