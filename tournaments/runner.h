/*
 * runner: the TournamentRunner that plays games with the referee's
 * game_run() (referee/game.h), keeping `multi` bots alive between games on
 * each worker. `referee tournament` (cli/tournament.c) plays with it.
 */
#ifndef TETRARENA_TOURNAMENTS_RUNNER_H
#define TETRARENA_TOURNAMENTS_RUNNER_H

#include "tournaments/tournament.h"

extern const TournamentRunner tournament_referee_runner;

#endif
