/*
 * slurm: submitting a tournament to Slurm as shards and a merge job (see
 * slurm.h). Two batch scripts are written to OUTPUT/slurm/ and handed to
 * `sbatch --parsable`, whose first output field is the job id.
 */
#include "tournaments/slurm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>

/* Whether argv[i] is a flag that --slurm sets itself; *skip is how many
 * words it takes (1, or 2 with a separate value). */
static gboolean dropped_flag(char **argv, int i, int *skip)
{
	static const char *const with_value[] = { "--slurm", "--slurm-opt", "--seed", "-s", "--shard",
						  "--output", "-o", NULL };
	const char *a = argv[i];

	for (int k = 0; with_value[k]; k++) {
		size_t n = strlen(with_value[k]);

		if (!strcmp(a, with_value[k])) {
			*skip = argv[i + 1] ? 2 : 1;
			return TRUE;
		}
		if (!strncmp(a, with_value[k], n) && (a[n] == '=' || (n == 2 && a[n]))) {
			*skip = 1;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean slurm_sbatch(const char *who, char **opts, const char *const *args, char **job)
{
	g_autoptr(GPtrArray) av = g_ptr_array_new();
	g_autofree char *out = NULL, *err = NULL;
	g_autoptr(GError) error = NULL;
	int status = 0;

	g_ptr_array_add(av, "sbatch");
	g_ptr_array_add(av, "--parsable");
	for (int i = 0; opts && opts[i]; i++)
		g_ptr_array_add(av, opts[i]);
	for (int i = 0; args[i]; i++)
		g_ptr_array_add(av, (char *)args[i]);
	g_ptr_array_add(av, NULL);
	if (!g_spawn_sync(NULL, (char **)av->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
			  &status, &error)) {
		fprintf(stderr, "referee %s: cannot run sbatch (is Slurm's client installed?): %s\n", who,
			error->message);
		return FALSE;
	}
	if (!g_spawn_check_wait_status(status, NULL) || !out || !g_ascii_isdigit(out[0])) {
		fprintf(stderr, "referee %s: sbatch refused: %s%s", who, err && *err ? err : out,
			err && *err && err[strlen(err) - 1] == '\n' ? "" : "\n");
		return FALSE;
	}
	*job = g_strndup(out, strspn(out, "0123456789"));
	return TRUE;
}

gboolean slurm_queued(const char *jobs, int *failing)
{
	g_autofree char *out = NULL, *err = NULL;
	int status = 0;
	const char *argv[] = {"squeue", "-h", "-o", "%i", "-j", jobs, NULL};

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
			  NULL)) {
		(*failing)++;
		return TRUE;
	}
	if (!g_spawn_check_wait_status(status, NULL)) {
		if (err && strstr(err, "Invalid job id"))
			return FALSE;
		(*failing)++;
		return TRUE;
	}
	*failing = 0;
	return out && *out;
}

/* Why shard `i` failed, from its Slurm output file: its first line that
 * says `referee` or `error` (the referee's own message, or slurmstepd's
 * "error: *** JOB ... CANCELLED ... DUE TO TIME LIMIT ***"), else its last
 * line; or that it wrote nothing. Newly allocated. */
static char *shard_why(const char *path)
{
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, NULL))
		return g_strdup("no output: the job never ran");
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	const char *last = NULL;
	for (int i = 0; lines[i]; i++) {
		g_strstrip(lines[i]);
		if (!lines[i][0])
			continue;
		if (strstr(lines[i], "referee") || strstr(lines[i], "error"))
			return g_strndup(lines[i], 300);
		last = lines[i];
	}
	return last ? g_strndup(last, 300) : g_strdup("its output is empty");
}

/* Whether a standings.json is whole and not partial, written at `since`
 * or later (a shard's earlier run does not count). */
static gboolean standings_done(const char *path, gint64 since)
{
	g_autofree char *text = NULL;
	GStatBuf st;

	return g_stat(path, &st) == 0 && (gint64)st.st_mtime >= since &&
	       g_file_get_contents(path, &text, NULL, NULL) && strstr(text, "\"partial\": false");
}

/* Wait until the shards and the merge have left the queue (polling squeue
 * every `poll_ms`), then say what failed: each shard without finished
 * standings, with why from its .out, and the merge. Returns 0 when all
 * finished. */
