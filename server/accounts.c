/*
 * accounts (server): the authors' pages. See accounts.h.
 *
 * Each handler checks in this order: the method, who is logged in, then
 * for a POST the Origin and the csrf field (nothing else of the body is
 * acted on before), then the fields. Every text shown is escaped (esc()).
 */
#include "server/accounts.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "ladder/accounts.h"
#include "ladder/archive.h"
#include "ladder/db.h"
#include "ladder/events.h"
#include "ladder/inbox.h"
#include "ladder/intake.h"
#include "ladder/ladder.h"
#include "ladder/manifest.h"
#include "referee/game.h"
#include "referee/html.h"

#define SESSION_COOKIE "tetrarena_session"
#define FORM_COOKIE "tetrarena_form"
#define UPLOADS_DIR "uploads"
#define TESTS_DIR "tests"
#define STDERR_SHOWN (1 << 20)	/* bytes of a stderr file served */
#define ADDRESSES_MAX 10000	/* client addresses throttled at once */
#define PAGE_UPLOADS 50		/* uploads listed on /me */
#define PAGE_GAMES 40		/* seats listed on /me */
#define STATUS_TOO_MANY_REQUESTS 429	/* RFC 6585; libsoup has no name for it */

typedef struct {
	gint64 failures;	/* (for signups: the accounts made) */
	gint64 next_try;	/* unix seconds */
	gint64 last;		/* the last failure */
	gboolean busy;		/* a password of it is being checked */
} Throttle;

struct ServeAccounts {
	char *dir;
	LadderDb *d;
	gboolean secure;
	guchar key[crypto_generichash_KEYBYTES];	/* for csrf fields */
	GHashTable *addresses;	/* client address -> Throttle */
	goffset upload_max;	/* bytes of an upload's body */
	guint tests;		/* test games being played */
};

ServeAccounts *serve_accounts_new(const char *dir, gboolean secure, GError **error)
{
	LadderDb *d = ladder_accounts_open(dir, error);
	LadderSettings s = {0};

	if (!d)
		return NULL;
	if (!ladder_settings_load(d, &s, error)) {
		ladder_db_free(d);
		return NULL;
	}
	ServeAccounts *a = g_new0(ServeAccounts, 1);
	a->dir = g_strdup(dir);
	a->d = d;
	a->secure = secure;
	randombytes_buf(a->key, sizeof(a->key));
	a->addresses = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	a->upload_max = (goffset)MIN(s.caps.size, (guint64)1 << 30) + 64 * 1024;
	ladder_settings_clear(&s);
	ladder_tests_abandon(d, NULL);	/* a server stopped during them */
	return a;
}

void serve_accounts_free(ServeAccounts *a)
{
	if (!a)
		return;
	ladder_db_free(a->d);
	g_hash_table_unref(a->addresses);
	sodium_memzero(a->key, sizeof(a->key));
	g_free(a->dir);
	g_free(a);
}

goffset serve_accounts_body_max(ServeAccounts *a, const char *path, goffset other)
{
	return a && strcmp(path, "/upload") == 0 ? a->upload_max : other;
}

static gint64 now_s(void)
{
	return g_get_real_time() / G_USEC_PER_SEC;
}

/* ---- responses ------------------------------------------------------------- */

static void esc(GString *s, const char *text)
{
	g_autofree char *valid = g_utf8_make_valid(text ? text : "", -1);
	g_autofree char *e = g_markup_escape_text(valid, -1);

	g_string_append(s, e);
}

static void no_store(SoupServerMessage *msg)
{
	SoupMessageHeaders *h = soup_server_message_get_response_headers(msg);

	soup_message_headers_replace(h, "Cache-Control", "no-store");
	soup_message_headers_replace(h, "X-Frame-Options", "DENY");
	soup_message_headers_replace(h, "X-Content-Type-Options", "nosniff");
	soup_message_headers_replace(h, "Referrer-Policy", "same-origin");
}

static void text(SoupServerMessage *msg, guint status, const char *body)
{
	no_store(msg);
	soup_server_message_set_status(msg, status, NULL);
	soup_server_message_set_response(msg, "text/plain; charset=utf-8", SOUP_MEMORY_COPY, body, strlen(body));
}

static void redirect(SoupServerMessage *msg, const char *to)
{
	soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Location", to);
	text(msg, SOUP_STATUS_SEE_OTHER, to);
}

/* A page: the links for `who` (or for a visitor), then `body`. */
static void page(SoupServerMessage *msg, guint status, const LadderAuthor *who, const char *title, GString *body)
{
	g_autoptr(GString) s = g_string_new("<p id=\"nav\" class=\"muted\"><a href=\"/ladder/\">leaderboard</a>");

	if (who) {
		g_string_append(s, " &middot; <a href=\"/me\">");
		esc(s, who->name);
		g_string_append(s, "</a> &middot; <a href=\"/upload\">upload a bot</a> &middot; "
				   "<a href=\"/logout\">log out</a></p>\n");
	} else {
		g_string_append(s, " &middot; <a href=\"/login\">log in</a> &middot; <a href=\"/signup\">sign up</a></p>\n");
	}
	g_string_append(s, "<h1>");
	esc(s, title);
	g_string_append(s, "</h1>\n");
	g_string_append_len(s, body->str, (gssize)body->len);
	g_autofree char *html = html_static_page(title, s->str);
	no_store(msg);
	soup_server_message_set_status(msg, status, NULL);
	gsize len = strlen(html);
	soup_server_message_set_response(msg, "text/html; charset=utf-8", SOUP_MEMORY_TAKE, g_steal_pointer(&html), len);
}

/* ---- cookies, sessions, csrf ------------------------------------------------ */

/* The value of the request's cookie `name` (newly allocated), or NULL. */
static char *cookie(SoupServerMessage *msg, const char *name)
{
	const char *header = soup_message_headers_get_list(soup_server_message_get_request_headers(msg), "Cookie");

	if (!header || strlen(header) > 8192)
		return NULL;
	g_autoptr(GHashTable) all = soup_header_parse_semi_param_list(header);
	const char *v = g_hash_table_lookup(all, name);
	return v ? g_strndup(v, 256) : NULL;
}

static void set_cookie(ServeAccounts *a, SoupServerMessage *msg, const char *name, const char *value, gint64 max_age)
{
	g_autofree char *c = g_strdup_printf("%s=%s; Path=/; HttpOnly; SameSite=Lax; Max-Age=%" G_GINT64_FORMAT "%s", name,
					     value, max_age, a->secure ? "; Secure" : "");

	soup_message_headers_append(soup_server_message_get_response_headers(msg), "Set-Cookie", c);
}

/* The csrf field that goes with the secret `secret` (a session token or
 * the form cookie): a keyed BLAKE2b, hex. Newly allocated. */
static char *csrf_of(ServeAccounts *a, const char *secret)
{
	guchar h[32];
	char *hex = g_malloc(2 * sizeof(h) + 1);

	crypto_generichash(h, sizeof(h), (const guchar *)secret, strlen(secret), a->key, sizeof(a->key));
	sodium_bin2hex(hex, 2 * sizeof(h) + 1, h, sizeof(h));
	return hex;
}

/* Who is logged in (NULL: nobody), and OUT: *token, their cookie. */
static LadderAuthor *current(ServeAccounts *a, SoupServerMessage *msg, char **token)
{
	g_autofree char *t = cookie(msg, SESSION_COOKIE);
	LadderAuthor *who = t ? ladder_session_author(a->d, t, now_s()) : NULL;

	if (who && token)
		*token = g_steal_pointer(&t);
	return who;
}

