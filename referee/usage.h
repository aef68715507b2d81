/*
 * usage: what the subcommands' --help texts share: the variants with
 * their seats and options (defaults and ranges, read from the engine's
 * tables so that they never go stale) and the keys of a time control
 * with their ranges. Used by cli/ and by `referee check` (referee/check.c).
 */
#ifndef TETRARENA_REFEREE_USAGE_H
#define TETRARENA_REFEREE_USAGE_H

#include <glib.h>

/* Set ctx's --help description: `text` (the subcommand's own lines, with
 * the allowed range of each number it takes), then with `variants` every
 * variant with its seats and options, with `time` the time control's
 * keys. */
void usage_describe(GOptionContext *ctx, const char *text, gboolean variants, gboolean time);

#endif
