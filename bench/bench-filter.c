/*
 * bench-filter: what the jail's seccomp filter (referee/sandbox-filter.c)
 * costs a bot, measured without bwrap, so that nothing but the filter
 * differs (bench/bench-sandbox.sh runs it beside the whole jail's cost):
 *   - compiling the table, once per referee process;
 *   - one system call that the filter lets through (getppid), bare and
 *     under the filter, best of several runs;
 *   - starting programs under it: `PROG ARGS...` (default `python3 -c
 *     pass`) started N times (default 20) bare, N times with the filter
 *     installed before exec and N times with the futex supervisor's
 *     filter as well (its listener closed), in turn, median wall time
 *     each.
 *
 *   bench-filter [N [PROG ARGS...]]
 * Speed is measured here, never asserted in tests.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "referee/sandbox-filter.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void install(void)
{
	gsize len = 0;
	const guint8 *prog = jailfilter_program(FALSE, &len, NULL);
	struct sock_fprog fp = {.len = (unsigned short)(len / sizeof(struct sock_filter)),
				.filter = (struct sock_filter *)prog};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) != 0)
		_exit(126);
}

/* ns per getppid(), best of 5 runs of 200000 */
static double per_call(void)
{
	double best = 1e9;
	for (int r = 0; r < 5; r++) {
		double t = now();
		for (int i = 0; i < 200000; i++)
			syscall(SYS_getppid);
		double d = (now() - t) / 200000 * 1e9;
		best = d < best ? d : best;
	}
	return best;
}

/* The syscall costs, measured in a child (the filter stays with it). */
static void calls(double out[2])
{
	int p[2];
	if (pipe(p) != 0)
		exit(1);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		double r[2];
		r[0] = per_call();
		install();
		r[1] = per_call();
		_exit(write(p[1], r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], out, 2 * sizeof(double)) != 2 * sizeof(double))
		out[0] = out[1] = -1;
	close(p[0]);
	waitpid(pid, NULL, 0);
}

/* The supervisor's program too, as the jail's child installs it (with a
 * listener, closed here: a call it hands over fails with ENOSYS). */
static void install_poll(void)
{
	gsize len = 0;
	const guint8 *prog = jailfilter_poll_program(&len, NULL);
	struct sock_fprog fp = {.len = (unsigned short)(len / sizeof(struct sock_filter)),
				.filter = (struct sock_filter *)prog};
	int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fp);
	if (fd < 0)
		_exit(126);
	close(fd);
}

static double run(char **argv, int filtered)
{
	fflush(stdout);
	double t = now();
	pid_t pid = fork();
	if (pid == 0) {
		if (filtered)
			install();
		if (filtered > 1)
			install_poll();
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench-filter: %s failed (%s)\n", argv[0], filtered ? "filtered" : "bare");
		exit(1);
	}
	return now() - t;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	char *def[] = {(char *)"python3", (char *)"-c", (char *)"pass", NULL};
	char **prog = argc > 2 ? argv + 2 : def;

	n = n < 1 ? 1 : n > 1000 ? 1000 : n;
	double t = now();
	gsize len = 0, rows = 0;
	const char *why = NULL;
	if (!jailfilter_program(FALSE, &len, &why)) {
		printf("the filter does not compile here: %s\n", why);
		return 1;
	}
	jailfilter_rules(&rows);
	printf("filter: %zu rows, %zu BPF instructions, compiled in %.2f ms (once per referee process)\n",
	       (size_t)rows, (size_t)(len / sizeof(struct sock_filter)), (now() - t) * 1e3);
	double c[2];
	calls(c);
	printf("a system call it lets through (getppid): bare %.0f ns, filtered %.0f ns (%+.0f ns)\n", c[0], c[1],
	       c[1] - c[0]);
	double *bare = g_new(double, n), *filt = g_new(double, n), *both = g_new(double, n);
	for (int i = 0; i < n; i++) {
		bare[i] = run(prog, 0);
		filt[i] = run(prog, 1);
		both[i] = run(prog, 2);
	}
	qsort(bare, (size_t)n, sizeof(double), cmp);
	qsort(filt, (size_t)n, sizeof(double), cmp);
	qsort(both, (size_t)n, sizeof(double), cmp);
	g_autofree char *cmd = g_strjoinv(" ", prog);
	printf("start of `%s`, median of %d: bare %.2f ms, filtered %.2f ms (%+.2f ms), and with the supervisor's "
	       "filter %.2f ms (%+.2f ms)\n",
	       cmd, n, bare[n / 2] * 1e3, filt[n / 2] * 1e3, (filt[n / 2] - bare[n / 2]) * 1e3, both[n / 2] * 1e3,
	       (both[n / 2] - bare[n / 2]) * 1e3);
	g_free(bare), g_free(filt), g_free(both);
	return 0;
}