/* The form cookie of a visitor, made (and set) when it has none. */
static char *form_secret(ServeAccounts *a, SoupServerMessage *msg)
{
	char *v = cookie(msg, FORM_COOKIE);
	guchar raw[16];

	if (v && strlen(v) == 32)
		return v;
	g_free(v);
	v = g_malloc(33);
	randombytes_buf(raw, sizeof(raw));
	sodium_bin2hex(v, 33, raw, sizeof(raw));
	set_cookie(a, msg, FORM_COOKIE, v, 24 * 3600);
	return v;
}

static void csrf_field(GString *s, const char *csrf)
{
	g_string_append_printf(s, "<input type=\"hidden\" name=\"csrf\" value=\"%s\">\n", csrf);
}

/* Whether a POST came from this server's own pages: an Origin, when
 * given, is this host's; `given` (the csrf field) is the one of `secret`. */
static gboolean post_allowed(ServeAccounts *a, SoupServerMessage *msg, const char *secret, const char *given)
{
	SoupMessageHeaders *h = soup_server_message_get_request_headers(msg);
	const char *origin = soup_message_headers_get_one(h, "Origin");
	const char *host = soup_message_headers_get_one(h, "Host");

	if (origin) {
		g_autofree char *ours = host ? g_strconcat(a->secure ? "https://" : "http://", host, NULL) : NULL;
		if (!ours || strcmp(origin, ours) != 0)
			return FALSE;
	}
	if (!secret || !given)
		return FALSE;
	g_autofree char *want = csrf_of(a, secret);
	return strlen(given) == strlen(want) && sodium_memcmp(given, want, strlen(want)) == 0;
}

static void forbidden(SoupServerMessage *msg)
{
	text(msg, SOUP_STATUS_FORBIDDEN, "refused: a form is posted from this server's own page, with its csrf field "
	     "(docs/ladder.md); reload the page and try again");
}

/* The fields of a urlencoded form body (NULL when too long). */
static GHashTable *form_fields(SoupServerMessage *msg)
{
	SoupMessageBody *b = soup_server_message_get_request_body(msg);

	if (b->length > SERVE_ACCOUNTS_FORM_MAX)
		return NULL;
	g_autofree char *body = g_strndup(b->data ? b->data : "", b->length);
	return soup_form_decode(body);
}

static const char *field(GHashTable *f, const char *name)
{
	const char *v = f ? g_hash_table_lookup(f, name) : NULL;

	return v ? v : "";
}

/* ---- signup, login, logout ------------------------------------------------- */

static void signup_form(ServeAccounts *a, SoupServerMessage *msg, guint status, const char *problem, const char *name)
{
	g_autofree char *secret = form_secret(a, msg);
	g_autofree char *csrf = csrf_of(a, secret);
	g_autoptr(GString) s = g_string_new(NULL);
	gboolean open = ladder_signup_open(a->d);

	if (problem) {
		g_string_append(s, "<p class=\"problem\" id=\"problem\">");
		esc(s, problem);
		g_string_append(s, "</p>\n");
	}
	g_string_append(s, "<form method=\"post\" action=\"/signup\" id=\"signup\">\n");
	csrf_field(s, csrf);
	g_string_append(s, "<p><label>Name <input name=\"name\" required maxlength=\"32\" pattern=\"[A-Za-z0-9_\\-]+\" "
			   "value=\"");
	esc(s, name ? name : "");
	g_string_append_printf(s, "\"></label> <span class=\"muted\">1 to 32 letters, digits, _ or -</span></p>\n"
			       "<p><label>Password <input name=\"password\" type=\"password\" required minlength=\"%d\" "
			       "maxlength=\"%d\"></label></p>\n", LADDER_PASSWORD_MIN, LADDER_PASSWORD_MAX);
	if (!open)
		g_string_append(s, "<p><label>Invite code <input name=\"invite\" required></label> "
				   "<span class=\"muted\">this ladder takes authors by invitation</span></p>\n");
	g_string_append(s, "<p><button type=\"submit\">Sign up</button></p>\n</form>\n"
			   "<p class=\"muted\">Already have an account? <a href=\"/login\">Log in</a>.</p>\n");
	page(msg, status, NULL, "Sign up", s);
}

/* Log `author` in: a new session, its cookie, then /me. */
static void log_in(ServeAccounts *a, SoupServerMessage *msg, gint64 author)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *token = ladder_session_new(a->d, author, now_s(), &err);

	if (!token) {
		text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
		return;
	}
	set_cookie(a, msg, SESSION_COOKIE, token, LADDER_SESSION_TTL);
	redirect(msg, "/me");
}

static char *client_address(ServeAccounts *a, SoupServerMessage *msg);
static Throttle *address_throttle(ServeAccounts *a, const char *addr, gint64 now);
static void too_many(SoupServerMessage *msg, gint64 wait);

/* A password being hashed (signup) or checked (login) on a worker thread,
 * the request paused meanwhile: the costly Argon2id never stops the
 * server. One at a time per client address (its throttle's key). */
typedef struct {
	ServeAccounts *a;
	SoupServerMessage *msg;
	char *key;		/* the address's throttle */
	char *name, *password, *invite;
	char *hash;		/* login: the stored one (or NULL); signup: OUT */
	gint64 author;		/* login: the account, or 0 */
	gboolean good;		/* login: OUT, it matched */
	gboolean signup;
} Check;

static void check_free(Check *c)
{
	Throttle *t = g_hash_table_lookup(c->a->addresses, c->key);

	if (t)
		t->busy = FALSE;
	g_object_unref(c->msg);
	g_free(c->key);
	g_free(c->name);
	if (c->password)
		sodium_memzero(c->password, strlen(c->password));
	g_free(c->password);
	g_free(c->invite);
	g_free(c->hash);
	g_free(c);
}

static void check_work(GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
	Check *c = data;

	(void)source, (void)cancel;
	if (c->signup)
		c->hash = ladder_password_hash(c->password);
	else
		c->good = ladder_password_verify(c->hash, c->password) && c->author;
	g_task_return_boolean(task, TRUE);
}

static void login_form(ServeAccounts *a, SoupServerMessage *msg, guint status, const char *problem, const char *name);

