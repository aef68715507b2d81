/*
 * gamejson: a game's result as the JSON object `play --json` prints. Kept
 * apart from json (the writer of JSON values), which knows no game.
 */
#ifndef TETRARENA_REFEREE_GAMEJSON_H
#define TETRARENA_REFEREE_GAMEJSON_H

#include "game.h"

/* The result as one JSON object (variant, seed, reason, seats with their
 * names, scores, ranks, faults, moves and times, log). Newly allocated. */
char *gamejson_result(const GameSpec *spec, const GameResult *result);

#endif
