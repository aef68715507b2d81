# tetrarena: build, test, bench, demo. GNU make.
#
#   make            build everything into bin/ (engine/libengine.a too)
#   make check      build and run every test through prove -j4 (V=1: the
#                   full compiler lines); meant for 90 s on 2 cores, built
#   make check-long the tests that play full-strength AI games, at full
#                   strength (make check plays them at short time controls)
#   make check-cluster  the tests that start daemons (a one-node Slurm
#                   cluster, as root): make check never starts one
#   make check SANITIZE=1   the same, built with ASan and UBSan
#   make bench      benchmarks (speed is measured here, never in tests)
#   make demo       a short tournament of our bots, then its standings
#   make deps       install every missing Debian package (root) or say
#                   how; make, make demo install only what building and
#                   playing need, make check what the tests need too
#
# Files are found by pattern, so adding a module needs no edit here:
#   engine/*.c        -> engine/libengine.a (libc only)
#                        and lib/libtetrarena.so (engine/api.h, for Python)
#   referee/*.c       -> build/.../libreferee.a
#   tournaments/*.c   -> build/.../libtournaments.a
#   ladder/*.c        -> build/.../libladder.a (the living competition, SQLite)
#   server/*.c        -> build/.../libserver.a (`referee serve`, libsoup-3)
#   cli/*.c           -> bin/referee (the command line: one file per
#                     subcommand), linked with every library and the engine
#   bots/bot-*.c      -> bin/bot-*; other bots/*.c -> libbot.a for C bots;
#   bots/starter/starter.c -> bin/bot-starter (the C starter bot)
#   bots/baseline/NAME/*.c -> bin/bot-NAME-baseline (a frozen copy of a
#                     bot's AI, linked with the live libbot.a and the engine)
#   tests/test-*.c    -> GTest binaries; tests/t*.sh shell tests;
#   tests/prog-*.c    -> helper programs for the tests (the fake bot)
#   bench/bench-*.c   -> benchmark programs run by bench/run.sh
#   tests/fuzz/fuzz-*.c -> fuzz harnesses: replayers of their corpus
#                        (tests/fuzz/corpus/NAME/) run by `make check`, and
#                        libFuzzer programs for `make fuzz` (clang)
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ=NAME...]  fuzz each harness in turn;
#                        new inputs go to build/fuzz/work/NAME, crashes to
#                        build/fuzz/crash-NAME-*

# Every core builds unless make is told otherwise (-jN, -j1 wins).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

SANITIZE ?= 0
MODE := $(if $(filter 1,$(SANITIZE)),san,opt)
O := build/$(MODE)
FZ := build/fuzz

CC ?= cc

# A quiet build prints one short line a step (`CC engine/board.o`); warnings
# and errors still show in full. V=1 prints the full command lines.
V ?= 0
ifeq ($(V),1)
say :=
else
say = @printf '  %-5s %s\n' '$(1)' '$(patsubst $(O)/%,%,$(2))';
endif
CSTD := -std=c11
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
ifeq ($(MODE),san)
OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -DTETRARENA_SANITIZE
LDSAN := -fsanitize=address,undefined
else
OPT := -O2 -g
LDSAN :=
endif
CFLAGS_BASE := $(CSTD) $(WARN) $(OPT) -MMD -MP
GLIB_PIN := -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74 -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74

# Evaluated once, at first use (after `deps` has run).
PKGS := glib-2.0 gio-2.0 gio-unix-2.0 libseccomp libsoup-3.0 sqlite3 libsodium libarchive json-glib-1.0
GLIB_CFLAGS = $(eval GLIB_CFLAGS := $$(shell pkg-config --cflags $(PKGS)))$(GLIB_CFLAGS)
GLIB_LIBS = $(eval GLIB_LIBS := $$(shell pkg-config --libs $(PKGS)))$(GLIB_LIBS)

