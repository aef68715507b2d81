/*
 * seat: a person's seat, a bot that speaks protocol.md over a WebSocket.
 *
 * The seat is a Bot with no process (bot_new_relay()) whose input and
 * output are pipes; the main loop relays their other ends to and from the
 * page's WebSocket: each line the referee sends the seat is one text
 * message (without its newline), and each text message the page sends is
 * one line to the referee (a newline added; a message holding newlines is
 * those lines, as a bot writing them would send). The referee reads them
 * with its ordinary line reader, so the game, its clocks, faults and log
 * are those of any bot.
 *
 * The seat survives its page: it keeps its transcript, every line the
 * referee sent it since the game's start (up to SEAT_BACKLOG_MAX bytes),
 * and a page that connects after one that already said hello gets
 * `web resume N STATE MS` and then the N lines of the transcript (STATE:
 * `pending` when a `go` awaits its move, MS the time left for it, else
 * `answered`), then the latest `web clocks` line: the whole state again.
 * A second page on the seat takes it over: the first gets `web taken
 * WORDS` and is closed (4001). A page that goes away mid-game leaves the
 * seat waiting for SEAT's grace (seat_set_grace()); only when no page
 * came back within it is the seat's output closed, which the referee
 * takes as a bot's end of output (`crash`). A binary message or one over
 * SEAT_MESSAGE_MAX bytes closes the output at once. `web` lines are the
 * server's own (docs/serve.md), never the referee's: a bot never sees one.
 */
#ifndef TETRARENA_SERVER_SEAT_H
#define TETRARENA_SERVER_SEAT_H

#include <libsoup/soup.h>

#include "referee/bot.h"

/* The longest message a page may send: a protocol line, newline included. */
#define SEAT_MESSAGE_MAX BOT_LINE_MAX
/* Bytes held for a page that has not connected yet. */
#define SEAT_BACKLOG_MAX (8 * 1024 * 1024)

typedef struct WebSeat WebSeat;

/* seat_new: the relay and its Bot (*bot, for GameSpec.seats[].bot: the
 * game owns and frees it). NULL with error when pipes cannot be made. */
WebSeat *seat_new(const BotSpec *spec, Bot **bot, GError **error);

/* The least grace of a timed seat whose page went away (ms): a reload's time. */
#define SEAT_GRACE_MIN_MS 10000

/* The grace of a seat whose page went away: with `timed`, its clock's
 * time left (the bank, less the running move's time; at least
 * SEAT_GRACE_MIN_MS); else `untimed_ms`. The default: untimed, 120 s. */
void seat_set_grace(WebSeat *seat, gboolean timed, gint64 untimed_ms);

/* Give the seat its page's connection (referenced): the first, one coming
 * back, or one taking the seat over from another. FALSE, doing nothing,
 * when the seat is over (its page never came back, or a page broke the
 * rules). */
gboolean seat_attach(WebSeat *seat, SoupWebsocketConnection *ws);

/* A server line for the page (`web ...`, no newline); the last `web
 * clocks` line is kept for a page that comes back. Main loop only. */
void seat_send_web(WebSeat *seat, const char *line);

/* Whether a page ever connected; whether the seat is over (its page
 * gone for good or the referee done with it). */
gboolean seat_attached(const WebSeat *seat);
gboolean seat_over(const WebSeat *seat);

/* When the last message came from the page (monotonic us), 0 before.
 * Any thread. */
gint64 seat_last_message(WebSeat *seat);

/* As if its page had gone for good: the referee reads the end of its output. */
void seat_close(WebSeat *seat);

/* Close everything; the game must be over (it freed its Bot). */
void seat_free(WebSeat *seat);

#endif
