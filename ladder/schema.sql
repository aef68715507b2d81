-- ladder/schema.sql: the database of `referee ladder` (docs/ladder.md).
--
-- The file is a list of versions, each opened by a line `-- version N`.
-- A new database runs every version in order; a database at version K
-- (meta.schema_version) runs only the versions after K, each in one
-- transaction with the new version number. So every database, however
-- old, migrates from version 1 on, and a version, once released, is never
-- edited: a change is a new version at the end.

-- version 1
-- The ladder's settings (variant, players, time, options, seed, created)
-- and schema_version.
CREATE TABLE meta (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

-- Every admitted entry. A name's new version is a new row; the old one
-- keeps its games and becomes `replaced`. Only `active` entries are
-- scheduled.
CREATE TABLE bots (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	version INTEGER NOT NULL,
	command TEXT NOT NULL,
	workdir TEXT,
	sha256 TEXT NOT NULL,
	added TEXT NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('active', 'replaced', 'retired')),
	UNIQUE (name, version)
);

-- Submissions that failed admission, with the reason shown to their author.
CREATE TABLE rejections (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	command TEXT NOT NULL,
	added TEXT NOT NULL,
	reason TEXT NOT NULL
);

-- A game is inserted when it is scheduled (its seats and seed fixed) and
-- gets its result, log and `finished` in one transaction when it ends. A
-- game without `finished` is played again, with the same seats and seed.
CREATE TABLE games (
	id INTEGER PRIMARY KEY,
	seed INTEGER NOT NULL,
	kind TEXT NOT NULL,
	scheduled TEXT NOT NULL,
	finished TEXT,
	log TEXT,
	reason TEXT,
	plies INTEGER
);

CREATE TABLE seats (
	game INTEGER NOT NULL REFERENCES games (id),
	seat INTEGER NOT NULL,
	bot INTEGER NOT NULL REFERENCES bots (id),
	rank INTEGER,
	score INTEGER,
	faults TEXT,
	moves INTEGER,
	PRIMARY KEY (game, seat)
);

-- version 2
-- Ratings over time: each entry's batch-fit rating after every K of its
-- games (K is meta.history_every).
CREATE TABLE history (
	bot INTEGER NOT NULL REFERENCES bots (id),
	games INTEGER NOT NULL,
	game INTEGER NOT NULL,
	elo REAL NOT NULL,
	lo REAL NOT NULL,
	hi REAL NOT NULL,
	PRIMARY KEY (bot, games)
);
CREATE INDEX seats_bot ON seats (bot, game);
-- what a directory's manifest.ini says of its bot, shown on its page
ALTER TABLE bots ADD COLUMN author TEXT;
ALTER TABLE bots ADD COLUMN description TEXT;
INSERT OR IGNORE INTO meta (key, value) VALUES ('history_every', '10');

-- version 3
-- The decisions on requests queued in DIR/inbox/ while a run wrote the
-- ladder (ladder/inbox.h), by the request's file name: a request whose
-- file is here was decided (its file is only removed after this row
-- commits, so a kill in between never decides it twice). next_game is the
-- first game scheduled after the decision; bot the admitted entry; note
-- the rejection's reason or what a retire did.
CREATE TABLE requests (
	file TEXT PRIMARY KEY,
	kind TEXT NOT NULL,
	name TEXT NOT NULL,
	decided TEXT NOT NULL,
	next_game INTEGER NOT NULL,
	bot INTEGER REFERENCES bots (id),
	note TEXT
);

-- version 4
-- Suspension: fault_run counts an entry's faulted games in a row (any
-- fault of its seat; a clean game sets it to 0); at meta.suspend_after
-- (`ladder init --suspend-after`, default 5) the entry is suspended (the
-- time in `suspended`, the reason in `suspended_why`): still `active` in
-- status, but no longer scheduled. A new version of its name replaces it;
-- `ladder resume` clears both columns.
ALTER TABLE bots ADD COLUMN fault_run INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bots ADD COLUMN suspended TEXT;
ALTER TABLE bots ADD COLUMN suspended_why TEXT;
INSERT OR IGNORE INTO meta (key, value) VALUES ('suspend_after', '5');
-- What happened to an author's bots (ladder/events.h): admitted, rejected,
-- suspended, resumed, ranked. `author` is who is told: the entry's author
-- (its manifest's today; an account's id once accounts exist), or its name
-- when it has none. The Atom feeds and the run's --on-event hook read it.
CREATE TABLE events (
	id INTEGER PRIMARY KEY,
	at TEXT NOT NULL,
	kind TEXT NOT NULL,
	author TEXT NOT NULL,
	name TEXT NOT NULL,
	bot INTEGER REFERENCES bots (id),
	game INTEGER,
	text TEXT NOT NULL
);
CREATE INDEX events_author ON events (author, id);

