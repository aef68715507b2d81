/*
 * json: the referee's JSON output, one writer for `--json` and the data
 * the HTML pages embed (`view --html`, a tournament's report.html).
 *
 * Strings are escaped so that the text can also sit inside an HTML
 * <script> element: `<` is written as \u003c, so no `</script>` can
 * appear in the output whatever a bot's name or line holds.
 */
#ifndef TETRARENA_REFEREE_JSON_H
#define TETRARENA_REFEREE_JSON_H

#include <glib.h>

/* Append s as a JSON string: quotes, backslash, `<` and control bytes
 * escaped; other bytes (UTF-8 included) as they are. NULL gives null. */
void json_string(GString *out, const char *s);

/* Append a number with `decimals` digits after the point, in the C locale. */
void json_double(GString *out, double x, int decimals);

#endif