static int slurm_wait(const char *shard_job, const char *merge_job, int nshards, const char *output,
		      const char *slurm_dir, gint64 since)
{
	g_autofree char *jobs = g_strdup_printf("%s,%s", shard_job, merge_job);
	int failing = 0, status = 0;

	fprintf(stderr, "referee tournament: waiting for the jobs (squeue -j %s)...\n", jobs);
	while (slurm_queued(jobs, &failing)) {
		if (failing > 60) {
			fprintf(stderr, "referee tournament: squeue has not answered for a minute; the jobs "
				"(%s) may still run: see %s\n", jobs, slurm_dir);
			return 1;
		}
		g_usleep(1000 * 1000);
	}
	for (int i = 0; i < nshards; i++) {
		g_autofree char *json = g_strdup_printf("%s/shard%d/standings.json", output, i);
		g_autofree char *out = g_strdup_printf("%s/shard-%d.out", slurm_dir, i);
		if (standings_done(json, since))
			continue;
		g_autofree char *why = shard_why(out);
		fprintf(stderr, "referee tournament: shard %d/%d (job %s_%d) failed: %s (see %s)\n", i, nshards,
			shard_job, i, why, out);
		status = 1;
	}
	g_autofree char *merged = g_build_filename(output, "standings.json", NULL);
	if (!standings_done(merged, since)) {
		g_autofree char *out = g_build_filename(slurm_dir, "merge.out", NULL);
		g_autofree char *why = status ? g_strdup("not run: a shard failed") : shard_why(out);
		fprintf(stderr, "referee tournament: the merge (job %s) did not write the standings: %s (see %s)\n",
			merge_job, why, out);
		status = 1;
	}
	if (status == 0)
		fprintf(stderr, "referee tournament: every shard and the merge finished\n");
	return status;
}

/* The master seed: given, kept in `path`, or drawn and kept. */
static gboolean slurm_seed(TournamentConfig *cfg, const char *path)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	guint64 kept;

	if (g_file_get_contents(path, &text, NULL, NULL) &&
	    g_ascii_string_to_unsigned(g_strstrip(text), 10, 0, G_MAXUINT64, &kept, NULL)) {
		if (!cfg->seed_set) {
			cfg->seed = kept;
			cfg->seed_set = TRUE;
		}
		if (cfg->seed == kept)
			return TRUE;
	}
	if (!cfg->seed_set) {
		cfg->seed = tournament_draw_seed();
		cfg->seed_set = TRUE;
	}
	g_free(text);
	text = g_strdup_printf("%" G_GUINT64_FORMAT "\n", cfg->seed);
	if (!g_file_set_contents(path, text, -1, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return FALSE;
	}
	return TRUE;
}

