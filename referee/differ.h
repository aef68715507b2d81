/*
 * differ: why a game and its rerun (`referee rerun`) part, in words for
 * people, from what the two logs hold.
 *
 * Where the logs part (replay_first_difference(), referee/replay.h), it
 * names the first differing line of each, the seat, and what the logs
 * show: the same seat deciding otherwise (was it shown the same position?
 * with how much time, and how long it took, in each; its moves late or
 * early in the rerun against the game), or two seats' lines taking effect
 * in another order (when each arrived, in each log: table talk in a round
 * and moves in real time are applied in the order they come). Hints say
 * what a rerun cannot repeat: a bot that decides by the clock (a search
 * bounded by time, bin/bot-link's default), the order of lines a few
 * milliseconds apart.
 */
#ifndef TETRARENA_REFEREE_DIFFER_H
#define TETRARENA_REFEREE_DIFFER_H

#include <glib.h>

#include "gamelog.h"

/* Lines (each ending in a newline) saying where and, as far as the logs
 * tell, why `game` and `rerun` part: first "GAME:LINE 'EVENT' in the game,
 * RERUN:LINE 'EVENT' in the rerun" (the logs' paths), then indented
 * lines of reasons. NULL when they record the same game. The caller frees
 * the text. */
char *differ_explain(const GameLog *game, const GameLog *rerun);

#endif
