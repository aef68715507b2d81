/*
 * test-sandbox-filter: the jail's system call filter as a program of its
 * own (referee/sandbox-filter.h): it compiles, a child that installs it
 * (no_new_privs and seccomp(2), no root or bwrap needed) gets the table's
 * answers, and protocol.md names every call of the table. The filter in
 * a real jail, with hostile bots and interpreters: t2020-jail-filter.sh.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "referee/sandbox-filter.h"

static void test_compiles(void)
{
	gsize len = 0, n = 0;
	const char *why = NULL;
	const guint8 *prog = jailfilter_program(FALSE, &len, &why);

	g_assert_null(why);
	g_assert_nonnull(prog);
	g_assert_cmpuint(len % sizeof(struct sock_filter), ==, 0);
	/* the kernel's cap on one program (BPF_MAXINSNS) */
	g_assert_cmpuint(len / sizeof(struct sock_filter), <=, 4096);
	g_test_message("%zu rows, %zu BPF instructions", (size_t)(jailfilter_rules(&n), n),
		       (size_t)(len / sizeof(struct sock_filter)));
	g_assert_true(jailfilter_program(FALSE, &n, NULL) == prog);
}

/* In a child under the filter: each call's errno (0: success), as bytes
 * on `fd`. */
static void child(int fd)
{
	gsize len = 0;
	const guint8 *prog = jailfilter_program(FALSE, &len, NULL);
	struct sock_fprog fp = {.len = (unsigned short)(len / sizeof(struct sock_filter)),
				.filter = (struct sock_filter *)prog};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) != 0)
		_exit(3);
	static unsigned word;
	struct timespec zero = {0, 0};
	unsigned char out[10];
	int i = 0;
#define ANSWER(call) (out[i++] = (unsigned char)((call) < 0 ? errno : 0))
	ANSWER(syscall(SYS_io_uring_setup, 1, NULL));
	ANSWER(syscall(SYS_socket, 40 /* AF_VSOCK */, SOCK_STREAM, 0));
	ANSWER(syscall(SYS_socket, (1ul << 32) | AF_UNIX, SOCK_STREAM, 0));
	ANSWER(syscall(SYS_futex, &word, FUTEX_WAIT, 0, &zero, NULL, 0));
	ANSWER(syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &zero, NULL, 0));
	ANSWER(syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0));
	ANSWER(syscall(SYS_keyctl, 0, 0, 0, 0, 0));
	ANSWER(syscall(SYS_mount, "none", "/nonexistent-tetrarena", "tmpfs", 0, NULL));
	ANSWER(syscall(SYS_flock, 0, 0));
	ANSWER(syscall(SYS_getppid));
#undef ANSWER
	_exit(write(fd, out, sizeof(out)) == (ssize_t)sizeof(out) ? 0 : 4);
}

static void test_answers(void)
{
	int p[2];
	g_assert_cmpint(pipe(p), ==, 0);
	jailfilter_program(FALSE, &(gsize){0}, NULL);	/* compiled before the fork */
	pid_t pid = fork();
	g_assert_cmpint(pid, >=, 0);
	if (pid == 0) {
		close(p[0]);
		child(p[1]);
	}
	close(p[1]);
	unsigned char got[10] = {0};
	g_assert_cmpint(read(p[0], got, sizeof(got)), ==, sizeof(got));
	close(p[0]);
	int status = 0;
	g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
	g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	const unsigned char want[] = {
		ENOSYS,		/* io_uring */
		EAFNOSUPPORT,	/* AF_VSOCK */
		EAFNOSUPPORT,	/* garbage in the high bits of the family: refused too */
		EAGAIN,		/* a shared wait returns at once */
		ETIMEDOUT,	/* a private one waits (no time) */
		0,		/* a shared wake wakes nobody */
		ENOSYS,		/* keyrings */
		EPERM,		/* mount */
		0,		/* flock succeeds on fd 0 (even on a pipe) */
		0,		/* anything else as ever */
	};
	for (guint i = 0; i < sizeof(want); i++)
		g_test_message("call %u: errno %d, wanted %d", i, got[i], want[i]);
	for (guint i = 0; i < sizeof(want); i++)
		g_assert_cmpint(got[i], ==, want[i]);
}

static void test_documented(void)
{
	const char *top = g_getenv("TETRARENA_TOP");
	g_autofree char *path = g_build_filename(top ? top : ".", "protocol.md", NULL);
	g_autofree char *text = NULL;
	gsize n = 0;
	const JailFilterRule *rules = jailfilter_rules(&n);

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	const char *table = strstr(text, "| Call | In the jail | Why |");
	g_assert_nonnull(table);
	for (gsize i = 0; i < n; i++) {
		g_autofree char *quoted = g_strdup_printf("`%s", rules[i].call);
		if (!strstr(table, quoted))
			g_error("protocol.md's filter table does not name %s", rules[i].call);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sandbox-filter/compiles", test_compiles);
	g_test_add_func("/sandbox-filter/answers", test_answers);
	g_test_add_func("/sandbox-filter/documented", test_documented);
	return g_test_run();
}
