/*
 * accounts (server): the authors' pages of `referee serve --ladder DIR`,
 * the HTTP over ladder/accounts.h:
 *
 *   GET  /signup   POST /signup   name, password, invite (when invite-only), csrf
 *   GET  /login    POST /login    name, password, csrf
 *   GET  /logout   POST /logout   csrf
 *   GET  /upload   POST /upload   name, archive (a file: .tar.gz, .tgz,
 *                                 .tar or .zip), csrf -- multipart/form-data;
 *                                 or the archive as the raw body with
 *                                 ?name=NAME&csrf=TOKEN
 *   GET  /me                      the author's uploads (their vetting, the
 *                                 reason of a refusal), entries, games and
 *                                 events
 *   POST /me/retire               name, csrf
 *   POST /me/test                 bot, opponent, csrf: an unrated test game
 *                                 of the author's entry against another,
 *                                 played now by the server (its result on
 *                                 /me; ladder_test_ask()'s limits)
 *   GET  /me/test/ID/log          its log; /me/test/ID/stderr: the stderr
 *                                 of the author's entry (seat 0)
 *   GET  /me/stderr/GAME-SEAT     what the author's bot wrote on stderr in
 *                                 that game (text)
 *   GET  /me/upload/ID            the archive of the author's upload ID
 *   GET  /me/feed.atom            the author's events (ladder/events.h) as Atom
 *
 * docs/ladder.md documents the fields for scripts. A page a visitor may
 * not see is a 404 (someone else's stderr or upload) or, logged out, a
 * redirect to /login.
 *
 * Sessions: the cookie `tetrarena_session` (HttpOnly, SameSite=Lax, Path=/,
 * and Secure when `secure`: the server sits behind an HTTPS proxy) holds
 * the token ladder_session_new() made at login: a new token at each login,
 * whatever cookie came with it (no fixation), and none that a logout
 * ended. A logged-out visitor gets the cookie `tetrarena_form` (random)
 * for the login and signup forms.
 *
 * CSRF: every POST carries the field `csrf`, a keyed BLAKE2b of the
 * session's token (or of the form cookie), the key drawn at start; a POST
 * without it or with another, or whose Origin header is not this host's,
 * is refused with 403 before anything else is read.
 *
 * Logins are throttled per account (ladder/accounts.h) and per client
 * address, here in memory, with the same rule: 429 with Retry-After; an
 * address makes at most SERVE_ACCOUNTS_SIGNUPS accounts an hour (each costs a
 * password hash).
 *
 * The costly work runs on worker threads, its request paused meanwhile,
 * so the server goes on answering others: a password's Argon2id hash or
 * check (one at a time per client address: 429 for a second), an
 * upload's unpacking (ladder/archive.h) and queueing into DIR/inbox/, a
 * test game. Only the main thread touches the database.
 */
#ifndef TETRARENA_SERVER_ACCOUNTS_H
#define TETRARENA_SERVER_ACCOUNTS_H

#include <glib.h>
#include <libsoup/soup.h>

#define SERVE_ACCOUNTS_FORM_MAX 8192	/* bytes of a form's body */
#define SERVE_ACCOUNTS_SIGNUPS 5	/* accounts one address makes an hour */
#define SERVE_ACCOUNTS_TESTS_AT_ONCE 2	/* test games the server plays at once */

typedef struct ServeAccounts ServeAccounts;

/* The accounts of the ladder in `dir` (ladder_accounts_open()); `secure`:
 * cookies are Secure and the Origin expected is https. NULL with error. */
ServeAccounts *serve_accounts_new(const char *dir, gboolean secure, GError **error);

/* Free it once the main loop has stopped for good: a worker still busy
 * touches only its own copies, and its completion (on the main loop)
 * never runs. */
void serve_accounts_free(ServeAccounts *a);

/* Answer the request when its path is one of the pages above: TRUE (the
 * response set), else FALSE (not ours). */
gboolean serve_accounts_handle(ServeAccounts *a, SoupServerMessage *msg, const char *path);

/* The longest body taken for `path`: an upload's (the ladder's bot size
 * cap and a margin) on /upload, else `other`. `a` may be NULL. */
goffset serve_accounts_body_max(ServeAccounts *a, const char *path, goffset other);

#endif