static void check_done(GObject *source, GAsyncResult *res, gpointer data)
{
	Check *c = data;
	ServeAccounts *a = c->a;
	Throttle *t = g_hash_table_lookup(a->addresses, c->key);
	g_autoptr(GError) err = NULL;
	gint64 now = now_s();

	(void)source, (void)res;
	if (c->signup) {
		gint64 id = c->hash ? ladder_author_insert(a->d, c->name, c->hash, c->invite, FALSE, &err) : 0;
		if (id) {
			if (t) {
				t->failures++;
				t->last = now;
			}
			log_in(a, c->msg, id);
		} else if (!c->hash) {
			text(c->msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "hashing a password: out of memory");
		} else {
			signup_form(a, c->msg, err->domain == LADDER_ACCOUNTS_ERROR ? SOUP_STATUS_BAD_REQUEST
						  : SOUP_STATUS_SERVICE_UNAVAILABLE, err->message, c->name);
		}
	} else {
		switch (ladder_login_end(a->d, c->author, c->good, now, &err)) {
		case LADDER_LOGIN_OK:
			log_in(a, c->msg, c->author);
			break;
		case LADDER_LOGIN_ERROR:
			text(c->msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
			break;
		default:
			if (t) {
				t->failures++;
				t->last = now;
				gint64 wait = ladder_login_wait(t->failures);
				t->next_try = wait ? now + wait : 0;
			}
			login_form(a, c->msg, SOUP_STATUS_FORBIDDEN, "wrong name or password", c->name);
			break;
		}
	}
	soup_server_message_unpause(c->msg);
	check_free(c);
}

/* Hand c to a worker, the message paused; t is busy till it is done. */
static void check_start(Check *c, Throttle *t)
{
	g_autoptr(GTask) task = g_task_new(NULL, NULL, check_done, c);

	t->busy = TRUE;
	soup_server_message_pause(c->msg);
	g_task_set_task_data(task, c, NULL);
	g_task_run_in_thread(task, check_work);
}

static Check *check_new(ServeAccounts *a, SoupServerMessage *msg, const char *key, GHashTable *f)
{
	Check *c = g_new0(Check, 1);

	c->a = a;
	c->msg = g_object_ref(msg);
	c->key = g_strdup(key);
	c->name = g_strdup(field(f, "name"));
	c->password = g_strdup(field(f, "password"));
	c->invite = g_strdup(field(f, "invite"));
	return c;
}

static void signup_post(ServeAccounts *a, SoupServerMessage *msg)
{
	g_autoptr(GHashTable) f = form_fields(msg);
	g_autofree char *secret = cookie(msg, FORM_COOKIE);
	g_autofree char *addr = client_address(a, msg);
	g_autofree char *key = g_strconcat("signup ", addr, NULL);
	g_autoptr(GError) err = NULL;
	gint64 now = now_s();

	if (!post_allowed(a, msg, secret, f ? g_hash_table_lookup(f, "csrf") : NULL)) {
		forbidden(msg);
		return;
	}
	/* each account costs a password hash: a few an hour from one address */
	Throttle *t = address_throttle(a, key, now);
	if (!t || t->busy || t->failures >= SERVE_ACCOUNTS_SIGNUPS) {
		too_many(msg, !t ? LADDER_LOGIN_MAX_WAIT : t->busy ? 1 : t->last + LADDER_LOGIN_MAX_WAIT - now);
		return;
	}
	if (!ladder_author_check(a->d, field(f, "name"), field(f, "password"), field(f, "invite"), FALSE, &err)) {
		gboolean ours = err->domain == LADDER_ACCOUNTS_ERROR;
		signup_form(a, msg, ours ? SOUP_STATUS_BAD_REQUEST : SOUP_STATUS_SERVICE_UNAVAILABLE, err->message,
			    field(f, "name"));
		return;
	}
	Check *c = check_new(a, msg, key, f);
	c->signup = TRUE;
	check_start(c, t);
}

static void login_form(ServeAccounts *a, SoupServerMessage *msg, guint status, const char *problem, const char *name)
{
	g_autofree char *secret = form_secret(a, msg);
	g_autofree char *csrf = csrf_of(a, secret);
	g_autoptr(GString) s = g_string_new(NULL);

	if (problem) {
		g_string_append(s, "<p class=\"problem\" id=\"problem\">");
		esc(s, problem);
		g_string_append(s, "</p>\n");
	}
	g_string_append(s, "<form method=\"post\" action=\"/login\" id=\"login\">\n");
	csrf_field(s, csrf);
	g_string_append(s, "<p><label>Name <input name=\"name\" required maxlength=\"32\" value=\"");
	esc(s, name ? name : "");
	g_string_append(s, "\"></label></p>\n<p><label>Password <input name=\"password\" type=\"password\" "
			   "required></label></p>\n<p><button type=\"submit\">Log in</button></p>\n</form>\n"
			   "<p class=\"muted\">No account? <a href=\"/signup\">Sign up</a>.</p>\n");
	page(msg, status, NULL, "Log in", s);
}

/* The client's address: the peer's, or behind the proxy (secure) the
 * last entry of X-Forwarded-For, which the proxy appends. */
static char *client_address(ServeAccounts *a, SoupServerMessage *msg)
{
	const char *xff = soup_message_headers_get_one(soup_server_message_get_request_headers(msg), "X-Forwarded-For");
	const char *peer = soup_server_message_get_remote_host(msg);

	if (a->secure && xff) {
		const char *last = strrchr(xff, ',');
		g_autofree char *v = g_strndup(last ? last + 1 : xff, 64);
		return g_strstrip(g_steal_pointer(&v));
	}
	return g_strdup(peer ? peer : "?");
}

/* The address's throttle, made when new (NULL when the table is full of
 * addresses still waiting: every login then waits). */
static Throttle *address_throttle(ServeAccounts *a, const char *addr, gint64 now)
{
	Throttle *t = g_hash_table_lookup(a->addresses, addr);

	if (t && t->last + LADDER_LOGIN_MAX_WAIT < now)
		t->failures = t->next_try = 0;	/* forgotten after an hour */
	if (t)
		return t;
	if (g_hash_table_size(a->addresses) >= ADDRESSES_MAX) {
		GHashTableIter it;
		gpointer k, v;
		g_hash_table_iter_init(&it, a->addresses);
		while (g_hash_table_iter_next(&it, &k, &v))
			if (((Throttle *)v)->last + LADDER_LOGIN_MAX_WAIT < now && !((Throttle *)v)->busy)
				g_hash_table_iter_remove(&it);
		if (g_hash_table_size(a->addresses) >= ADDRESSES_MAX)
			return NULL;
	}
	t = g_new0(Throttle, 1);
	g_hash_table_insert(a->addresses, g_strdup(addr), t);
	return t;
}

static void too_many(SoupServerMessage *msg, gint64 wait)
{
	g_autofree char *after = g_strdup_printf("%" G_GINT64_FORMAT, MAX(wait, 1));
	g_autofree char *why = g_strdup_printf("too many attempts from here: try again in %s s", after);

	soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Retry-After", after);
	text(msg, STATUS_TOO_MANY_REQUESTS, why);
}

static void login_post(ServeAccounts *a, SoupServerMessage *msg)
{
	g_autoptr(GHashTable) f = form_fields(msg);
	g_autofree char *secret = cookie(msg, FORM_COOKIE);
	g_autofree char *addr = client_address(a, msg);
	g_autoptr(GError) err = NULL;
	g_autofree char *hash = NULL;
	gint64 now = now_s(), author = 0, wait = 0;

	if (!post_allowed(a, msg, secret, f ? g_hash_table_lookup(f, "csrf") : NULL)) {
		forbidden(msg);
		return;
	}
	Throttle *t = address_throttle(a, addr, now);
	if (!t || t->busy || now < t->next_try) {
		too_many(msg, !t ? LADDER_LOGIN_MAX_WAIT : t->busy ? 1 : t->next_try - now);
		return;
	}
	switch (ladder_login_begin(a->d, field(f, "name"), now, &author, &hash, &wait, &err)) {
	case LADDER_LOGIN_THROTTLED:
		too_many(msg, wait);
		return;
	case LADDER_LOGIN_ERROR:
		text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
		return;
	default:
		break;
	}
	Check *c = check_new(a, msg, addr, f);
	c->author = author;
	c->hash = g_steal_pointer(&hash);
	check_start(c, t);
}

static void logout(ServeAccounts *a, SoupServerMessage *msg, gboolean post)
{
	g_autofree char *token = NULL;
	g_autoptr(LadderAuthor) who = current(a, msg, &token);

	if (!who) {
		redirect(msg, "/login");
		return;
	}
	g_autofree char *csrf = csrf_of(a, token);
	if (!post) {
		g_autoptr(GString) s = g_string_new("<form method=\"post\" action=\"/logout\" id=\"logout\">\n");
		csrf_field(s, csrf);
		g_string_append(s, "<p><button type=\"submit\">Log out</button></p>\n</form>\n");
		page(msg, SOUP_STATUS_OK, who, "Log out", s);
		return;
	}
	g_autoptr(GHashTable) f = form_fields(msg);
	g_autoptr(GError) err = NULL;
	if (!post_allowed(a, msg, token, f ? g_hash_table_lookup(f, "csrf") : NULL)) {
		forbidden(msg);
		return;
	}
	if (!ladder_session_end(a->d, token, now_s(), &err)) {
		text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
		return;
	}
	set_cookie(a, msg, SESSION_COOKIE, "", 0);
	redirect(msg, "/login");
}

/* ---- upload ---------------------------------------------------------------- */

static void upload_form(ServeAccounts *a, SoupServerMessage *msg, const LadderAuthor *who, const char *token,
			guint status, const char *problem, const char *name)
{
	g_autofree char *csrf = csrf_of(a, token);
	g_autoptr(GString) s = g_string_new(NULL);

	if (problem) {
		g_string_append(s, "<p class=\"problem\" id=\"problem\">Refused: ");
		esc(s, problem);
		g_string_append(s, "</p>\n");
	}
	g_string_append(s, "<p>A bot is one archive (.tar.gz, .tgz, .tar or .zip) holding its <code>manifest.ini</code> "
			   "(<code>[bot]</code>, <code>command = ...</code>, run in its directory). It goes through "
			   "vetting: <code>referee check</code>, then a validation game against copies of itself, "
			   "jailed; your page shows how it goes. An upload under a name you hold is its next "
			   "version.</p>\n<form method=\"post\" action=\"/upload\" enctype=\"multipart/form-data\" "
			   "id=\"upload\">\n");
	csrf_field(s, csrf);
	g_string_append(s, "<p><label>Name <input name=\"name\" required maxlength=\"32\" pattern=\"[A-Za-z0-9_\\-]+\" "
			   "value=\"");
	esc(s, name ? name : "");
	g_string_append(s, "\"></label></p>\n<p><label>Archive <input name=\"archive\" type=\"file\" required "
			   "accept=\".tar.gz,.tgz,.tar,.zip\"></label></p>\n"
			   "<p><button type=\"submit\">Upload</button></p>\n</form>\n");
	page(msg, status, who, "Upload a bot", s);
}

static char *keep_archive(const char *ladder_dir, GBytes *data);

/* An upload being unpacked on a worker thread (unpacking up to the
 * ladder's size cap must not stop the server): the thread touches only
 * files (the archive, DIR/bots/, DIR/inbox/), never the database, which
 * the main thread writes when it is done. */
typedef struct {
	ServeAccounts *a;	/* the main thread's */
	char *dir;		/* the ladder's, the worker's copy */
	SoupServerMessage *msg;	/* paused meanwhile */
	LadderAuthor who;
	char *token;
	char *name;
	char *what;		/* the archive's file name, for messages */
	GBytes *data;
	LadderBotCaps caps;
	char *file;		/* OUT: the inbox request */
	char *kept;		/* OUT: the archive's copy in DIR/uploads/, or NULL */
	GError *error;		/* OUT: why not */
} Upload;

static void upload_free(Upload *u)
{
	g_free(u->dir);
	g_object_unref(u->msg);
	g_free(u->who.name);
	g_free(u->token);
	g_free(u->name);
	g_free(u->what);
	g_bytes_unref(u->data);
	g_free(u->file);
	if (u->kept)
		unlink(u->kept);	/* (renamed away when recorded) */
	g_free(u->kept);
	g_clear_error(&u->error);
	g_free(u);
}

/* The worker: unpack into DIR/bots/NAME-N, then queue the request (its
 * author the account's name); nothing left behind on failure. */
static void upload_work(GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
	Upload *u = data;
	gsize size = 0;
	const void *bytes = g_bytes_get_data(u->data, &size);
	g_autoptr(LadderManifest) m = NULL;
	g_autofree char *workdir = ladder_archive_bot(u->dir, u->name, bytes, size, u->what, &u->caps, &m, &u->error);

	(void)source, (void)cancel;
	u->kept = keep_archive(u->dir, u->data);
	if (workdir) {
		LadderRequest r = {LADDER_REQUEST_ADD, u->name, m->command, workdir, u->who.name, m->description};
		u->file = ladder_inbox_queue(u->dir, &r, &u->error);
		if (!u->file)
			ladder_bot_dir_remove(u->dir, workdir);
	}
	g_task_return_boolean(task, TRUE);
}

/* Back on the main thread: record the upload, answer. */
static void upload_done(GObject *source, GAsyncResult *res, gpointer data)
{
	Upload *u = data;
	ServeAccounts *a = u->a;
	SoupServerMessage *msg = u->msg;
	gboolean refused = !u->file && u->error && (u->error->domain == LADDER_ERROR || u->error->domain == LADDER_BOTDIR_ERROR);
	g_autoptr(GError) rerr = NULL;

	(void)source, (void)res;
	if (!u->file && !refused) {
		text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, u->error ? u->error->message : "the upload failed");
	} else {
		gint64 id = ladder_upload_record(a->d, u->who.id, u->name, (gint64)g_bytes_get_size(u->data), u->file,
						 refused ? u->error->message : NULL, &rerr);
		if (!id) {
			text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, rerr->message);
		} else {
			g_autofree char *kept = g_strdup_printf("%s/" UPLOADS_DIR "/%" G_GINT64_FORMAT, a->dir, id);
			if (u->kept && rename(u->kept, kept) == 0)
				g_clear_pointer(&u->kept, g_free);
			g_autofree char *to = g_strdup_printf("/me#upload-%" G_GINT64_FORMAT, id);
			if (refused)
				upload_form(a, msg, &u->who, u->token, SOUP_STATUS_UNPROCESSABLE_ENTITY, u->error->message,
					    u->name);
			else
				redirect(msg, to);
		}
	}
	soup_server_message_unpause(msg);
	upload_free(u);
}

