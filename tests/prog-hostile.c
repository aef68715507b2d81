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
 *   spin K        a spinner: after each answer, K children burn CPU until
 *                 the next `go`; at each `go` it reports
 *                 `info spin away=MS cpu=MS`, the wall time since its last
 *                 answer and the CPU its children used in it
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

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
