/*
 * review: `referee review LOG --seat S [--json] [--ai COMMAND]`, our AI as
 * a coach (referee/review.h). At each decision of the seat: the move
 * played, what our AI would have played and what the played move cost by
 * its judgement. --json prints a list, one object per decision. Progress
 * goes to stderr (on a terminal, or with --progress).
 * Exit status: 0 reviewed, 1 a failure (the log, the AI), 2 a usage error.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "referee/gamelog.h"
#include "referee/json.h"
#include "referee/review.h"
#include "referee/sandbox.h"
#include "referee/usage.h"

typedef struct {
	gboolean tty;		/* stderr is a terminal: one line rewritten */
} Progress;

static void show_progress(int step, int count, void *data)
{
	const Progress *p = data;

	if (p->tty)
		fprintf(stderr, "\rreferee: review: decision %d of %d%s", step, count, step == count ? "\n" : "");
	else
		fprintf(stderr, "referee: review: decision %d of %d\n", step, count);
}

static void print_json(const Review *r)
{
	g_autoptr(GString) out = g_string_new("[");

	for (guint i = 0; i < r->steps->len; i++) {
		const ReviewStep *s = g_ptr_array_index(r->steps, i);
		g_string_append_printf(out, "%s\n{\"step\": %d, \"line\": %d, \"seat\": %d, \"played\": ", i ? "," : "",
				       s->step, s->lineno, r->seat);
		json_string(out, s->played);
		g_string_append(out, ", \"choice\": ");
		json_string(out, s->choice);
		g_string_append(out, ", \"cost\": ");
		if (s->valued)
			json_double(out, s->cost, 2);
		else
			g_string_append(out, "null");
		g_string_append(out, ", \"choice_value\": ");
		if (s->valued)
			json_double(out, s->choice_value, 2);
		else
			g_string_append(out, "null");
		g_string_append(out, ", \"played_value\": ");
		if (s->valued)
			json_double(out, s->played_value, 2);
		else
			g_string_append(out, "null");
		g_string_append_printf(out, ", \"rank\": %d, \"moves\": %d, \"as_good\": %s, \"unit\": ", s->valued ? s->rank : 0,
				       s->moves, s->valued && s->cost == 0 ? "true" : "false");
		json_string(out, r->unit);
		g_string_append(out, ", \"why\": ");
		json_string(out, s->why);
		g_string_append(out, "}");
	}
	g_string_append(out, "\n]\n");
	fputs(out->str, stdout);
}

static void print_text(const Review *r, const char *path, const char *name)
{
	double total = 0;
	int valued = 0, best = 0;

	printf("%s, seat %d (%s), reviewed by: %s\n", path, r->seat, name, r->ai);
	printf("values in %s, higher is better; cost = the AI's value of its choice less its value of the move "
	       "played\n", r->unit ? r->unit : "(no unit)");
	printf("%5s %6s  %-14s %-14s %8s  %s\n", "step", "line", "played", "AI's choice", "cost", "played move's rank");
	for (guint i = 0; i < r->steps->len; i++) {
		const ReviewStep *s = g_ptr_array_index(r->steps, i);
		printf("%5d %6d  %-14s %-14s ", s->step, s->lineno, s->played ? s->played : "(none)",
		       s->choice ? s->choice : "(none)");
		if (!s->valued) {
			printf("%8s  %s\n", "-", s->why ? s->why : "?");
			continue;
		}
		printf("%8.2f  %d of %d%s\n", s->cost, s->rank, s->moves, s->cost == 0 ? " (as the AI)" : "");
		total += s->cost;
		valued++;
		best += s->cost == 0;
	}
	printf("%u decisions, %d valued: %d played as the AI would, total cost %.2f %s (mean %.2f)\n", r->steps->len,
	       valued, best, total, r->unit ? r->unit : "", valued ? total / valued : 0.0);
}

int cmd_review(int argc, char **argv)
{
	int seat = -1;
	gboolean json = FALSE, progress = FALSE;
	g_autofree char *sandbox_name = NULL, *ai = NULL;
	GOptionEntry entries[] = {
		{"seat", 0, 0, G_OPTION_ARG_INT, &seat, "the seat whose decisions to review (required)", "S"},
		{"json", 0, 0, G_OPTION_ARG_NONE, &json, "print a JSON list, one object per decision", NULL},
		{"ai", 0, 0, G_OPTION_ARG_STRING, &ai, "the AI: a bot command that writes `info analyse` lines (default: ours, beside this program)", "COMMAND"},
		{"progress", 0, 0, G_OPTION_ARG_NONE, &progress, "show progress on stderr even when it is not a terminal", NULL},
		{"sandbox", 0, 0, G_OPTION_ARG_STRING, &sandbox_name, "jail the AI: auto (default), on, off", "MODE"},
		{NULL, 0, 0, 0, NULL, NULL, NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("LOG - our AI as a coach: its choice and each move's cost");
	g_option_context_add_main_entries(ctx, entries, NULL);
	usage_describe(ctx,
		"At each decision of the seat (each `go` it received), what our strongest AI\n"
		"for the game (bot-link, bot-tetroll, beside this program, run with --analyse)\n"
		"would have played there, and what the move played cost by its judgement: its\n"
		"value of its own choice less its value of the move played (0: the same move or\n"
		"as good). The AI values every legal move by a search with no clock, so a\n"
		"review is the same on any machine: link three placements deep (deeper near\n"
		"the end), as a chance of winning in percent; tetroll one roll ahead, in\n"
		"points. It is jailed as bots in games. Progress goes to stderr (on a\n"
		"terminal, or with --progress).\n"
		"--json prints a list, one object per decision: step, line (of the log), seat,\n"
		"played, choice, cost, choice_value, played_value, rank (of the move played\n"
		"among the AI's values, 1 the best), moves (how many it valued), as_good (cost 0),\n"
		"unit, why (what is missing when cost is null).\n"
		"Numbers: --seat 0..players-1 of the log.", FALSE, FALSE);
	if (!cli_parse_options(ctx, &argc, &argv))
		return EXIT_USAGE;
	if (argc != 2)
		return cli_usage_error("review: want one LOG");
	SandboxMode want = SANDBOX_AUTO, mode;
	if (sandbox_name && !sandbox_mode_parse(sandbox_name, &want))
		return cli_usage_error("review: unknown --sandbox '%s' (auto, on, off)", sandbox_name);
	g_autoptr(GameLog) log = cli_load_log(argv[1]);
	if (!log)
		return 1;
	if (seat < 0 || seat >= log->config.nplayers)
		return cli_usage_error("review: want --seat S, one of the log's seats 0 to %d", log->config.nplayers - 1);
	if (!ai) {
		g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
		g_autofree char *dir = exe ? g_path_get_dirname(exe) : g_strdup("bin");
		ai = review_ai_command(log->variant->name, dir);
		if (!ai) {
			fprintf(stderr, "referee: review: no AI of ours analyses %s (only %s); give one with --ai\n",
				log->variant->name, review_variants());
			return 1;
		}
	}
	g_autoptr(GError) err = NULL;
	if (!sandbox_resolve(want, &mode, &err)) {
		fprintf(stderr, "referee: review: %s\n", err->message);
		return 1;
	}
	Progress p = {isatty(STDERR_FILENO)};
	g_autoptr(Review) r = review_run(log, seat, ai, mode, p.tty || progress ? show_progress : NULL, &p, &err);
	if (!r) {
		fprintf(stderr, "referee: review: %s\n", err->message);
		return 1;
	}
	if (json)
		print_json(r);
	else
		print_text(r, argv[1], log->name[seat]);
	return 0;
}