/* Keep the upload's archive (the author may fetch it): written on the
 * worker under a temporary name in DIR/uploads/, which the main thread
 * renames to the upload's id. Its path (newly allocated), or NULL. */
static char *keep_archive(const char *ladder_dir, GBytes *data)
{
	g_autofree char *dir = g_build_filename(ladder_dir, UPLOADS_DIR, NULL);
	g_autofree char *file = g_build_filename(dir, ".new-XXXXXX", NULL);
	gsize size = 0;
	const char *bytes = g_bytes_get_data(data, &size);

	if (g_mkdir_with_parents(dir, 0700) != 0)
		return NULL;
	int fd = g_mkstemp_full(file, O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	gsize done = 0;
	while (done < size) {
		ssize_t w = write(fd, bytes + done, size - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (gsize)w;
	}
	close(fd);
	if (done < size) {
		unlink(file);
		return NULL;
	}
	return g_steal_pointer(&file);
}

static void upload_post(ServeAccounts *a, SoupServerMessage *msg, const LadderAuthor *who, const char *token)
{
	SoupMessageHeaders *h = soup_server_message_get_request_headers(msg);
	const char *type = soup_message_headers_get_content_type(h, NULL);
	g_autoptr(GHashTable) f = NULL;
	g_autoptr(GBytes) data = NULL;
	g_autofree char *filename = NULL;
	g_autoptr(GError) err = NULL;

	if (type && g_ascii_strcasecmp(type, "multipart/form-data") == 0) {
		g_autoptr(GBytes) body = soup_message_body_flatten(soup_server_message_get_request_body(msg));
		SoupMultipart *mp = soup_multipart_new_from_message(h, body);
		if (mp)	/* (it takes mp) */
			f = soup_form_decode_multipart(mp, "archive", &filename, NULL, &data);
	} else {
		const char *q = g_uri_get_query(soup_server_message_get_uri(msg));
		f = q ? soup_form_decode(q) : NULL;
		data = soup_message_body_flatten(soup_server_message_get_request_body(msg));
	}
	if (!post_allowed(a, msg, token, f ? g_hash_table_lookup(f, "csrf") : NULL)) {
		forbidden(msg);
		return;
	}
	const char *name = field(f, "name");
	if (!ladder_name_valid(name)) {
		upload_form(a, msg, who, token, SOUP_STATUS_BAD_REQUEST, "a name is 1 to 32 letters, digits, '_' or '-'",
			    name);
		return;
	}
	if (!data || g_bytes_get_size(data) == 0) {
		upload_form(a, msg, who, token, SOUP_STATUS_BAD_REQUEST, "no archive came (the field archive)", name);
		return;
	}
	LadderSettings s = {0};
	if (!ladder_settings_load(a->d, &s, &err)) {
		text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
		return;
	}
	LadderBotCaps caps = s.caps;
	ladder_settings_clear(&s);
	if (!ladder_owner_claim(a->d, name, who->id, &err)) {
		upload_form(a, msg, who, token, SOUP_STATUS_FORBIDDEN, err->message, name);
		return;
	}
	g_autofree char *base = filename ? g_path_get_basename(filename) : g_strdup("upload");
	Upload *u = g_new0(Upload, 1);
	u->a = a;
	u->dir = g_strdup(a->dir);
	u->msg = g_object_ref(msg);
	u->who.id = who->id;
	u->who.name = g_strdup(who->name);
	u->who.admin = who->admin;
	u->token = g_strdup(token);
	u->name = g_strdup(name);
	u->what = g_utf8_make_valid(base, (gssize)MIN(strlen(base), 100));
	u->data = g_steal_pointer(&data);
	u->caps = caps;
	soup_server_message_pause(msg);
	g_autoptr(GTask) task = g_task_new(NULL, NULL, upload_done, u);
	g_task_set_task_data(task, u, NULL);
	g_task_run_in_thread(task, upload_work);
}

/* ---- test games -------------------------------------------------------------- */

/* A test game, played on a worker thread as the ladder's games are
 * (ladder_game_spec(), each entry confined to its directory, the ladder's
 * directory hidden), but not in the ladder: its log goes to
 * DIR/tests/ID.log and its result only to the tests table. */
typedef struct {
	ServeAccounts *a;	/* the main thread's */
	char *dir;		/* the ladder's, the worker's copy */
	gint64 id;
	LadderSettings s;
	int n;			/* seats: the author's entry in the even ones */
	guint64 seed;
	GPtrArray *specs;	/* BotSpec*: the author's, the opponent's */
	char *labels[2];
	char *log;
	GameResult res;
	gboolean played;
	GError *error;
} TestGame;

static void test_game_free(TestGame *t)
{
	g_free(t->dir);
	ladder_settings_clear(&t->s);
	g_ptr_array_unref(t->specs);
	g_free(t->labels[0]);
	g_free(t->labels[1]);
	g_free(t->log);
	g_clear_error(&t->error);
	g_free(t);
}

static void test_work(GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
	TestGame *t = data;
	GameSpec spec;

	(void)source, (void)cancel;
	if (ladder_game_spec(&t->s, t->n, t->seed, &spec, &t->error)) {
		for (int p = 0; p < t->n; p++)
			spec.seats[p].spec = g_ptr_array_index(t->specs, p % 2);
		spec.log_path = t->log;
		spec.hide_dir = t->dir;
		t->played = game_run(&spec, &t->res, &t->error);
	}
	g_task_return_boolean(task, TRUE);
}

static void test_done(GObject *source, GAsyncResult *res, gpointer data)
{
	TestGame *t = data;
	g_autoptr(GString) r = g_string_new(NULL);

	(void)source, (void)res;
	t->a->tests--;
	if (!t->played) {
		g_string_append_printf(r, "not played: %s", t->error ? t->error->message : "(no reason)");
	} else {
		for (int p = 0; p < t->res.nseats; p++) {
			const GameSeatResult *e = &t->res.seat[p];
			g_string_append_printf(r, "%s%s (seat %d): rank %d, score %d", p ? "; " : "", t->labels[p % 2], p,
					       e->rank, e->score);
			if (e->first_fault >= 0)
				g_string_append_printf(r, ", fault %s", game_fault_name(e->first_fault));
		}
	}
	ladder_test_done(t->a->d, t->id, r->str, NULL);
	test_game_free(t);
}

/* POST /me/test: bot, opponent. */
static void test_ask(ServeAccounts *a, SoupServerMessage *msg, const LadderAuthor *who, GHashTable *f)
{
	g_autoptr(GError) err = NULL;
	gint64 mine = 0, theirs = 0;
	const char *bot = field(f, "bot"), *opponent = field(f, "opponent");

	if (a->tests >= SERVE_ACCOUNTS_TESTS_AT_ONCE) {
		too_many(msg, 30);
		return;
	}
	if (!ladder_name_valid(bot) || !ladder_name_valid(opponent)) {
		text(msg, SOUP_STATUS_BAD_REQUEST, "bot and opponent are entries' names");
		return;
	}
	TestGame *t = g_new0(TestGame, 1);
	t->a = a;
	t->dir = g_strdup(a->dir);
	t->specs = g_ptr_array_new_with_free_func((GDestroyNotify)bot_spec_free);
	g_autoptr(GPtrArray) bots = ladder_settings_load(a->d, &t->s, &err) ? ladder_bots_load(a->d, &err) : NULL;
	t->id = bots ? ladder_test_ask(a->d, who->id, bot, opponent, &mine, &theirs, &err) : 0;
	for (int i = 0; t->id && i < 2; i++) {
		const LadderBot *b = ladder_bots_find(bots, i ? theirs : mine);
		BotSpec *bs = b ? ladder_bot_spec(b, a->dir, &err) : NULL;
		if (!bs)
			break;
		g_ptr_array_add(t->specs, bs);
		t->labels[i] = ladder_bot_label(b);
	}
	g_autofree char *dir = g_build_filename(a->dir, TESTS_DIR, NULL);
	if (t->id && t->specs->len == 2 && g_mkdir_with_parents(dir, 0700) != 0)
		g_set_error(&err, LADDER_DB_ERROR, LADDER_DB_ERROR_SQL, "%s: %s", dir, g_strerror(errno));
	if (!t->id || t->specs->len != 2 || err) {
		gboolean theirs_fault = err && (err->domain == LADDER_ERROR || err->domain == LADDER_ACCOUNTS_ERROR);
		if (t->id)
			ladder_test_done(a->d, t->id, err ? err->message : "not played", NULL);
		text(msg, theirs_fault ? (err->domain == LADDER_ERROR ? SOUP_STATUS_NOT_FOUND : STATUS_TOO_MANY_REQUESTS)
				       : SOUP_STATUS_SERVICE_UNAVAILABLE, err ? err->message : "the test game cannot start");
		test_game_free(t);
		return;
	}
	t->n = MAX(2, t->s.min_players);
	t->seed = ((guint64)g_random_int() << 21) ^ g_random_int();
	t->log = g_strdup_printf("%s/%" G_GINT64_FORMAT ".log", dir, t->id);
	a->tests++;
	g_autoptr(GTask) task = g_task_new(NULL, NULL, test_done, t);
	g_task_set_task_data(task, t, NULL);
	g_task_run_in_thread(task, test_work);
	redirect(msg, "/me#tests");
}

static void tests_section(ServeAccounts *a, GString *s, const char *csrf, const LadderAuthor *who)
{
	g_autoptr(GPtrArray) tests = ladder_tests_of(a->d, who->id, 20, NULL);
	g_autoptr(GPtrArray) bots = ladder_bots_load(a->d, NULL);

	g_string_append_printf(s, "<h2>Test games</h2>\n<p class=\"muted\">Unrated: your entry against any other, "
			       "played now, apart from the ladder (at most %d a day, one at a time).</p>\n",
			       LADDER_TESTS_PER_DAY);
	g_autoptr(GString) mine = g_string_new(NULL), all = g_string_new(NULL);
	for (guint i = 0; bots && i < bots->len; i++) {
		LadderBot *b = g_ptr_array_index(bots, i);
		if (b->status != LADDER_BOT_ACTIVE)
			continue;
		GString *to = ladder_owner_is(a->d, b->name, who->id) ? mine : all;
		g_string_append(to, "<option>");
		esc(to, b->name);
		g_string_append(to, "</option>");
	}
	if (mine->len && all->len) {
		g_string_append(s, "<form method=\"post\" action=\"/me/test\" id=\"test\">");
		csrf_field(s, csrf);
		g_string_append_printf(s, "<label>Your entry <select name=\"bot\">%s</select></label> "
				       "<label>against <select name=\"opponent\">%s</select></label> "
				       "<button type=\"submit\">Play a test game</button></form>\n", mine->str, all->str);
	}
	if (!tests || tests->len == 0)
		return;
	g_string_append(s, "<table id=\"tests\">\n<tr><th>#</th><th>asked</th><th>entry</th><th>opponent</th>"
			   "<th>result</th><th></th></tr>\n");
	for (guint i = 0; i < tests->len; i++) {
		LadderTest *t = g_ptr_array_index(tests, i);
		g_string_append_printf(s, "<tr class=\"%s\"><td>%" G_GINT64_FORMAT "</td><td>", t->result ? "done" : "playing",
				       t->id);
		esc(s, t->asked);
		g_string_append(s, "</td><td class=\"l\">");
		esc(s, t->bot);
		g_string_append(s, "</td><td class=\"l\">");
		esc(s, t->opponent);
		g_string_append(s, "</td><td class=\"l\">");
		esc(s, t->result ? t->result : "playing...");
		g_string_append(s, "</td><td>");
		if (t->result && !g_str_has_prefix(t->result, "not played"))
			g_string_append_printf(s, "<a href=\"/me/test/%" G_GINT64_FORMAT "/log\">log</a> "
					       "<a class=\"stderr\" href=\"/me/test/%" G_GINT64_FORMAT "/stderr\">stderr</a>",
					       t->id, t->id);
		g_string_append(s, "</td></tr>\n");
	}
	g_string_append(s, "</table>\n");
}

/* ---- the author's page ----------------------------------------------------- */

static void uploads_section(ServeAccounts *a, GString *s, const LadderAuthor *who)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) ups = ladder_uploads_of(a->d, who->id, PAGE_UPLOADS, &err);
	g_autofree char *writer = ladder_db_writer(a->dir);
	gboolean running = writer && g_str_has_suffix(writer, " ladder run");

	g_string_append(s, "<h2>Uploads</h2>\n");
	if (!ups) {
		g_string_append(s, "<p class=\"problem\">");
		esc(s, err->message);
		g_string_append(s, "</p>\n");
		return;
	}
	if (ups->len == 0) {
		g_string_append(s, "<p class=\"muted\" id=\"uploads\">none yet: <a href=\"/upload\">upload a bot</a></p>\n");
		return;
	}
	g_string_append(s, "<table id=\"uploads\">\n<tr><th>#</th><th>name</th><th>uploaded</th><th>bytes</th>"
			   "<th>vetting</th></tr>\n");
	for (guint i = 0; i < ups->len; i++) {
		LadderUpload *u = g_ptr_array_index(ups, i);
		static const char *const state[] = {"refused", "queued", "admitted", "rejected"};
		g_string_append_printf(s, "<tr id=\"upload-%" G_GINT64_FORMAT "\" class=\"%s\"><td><a href=\"/me/upload/%"
				       G_GINT64_FORMAT "\">%" G_GINT64_FORMAT "</a></td><td class=\"l\">", u->id, state[u->state],
				       u->id, u->id);
		esc(s, u->name);
		g_string_append(s, "</td><td>");
		esc(s, u->uploaded);
		g_string_append_printf(s, "</td><td>%" G_GINT64_FORMAT "</td><td class=\"l\">", u->size);
		switch (u->state) {
		case LADDER_UPLOAD_REFUSED:
			g_string_append(s, "<strong>refused</strong> before vetting:<pre>");
			esc(s, u->note);
			g_string_append(s, "</pre>");
			break;
		case LADDER_UPLOAD_QUEUED:
			g_string_append(s, "<strong>queued</strong>: vetting (<code>referee check</code>, then a "
					   "validation game against copies of itself) when the ladder's run takes it");
			if (!running)
				g_string_append(s, " <span class=\"muted\">(no run is going now: the organizer's next "
						   "<code>ladder run</code> takes it first)</span>");
			break;
		case LADDER_UPLOAD_ADMITTED:
			g_string_append_printf(s, "<strong>admitted</strong>: passed <code>referee check</code> and its "
					       "validation game; <a href=\"/ladder/bot-%" G_GINT64_FORMAT ".html\">version %d"
					       "</a>", u->bot, u->version);
			break;
		case LADDER_UPLOAD_REJECTED:
			g_string_append(s, "<strong>rejected</strong> by vetting:<pre>");
			esc(s, u->note ? u->note : "(no reason recorded)");
			g_string_append(s, "</pre>");
			break;
		}
		g_string_append(s, "</td></tr>\n");
	}
	g_string_append(s, "</table>\n");
}

