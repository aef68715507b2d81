/*
 * fuzz: what every fuzz harness shares (tests/fuzz/README.md says how to
 * add one). A harness is tests/fuzz/fuzz-NAME.c defining
 * LLVMFuzzerTestOneInput(); its seed corpus is tests/fuzz/corpus/NAME/.
 * It is built twice: with clang's libFuzzer for `make fuzz`, and with the
 * project's compiler and fuzz-main.c as a replayer that `make check` runs
 * over the corpus. A harness must not leak, keep state between inputs,
 * or write anywhere but fuzz_file()'s file.
 */
#ifndef TETRARENA_TESTS_FUZZ_H
#define TETRARENA_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input written to a private temporary file, for readers that take a
 * path; the same path each call (removed at exit). Aborts when it cannot
 * write. */
const char *fuzz_file(const uint8_t *data, size_t size);

#endif
