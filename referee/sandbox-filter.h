/*
 * sandbox-filter: the jail's system call filter, as one table (what a
 * jailed bot may not do, the errno it gets instead, and why), compiled
 * once per process with libseccomp into the BPF program that bwrap
 * installs (--seccomp FD) before it runs the bot.
 *
 * Everything not in the table is allowed (a bot runs whatever language
 * it likes, and a runtime's next release may call something new); each
 * row fails one call, or one call with certain arguments, with an errno
 * that libraries handle (ENOSYS, EPERM, EAFNOSUPPORT, ...), never by
 * killing the bot, so that an interpreter that tries something refused
 * degrades to what it does on an older or stricter kernel. A few calls
 * "succeed" without doing anything (errno 0): locks on files other bots
 * see, and wakeups of futexes other bots could share.
 *
 * Calls of the 32-bit ABIs (x86, x32) on an x86-64 host get the same
 * rules, so `int 0x80` is no way round. Arguments the kernel reads as an
 * int are compared in their low 32 bits only, as the kernel does, so
 * that garbage in the high bits is no way round either.
 *
 * protocol.md ("Where your bot runs") shows the table to bot authors;
 * tests/test-sandbox-filter.c checks that every call named here is there.
 */
#ifndef TETRARENA_REFEREE_SANDBOX_FILTER_H
#define TETRARENA_REFEREE_SANDBOX_FILTER_H

#include <glib.h>

typedef enum {
	JAILFILTER_ANY,		/* no test: every call */
	JAILFILTER_BITS,	/* (arg & mask) == value, in the low 32 bits */
	JAILFILTER_NOT,		/* arg != value (all 64 bits) */
	JAILFILTER_OUTSIDE,	/* arg is none of set[0..nset) (all 64 bits;
				 * set ascending) */
} JailFilterTest;

#define JAILFILTER_SET_MAX 4

/* One test on one argument of a call. */
typedef struct {
	JailFilterTest test;
	guint8 arg;		/* 0..5 */
	guint32 mask, value;	/* BITS, NOT (value only) */
	guint32 set[JAILFILTER_SET_MAX];	/* OUTSIDE: the values let through */
	guint8 nset;
} JailFilterCond;

/* `err` of a row whose calls the supervisor answers (sandbox-futex.c):
 * they never run; the caller gets EAGAIN after a short while, or
 * ETIMEDOUT once its own timeout has passed. Without the supervisor
 * they fail with EAGAIN at once. */
#define JAILFILTER_POLL (-1)

/* One row: `call` (as libseccomp names it) fails with `err` when both
 * tests hold (a second test of JAILFILTER_ANY is none). At most one
 * OUTSIDE test a row, and only as the first. A call this machine's
 * architectures lack needs no rule and is skipped. */
typedef struct {
	const char *call;
	int err;		/* the errno; 0: returns 0 having done nothing;
				 * JAILFILTER_POLL */
	JailFilterCond cond[2];
	const char *why;	/* for people: one short line */
} JailFilterRule;

/* The table, `*n` rows. Static; never freed. */
const JailFilterRule *jailfilter_rules(gsize *n);

/*
 * The compiled program (BPF for bwrap's --seccomp), made the first time
 * this is called (thread-safe) and kept: OUT *len its size. `poll`: the
 * JAILFILTER_POLL rows are left out (allowed), for a jail that also gets
 * jailfilter_poll_program(); else they fail with EAGAIN. NULL, with *why
 * a static sentence, when libseccomp refused a rule or could not compile
 * the table; the same answer every call.
 */
const guint8 *jailfilter_program(gboolean poll, gsize *len, const char **why);

/*
 * The supervisor's program: the JAILFILTER_POLL rows as
 * SECCOMP_RET_USER_NOTIF, everything else allowed. Installed with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER; the same contract as above.
 */
const guint8 *jailfilter_poll_program(gsize *len, const char **why);

#endif
