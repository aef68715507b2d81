/*
 * rules: the rules pages. See rules.h. Each page is the shared frame (the
 * links to every game, the style, the scripts) around one embedded
 * fragment; nothing in a request names a file: WHAT is looked up in a
 * table.
 */
#include "server/rules.h"

#include <string.h>

#include "build/rules-assets.h"

typedef struct {
	const char *name;	/* /rules/NAME ("" the index) */
	const char *title;
	const unsigned char *data;
	const unsigned int *len;
} RulesPage;

static const RulesPage pages[] = {
	{"", "the games", server_rules_index_html, &server_rules_index_html_len},
	{"link", "Tetris Link", server_rules_link_html, &server_rules_link_html_len},
	{"tetroll", "Tetroll", server_rules_tetroll_html, &server_rules_tetroll_html_len},
	{"rush", "Tetris, the board game", server_rules_rush_html, &server_rules_rush_html_len},
	{"matrix", "Main Match", server_rules_matrix_html, &server_rules_matrix_html_len},
};

static void respond(SoupServerMessage *msg, guint status, const char *type, const char *body, gsize len)
{
	SoupMessageHeaders *h = soup_server_message_get_response_headers(msg);

	soup_message_headers_replace(h, "X-Content-Type-Options", "nosniff");
	soup_message_headers_replace(h, "Cache-Control", "no-store");
	soup_server_message_set_status(msg, status, NULL);
	soup_server_message_set_response(msg, type, SOUP_MEMORY_COPY, body, len);
}

void rules_respond(SoupServerMessage *msg, const char *what)
{
	if (strcmp(what, "rules.js") == 0) {
		respond(msg, SOUP_STATUS_OK, "text/javascript; charset=utf-8", (const char *)server_rules_rules_js,
			server_rules_rules_js_len);
		return;
	}
	const RulesPage *page = NULL;
	for (gsize i = 0; i < G_N_ELEMENTS(pages); i++)
		if (strcmp(what, pages[i].name) == 0)
			page = &pages[i];
	if (!page) {
		static const char none[] = "no rules for that game: see /rules\n";
		respond(msg, SOUP_STATUS_NOT_FOUND, "text/plain; charset=utf-8", none, sizeof none - 1);
		return;
	}
	g_autoptr(GString) s = g_string_new(NULL);
	g_string_append_printf(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			       "<title>Rules: %s</title>\n<link rel=\"stylesheet\" href=\"/assets/viewer.css\">\n"
			       "<link rel=\"stylesheet\" href=\"/assets/serve.css\">\n</head>\n<body class=\"rules\">\n"
			       "<nav aria-label=\"the games\"><a href=\"/\">Start a game</a> <a href=\"/rules/\">All the games</a>",
			       page->title);
	for (gsize i = 1; i < G_N_ELEMENTS(pages); i++)
		g_string_append_printf(s, " <a href=\"/rules/%s\"%s>%s</a>", pages[i].name,
				       &pages[i] == page ? " aria-current=\"page\"" : "", pages[i].title);
	g_string_append(s, "</nav>\n<main id=\"rules\">\n");
	g_string_append_len(s, (const char *)page->data, *page->len);
	g_string_append(s, "</main>\n<script src=\"/assets/common.js\"></script>\n"
			   "<script src=\"/assets/play-kit.js\"></script>\n<script src=\"/rules/rules.js\"></script>\n"
			   "</body>\n</html>\n");
	respond(msg, SOUP_STATUS_OK, "text/html; charset=utf-8", s->str, s->len);
}