/* The names a queued retire waits for (a set of strings). */
static GHashTable *retires_queued(ServeAccounts *a)
{
	GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GPtrArray) files = ladder_inbox_list(a->dir);

	for (guint i = 0; i < files->len; i++) {
		g_autofree char *path = g_build_filename(a->dir, LADDER_INBOX_DIR, g_ptr_array_index(files, i), NULL);
		g_autoptr(LadderRequest) r = ladder_request_read(path, NULL);
		if (r && r->kind == LADDER_REQUEST_RETIRE)
			g_hash_table_add(names, g_strdup(r->name));
	}
	return names;
}

static void bots_section(ServeAccounts *a, GString *s, const char *csrf, const LadderAuthor *who)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) bots = ladder_author_bots(a->d, who->id, &err);
	g_autoptr(GHashTable) retiring = retires_queued(a);

	g_string_append(s, "<h2>Your bots</h2>\n");
	if (!bots || bots->len == 0) {
		g_string_append(s, "<p class=\"muted\" id=\"bots\">none admitted yet</p>\n");
		return;
	}
	g_string_append(s, "<table id=\"bots\">\n<tr><th>entry</th><th>version</th><th>state</th><th>added</th>"
			   "<th>description</th><th></th></tr>\n");
	for (guint i = 0; i < bots->len; i++) {
		LadderBot *b = g_ptr_array_index(bots, i);
		g_autofree char *label = ladder_bot_label(b);
		g_string_append_printf(s, "<tr><td class=\"l\"><a href=\"/ladder/bot-%" G_GINT64_FORMAT ".html\">", b->id);
		esc(s, label);
		g_string_append_printf(s, "</a></td><td>%d</td><td class=\"l\">%s", b->version,
				       ladder_bot_status_name(b->status));
		if (b->status == LADDER_BOT_SUSPENDED && b->suspended_why) {
			g_string_append(s, ": ");	/* its last fault; a new version lifts it */
			esc(s, b->suspended_why);
		}
		gboolean queued = b->status != LADDER_BOT_REPLACED && b->status != LADDER_BOT_RETIRED &&
				  g_hash_table_contains(retiring, b->name);
		if (queued)
			g_string_append(s, " <span class=\"retiring\">(retire queued: the run takes it before its next "
					   "game)</span>");
		g_string_append(s, "</td><td>");
		esc(s, b->added);
		g_string_append(s, "</td><td class=\"l\">");
		esc(s, b->description);
		g_string_append(s, "</td><td>");
		if (!queued && (b->status == LADDER_BOT_ACTIVE || b->status == LADDER_BOT_SUSPENDED)) {
			g_string_append(s, "<form method=\"post\" action=\"/me/retire\" class=\"retire\">");
			csrf_field(s, csrf);
			g_string_append(s, "<input type=\"hidden\" name=\"name\" value=\"");
			esc(s, b->name);
			g_string_append(s, "\"><button type=\"submit\">Retire</button></form>");
		}
		g_string_append(s, "</td></tr>\n");
	}
	g_string_append(s, "</table>\n");
}