-- version 5
-- Authors' accounts for `referee serve --ladder` (ladder/accounts.h). The
-- server writes only these tables (and reads the rest), beside the run.
-- A password is kept as libsodium's Argon2id string; a session's token and
-- an invite's code only as their BLAKE2b hash (hex), so the database holds
-- nothing that logs in. failures and next_try throttle logins to the
-- account (unix seconds).
CREATE TABLE authors (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE,
	hash TEXT NOT NULL,
	admin INTEGER NOT NULL DEFAULT 0,
	created TEXT NOT NULL,
	failures INTEGER NOT NULL DEFAULT 0,
	next_try INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
	hash TEXT PRIMARY KEY,
	author INTEGER NOT NULL REFERENCES authors (id),
	created INTEGER NOT NULL,
	expires INTEGER NOT NULL
);
CREATE TABLE invites (
	hash TEXT PRIMARY KEY,
	created TEXT NOT NULL,
	used_by INTEGER REFERENCES authors (id)
);
-- The author who holds an entry's name: only they upload its next versions.
CREATE TABLE owners (
	name TEXT PRIMARY KEY,
	author INTEGER NOT NULL REFERENCES authors (id)
);
-- Every upload: the inbox request it became (its decision is the requests
-- row of that file), or why it was refused before (refused).
CREATE TABLE uploads (
	id INTEGER PRIMARY KEY,
	author INTEGER NOT NULL REFERENCES authors (id),
	name TEXT NOT NULL,
	uploaded TEXT NOT NULL,
	size INTEGER NOT NULL,
	request TEXT,
	refused TEXT
);
CREATE INDEX uploads_author ON uploads (author, id);
INSERT OR IGNORE INTO meta (key, value) VALUES ('signup', 'invite');
-- Unrated test games an author asked for, their entry against a named
-- one, played by the server: never in games, so no rating counts them.
-- result is set when it ends (the seats' ranks and scores, or why not).
CREATE TABLE tests (
	id INTEGER PRIMARY KEY,
	author INTEGER NOT NULL REFERENCES authors (id),
	bot INTEGER NOT NULL REFERENCES bots (id),
	opponent INTEGER NOT NULL REFERENCES bots (id),
	asked TEXT NOT NULL,
	finished TEXT,
	result TEXT
);
CREATE INDEX tests_author ON tests (author, id);

-- version 6
-- The standings' fit, cached (ladder/standings.h): each fitted entry's
-- rating, 95% interval, finished games and when it last played, over the
-- finished games that meta.ratings_finished counts (meta.ratings_games:
-- those rated; meta.ratings_key: the games' MAX(id) and unfinished count
-- then, which change whenever a game is scheduled or finished). The run refits it as games finish (after every game on a
-- small ladder, after every 2% more on a big one, and when it stops), so
-- a page reads it and never refits 200,000 games on a request.
CREATE TABLE IF NOT EXISTS ratings (
	bot INTEGER PRIMARY KEY REFERENCES bots (id),
	elo REAL NOT NULL,
	lo REAL NOT NULL,
	hi REAL NOT NULL,
	games INTEGER NOT NULL,
	last TEXT
);
-- the unfinished games (the standings count them; a run replays them;
-- with MAX(id), they tell whether the cache is current: meta.ratings_key)
CREATE INDEX IF NOT EXISTS games_unfinished ON games (id) WHERE finished IS NULL;
-- an entry's page reads its seats and their games' other seats: indexes
-- that hold every column it reads (half the time at 200,000 games)
DROP INDEX IF EXISTS seats_bot;
CREATE INDEX IF NOT EXISTS seats_by_bot ON seats (bot, game, seat, rank, score, faults);
CREATE INDEX IF NOT EXISTS seats_by_game ON seats (game, seat, bot, rank);
