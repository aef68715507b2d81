/*
 * sandbox-filter: the jail's system call filter (see sandbox-filter.h).
 *
 * Where a call is refused and not merely made harmless, the errno is the
 * one the kernel itself gives for a call or family it lacks (ENOSYS,
 * EAFNOSUPPORT) or for a privilege the bot lacks (EPERM): those are the
 * answers runtimes are written to expect.
 *
 * Shared futexes. A futex operation without FUTEX_PRIVATE_FLAG is keyed
 * by what backs the page: anonymous memory by the process, but a page of
 * a file (a MAP_SHARED mapping, and also a MAP_PRIVATE one not yet
 * written to) by the file's inode and offset. Every jail maps the same
 * /usr files (libc itself), so a FUTEX_WAKE in one jail would wake a
 * FUTEX_WAIT in another. A filter cannot see which memory an address is,
 * so no shared wait ever sleeps in a jail: the supervisor
 * (sandbox-futex.c) answers each one, EAGAIN after a pause or ETIMEDOUT
 * at its deadline, and without the supervisor the filter answers EAGAIN
 * at once. futex(2) allows EAGAIN (the word changed, or a spurious
 * wakeup): every caller looks at its word again and waits again. Every
 * shared wake wakes nobody. Refusing the wakes alone would not do: when a
 * thread exits, the kernel itself does a shared FUTEX_WAKE on the address
 * the thread gave set_tid_address() or clone(CLONE_CHILD_CLEARTID), any
 * address, with no system call to filter (t2020 shows it waking another
 * process's waiter bare). So process-shared locks (POSIX semaphores,
 * pthread mutexes and condition variables with PTHREAD_PROCESS_SHARED,
 * python's multiprocessing locks, pthread_join and so std::thread::join)
 * still work, polling; with the filter alone they spin (on one CPU, a
 * thread joining a busy one halves its speed until it ends, measured) and
 * a timed wait never times out. The priority-inheritance lock calls stay:
 * the kernel writes the word they name, so it must be the bot's own
 * writable memory, which no other bot shares.
 *
 * Not chosen: a supervisor that looks up the address in /proc/PID/maps
 * and lets the call go on (SECCOMP_USER_NOTIF_FLAG_CONTINUE) when it is
 * the bot's own memory. Between the look and the call, another thread of
 * the bot can map a file over the address (MAP_FIXED), and the call goes
 * on with the file's key: seccomp(2) warns against exactly this.
 *
 * Not refused: sysinfo(2), though it tells the machine's shared memory
 * (the Shmem that the jail's /proc/meminfo hides), free memory, load and
 * process count, which other bots move: a slow channel (issue 50
 * measured about 2 bit/s through Shmem). glibc's sysconf(_SC_PHYS_PAGES)
 * (qsort, the JVM's heap sizing) calls it and uses the answer without
 * looking at the result, so a refusal would hand programs garbage.
 */
#include "sandbox-filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/netlink.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define ANY {JAILFILTER_ANY, 0, 0, 0, {0}, 0}
#define BITS(a, m, v) {JAILFILTER_BITS, a, m, v, {0}, 0}
#define EQ(a, v) BITS(a, 0xffffffffu, v)
#define NOT(a, v) {JAILFILTER_NOT, a, 0, v, {0}, 0}
#define OUTSIDE(a, n, ...) {JAILFILTER_OUTSIDE, a, 0, 0, {__VA_ARGS__}, n}
/* futex(2)'s op without FUTEX_PRIVATE_FLAG (the clock flag either way) */
#define SHARED_FUTEX(cmd) BITS(1, ~(guint32)FUTEX_CLOCK_REALTIME, cmd)

#define CHANNEL_LOCK "a lock on a file another bot sees would pass bits between them"
#define CHANNEL_FUTEX "a shared futex on a file page (libc's own) is shared with every other bot"
#define KERNEL "the machine's administration, never a bot's"
#define INNARDS "the kernel's innards: much attack surface, no use to a bot"