static void games_section(ServeAccounts *a, GString *s, const LadderAuthor *who)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) games = ladder_author_games(a->d, who->id, PAGE_GAMES, &err);

	g_string_append(s, "<h2>Your bots' games</h2>\n");
	if (!games || games->len == 0) {
		g_string_append(s, "<p class=\"muted\" id=\"games\">none yet</p>\n");
		return;
	}
	g_string_append(s, "<p class=\"muted\">Only you see your bots' stderr.</p>\n<table id=\"games\">\n<tr><th>game</th>"
			   "<th>seat</th><th>entry</th><th>rank</th><th>score</th><th>faults</th><th>stderr</th></tr>\n");
	for (guint i = 0; i < games->len; i++) {
		LadderAuthorGame *g = g_ptr_array_index(games, i);
		g_string_append_printf(s, "<tr><td>");
		if (g->log)
			g_string_append_printf(s, "<a href=\"/ladder/games/%06" G_GINT64_FORMAT ".html\">%" G_GINT64_FORMAT
					       "</a>", g->game, g->game);
		else
			g_string_append_printf(s, "%" G_GINT64_FORMAT " (playing)", g->game);
		g_string_append_printf(s, "</td><td>%d</td><td class=\"l\">", g->seat);
		esc(s, g->label);
		if (g->log)
			g_string_append_printf(s, "</td><td>%d</td><td>%" G_GINT64_FORMAT "</td><td>", g->rank, g->score);
		else
			g_string_append(s, "</td><td></td><td></td><td>");
		esc(s, g->faults ? g->faults : "");
		g_string_append(s, "</td><td>");
		g_autofree char *path = g->log ? g_strdup_printf("%s/%s.seat%d.stderr", a->dir, g->log, g->seat) : NULL;
		if (path && g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_string_append_printf(s, "<a class=\"stderr\" href=\"/me/stderr/%" G_GINT64_FORMAT "-%d\">stderr"
					       "</a>", g->game, g->seat);
		g_string_append(s, "</td></tr>\n");
	}
	g_string_append(s, "</table>\n");
}