ENGINE_SRC := $(wildcard engine/*.c)
REFEREE_SRC := $(wildcard referee/*.c)
TOURN_SRC := $(wildcard tournaments/*.c)
LADDER_SRC := $(wildcard ladder/*.c)
SERVER_SRC := $(wildcard server/*.c)
CLI_SRC := $(wildcard cli/*.c)
BOT_PROGS := $(patsubst bots/%.c,bin/%,$(wildcard bots/bot-*.c)) bin/bot-starter
BASELINE_PROGS := $(patsubst bots/baseline/%/,bin/bot-%-baseline,$(wildcard bots/baseline/*/))
BOTLIB_SRC := $(filter-out $(wildcard bots/bot-*.c),$(wildcard bots/*.c))
TEST_SRC := $(wildcard tests/test-*.c)
TEST_BINS := $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRC))
TEST_PROGS := $(patsubst tests/%.c,$(O)/tests/%,$(wildcard tests/prog-*.c))
TEST_SH := $(sort $(wildcard tests/t[0-9]*.sh))
BENCH_PROGS := $(patsubst bench/%.c,$(O)/bench/%,$(wildcard bench/bench-*.c))
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(filter-out tests/fuzz/fuzz-main.c tests/fuzz/fuzz-util.c,$(wildcard tests/fuzz/fuzz-*.c)))
FUZZ_REPLAY := $(patsubst %,$(O)/fuzz/fuzz-%,$(FUZZ_NAMES))

# Each mode links its own engine; engine/libengine.a is the optimized one,
# published for C bots built outside this Makefile.
ENGINE_LIB := $(O)/libengine.a
ENGINE_OBJ := $(patsubst %.c,$(O)/%.o,$(ENGINE_SRC))
REFEREE_LIB := $(O)/libreferee.a
REFEREE_OBJ := $(patsubst %.c,$(O)/%.o,$(REFEREE_SRC))
TOURN_LIB := $(O)/libtournaments.a
TOURN_OBJ := $(patsubst %.c,$(O)/%.o,$(TOURN_SRC))
LADDER_LIB := $(if $(LADDER_SRC),$(O)/libladder.a)
LADDER_OBJ := $(patsubst %.c,$(O)/%.o,$(LADDER_SRC))
SERVER_LIB := $(if $(SERVER_SRC),$(O)/libserver.a)
SERVER_OBJ := $(patsubst %.c,$(O)/%.o,$(SERVER_SRC))
# Every library of the floors above the engine, top floor first (link order).
UPPER_LIBS := $(SERVER_LIB) $(LADDER_LIB) $(TOURN_LIB) $(REFEREE_LIB)
CLI_OBJ := $(patsubst %.c,$(O)/%.o,$(CLI_SRC))
BOTLIB := $(O)/libbot.a
BOTLIB_OBJ := $(patsubst %.c,$(O)/%.o,$(BOTLIB_SRC))

# The mode stamp: switching SANITIZE relinks everything in bin/. (It must not
# be intermediate: a blanket .SECONDARY would make a missing stamp not count.)
STAMP := build/mode-$(MODE)

.PHONY: all deps deps-needed check check-long check-cluster bench demo clean fuzz fuzz-build
.DEFAULT_GOAL := all
.PRECIOUS: $(O)/%.o $(O)/bots/%.o $(O)/bots/baseline/%.o $(O)/engine/%.o $(O)/tests/fuzz/%.o $(FZ)/obj/%.o

all: $(if $(filter opt,$(MODE)),engine/libengine.a) lib/libtetrarena.so bin/referee $(BOT_PROGS) $(BASELINE_PROGS) $(TEST_BINS) $(TEST_PROGS) $(BENCH_PROGS) $(FUZZ_REPLAY)

# ---- dependencies -------------------------------------------------------
# Each entry is "command-or-pkgconfig-module:debian-package". Building and
# playing (make, make demo) need DEPS_BUILD; the tests (make check,
# check-long, fuzz) need DEPS_TEST as well. Every object waits for
# deps-needed, which checks what the goals on the command line need, in one
# apt-get call: a plain `make` never installs a test tool, and a user
# without root is told the one apt-get line for what is missing.
DEPS_BUILD := cc:gcc pkg-config:pkg-config glib-2.0:libglib2.0-dev libseccomp:libseccomp-dev python3:python3 \
	bwrap:bubblewrap setpriv:util-linux libsoup-3.0:libsoup-3.0-dev sqlite3:libsqlite3-dev \
	libsodium:libsodium-dev libarchive:libarchive-dev json-glib-1.0:libjson-glib-dev
DEPS_TEST := prove:perl node:nodejs valgrind:valgrind xxd:xxd chromium:chromium \
	clang:clang /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev \
	parallel:parallel
# The cluster tests' daemons (make check-cluster only: make check starts none).
DEPS_CLUSTER := /usr/sbin/slurmctld:slurmctld /usr/sbin/slurmd:slurmd sbatch:slurm-client /usr/sbin/munged:munge
TEST_GOALS := check check-long check-quick check-cluster fuzz fuzz-build deps
DEPS_FOR := $(if $(filter $(TEST_GOALS),$(MAKECMDGOALS)),test,build)
DEPS_NEEDED := $(DEPS_BUILD) $(if $(filter test,$(DEPS_FOR)),$(DEPS_TEST)) \
	$(if $(filter check-cluster deps,$(MAKECMDGOALS)),$(DEPS_CLUSTER))

# $(call install-missing,ENTRIES,WHAT): install the missing packages (root)
# or print the apt-get line and fail.
define install-missing
@missing=; \
for d in $(1); do \
  what=$${d%%:*}; pkg=$${d#*:}; \
  case $$what in \
    *-1.0|*-2.0|*-3.0|libseccomp|sqlite3|libsodium|libarchive) pkg-config --exists $$what 2>/dev/null || missing="$$missing $$pkg";; \
    /*) ls $$what >/dev/null 2>&1 || missing="$$missing $$pkg";; \
    *) command -v $$what >/dev/null 2>&1 || missing="$$missing $$pkg";; \
  esac; \
done; \
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
    echo "deps: installing$$missing (to $(2))"; \
    export DEBIAN_FRONTEND=noninteractive; \
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null || \
      { echo "deps: apt-get install$$missing failed" >&2; exit 1; }; \
  else \
    echo "deps: to $(2), these packages are missing:$$missing" >&2; \
    echo "deps: run: sudo apt-get install$$missing" >&2; exit 1; \
  fi; \
fi
endef

deps-needed:
	$(call install-missing,$(DEPS_NEEDED),$(if $(filter test,$(DEPS_FOR)),build and test,build and play))

# Everything, build and test tools alike.
deps: deps-needed

$(STAMP): | deps-needed
	@mkdir -p build && rm -f build/mode-* && touch $@

# ---- compiling ----------------------------------------------------------
$(O)/engine/%.o: engine/%.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_BASE) -c $< -o $@

$(O)/bots/baseline/%.o: bots/baseline/%.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_BASE) -D_GNU_SOURCE -Iengine -Ibots -c $< -o $@

$(O)/bots/%.o: bots/%.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_BASE) -D_GNU_SOURCE -Iengine -Ibots -c $< -o $@

$(O)/%.o: %.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_BASE) -D_GNU_SOURCE $(GLIB_PIN) $(GLIB_CFLAGS) -I. -Iengine -c $< -o $@

$(O)/tests/fuzz/%.o: tests/fuzz/%.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS_BASE) -D_GNU_SOURCE $(GLIB_PIN) $(GLIB_CFLAGS) -I. -Iengine -Ibots -Itests/fuzz -c $< -o $@

$(ENGINE_LIB): $(ENGINE_OBJ)
	@mkdir -p $(@D); rm -f $@
	$(call say,AR,$@)ar rcs $@ $(ENGINE_OBJ)

engine/libengine.a: $(ENGINE_LIB)
	$(call say,CP,$@)cp $< $@

# The engine as a shared library for other languages (engine/api.h; the
# Python module bots/python/tetrarena.py loads it with ctypes). Always
# optimized and unsanitized, whatever SANITIZE says: an interpreter cannot
# load an ASan library. Only tetra_* is exported.
SO_DIR := build/opt/pic
ENGINE_PIC_OBJ := $(patsubst %.c,$(SO_DIR)/%.o,$(ENGINE_SRC))

$(SO_DIR)/engine/%.o: engine/%.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CSTD) $(WARN) -O2 -g -MMD -MP -fPIC -fvisibility=hidden -c $< -o $@

build/opt/libtetrarena.so: $(ENGINE_PIC_OBJ)
	$(call say,LINK,$@)$(CC) -shared -Wl,-soname,libtetrarena.so.$(shell sed -n 's/^#define TETRA_API_VERSION //p' engine/api.h) -o $@ $^

lib/libtetrarena.so: build/opt/libtetrarena.so
	@mkdir -p lib
	$(call say,CP,$@)cp $< $@

$(REFEREE_LIB): $(REFEREE_OBJ)
	@mkdir -p $(@D); rm -f $@
	$(call say,AR,$@)ar rcs $@ $^

$(TOURN_LIB): $(TOURN_OBJ)
	@mkdir -p $(@D); rm -f $@
	$(call say,AR,$@)ar rcs $@ $^

$(O)/libladder.a: $(LADDER_OBJ)
	@mkdir -p $(@D); rm -f $@
	$(call say,AR,$@)ar rcs $@ $^

$(O)/libserver.a: $(SERVER_OBJ)
	@mkdir -p $(@D); rm -f $@
	$(call say,AR,$@)ar rcs $@ $^

$(BOTLIB): $(BOTLIB_OBJ)
	@mkdir -p $(@D); rm -f $@
	$(call say,AR,$@)ar rcs $@ $(BOTLIB_OBJ)

# ---- linking ------------------------------------------------------------
bin/referee: $(CLI_OBJ) $(UPPER_LIBS) $(ENGINE_LIB) $(STAMP)
	@mkdir -p bin
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $(CLI_OBJ) $(UPPER_LIBS) $(ENGINE_LIB) $(GLIB_LIBS) -lm

bin/bot-starter: $(O)/bots/starter/starter.o $(BOTLIB) $(ENGINE_LIB) $(STAMP)
	@mkdir -p bin
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $< $(BOTLIB) $(ENGINE_LIB) -lm

# A baseline links the objects of its own directory (the frozen AI, which
# includes its own headers first: they sit next to it), the live bot library
# and the engine. Its objects come first: libbot.a's copy of the same AI is
# never pulled in (the link would fail on the duplicate symbols if it were).
.SECONDEXPANSION:
bin/bot-%-baseline: $$(addprefix $(O)/,$$(subst .c,.o,$$(wildcard bots/baseline/$$*/*.c))) $(BOTLIB) $(ENGINE_LIB) $(STAMP)
	@mkdir -p bin
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $(filter %.o,$^) $(BOTLIB) $(ENGINE_LIB) -lm