/* A row for fcntl or futex covers fcntl64 or futex_time64 (x86) too. */
static const JailFilterRule rules[] = {
	/* files seen by several bots: locks that lock nothing, no watches */
	{"flock", 0, {ANY}, CHANNEL_LOCK},
	{"fcntl", 0, {EQ(1, F_SETLK)}, CHANNEL_LOCK},
	{"fcntl", 0, {EQ(1, F_SETLKW)}, CHANNEL_LOCK},
	{"fcntl", 0, {EQ(1, F_OFD_SETLK)}, CHANNEL_LOCK},
	{"fcntl", 0, {EQ(1, F_OFD_SETLKW)}, CHANNEL_LOCK},
	{"fcntl", ENOLCK, {EQ(1, F_GETLK)}, "no lock to ask about"},
	{"fcntl", ENOLCK, {EQ(1, F_OFD_GETLK)}, "no lock to ask about"},
	{"fcntl", EPERM, {EQ(1, F_SETLEASE)}, "a lease breaks when another bot opens the file: a channel"},
	{"fcntl", EPERM, {EQ(1, F_NOTIFY)}, "dnotify: watching files other bots touch"},
	{"inotify_init", ENOSYS, {ANY}, "watching files other bots touch"},
	{"inotify_init1", ENOSYS, {ANY}, "watching files other bots touch"},
	{"fanotify_init", ENOSYS, {ANY}, "watching files other bots touch"},

	/* futexes keyed by a file (see the top of this file) */
	{"futex", JAILFILTER_POLL, {SHARED_FUTEX(FUTEX_WAIT)}, CHANNEL_FUTEX "; EAGAIN, the caller looks again"},
	{"futex", JAILFILTER_POLL, {SHARED_FUTEX(FUTEX_WAIT_BITSET)}, CHANNEL_FUTEX "; EAGAIN"},
	{"futex", 0, {SHARED_FUTEX(FUTEX_WAKE)}, CHANNEL_FUTEX "; wakes nobody (nobody sleeps)"},
	{"futex", 0, {SHARED_FUTEX(FUTEX_WAKE_BITSET)}, CHANNEL_FUTEX "; wakes nobody"},
	{"futex", 0, {SHARED_FUTEX(FUTEX_REQUEUE)}, CHANNEL_FUTEX "; moves nobody"},
	{"futex", 0, {SHARED_FUTEX(FUTEX_CMP_REQUEUE)}, CHANNEL_FUTEX "; moves nobody"},
	{"futex", ENOSYS, {SHARED_FUTEX(FUTEX_WAKE_OP)}, CHANNEL_FUTEX "; unused by libc since 2.25"},
	{"futex", ENOSYS, {SHARED_FUTEX(FUTEX_WAIT_REQUEUE_PI)}, CHANNEL_FUTEX "; unused by libc"},
	{"futex", ENOSYS, {SHARED_FUTEX(FUTEX_CMP_REQUEUE_PI)}, CHANNEL_FUTEX "; unused by libc"},
	{"futex_waitv", ENOSYS, {ANY}, "futex2: private or shared is out of a filter's sight; unused by libc"},
	{"futex_wait", ENOSYS, {ANY}, "futex2, unused by libc"},
	{"futex_wake", ENOSYS, {ANY}, "futex2, unused by libc"},
	{"futex_requeue", ENOSYS, {ANY}, "futex2, unused by libc"},

	/* sockets: the empty network namespace's own kinds only */
	{"socket", EAFNOSUPPORT, {OUTSIDE(0, 4, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK)},
	 "AF_VSOCK reaches the host; other families are attack surface"},
	{"socket", EPROTONOSUPPORT, {EQ(0, AF_NETLINK), NOT(2, NETLINK_ROUTE)},
	 "netlink but routing (getaddrinfo, if_nameindex) sees the host: uevents, audit"},
	{"socketpair", EAFNOSUPPORT, {OUTSIDE(0, 1, AF_UNIX)}, "only AF_UNIX pairs exist"},
	{"socketcall", ENOSYS, {ANY}, "x86's multiplexer hides its arguments; libc uses socket() and the rest"},

	/* kernel state shared across namespaces */
	{"keyctl", ENOSYS, {ANY}, "the keyrings outlive the jail (the session keyring is inherited)"},
	{"add_key", ENOSYS, {ANY}, "the keyrings outlive the jail"},
	{"request_key", ENOSYS, {ANY}, "the keyrings outlive the jail"},
	{"io_uring_setup", ENOSYS, {ANY}, "io_uring: its operations are out of a filter's sight"},
	{"io_uring_enter", ENOSYS, {ANY}, "io_uring"},
	{"io_uring_register", ENOSYS, {ANY}, "io_uring"},
	{"perf_event_open", ENOSYS, {ANY}, INNARDS " (and a side channel)"},
	{"bpf", ENOSYS, {ANY}, INNARDS},
	{"userfaultfd", ENOSYS, {ANY}, INNARDS " (it stretches kernel races)"},
	{"kcmp", EPERM, {ANY}, "compares kernel objects by address"},
	{"lookup_dcookie", EPERM, {ANY}, INNARDS},

	/* namespaces: none of any kind (they all need a user namespace) */
	{"unshare", EPERM, {BITS(0, CLONE_NEWUSER, CLONE_NEWUSER)}, "a new user namespace"},
	{"clone", EPERM, {BITS(0, CLONE_NEWUSER, CLONE_NEWUSER)}, "a new user namespace"},
	{"clone3", ENOSYS, {ANY}, "its flags are out of a filter's sight: libc falls back to clone"},
	{"setns", EPERM, {ANY}, "joining a namespace"},

	/* other processes, the terminal */
	{"ptrace", EPERM, {ANY}, "a bot traces nothing"},
	{"process_vm_readv", EPERM, {ANY}, "a bot reads no other process"},
	{"process_vm_writev", EPERM, {ANY}, "a bot writes no other process"},
	{"ioctl", EPERM, {EQ(1, TIOCSTI)}, "pushing input into a terminal"},

	/* the machine's administration (each needs a capability a bot has
	 * not: refused before the kernel looks) */
	{"mount", EPERM, {ANY}, KERNEL},
	{"umount2", EPERM, {ANY}, KERNEL},
	{"pivot_root", EPERM, {ANY}, KERNEL},
	{"chroot", EPERM, {ANY}, KERNEL},
	{"fsopen", EPERM, {ANY}, KERNEL},
	{"fsconfig", EPERM, {ANY}, KERNEL},
	{"fsmount", EPERM, {ANY}, KERNEL},
	{"fspick", EPERM, {ANY}, KERNEL},
	{"move_mount", EPERM, {ANY}, KERNEL},
	{"open_tree", EPERM, {ANY}, KERNEL},
	{"mount_setattr", EPERM, {ANY}, KERNEL},
	{"open_by_handle_at", EPERM, {ANY}, KERNEL " (opens files by handle, past the jail's root)"},
	{"name_to_handle_at", EPERM, {ANY}, KERNEL},
	{"swapon", EPERM, {ANY}, KERNEL},
	{"swapoff", EPERM, {ANY}, KERNEL},
	{"reboot", EPERM, {ANY}, KERNEL},
	{"kexec_load", EPERM, {ANY}, KERNEL},
	{"kexec_file_load", EPERM, {ANY}, KERNEL},
	{"init_module", EPERM, {ANY}, KERNEL},
	{"finit_module", EPERM, {ANY}, KERNEL},
	{"delete_module", EPERM, {ANY}, KERNEL},
	{"acct", EPERM, {ANY}, KERNEL},
	{"quotactl", EPERM, {ANY}, KERNEL},
	{"quotactl_fd", EPERM, {ANY}, KERNEL},
	{"syslog", EPERM, {ANY}, KERNEL " (the kernel's log)"},
	{"iopl", EPERM, {ANY}, KERNEL},
	{"ioperm", EPERM, {ANY}, KERNEL},
	{"settimeofday", EPERM, {ANY}, KERNEL},
	{"clock_settime", EPERM, {ANY}, KERNEL},
	{"vhangup", EPERM, {ANY}, KERNEL},
};