/* The author's events (ladder/events.h: their uploads' entries are
 * entered under the account's name), and the link to their feed. */
static void events_section(ServeAccounts *a, GString *s, const LadderAuthor *who)
{
	g_autoptr(GPtrArray) events = ladder_events_list(a->d, 0, who->name, 20, TRUE, NULL);

	g_string_append(s, "<h2>Events</h2>\n<p class=\"muted\">Also as an Atom feed: <a href=\"/me/feed.atom\">"
			   "feed.atom</a> (while logged in; the organizer's <code>ladder feed</code> writes it as a file).</p>\n");
	if (!events || events->len == 0) {
		g_string_append(s, "<p class=\"muted\" id=\"events\">none yet</p>\n");
		return;
	}
	g_string_append(s, "<ul id=\"events\">\n");
	for (guint i = 0; i < events->len; i++) {
		LadderEvent *e = g_ptr_array_index(events, i);
		g_string_append(s, "<li class=\"");
		esc(s, e->kind);
		g_string_append(s, "\">");
		esc(s, e->at);
		g_string_append(s, " <strong>");
		esc(s, e->kind);
		g_string_append(s, "</strong> ");
		esc(s, e->text);
		g_string_append(s, "</li>\n");
	}
	g_string_append(s, "</ul>\n");
}

static void me_page(ServeAccounts *a, SoupServerMessage *msg, const LadderAuthor *who, const char *token,
		    const char *invite)
{
	g_autofree char *csrf = csrf_of(a, token);
	g_autoptr(GString) s = g_string_new(NULL);
	g_autofree char *title = g_strdup_printf("%s%s", who->name, who->admin ? " (organizer)" : "");

	if (invite) {
		g_string_append(s, "<p id=\"invite\">A new invite code, for one author: <code>");
		esc(s, invite);
		g_string_append(s, "</code></p>\n");
	}
	uploads_section(a, s, who);
	bots_section(a, s, csrf, who);
	games_section(a, s, who);
	tests_section(a, s, csrf, who);
	events_section(a, s, who);
	if (who->admin) {
		g_string_append(s, "<h2>Organizer</h2>\n<form method=\"post\" action=\"/me/invite\" id=\"new-invite\">");
		csrf_field(s, csrf);
		g_string_append(s, "<button type=\"submit\">New invite code</button></form>\n");
	}
	page(msg, SOUP_STATUS_OK, who, title, s);
}

