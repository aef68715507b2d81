/*
 * hook: the organizer's command told of each event of a running ladder
 * (`ladder run --on-event CMD`, ladder/events.h), so that mail or chat is
 * one script away.
 *
 * Each event starts `/bin/sh -c CMD` in its own process group, its
 * standard input a pipe holding the event as one JSON line
 * (ladder_event_json()) and then closed; its standard output is
 * discarded, its standard error is the run's. The ladder never waits for it: the line
 * is written without blocking (it is far below a pipe's capacity), at
 * most LADDER_HOOK_RUNNING hooks run at once (later events wait in a
 * queue of LADDER_HOOK_QUEUE; past it an event is dropped, said on
 * stderr), and ladder_hook_poll(), called by the run between games,
 * reaps those that ended and kills the group of one still running after
 * its deadline (LADDER_HOOK_DEADLINE_MS for the run).
 * A hook that cannot start, fails (a status other than 0) or is killed
 * is said on stderr with the event's id; it never stops the ladder, and
 * the event stays in the database and its author's feed.
 */
#ifndef TETRARENA_LADDER_HOOK_H
#define TETRARENA_LADDER_HOOK_H

#include <glib.h>

#include "ladder/events.h"

#define LADDER_HOOK_DEADLINE_MS 10000
#define LADDER_HOOK_RUNNING 4
#define LADDER_HOOK_QUEUE 256

typedef struct LadderHook LadderHook;

/* A hook running `command` (a shell command line), each killed after
 * `deadline_ms` (LADDER_HOOK_DEADLINE_MS for `ladder run`). */
LadderHook *ladder_hook_new(const char *command, int deadline_ms);

/* Hand it an event (copied): started now, or queued. */
void ladder_hook_send(LadderHook *h, const LadderEvent *e);

/* Reap the hooks that ended, kill those past their deadline, start queued
 * ones. Never waits. */
void ladder_hook_poll(LadderHook *h);

/* Wait for the hooks running and queued, each up to its deadline (killed
 * past it), then free. NULL is fine. */
void ladder_hook_free(LadderHook *h);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LadderHook, ladder_hook_free)

#endif
