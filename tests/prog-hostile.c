/*
 * prog-hostile: a bot that attacks the jail's second round (issue 27's
 * attacks), for tests/t2007-jail.sh and bench/bench-spin.sh.
 *
 *   prog-hostile MODE [ARG...]
 *
 * It speaks protocol.md, asks for `moves` and plays the first legal move
 * every time; at each `go` it first runs its attack and, at the first
 * one, reports what it achieved in a line `info attack MODE=N` (N = 0
 * means the attack achieved nothing):
 *
 *   tty FILE      push "touch FILE" into every terminal it can reach
 *                 (TIOCSTI on /dev/tty and fds 0-2), and try to take the
 *                 terminal's foreground; N = calls that succeeded
 *   procsys       open every file under /proc/sys for writing, and try
 *                 /proc/sysrq-trigger; N = files opened
 *   read LIST     read each path named in the file LIST, one a line
 *                 (files or directories; a list, so that the paths are
 *                 not on its command line, which the jail binds in);
 *                 N = how many could be read
 *   connect LIST  connect to the unix socket named on the first line of the
 *                 file LIST (not on its command line, which the jail
 *                 binds in); N = 1 if it could
 *   userns        unshare a user namespace (and a mount namespace in it,
 *                 then mount a tmpfs); N = steps that worked
 *   widen         set its CPU affinity to every CPU, then N = the CPUs it
 *                 may run on, less 1 (0: held to the one it was given)
 *   root          N = 1 if it runs as uid 0 (of the host or its namespace)
 *   grep FILE S   N = 1 if FILE holds the string on the first line of
 *                 the file S
 *   send FILE     a sender on three channels at each `go`: a key in its
 *                 session and user keyrings, flock() and an fcntl lock on
 *                 FILE (held), opening FILE 20 times (inotify's IN_OPEN)
 *   recv FILE     the receiver: at each `go` looks for the key, tests
 *                 both locks on FILE, and counts IN_OPEN events on FILE;
 *                 N = signals seen over the whole game, reported in an
 *                 `info attack recv=N` line at every `go`
 *   shm           write up to 2 GiB into /dev/shm; N = MiB written
 *   prehog        before reading anything, write 512 MiB into /tmp (a
 *                 tmpfs charged to its memory cgroup, not to RLIMIT_DATA):
 *                 with memory= below that, the kernel kills it before its
 *                 hello
 *   infoflood     before each move, 64 `info` lines of 60000 bytes
 *   sayflood P    before each move, 64 `say P` lines of 60000 bytes
 *                 (matrix table talk; each refused, and logged until the
 *                 seat's text cap)
 *   syscalls      every call the jail's filter refuses (and a few it lets
 *                 through), each made directly, with garbage in the high
 *                 bits of int arguments and through the 32-bit ABI (int
 *                 0x80) too; an `info syscall NAME=ERRNO wanted=ERRNO`
 *                 line for each answer that is not the filter's;
 *                 N = how many those were
 *   join [S]      not an attack: a thread works S seconds of CPU (0.3)
 *                 while the main thread joins it; N = the CPU ms the
 *                 joining thread used meanwhile (a shared futex wait
 *                 that spins costs about S)
 *   futexrecv F   the futex channel's receiver: maps the file F shared
 *                 and private, read-only, and a thread on each waits
 *                 (FUTEX_WAIT without FUTEX_PRIVATE_FLAG) on its first
 *                 word over and over; at each `go` it reports
 *                 `info attack futexrecv=N`, the waits that ended in a
 *                 wakeup so far
 *   futexsend F   its sender: at each `go`, FUTEX_WAKE on the same two
 *                 words (64 times each: 64 bits), and
 *                 `info attack futexsend=N`, the waiters it woke so far
 *   futexexit F   a sender that makes no futex call: at each `go`, 4
 *                 threads set their clear_child_tid (set_tid_address) to
 *                 those words and exit, and the kernel itself wakes one
 *                 waiter there at each exit, as a shared FUTEX_WAKE
 *                 (so waking nobody is not enough: nobody may sleep);
 *                 `info attack futexexit=N`, the threads that exited
 *   shmem         the first go: `info attack shmem=KB`, the Shmem line of
 *                 /proc/meminfo, then 64 MiB written in /dev/shm and
 *                 kept; every go: `info shmem KB sysinfo=KB` as it
 *                 reads now, and sysinfo(2)'s sharedram
 *   spin K        a spinner: after each answer, K children burn CPU until
 *                 the next `go`; at each `go` it reports
 *                 `info spin away=MS cpu=MS`, the wall time since its last
 *                 answer and the CPU its children used in it
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
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

static char **args;
static int nargs;

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static long tty_attack(void)
{
	char cmd[PATH_MAX + 16];
	long n = 0;

	snprintf(cmd, sizeof(cmd), "touch %s\n", nargs > 0 ? args[0] : "/tmp/pwned");
	int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
	int fds[4] = {tty, 0, 1, 2};
	for (int i = 0; i < 4; i++) {
		if (fds[i] < 0)
			continue;
		int ok = 1;
		for (const char *c = cmd; *c && ok; c++)
			ok = ioctl(fds[i], TIOCSTI, c) == 0;
		n += ok;
		n += tcsetpgrp(fds[i], getpgrp()) == 0;
	}
	/* a terminal of its own making would be no harm; the host's is */
	if (tty >= 0)
		n++, close(tty);
	return n;
}