/* The 32-bit ABIs' other names of a call. */
static const char *alias(const char *call)
{
	if (strcmp(call, "fcntl") == 0)
		return "fcntl64";
	if (strcmp(call, "futex") == 0)
		return "futex_time64";
	return NULL;
}

const JailFilterRule *jailfilter_rules(gsize *n)
{
	*n = G_N_ELEMENTS(rules);
	return rules;
}

static struct scmp_arg_cmp cmp_of(const JailFilterCond *c)
{
	if (c->test == JAILFILTER_BITS)
		return (struct scmp_arg_cmp){c->arg, SCMP_CMP_MASKED_EQ, c->mask, c->value};
	g_assert(c->test == JAILFILTER_NOT);
	return (struct scmp_arg_cmp){c->arg, SCMP_CMP_NE, c->value, 0};
}

/* What a row does in the program being made (`kind`). */
enum { PROGRAM_SPIN, PROGRAM_POLL, PROGRAM_SUPERVISOR, PROGRAMS };

static gboolean wanted(const JailFilterRule *r, int kind, guint32 *action)
{
	if (r->err == JAILFILTER_POLL) {
		if (kind == PROGRAM_POLL)
			return FALSE;
		*action = kind == PROGRAM_SUPERVISOR ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EAGAIN);
		return TRUE;
	}
	*action = SCMP_ACT_ERRNO((guint32)r->err);
	return kind != PROGRAM_SUPERVISOR;
}