int tournament_slurm_submit(TournamentConfig *cfg, int nshards, char **opts)
{
	g_autofree char *output = NULL, *slurm_dir = NULL, *seed_path = NULL, *cwd = g_get_current_dir();
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *name = NULL, *shard_job = NULL, *merge_job = NULL, *dep = NULL;
	g_autofree char *shard_script = NULL, *merge_script = NULL;
	g_autofree char *q_exe = NULL, *q_out = NULL, *q_cwd = NULL;
	g_autoptr(GString) args = g_string_new(NULL);
	g_autoptr(GString) sh = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	gint64 since;

	if (nshards < 1 || nshards > SLURM_SHARDS_MAX) {
		fprintf(stderr, "referee tournament: --slurm %d: want an integer from 1 to %d\n", nshards,
			SLURM_SHARDS_MAX);
		return 2;
	}
	if (cfg->sprt) {
		fprintf(stderr, "referee tournament: --sprt decides on all the games: not with --slurm\n");
		return 2;
	}
	if (cfg->shard_count > 1) {
		fprintf(stderr, "referee tournament: --slurm makes the shards itself: no --shard\n");
		return 2;
	}
	if (!cfg->variant_name && !cfg->output) {
		fprintf(stderr, "referee tournament: --slurm: give the variant or an output directory\n");
		return 2;
	}
	output = cfg->output ? g_canonicalize_filename(cfg->output, NULL)
			     : g_canonicalize_filename(name = g_strdup_printf("tournament-%s", cfg->variant_name), NULL);
	g_free(name);
	name = g_path_get_basename(output);
	slurm_dir = g_build_filename(output, "slurm", NULL);
	if (g_mkdir_with_parents(slurm_dir, 0755) < 0) {
		fprintf(stderr, "referee tournament: cannot create %s: %s\n", slurm_dir, g_strerror(errno));
		return 1;
	}
	since = (gint64)time(NULL) - 1;	/* standings written from now on are this run's */
	seed_path = g_build_filename(slurm_dir, "seed", NULL);
	if (!slurm_seed(cfg, seed_path))
		return 1;
	if (!exe)
		exe = g_strdup("referee");
	q_exe = g_shell_quote(exe);
	q_out = g_shell_quote(output);
	q_cwd = g_shell_quote(cwd);
	/* The shard's command line: ours without the flags set here. */
	for (int i = 1; cfg->argv && cfg->argv[i];) {
		int skip = 1;

		if (!dropped_flag(cfg->argv, i, &skip)) {
			g_autofree char *q = g_shell_quote(cfg->argv[i]);

			g_string_append_printf(args, " %s", q);
		}
		i += skip;
	}

	g_string_append_printf(sh, "#!/bin/sh\n# tetrarena: shard $SLURM_ARRAY_TASK_ID of %d (referee tournament --slurm)\n"
			       "cd %s || exit 1\n"
			       "exec %s tournament%s --seed %" G_GUINT64_FORMAT
			       " --shard \"$SLURM_ARRAY_TASK_ID/%d\" -o %s/shard\"$SLURM_ARRAY_TASK_ID\" -q\n",
			       nshards, q_cwd, q_exe, args->str, cfg->seed, nshards, q_out);
	shard_script = g_build_filename(slurm_dir, "shard.sh", NULL);
	if (!g_file_set_contents(shard_script, sh->str, -1, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 1;
	}
	g_string_truncate(sh, 0);
	g_string_append_printf(sh, "#!/bin/sh\n# tetrarena: merge %d shards (referee tournament --slurm)\n"
			       "cd %s || exit 1\nfailed=\n", nshards, q_cwd);
	g_string_append_printf(sh, "i=0\nwhile [ $i -lt %d ]; do\n"
			       "\tif [ ! -s %s/shard$i/standings.json ] || grep -q '\"partial\": true' %s/shard$i/standings.json; then\n"
			       "\t\techo \"referee merge: shard $i/%d did not finish: see %s/slurm/shard-$i.out\" >&2\n"
			       "\t\tfailed=1\n\tfi\n\ti=$((i + 1))\ndone\n[ -z \"$failed\" ] || exit 1\n",
			       nshards, q_out, q_out, nshards, q_out);
	g_string_append_printf(sh, "exec %s merge -o %s", q_exe, q_out);
	for (int i = 0; i < nshards; i++)
		g_string_append_printf(sh, " %s/shard%d", q_out, i);
	g_string_append(sh, " >/dev/null\n");
	merge_script = g_build_filename(slurm_dir, "merge.sh", NULL);
	if (!g_file_set_contents(merge_script, sh->str, -1, &error)) {
		fprintf(stderr, "referee tournament: %s\n", error->message);
		return 1;
	}
	{
		g_autofree char *jname = g_strdup_printf("--job-name=tetrarena-%s-shards", name);
		g_autofree char *array = g_strdup_printf("--array=0-%d", nshards - 1);
		g_autofree char *out = g_strdup_printf("--output=%s/shard-%%a.out", slurm_dir);
		const char *const a[] = { jname, array, out, "--ntasks=1", shard_script, NULL };

		if (!slurm_sbatch("tournament", opts, a, &shard_job))
			return 1;
	}
	{
		g_autofree char *jname = g_strdup_printf("--job-name=tetrarena-%s-merge", name);
		g_autofree char *out = g_strdup_printf("--output=%s/merge.out", slurm_dir);
		const char *const a[] = { jname, out, "--ntasks=1", "--kill-on-invalid-dep=yes",
					  dep = g_strdup_printf("--dependency=afterok:%s", shard_job),
					  merge_script, NULL };

		if (!slurm_sbatch("tournament", opts, a, &merge_job)) {
			fprintf(stderr, "referee tournament: the shards (job %s) were submitted; "
				"cancel them with: scancel %s\n", shard_job, shard_job);
			return 1;
		}
	}
	printf("shards: job %s (array 0-%d, tetrarena-%s-shards), each into %s/shardI\n"
	       "merge: job %s (tetrarena-%s-merge), after every shard succeeds\n"
	       "standings: %s/standings.txt, %s/standings.json, %s/report.html\n"
	       "seed: %" G_GUINT64_FORMAT " (kept in %s; submit the same command again to resume)\n",
	       shard_job, nshards - 1, name, output, merge_job, name, output, output, output,
	       cfg->seed, seed_path);
	fflush(stdout);
	return slurm_wait(shard_job, merge_job, nshards, output, slurm_dir, since);
}
