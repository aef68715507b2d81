/*
 * rules: the games' rules for a person, in words and pictures
 * (`GET /rules` and `GET /rules/VARIANT`, docs/serve.md). The words are
 * server/rules/VARIANT.html, taken from docs/rules.md and protocol.md as
 * they settle the rulebooks; the pictures are drawn in the page by
 * server/rules/rules.js with the play pages' own board code (play-kit.js).
 * All of it is embedded at build time (build/rules-assets.h).
 */
#ifndef TETRARENA_SERVER_RULES_H
#define TETRARENA_SERVER_RULES_H

#include <libsoup/soup.h>

/* Answer a GET of /rules/WHAT: WHAT "" is the index of the games, a
 * variant's name its rules page, "rules.js" the pictures' script; any
 * other WHAT is 404. Sets msg's status, headers and body. */
void rules_respond(SoupServerMessage *msg, const char *what);

#endif
