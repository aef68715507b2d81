/*
 * scan: bounded reading of the engine's own text (move notation and state
 * lines), shared by every variant's parse functions.
 *
 * Each function reads at *p and, on success only, advances *p past what it
 * read; on failure *p is unchanged. Nothing allocates; input may be
 * hostile (any bytes), so every loop is bounded by the text's NUL.
 */
#ifndef TETRARENA_ENGINE_SCAN_H
#define TETRARENA_ENGINE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A decimal integer of at most 6 digits followed by a non-digit, within
 * [lo, hi], written the one canonical way: no leading zeros, no '+', and
 * a '-' only when lo is negative. OUT: *out.
 */
bool scan_int(const char **p, int lo, int hi, int *out);

/* Skip spaces, then match `key` followed by '='. */
bool scan_key(const char **p, const char *key);

/*
 * One of names[0..n-1] followed by the end of the text, a space, or one of
 * the characters of `stops` (may be ""). The first match wins, so list a
 * name before any longer name it begins. OUT: *out, its index.
 */
bool scan_name(const char **p, const char *const *names, int n, const char *stops, int *out);

/* Match one character. */
bool scan_char(const char **p, char c);

/*
 * The value of field `key` in a line of space-separated `key=value` fields,
 * wherever it stands; NULL when absent. OUT: *len, the value's length up to
 * the next space or the end (len may be NULL). Does not advance anything.
 */
const char *scan_field(const char *text, const char *key, size_t *len);

/* Skip to the next space or the end (a field whose value is derived). */
void scan_skip_value(const char **p);

#endif