bin/bot-%: $(O)/bots/bot-%.o $(BOTLIB) $(ENGINE_LIB) $(STAMP)
	@mkdir -p bin
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $< $(BOTLIB) $(ENGINE_LIB) -lm

$(O)/tests/%: $(O)/tests/%.o $(UPPER_LIBS) $(BOTLIB) $(ENGINE_LIB) $(STAMP)
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $< $(UPPER_LIBS) $(BOTLIB) $(ENGINE_LIB) $(GLIB_LIBS) -lm

$(O)/bench/%: $(O)/bench/%.o $(UPPER_LIBS) $(ENGINE_LIB) $(STAMP)
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $< $(UPPER_LIBS) $(ENGINE_LIB) $(GLIB_LIBS) -lm

$(O)/fuzz/fuzz-%: $(O)/tests/fuzz/fuzz-%.o $(O)/tests/fuzz/fuzz-main.o $(O)/tests/fuzz/fuzz-util.o $(UPPER_LIBS) $(BOTLIB) $(ENGINE_LIB) $(STAMP)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(LDSAN) -o $@ $< $(O)/tests/fuzz/fuzz-main.o $(O)/tests/fuzz/fuzz-util.o $(UPPER_LIBS) $(BOTLIB) $(ENGINE_LIB) $(GLIB_LIBS) -lm

