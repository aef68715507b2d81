/*
 * games: the games a server runs or shows, by id.
 *
 * A game started from the start page (games_start(), a FormGame) runs in
 * a thread of its own (game_run() is synchronous) as soon as every
 * person's page has connected its seat (games_attach()), or after
 * GAMES_CONNECT_WAIT s without them (the missing seat then faults
 * `start`, as a bot that never said hello). Its log and the seats'
 * stderr files go to the server's directory as ID.log; it is watched
 * live through its LiveGame. A game played by someone else (a
 * tournament's, games_add()) is only shown. Ids are short words of
 * lowercase letters and digits: nothing from a request ever names a file.
 * Everything here runs on the main loop's thread.
 */
#ifndef TETRARENA_SERVER_GAMES_H
#define TETRARENA_SERVER_GAMES_H

#include <libsoup/soup.h>

#include "form.h"
#include "live.h"
#include "referee/botspec.h"
#include "referee/sandbox.h"

/* Finished games whose every step stays held for spectators; older ones
 * keep their last step only (their replay page has them all). */
#define GAMES_KEEP_STEPS 16

/* Seconds a new game waits for its people's pages. */
#define GAMES_CONNECT_WAIT 60

typedef struct ServeGames ServeGames;
typedef struct ServeGame ServeGame;

/* dir: where logs go (exists); opponents: BotSpec* by name, in the start
 * page's order (borrowed; outlives the registry); sandbox: for them. */
ServeGames *games_new(const char *dir, GPtrArray *opponents, SandboxMode sandbox);
void games_free(ServeGames *gs);

/* The opponent of this name, or NULL; whether there is one (for form_parse()). */
const BotSpec *games_opponent(ServeGames *gs, const char *name);
gboolean games_opponent_known(const char *name, void *gs);

/* Start a game; NULL with error when it cannot (pipes, a thread). */
ServeGame *games_start(ServeGames *gs, const FormGame *req, GError **error);

/* Show a game someone else plays: its id (a word of [a-z0-9]), title,
 * seat names, log path (read for its replay once it ended), live feed
 * (referenced). A game of that id already there is replaced. */
ServeGame *games_add(ServeGames *gs, const char *id, const char *title, char **names, int n,
		     const char *log_path, LiveGame *live);

ServeGame *games_find(ServeGames *gs, const char *id);
/* Call f on every game, newest first. */
void games_foreach(ServeGames *gs, void (*f)(ServeGame *g, void *data), void *data);
const char *game_id(const ServeGame *g);
/* Its title (seat names as given: escape it to show it). */
const char *game_title(const ServeGame *g);
LiveGame *game_live(const ServeGame *g);
/* The log's path; whether it can be read whole (the game is over). */
const char *game_log_path(const ServeGame *g);
gboolean game_over(const ServeGame *g);
/* The first seat played by a person, or -1; its secret (for its URL). */
int game_person(const ServeGame *g);
const char *game_token(const ServeGame *g, int seat);

/* Give seat `seat` its page, if `token` is its secret and no page has it.
 * FALSE otherwise (the caller closes the connection). */
gboolean games_attach(ServeGames *gs, ServeGame *g, int seat, const char *token, SoupWebsocketConnection *ws);

/* Every game as a JSON array, newest first: [{id, title, variant, seats:
 * [name...], people: [seat...], state: waiting|playing|over, steps,
 * result}]. */
char *games_json(ServeGames *gs);

/* A person's move relayed: time from the page's message to the
 * referee's log line of it (us): count, mean, max over all games. */
void games_relay_stats(ServeGames *gs, guint *n, double *mean_us, double *max_us);

#endif