static void me_post(ServeAccounts *a, SoupServerMessage *msg, const LadderAuthor *who, const char *token,
		    const char *what)
{
	g_autoptr(GHashTable) f = form_fields(msg);
	g_autoptr(GError) err = NULL;

	if (!post_allowed(a, msg, token, f ? g_hash_table_lookup(f, "csrf") : NULL)) {
		forbidden(msg);
		return;
	}
	if (strcmp(what, "test") == 0) {
		test_ask(a, msg, who, f);
		return;
	}
	if (strcmp(what, "invite") == 0) {
		if (!who->admin) {
			text(msg, SOUP_STATUS_FORBIDDEN, "only the organizer makes invites");
			return;
		}
		g_autofree char *code = ladder_invite_new(a->d, &err);
		if (!code)
			text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
		else
			me_page(a, msg, who, token, code);
		return;
	}
	const char *name = field(f, "name");
	if (!ladder_name_valid(name) || !ladder_owner_is(a->d, name, who->id)) {
		text(msg, SOUP_STATUS_NOT_FOUND, "you hold no entry of that name");
		return;
	}
	LadderRequest r = {LADDER_REQUEST_RETIRE, (char *)name, NULL, NULL, NULL, NULL};
	g_autofree char *file = ladder_inbox_queue(a->dir, &r, &err);
	if (!file) {
		text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
		return;
	}
	redirect(msg, "/me");
}

/* Digits only, into *out. */
static gboolean digits(const char *s, gsize len, gint64 *out)
{
	guint64 v = 0;

	if (len == 0 || len > 18)
		return FALSE;
	g_autofree char *d = g_strndup(s, len);
	for (const char *c = d; *c; c++)
		if (!g_ascii_isdigit(*c))
			return FALSE;
	if (!g_ascii_string_to_unsigned(d, 10, 0, G_MAXINT64, &v, NULL))
		return FALSE;
	*out = (gint64)v;
	return TRUE;
}

/* Serve at most `cap` bytes of the file `path` (opened without following
 * a link) as `type`, or 404. */
static void file_reply(SoupServerMessage *msg, const char *path, gsize cap, const char *type, const char *attach)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		text(msg, SOUP_STATUS_NOT_FOUND, "no such file");
		return;
	}
	gsize n = MIN((gsize)st.st_size, cap), got = 0;
	char *buf = g_malloc(n + 1);
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r <= 0 && errno != EINTR)
			break;
		got += r > 0 ? (gsize)r : 0;
	}
	close(fd);
	no_store(msg);
	if (attach) {
		g_autofree char *cd = g_strdup_printf("attachment; filename=\"%s\"", attach);
		soup_message_headers_replace(soup_server_message_get_response_headers(msg), "Content-Disposition", cd);
	}
	soup_server_message_set_status(msg, SOUP_STATUS_OK, NULL);
	soup_server_message_set_response(msg, type, SOUP_MEMORY_TAKE, buf, got);
}

static void me_file(ServeAccounts *a, SoupServerMessage *msg, const LadderAuthor *who, const char *what)
{
	gint64 game = 0, id = 0, seat = -1;
	g_autofree char *log = NULL;

	if (strcmp(what, "feed.atom") == 0) {
		g_autoptr(GError) err = NULL;
		g_autofree char *atom = ladder_events_atom(a->d, who->name, NULL, &err);
		if (!atom) {
			text(msg, SOUP_STATUS_SERVICE_UNAVAILABLE, err->message);
			return;
		}
		no_store(msg);
		gsize len = strlen(atom);
		soup_server_message_set_status(msg, SOUP_STATUS_OK, NULL);
		soup_server_message_set_response(msg, "application/atom+xml; charset=utf-8", SOUP_MEMORY_TAKE,
						 g_steal_pointer(&atom), len);
		return;
	}
	if (g_str_has_prefix(what, "stderr/")) {
		const char *w = what + 7, *dash = strchr(w, '-');
		if (dash && digits(w, dash - w, &game) && digits(dash + 1, strlen(dash + 1), &seat) && seat < 64 &&
		    ladder_seat_owned(a->d, game, (int)seat, who->id, &log) && !strstr(log, "..")) {
			g_autofree char *path = g_strdup_printf("%s/%s.seat%d.stderr", a->dir, log, (int)seat);
			file_reply(msg, path, STDERR_SHOWN, "text/plain; charset=utf-8", NULL);
			return;
		}
	} else if (g_str_has_prefix(what, "test/") && strchr(what + 5, '/') &&
		   digits(what + 5, strchr(what + 5, '/') - (what + 5), &id) && ladder_test_owned(a->d, id, who->id)) {
		const char *part = strchr(what + 5, '/') + 1;
		g_autofree char *path = g_strdup_printf("%s/" TESTS_DIR "/%" G_GINT64_FORMAT ".log%s", a->dir, id,
							strcmp(part, "stderr") == 0 ? ".seat0.stderr" : "");
		if (strcmp(part, "log") == 0 || strcmp(part, "stderr") == 0) {
			file_reply(msg, path, STDERR_SHOWN, "text/plain; charset=utf-8", NULL);
			return;
		}
	} else if (g_str_has_prefix(what, "upload/") && digits(what + 7, strlen(what + 7), &id) &&
		   ladder_upload_owned(a->d, id, who->id)) {
		g_autofree char *path = g_strdup_printf("%s/" UPLOADS_DIR "/%" G_GINT64_FORMAT, a->dir, id);
		g_autofree char *name = g_strdup_printf("upload-%" G_GINT64_FORMAT, id);
		file_reply(msg, path, (gsize)a->upload_max, "application/octet-stream", name);
		return;
	}
	text(msg, SOUP_STATUS_NOT_FOUND, "no such page of yours");
}

/* ---- routing --------------------------------------------------------------- */

gboolean serve_accounts_handle(ServeAccounts *a, SoupServerMessage *msg, const char *path)
{
	const char *method = soup_server_message_get_method(msg);
	gboolean get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	gboolean post = strcmp(method, "POST") == 0;
	static const char *const ours[] = {"/signup", "/login", "/logout", "/upload", "/me", "/me/", NULL};

	if (!g_strv_contains(ours, path) && !g_str_has_prefix(path, "/me/"))
		return FALSE;
	if (!get && !post) {
		text(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "method not allowed");
		return TRUE;
	}
	if (strcmp(path, "/signup") == 0) {
		if (get)
			signup_form(a, msg, SOUP_STATUS_OK, NULL, NULL);
		else
			signup_post(a, msg);
		return TRUE;
	}
	if (strcmp(path, "/login") == 0) {
		if (get)
			login_form(a, msg, SOUP_STATUS_OK, NULL, NULL);
		else
			login_post(a, msg);
		return TRUE;
	}
	if (strcmp(path, "/logout") == 0) {
		logout(a, msg, post);
		return TRUE;
	}
	g_autofree char *token = NULL;
	g_autoptr(LadderAuthor) who = current(a, msg, &token);
	if (!who) {
		if (post)
			forbidden(msg);
		else
			redirect(msg, "/login");
		return TRUE;
	}
	if (strcmp(path, "/upload") == 0) {
		if (get)
			upload_form(a, msg, who, token, SOUP_STATUS_OK, NULL, NULL);
		else
			upload_post(a, msg, who, token);
	} else if (strcmp(path, "/me") == 0 || strcmp(path, "/me/") == 0) {
		if (get)
			me_page(a, msg, who, token, NULL);
		else
			text(msg, SOUP_STATUS_METHOD_NOT_ALLOWED, "method not allowed");
	} else if (post && (strcmp(path, "/me/retire") == 0 || strcmp(path, "/me/invite") == 0 ||
			 strcmp(path, "/me/test") == 0)) {
		me_post(a, msg, who, token, path + 4);
	} else if (get) {
		me_file(a, msg, who, path + 4);
	} else {
		text(msg, SOUP_STATUS_NOT_FOUND, "no such page");
	}
	return TRUE;
}