# ---- the HTML pages' style and scripts, built into the referee ----------
VIEWER_ASSETS := referee/viewer/viewer.css referee/viewer/common.js referee/viewer/boards.js referee/viewer/replay.js referee/viewer/report.js \
	referee/viewer/play-kit.js referee/viewer/play-link.js referee/viewer/play-tetroll.js referee/viewer/play-rush.js \
	referee/viewer/play-matrix.js

build/viewer-assets.h: $(VIEWER_ASSETS) | deps-needed
	@mkdir -p $(@D)
	$(call say,GEN,$@)python3 scripts/embed.py $(VIEWER_ASSETS) >$@.tmp && mv $@.tmp $@

$(O)/referee/html.o $(FZ)/obj/referee/html.o: build/viewer-assets.h

# ---- the ladder's schema, built into the referee -------------------------
build/ladder-schema.h: ladder/schema.sql | deps-needed
	@mkdir -p $(@D)
	$(call say,GEN,$@)cd ladder && python3 ../scripts/embed.py schema.sql | sed 's/schema_sql/ladder_schema_sql/' >../$@.tmp && mv ../$@.tmp ../$@

$(O)/ladder/db.o $(FZ)/obj/ladder/db.o: build/ladder-schema.h

# The web server's pages' scripts and style (server/pages/), served from the binary.
SERVER_ASSETS := $(sort $(wildcard server/pages/*.js server/pages/*.css))

build/server-assets.h: $(SERVER_ASSETS) | deps-needed
	@mkdir -p $(@D)
	$(call say,GEN,$@)python3 scripts/embed.py $(SERVER_ASSETS) >$@.tmp && mv $@.tmp $@

$(O)/server/server.o $(FZ)/obj/server/server.o: build/server-assets.h

# The rules pages' words and pictures (server/rules/), served by server/rules.c.
RULES_ASSETS := $(sort $(wildcard server/rules/*.html server/rules/*.js))

build/rules-assets.h: $(RULES_ASSETS) | deps-needed
	@mkdir -p $(@D)
	$(call say,GEN,$@)python3 scripts/embed.py $(RULES_ASSETS) >$@.tmp && mv $@.tmp $@

$(O)/server/rules.o $(FZ)/obj/server/rules.o: build/rules-assets.h

# ---- fuzzing (clang, libFuzzer, ASan, UBSan) ----------------------------
# Every source is compiled again with clang under build/fuzz/.
FUZZ_CC := clang
FUZZ_FLAGS := -std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE
FUZZ_SECONDS ?= 60
FUZZ ?= $(FUZZ_NAMES)
FUZZ_LIB_SRC := $(ENGINE_SRC) $(REFEREE_SRC) $(TOURN_SRC) $(LADDER_SRC) $(SERVER_SRC) $(BOTLIB_SRC) tests/fuzz/fuzz-util.c
FUZZ_LIB_OBJ := $(patsubst %.c,$(FZ)/obj/%.o,$(FUZZ_LIB_SRC))

$(FZ)/obj/%.o: %.c | deps-needed
	@mkdir -p $(@D)
	$(call say,CC,$@)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP $(GLIB_PIN) $(GLIB_CFLAGS) -I. -Iengine -Ibots -Itests/fuzz -c $< -o $@

$(FZ)/fuzz-%: $(FZ)/obj/tests/fuzz/fuzz-%.o $(FUZZ_LIB_OBJ)
	$(call say,LINK,$@)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(GLIB_LIBS) -lm

fuzz-build: $(patsubst %,$(FZ)/fuzz-%,$(FUZZ))

# Each harness in turn for FUZZ_SECONDS, starting from its seed corpus.
fuzz: fuzz-build
	@for n in $(FUZZ); do \
	  mkdir -p $(FZ)/work/$$n; \
	  echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
	  $(FZ)/fuzz-$$n -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
	    -print_final_stats=1 -artifact_prefix=$(FZ)/crash-$$n- \
	    $(FZ)/work/$$n tests/fuzz/corpus/$$n 2>$(FZ)/$$n.out || \
	    { tail -40 $(FZ)/$$n.out; echo "fuzz: $$n FAILED (input in $(FZ)/crash-$$n-*)"; exit 1; }; \
	  grep -E '^stat::number_of_executed_units|^Done' $(FZ)/$$n.out | tr '\n' ' '; echo; \
	done

# ---- running ------------------------------------------------------------
# Tests find the build through these; TETRARENA_TIME_SCALE stretches every
# time limit in the tests (valgrind, a loaded machine).
export TETRARENA_BUILD := $(CURDIR)/$(O)
# The tests start python3 about 150 times: a version manager's python3 (a
# pyenv shim, ~50 ms a start) is looked through once, here.
PYTHON_DIR := $(shell python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null)
check check-long check-cluster: export PATH := $(if $(PYTHON_DIR),$(PYTHON_DIR):)$(PATH)
export TETRARENA_TOP := $(CURDIR)
# ASan reserves terabytes of address space: the referee's memory rlimit
# would kill sanitized bots, so it is skipped in that mode.
ifeq ($(MODE),san)
export TETRARENA_NO_MEMLIMIT := 1
endif

# make check: prove -j4 (the tests wait on bots and clocks more than they
# compute: four at once keep two cores busy), the longest tests first
# (measured one at a time with their CPU time, and the ten slowest of
# every run printed at its end by tests/prove.sh) so that the jobs end
# together, then a serial pass of the tests that must run alone. Tests
# that play full-strength AI games play them at short time controls here;
# `make check-long` plays them at full strength (the tests with a
# `# check-long:` line, see tests/tap.sh). CI runs both.
PROVE_JOBS ?= 4
TEST_SLOW := tests/t7001-matrix-games.sh tests/t5001-tetroll-referee.sh tests/t5004-tetroll-fit.sh \
	tests/t6002-rush-ai.sh tests/t3003-tournament-examples.sh tests/t4010-bot-levels.sh tests/t2606-play-pages.sh \
	tests/t5002-tetroll-report.sh tests/t2004-referee-check.sh tests/t3102-ladder-kill.sh tests/t7002-matrix-referee.sh \
	tests/t8001-social-referee.sh tests/t3108-ladder-live-add.sh tests/t4009-python-engine.sh \
	tests/t3109-ladder-replay-intake.sh tests/t3104-ladder-determinism.sh tests/t2006-html-pages.sh \
	$(O)/tests/test-tetrollai tests/t2005-sandbox.sh tests/t4005-starter-bots.sh tests/t5003-tetroll-hindsight.sh \
	tests/t2009-bad-records.sh tests/t2604-serve-browser.sh tests/t4007-protocol-scoring.sh tests/t6004-rush-late-referee.sh \
	tests/t3107-ladder-serve.sh tests/t6005-table-share.sh tests/t3101-ladder-admission.sh
# Alone: rush in real time measures its pace and fairness on the wall
# clock (t6003; t6001 races a 1 ms bot against a 10 ms one, which a
# referee slowed by a sanitizer on a busy machine can turn into a tie);
# t2018 (test-referee-game's kept-cpu cases) gives bots CPU limits a
# fraction of a second above what they burn, which a busy neighbour can
# cross; t2014 measures the CPU share a frozen seat's children get.
# test-referee-game itself runs through t2018 and t2019 (the rest of it).
TEST_ALONE := tests/t2018-referee-kept-cpu.sh tests/t6003-rush-realtime.sh tests/t2014-jail-cpu.sh tests/t6001-rush-referee.sh
# Under SANITIZE=1 (CI's sanitizer pass, after a plain make check) the
# tests whose extra work adds no C path are left out: those that measure
# the AIs' strength over many seeded games (t7001, t6002, t5004, t4010,
# t3003, t5002: the same AI code runs sanitized in test-linkai,
# test-tetrollai, t7002, t4002, t4005, t4006 and t5001's games) and
# those that drive Chromium over served pages (t2604, t2606, t2608-t2611,
# t3106, t3107: the server's C runs sanitized in t2601-t2605, t3108, t3109
# and t3113), and t2607, whose memory budget is the server's resident size,
# which ASan's shadow memory and quarantine make another number.
TEST_SAN_SKIP := tests/t7001-matrix-games.sh tests/t6002-rush-ai.sh tests/t5004-tetroll-fit.sh \
	tests/t4010-bot-levels.sh tests/t3003-tournament-examples.sh tests/t5002-tetroll-report.sh \
	tests/t2604-serve-browser.sh tests/t2606-play-pages.sh tests/t2607-serve-floods.sh \
	tests/t2608-serve-person.sh tests/t2609-play-person.sh tests/t2610-serve-watch-pace.sh tests/t2611-person-defaults.sh \
	tests/t3106-ladder-pages.sh tests/t3107-ladder-serve.sh

# The cluster tests (a `# check-cluster:` line) start daemons (Slurm's, as
# root): only `make check-cluster` runs them, never make check.
TEST_CLUSTER := $(shell grep -l '^\# check-cluster:' $(TEST_SH))
TEST_ALL := $(filter-out $(O)/tests/test-referee-game $(TEST_CLUSTER) $(if $(filter san,$(MODE)),$(TEST_SAN_SKIP)),$(TEST_BINS) $(TEST_SH))
TEST_PAR := $(foreach t,$(TEST_SLOW),$(filter $(t),$(TEST_ALL))) $(filter-out $(TEST_SLOW) $(TEST_ALONE),$(TEST_ALL))
TEST_LONG := $(filter-out $(TEST_CLUSTER),$(shell grep -l '^\# check-long:' $(TEST_SH)))

# tests/prove.sh runs prove --timer, prints the ten slowest files, and
# fails if a process the tests started is still running after them.
check: all
	@sh tests/prove.sh $(PROVE_JOBS) $(TEST_PAR) -- $(filter $(TEST_ALONE),$(TEST_ALL))

check-long: all
	@TETRARENA_LONG=1 sh tests/prove.sh $(PROVE_JOBS) $(filter-out $(TEST_ALONE),$(TEST_LONG)) -- $(filter $(TEST_ALONE),$(TEST_LONG))

check-cluster: all
	@sh tests/prove.sh 1 $(TEST_CLUSTER)

bench: all
	@sh bench/run.sh

demo: all
	@sh tournaments/demo.sh

clean:
	rm -rf build bin lib engine/libengine.a

# Only this tree's builds: build/at/ holds other commits' (scripts/build-at.sh).
-include $(shell find $(O) $(FZ) $(SO_DIR) -name '*.d' 2>/dev/null)