/* One row for one name: a rule, or for OUTSIDE one a value (EQ) for every
 * value below the set's last that it does not hold, and one for all above
 * (GE), which also takes any value with high bits set. */
static gboolean add_row(scmp_filter_ctx ctx, const char *call, const JailFilterRule *r, guint32 action)
{
	int nr = seccomp_syscall_resolve_name(call);

	/* (a call none of the architectures has needs no rule) */
	if (nr == __NR_SCMP_ERROR)
		return TRUE;
	const JailFilterCond *c0 = &r->cond[0], *c1 = &r->cond[1];
	g_assert(c1->test != JAILFILTER_OUTSIDE);
	struct scmp_arg_cmp cmp[2];
	unsigned n = 0;
	if (c0->test != JAILFILTER_OUTSIDE) {
		if (c0->test != JAILFILTER_ANY)
			cmp[n++] = cmp_of(c0);
		if (c1->test != JAILFILTER_ANY)
			cmp[n++] = cmp_of(c1);
		return seccomp_rule_add_array(ctx, action, nr, n, cmp) == 0;
	}
	if (c1->test != JAILFILTER_ANY)
		cmp[1] = cmp_of(c1), n = 1;
	guint32 v = 0;
	for (guint i = 0; i <= c0->nset; i++) {
		guint32 end = i < c0->nset ? c0->set[i] : v;
		for (; v < end; v++) {
			cmp[0] = (struct scmp_arg_cmp){c0->arg, SCMP_CMP_EQ, v, 0};
			if (seccomp_rule_add_array(ctx, action, nr, n + 1, cmp) != 0)
				return FALSE;
		}
		if (i < c0->nset) {
			g_assert(c0->set[i] >= v);
			v = c0->set[i] + 1;
		}
	}
	cmp[0] = (struct scmp_arg_cmp){c0->arg, SCMP_CMP_GE, v, 0};
	return seccomp_rule_add_array(ctx, action, nr, n + 1, cmp) == 0;
}

typedef struct {
	GOnce once;
	guint8 *code;
	gsize len;
	const char *why;
} Program;

static Program programs[PROGRAMS] = {{G_ONCE_INIT, 0, 0, 0}, {G_ONCE_INIT, 0, 0, 0}, {G_ONCE_INIT, 0, 0, 0}};

static gpointer compile(gpointer data)
{
	int kind = GPOINTER_TO_INT(data);
	Program *p = &programs[kind];
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		p->why = "seccomp_init failed";
		return NULL;
	}
	/* 32-bit calls on a 64-bit kernel get the same rules, not a way round */
	if (seccomp_arch_native() == SCMP_ARCH_X86_64) {
		seccomp_arch_add(ctx, SCMP_ARCH_X86);
		seccomp_arch_add(ctx, SCMP_ARCH_X32);
	}
	/* a binary tree of the calls, not a list: a call pays a few tests */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	gboolean ok = TRUE;
	for (gsize i = 0; i < G_N_ELEMENTS(rules); i++) {
		guint32 action;
		if (!wanted(&rules[i], kind, &action))
			continue;
		ok &= add_row(ctx, rules[i].call, &rules[i], action);
		if (alias(rules[i].call))
			ok &= add_row(ctx, alias(rules[i].call), &rules[i], action);
	}
	int fd = memfd_create("tetrarena-seccomp", MFD_CLOEXEC);
	struct stat st;
	if (!ok) {
		p->why = "a seccomp rule was refused";
	} else if (fd < 0 || seccomp_export_bpf(ctx, fd) != 0 || fstat(fd, &st) != 0) {
		p->why = "the seccomp filter could not be compiled";
	} else {
		p->len = (gsize)st.st_size;
		p->code = g_malloc(p->len);
		if (pread(fd, p->code, p->len, 0) != (ssize_t)p->len)
			p->why = "the seccomp filter could not be read back";
	}
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return NULL;
}

static const guint8 *program(int kind, gsize *len, const char **why)
{
	Program *p = &programs[kind];

	g_once(&p->once, compile, GINT_TO_POINTER(kind));
	*len = p->len;
	if (why)
		*why = p->why;
	return p->why ? NULL : p->code;
}

const guint8 *jailfilter_program(gboolean poll, gsize *len, const char **why)
{
	return program(poll ? PROGRAM_POLL : PROGRAM_SPIN, len, why);
}

const guint8 *jailfilter_poll_program(gsize *len, const char **why)
{
	return program(PROGRAM_SUPERVISOR, len, why);
}
