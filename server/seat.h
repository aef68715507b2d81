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
 * are those of any bot. Lines sent before the page connects wait for it
 * (up to SEAT_BACKLOG_MAX bytes). One page per seat: a page closed, a
 * binary message or one over SEAT_MESSAGE_MAX bytes closes the seat's
 * output, which the referee takes as a bot's end of output (`crash`).
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

/* Give the seat its page's connection (referenced). FALSE, doing nothing,
 * when it has one already or is over. */
gboolean seat_attach(WebSeat *seat, SoupWebsocketConnection *ws);

/* Whether a page has connected; whether the seat is over (its page gone
 * or the referee done with it). */
gboolean seat_attached(const WebSeat *seat);
gboolean seat_over(const WebSeat *seat);

/* When the last message came from the page (monotonic us), 0 before.
 * Any thread. */
gint64 seat_last_message(WebSeat *seat);

/* As if its page had gone: the referee reads the end of its output. */
void seat_close(WebSeat *seat);

/* Close everything; the game must be over (it freed its Bot). */
void seat_free(WebSeat *seat);

#endif
