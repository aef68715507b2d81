/*
 * slurm: a tournament run on a Slurm cluster (`referee tournament ...
 * --slurm N`): an sbatch job array of N shards, each an ordinary
 * `referee tournament ... --shard I/N` run into OUTPUT/shardI, and a merge
 * job that runs once every shard has succeeded (--dependency=afterok)
 * and writes the merged standings, journal and report.html into OUTPUT
 * (`referee merge`). OUTPUT must be on a path every node shares, the
 * referee and the bots at the same paths on every node; jobs start in the
 * current directory. The master seed is the one given, else the one
 * kept in OUTPUT/slurm/seed, else one drawn now and kept there, so that
 * submitting the same command again resumes every shard from its journal
 * and merges again. Slurm's own output goes to OUTPUT/slurm/shard-I.out
 * and OUTPUT/slurm/merge.out; the jobs are named tetrarena-NAME-shards and
 * tetrarena-NAME-merge (NAME: OUTPUT's last component) in squeue.
 */
#ifndef TETRARENA_TOURNAMENTS_SLURM_H
#define TETRARENA_TOURNAMENTS_SLURM_H

#include "tournaments/tournament.h"

#define SLURM_SHARDS_MAX 1000

/*
 * Submit cfg (as given: cfg->argv is the subcommand's command line, from
 * which --slurm, --slurm-opt, --seed, --shard and -o/--output are taken
 * out and given anew) as `nshards` shards and a merge job, each sbatch
 * call given the extra arguments `opts` (NULL-terminated, or NULL), such
 * as --partition=X or --time=1:00:00. Prints the job ids and where the
 * standings will be on stdout, then waits for the jobs to leave the queue
 * (squeue, every second) and says on stderr which shard failed and why
 * (the first line of its OUTPUT/slurm/shard-I.out that names the referee
 * or an error), and whether the merge wrote the standings. Returns the
 * exit status: 0 every shard and the merge finished, 1 a failure (sbatch
 * missing or refusing, a shard or the merge that did not finish: the
 * message on stderr), 2 a usage error.
 */
int tournament_slurm_submit(TournamentConfig *cfg, int nshards, char **opts);

/* Run `sbatch --parsable`, then opts (NULL-terminated, or NULL), then args
 * (NULL-terminated); OUT: the job id (newly allocated). FALSE after saying
 * why on stderr, as "referee WHO: ...". (Also `ladder run --slurm`.) */
gboolean slurm_sbatch(const char *who, char **opts, const char *const *args, char **job);

/* Whether any of the jobs (a comma list) is still in the queue. FALSE
 * also when squeue says the ids are unknown (gone from the controller's
 * memory); *failing counts the calls in a row that could not ask at all
 * (TRUE then). */
gboolean slurm_queued(const char *jobs, int *failing);

#endif