static long procsys_walk(const char *dir)
{
	DIR *d = opendir(dir);
	long n = 0;
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			n += procsys_walk(path);
		} else {
			int fd = open(path, O_WRONLY | O_NONBLOCK);
			if (fd >= 0)
				n++, close(fd);
		}
	}
	closedir(d);
	return n;
}

static long readable(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		long any = 0;
		while ((e = readdir(d)))
			any |= e->d_name[0] != '.';
		closedir(d);
		return any;
	}
	int fd = open(path, O_RDONLY);
	char c;
	long ok = fd >= 0 && read(fd, &c, 1) >= 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

static long userns(void)
{
	long n = 0;
	if (unshare(CLONE_NEWUSER) == 0) {
		n++;
		if (unshare(CLONE_NEWNS) == 0)
			n++;
		if (mount("none", "/tmp", "tmpfs", 0, NULL) == 0)
			n++;
	}
	pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		n++, waitpid(pid, NULL, 0);
	return n;
}

/* ---- the channels -------------------------------------------------------- */

#define KEY_SPEC_USER_KEYRING -4
#define KEY_SPEC_SESSION_KEYRING -3
#define KEYCTL_SEARCH 10

static int inotify_fd = -1;
static long seen;

static void send_signals(const char *file)
{
	static int lockfd = -1;
	for (int ring = KEY_SPEC_SESSION_KEYRING; ring >= KEY_SPEC_USER_KEYRING; ring--)
		syscall(SYS_add_key, "user", "tetrarena-channel", "1", 1, ring);
	if (lockfd < 0 && (lockfd = open(file, O_RDONLY)) >= 0) {
		flock(lockfd, LOCK_EX);
		struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
		fcntl(lockfd, F_SETLK, &fl);
	}
	for (int i = 0; i < 20; i++) {
		int fd = open(file, O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
}

static void look_for_signals(const char *file)
{
	for (int ring = KEY_SPEC_SESSION_KEYRING; ring >= KEY_SPEC_USER_KEYRING; ring--)
		if (syscall(SYS_keyctl, KEYCTL_SEARCH, ring, "user", "tetrarena-channel", 0) >= 0)
			seen++;
	int fd = open(file, O_RDONLY);
	if (fd >= 0) {
		if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
			seen++;
		else
			flock(fd, LOCK_UN);
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
			seen++;
		close(fd);
	}
	if (inotify_fd < 0) {
		inotify_fd = inotify_init1(IN_NONBLOCK);
		if (inotify_fd >= 0)
			inotify_add_watch(inotify_fd, file, IN_OPEN);
	} else {
		char buf[4096];
		ssize_t r;
		while ((r = read(inotify_fd, buf, sizeof(buf))) > 0)
			for (char *p = buf; p < buf + r; p += sizeof(struct inotify_event) + ((struct inotify_event *)p)->len)
				seen++;
	}
}

static long shm_fill(void)
{
	int fd = open("/dev/shm/fill", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	static char block[1 << 20];
	long mib = 0;

	if (fd < 0)
		return 0;
	memset(block, 'x', sizeof(block));
	while (mib < 2048 && write(fd, block, sizeof(block)) == (ssize_t)sizeof(block))
		mib++;
	close(fd);
	unlink("/dev/shm/fill");
	return mib;
}

/* ---- the filter ------------------------------------------------------------- */

#define HIGH (1ul << 32)	/* garbage the kernel drops from an int argument */
/* Paths that do not exist: unjailed (the filter missing) the calls fail
 * with ENOENT, not EPERM, and change nothing even when run as root. */
#define NOWHERE "/nonexistent-tetrarena"

static long tried, wrong;

/* One call's answer: -errno, or 0 for success (any value >= 0). */
static void expect(const char *name, long ret, int want)
{
	int got = ret < 0 ? errno : 0;
	tried++;
	if (got != want) {
		wrong++;
		printf("info syscall %s=%d wanted=%d\n", name, got, want);
	}
}

static void expect2(const char *name, long ret, int want, int or_want)
{
	int got = ret < 0 ? errno : 0;
	if (got == or_want)
		tried++;
	else
		expect(name, ret, want);
}

#if defined(__x86_64__)
/* A call through the 32-bit ABI (int 0x80), -errno or its result. */
static long call32(long nr, long a, long b, long c)
{
	long ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
	return ret;
}
#endif

static long syscalls_attack(void)
{
	static unsigned word;
	struct timespec zero = {0, 0};
	int fd = open("/proc/self/exe", O_RDONLY);

	/* refused */
	expect("io_uring_setup", syscall(SYS_io_uring_setup, 1, NULL), ENOSYS);
	expect("io_uring_enter", syscall(SYS_io_uring_enter, 0, 0, 0, 0, NULL, 0), ENOSYS);
	expect("io_uring_register", syscall(SYS_io_uring_register, 0, 0, NULL, 0), ENOSYS);
	expect("socket(AF_VSOCK)", syscall(SYS_socket, 40, SOCK_STREAM, 0), EAFNOSUPPORT);
	expect("socket(AF_PACKET)", syscall(SYS_socket, 17, SOCK_RAW, 0), EAFNOSUPPORT);
	expect("socket(AF_ALG)", syscall(SYS_socket, 38, SOCK_SEQPACKET, 0), EAFNOSUPPORT);
	expect("socket(AF_UNSPEC)", syscall(SYS_socket, 0, SOCK_STREAM, 0), EAFNOSUPPORT);
	expect("socket(AF_VSOCK+high)", syscall(SYS_socket, HIGH | 40, SOCK_STREAM, 0), EAFNOSUPPORT);
	expect("socket(netlink uevent)", syscall(SYS_socket, AF_NETLINK, SOCK_RAW, 15), EPROTONOSUPPORT);
	expect("socketpair(AF_INET)", syscall(SYS_socketpair, AF_INET, SOCK_STREAM, 0, NULL), EAFNOSUPPORT);
	expect("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0), ENOSYS);
	expect("add_key", syscall(SYS_add_key, "user", "k", "v", 1, -3), ENOSYS);
	expect("request_key", syscall(SYS_request_key, "user", "k", NULL, 0), ENOSYS);
	expect("perf_event_open", syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), ENOSYS);
	expect("bpf", syscall(SYS_bpf, 0, NULL, 0), ENOSYS);
	expect("userfaultfd", syscall(SYS_userfaultfd, 0), ENOSYS);
	expect("inotify_init1", syscall(SYS_inotify_init1, 0), ENOSYS);
	expect("fanotify_init", syscall(SYS_fanotify_init, 0, 0), ENOSYS);
	expect("kexec_load", syscall(SYS_kexec_load, 0, 0, NULL, 0), EPERM);
	expect("init_module", syscall(SYS_init_module, NULL, 0, ""), EPERM);
	expect("finit_module", syscall(SYS_finit_module, -1, "", 0), EPERM);
	expect("delete_module", syscall(SYS_delete_module, "x", 0), EPERM);
	expect("mount", syscall(SYS_mount, "none", NOWHERE, "tmpfs", 0, NULL), EPERM);
	expect("umount2", syscall(SYS_umount2, NOWHERE, 0), EPERM);
	expect("pivot_root", syscall(SYS_pivot_root, NOWHERE, NOWHERE), EPERM);
	expect("chroot", syscall(SYS_chroot, NOWHERE), EPERM);
	expect("swapon", syscall(SYS_swapon, NOWHERE, 0), EPERM);
	expect("swapoff", syscall(SYS_swapoff, NOWHERE), EPERM);
	expect("reboot", syscall(SYS_reboot, 0, 0, 0, NULL), EPERM);	/* bad magic: EINVAL unfiltered */
	expect("acct", syscall(SYS_acct, NOWHERE), EPERM);
	expect("quotactl", syscall(SYS_quotactl, 0, NULL, 0, NULL), EPERM);
	expect("open_by_handle_at", syscall(SYS_open_by_handle_at, -1, NULL, 0), EPERM);
	expect("name_to_handle_at", syscall(SYS_name_to_handle_at, AT_FDCWD, "/", NULL, NULL, 0), EPERM);
	expect("process_vm_readv", syscall(SYS_process_vm_readv, getpid(), NULL, 0, NULL, 0, 0), EPERM);
	expect("process_vm_writev", syscall(SYS_process_vm_writev, getpid(), NULL, 0, NULL, 0, 0), EPERM);
	expect("fsopen", syscall(SYS_fsopen, "tmpfs", 0), EPERM);
	expect("fspick", syscall(SYS_fspick, AT_FDCWD, "/", 0), EPERM);
	expect("fsconfig", syscall(SYS_fsconfig, -1, 0, NULL, NULL, 0), EPERM);
	expect("fsmount", syscall(SYS_fsmount, -1, 0, 0), EPERM);
	expect("move_mount", syscall(SYS_move_mount, -1, "", -1, "", 0), EPERM);
	expect("open_tree", syscall(SYS_open_tree, AT_FDCWD, "/", 0), EPERM);
	expect("mount_setattr", syscall(SYS_mount_setattr, -1, "", 0, NULL, 0), EPERM);
	expect("ptrace", syscall(SYS_ptrace, 1 /* PTRACE_PEEKTEXT */, getpid(), NULL, NULL), EPERM);
	expect("kcmp", syscall(SYS_kcmp, getpid(), getpid(), 0, 0, 0), EPERM);
	expect("setns", syscall(SYS_setns, -1, 0), EPERM);
	expect("syslog", syscall(SYS_syslog, 10, NULL, 0), EPERM);
	expect("clone3", syscall(SYS_clone3, NULL, 0), ENOSYS);
	expect("unshare(CLONE_NEWUSER)", syscall(SYS_unshare, CLONE_NEWUSER), EPERM);
	expect("futex_waitv", syscall(SYS_futex_waitv, NULL, 0, 0, NULL, 0), ENOSYS);
	/* a shared wait never runs: EAGAIN from the filter, or, from the
	 * supervisor, ETIMEDOUT once its timeout (none here) has passed */
	expect2("futex(shared wait)", syscall(SYS_futex, &word, FUTEX_WAIT, 0, &zero, NULL, 0), EAGAIN, ETIMEDOUT);
	expect2("futex(shared wait+high)", syscall(SYS_futex, &word, HIGH | FUTEX_WAIT, 0, &zero, NULL, 0), EAGAIN,
		ETIMEDOUT);
	struct timespec past = {0, 0};	/* (absolute: long past) */
	expect2("futex(shared wait_bitset)", syscall(SYS_futex, &word, FUTEX_WAIT_BITSET, 0, &past, NULL, ~0u),
		EAGAIN, ETIMEDOUT);
	expect("futex(shared wake_op)", syscall(SYS_futex, &word, FUTEX_WAKE_OP, 1, NULL, &word, 0), ENOSYS);
	expect("ioctl(TIOCSTI+high)", syscall(SYS_ioctl, 0, HIGH | TIOCSTI, "x"), EPERM);
	expect("fcntl(F_GETLK+high)", syscall(SYS_fcntl, fd, HIGH | F_GETLK, &(struct flock){.l_type = F_RDLCK}),
	       ENOLCK);
	expect("fcntl(F_SETLEASE)", syscall(SYS_fcntl, fd, F_SETLEASE, F_RDLCK), EPERM);
	expect("fcntl(F_NOTIFY)", syscall(SYS_fcntl, fd, F_NOTIFY, 0), EPERM);
#if defined(__x86_64__)
	/* the 32-bit ABI: io_uring_setup (425 there too), socket (359) */
	long r = call32(425, 1, 0, 0);
	errno = r < 0 ? (int)-r : 0;
	expect("io_uring_setup (int 0x80)", r < 0 ? -1 : r, ENOSYS);
	r = call32(359, 40, SOCK_STREAM, 0);
	errno = r < 0 ? (int)-r : 0;
	expect("socket(AF_VSOCK) (int 0x80)", r < 0 ? -1 : r, EAFNOSUPPORT);
#endif
	/* let through: what runtimes use */
	int s = (int)syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
	expect("socket(AF_INET)", s, 0);
	if (s >= 0)
		close(s);
	s = (int)syscall(SYS_socket, AF_NETLINK, SOCK_RAW, 0);
	expect("socket(netlink route)", s, 0);
	if (s >= 0)
		close(s);
	int pair[2];
	expect("socketpair(AF_UNIX)", socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
	expect("futex(private wait)", syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &zero, NULL, 0), ETIMEDOUT);
	expect("futex(shared wake)", syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
	if (fd >= 0)
		close(fd);
	return wrong;
}

/* ---- the futex channel ------------------------------------------------------- */

static volatile long futex_woken;

static void *futex_waiter(void *word)
{
	for (;;) {
		struct timespec t = {0, 200 * 1000 * 1000};
		long r = syscall(SYS_futex, word, FUTEX_WAIT, *(volatile unsigned *)word, &t, NULL, 0);
		if (r == 0)
			__atomic_add_fetch(&futex_woken, 1, __ATOMIC_SEQ_CST);
		else if (errno == EAGAIN)
			nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);	/* refused: no spinning */
	}
	return NULL;
}

/* A thread whose exit wakes a waiter on `word` (the kernel's
 * CLONE_CHILD_CLEARTID wake); detached, since nothing will clear its tid
 * for a join (its stack is never reused: a small one). */
static void *futex_exiter(void *word)
{
	syscall(SYS_set_tid_address, word);
	return NULL;
}

/* The first word of `file`, mapped shared (i = 0) and private (1). */
static unsigned *futex_words[2];

static int futex_map(const char *file)
{
	int fd = open(file, O_RDONLY);
	if (fd < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		void *p = mmap(NULL, 4096, PROT_READ, i ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		futex_words[i] = p == MAP_FAILED ? NULL : p;
	}
	close(fd);
	return futex_words[0] && futex_words[1] ? 0 : -1;
}

static long shmem_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Shmem:", 6) == 0)
			kb = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* ---- a thread joined while it works ------------------------------------- */

static double thread_cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *busy(void *seconds)
{
	while (thread_cpu() < *(double *)seconds)
		;
	return NULL;
}

/* The CPU time (ms) the main thread spends in pthread_join() of a thread
 * that works `seconds` of CPU: glibc waits for it on a shared futex. */
static long join_cost(double seconds)
{
	pthread_t t;
	if (pthread_create(&t, NULL, busy, &seconds) != 0)
		return -1;
	double before = thread_cpu();
	pthread_join(t, NULL);
	return (long)((thread_cpu() - before) * 1000);
}

/* ---- the spinner ----------------------------------------------------------- */

static pid_t spinners[16];
static int nspin;
static long answered_at;

static long children_cpu_ms(void)
{
	long ticks = 0;
	for (int i = 0; i < nspin; i++) {
		char path[64], buf[512];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)spinners[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			char *p = strrchr(buf, ')');
			unsigned long ut = 0, st = 0;
			if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
				ticks += (long)(ut + st);
		}
		fclose(f);
	}
	return ticks * 1000 / sysconf(_SC_CLK_TCK);
}

static void spin_start(int k)
{
	for (; nspin < k && nspin < 16; nspin++) {
		pid_t pid = fork();
		if (pid == 0) {
			cpu_set_t all;
			CPU_ZERO(&all);
			for (int c = 0; c < CPU_SETSIZE; c++)
				CPU_SET(c, &all);
			sched_setaffinity(0, sizeof(all), &all);	/* widen, if it may */
			for (volatile unsigned long x = 0;; x++)
				;
		}
		spinners[nspin] = pid;
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	char line[1 << 16], first[256] = "none";
	int reported = 0;
	long cpu_before = 0;

	args = argv + 2;
	nargs = argc - 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(mode, "prehog") == 0) {
		static char block[1 << 20];
		int fd = open("/tmp/hog", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		memset(block, 'x', sizeof(block));
		for (int i = 0; fd >= 0 && i < 512; i++)
			if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
				break;
	}
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "game ", 5) == 0) {
			printf("hello hostile 1 moves\n");
		} else if (strncmp(line, "moves ", 6) == 0) {
			sscanf(line + 6, "%255s", first);
		} else if (strncmp(line, "go ", 3) == 0) {
			long n = -1;
			if (strcmp(mode, "spin") == 0) {
				if (answered_at)
					printf("info spin away=%ld cpu=%ld\n", now_ms() - answered_at,
					       children_cpu_ms() - cpu_before);
			} else if (strcmp(mode, "send") == 0 && nargs > 0) {
				send_signals(args[0]);
			} else if (strcmp(mode, "recv") == 0 && nargs > 0) {
				look_for_signals(args[0]);
				printf("info attack recv=%ld\n", seen);
			} else if (strcmp(mode, "futexrecv") == 0 && nargs > 0) {
				static int started;
				if (!started && futex_map(args[0]) == 0) {
					pthread_t t;
					for (int i = 0; i < 2; i++)
						pthread_create(&t, NULL, futex_waiter, futex_words[i]);
					started = 1;
				}
				printf("info attack futexrecv=%ld\n", __atomic_load_n(&futex_woken, __ATOMIC_SEQ_CST));
			} else if (strcmp(mode, "futexsend") == 0 && nargs > 0) {
				static long woke;
				if (futex_words[0] || futex_map(args[0]) == 0)
					for (int bit = 0; bit < 64; bit++)
						for (int i = 0; i < 2; i++) {
							long r = syscall(SYS_futex, futex_words[i], FUTEX_WAKE, INT_MAX,
									 NULL, NULL, 0);
							woke += r > 0 ? r : 0;
						}
				printf("info attack futexsend=%ld\n", woke);
			} else if (strcmp(mode, "futexexit") == 0 && nargs > 0) {
				static long exited;
				if (futex_words[0] || futex_map(args[0]) == 0)
					for (int k = 0; k < 4; k++) {
						pthread_attr_t at;
						pthread_t t;
						pthread_attr_init(&at);
						pthread_attr_setstacksize(&at, 1 << 16);
						pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
						exited += pthread_create(&t, &at, futex_exiter, futex_words[k & 1]) == 0;
						pthread_attr_destroy(&at);
					}
				printf("info attack futexexit=%ld\n", exited);
			} else if (strcmp(mode, "shmem") == 0) {
				static int filled;
				if (!filled) {
					printf("info attack shmem=%ld\n", shmem_kb());
					static char block[1 << 20];
					int fd = open("/dev/shm/fill", O_WRONLY | O_CREAT | O_TRUNC, 0600);
					memset(block, 'x', sizeof(block));
					for (int i = 0; fd >= 0 && i < 64; i++)
						if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
							break;
					if (fd >= 0)
						close(fd);
					filled = 1;
				}
				struct sysinfo si;
				printf("info shmem %ld sysinfo=%llu\n", shmem_kb(),
				       sysinfo(&si) == 0 ? (unsigned long long)si.sharedram * si.mem_unit / 1024 : 0);
			} else if (strcmp(mode, "infoflood") == 0 || strcmp(mode, "sayflood") == 0) {
				static char big[60001];
				memset(big, 'x', sizeof(big) - 1);
				for (int i = 0; i < 64; i++)
					if (mode[0] == 'i')
						printf("info %s\n", big);
					else
						printf("say %s %s\n", nargs > 0 ? args[0] : "1", big);
			} else if (!reported) {
				if (strcmp(mode, "tty") == 0)
					n = tty_attack();
				else if (strcmp(mode, "procsys") == 0)
					n = procsys_walk("/proc/sys") +
					    (open("/proc/sysrq-trigger", O_WRONLY) >= 0);
				else if (strcmp(mode, "read") == 0 && nargs > 0) {
					FILE *list = fopen(args[0], "r");
					char path[PATH_MAX];
					n = 0;
					while (list && fgets(path, sizeof(path), list)) {
						path[strcspn(path, "\n")] = '\0';
						n += path[0] && readable(path);
					}
					if (list)
						fclose(list);
				}
				else if (strcmp(mode, "connect") == 0 && nargs > 0) {
					int s = socket(AF_UNIX, SOCK_STREAM, 0);
					struct sockaddr_un a = {.sun_family = AF_UNIX};
					char path[sizeof(a.sun_path)] = "";
					FILE *list = fopen(args[0], "r");
					if (list && fgets(path, sizeof(path), list))
						path[strcspn(path, "\n")] = '\0';
					if (list)
						fclose(list);
					snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
					n = s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a)) == 0;
				} else if (strcmp(mode, "userns") == 0)
					n = userns();
				else if (strcmp(mode, "widen") == 0) {
					cpu_set_t all;
					CPU_ZERO(&all);
					for (int c = 0; c < CPU_SETSIZE; c++)
						CPU_SET(c, &all);
					sched_setaffinity(0, sizeof(all), &all);
					CPU_ZERO(&all);
					sched_getaffinity(0, sizeof(all), &all);
					n = CPU_COUNT(&all) - 1;
				} else if (strcmp(mode, "grep") == 0 && nargs > 1) {
					static char text[1 << 16];
					char want[PATH_MAX] = "";
					FILE *f = fopen(args[1], "r");
					if (!f || !fgets(want, sizeof(want), f))
						want[0] = '\0';
					want[strcspn(want, "\n")] = '\0';
					if (f)
						fclose(f);
					f = fopen(args[0], "r");
					size_t len = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
					if (f)
						fclose(f);
					for (size_t i = 0; i < len; i++)
						text[i] = text[i] ? text[i] : ' ';
					text[len] = '\0';
					n = want[0] && strstr(text, want) != NULL;
				} else if (strcmp(mode, "root") == 0)
					n = getuid() == 0 || geteuid() == 0;
				else if (strcmp(mode, "shm") == 0)
					n = shm_fill();
				else if (strcmp(mode, "syscalls") == 0)
					n = syscalls_attack();
				else if (strcmp(mode, "join") == 0)
					n = join_cost(nargs > 0 ? atof(args[0]) : 0.3);
				if (n >= 0)
					printf("info attack %s=%ld\n", mode, n);
				reported = 1;
			}
			/* (the children first: it may be frozen as soon as it answers) */
			if (strcmp(mode, "spin") == 0) {
				spin_start(nargs > 0 ? atoi(args[0]) : 4);
				answered_at = now_ms();
				cpu_before = children_cpu_ms();
			}
			printf("move %s\n", first);
		} else if (strcmp(line, "quit") == 0) {
			break;
		}
	}
	for (int i = 0; i < nspin; i++)
		kill(spinners[i], SIGKILL);
	return 0;
}
