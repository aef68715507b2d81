// What both pages share: DOM and SVG element makers and the colours.
"use strict";
// Okabe-Ito: apart for colour-blind readers. Seats 0-3 take the colours
// the engine gives link's seats in a terminal (red, blue, yellow, green);
// seats and bots are also labelled, and chart lines dashed, never colour
// alone.
const PALETTE = ["#D55E00", "#0072B2", "#F0E442", "#009E73", "#E69F00", "#56B4E9", "#CC79A7", "#999999"];

// Pieces, by letter (rush boards, the box, hands): not seat colours.
const PIECE_COLOURS = { I: "#56B4E9", O: "#F0E442", T: "#CC79A7", J: "#0072B2", L: "#E69F00", S: "#009E73", Z: "#D55E00" };

// A state line's fields ("key=value ..." of a `go` line): {key: "value"}.
function stateFields(line) {
	const f = {};
	(line || "").split(" ").forEach(function (kv) {
		const i = kv.indexOf("=");
		if (i > 0) f[kv.slice(0, i)] = kv.slice(i + 1);
	});
	return f;
}
// A comma-separated value as a list; "-" is none.
function stateList(v) { return v && v !== "-" ? v.split(",") : []; }

function el(tag, attrs, text) {
	const e = document.createElement(tag);
	for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
}

function svg(tag, attrs, text) {
	const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
	for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
}

// Black or white, whichever reads better on the colour bg ("#rrggbb").
function ink(bg) {
	const n = parseInt(bg.slice(1), 16);
	const l = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
	return l > 140 ? "#000" : "#fff";
}

// ---- words: what the pages say instead of protocol text ------------------
// The faults of protocol.md, explained.
const FAULT_WORDS = {
	start: "could not start, or did not answer the game in time",
	declined: "declined the game",
	timeout: "did not move within its time",
	malformed: "sent a move that does not parse, or a move nobody asked for",
	"line-too-long": "sent a line over 64 KiB",
	illegal: "played a move that is not legal",
	crash: "exited or closed its output before the game ended",
	resigned: "resigned (gave the game up)",
};

function fieldOf(line, key) {
	const m = (" " + (line || "")).match(new RegExp(" " + key + "=([^ ]*)"));
	return m ? m[1] : null;
}

function ordinal(n) {
	n = Number(n);
	return n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th");
}

// A result line ("ranks=1,2 scores=14,9 faults=-,timeout reason=end") in
// sentences: [headline, one line per seat in rank order, why it ended].
// names[p] names seat p; unit is "points" or what the score counts;
// who(p), if given, names a seat for a person (the play page: no fault
// codes then, only their words).
function resultWords(result, names, lowerWins, unit, who0) {
	const ranks = (fieldOf(result, "ranks") || "").split(","), scores = (fieldOf(result, "scores") || "").split(",");
	const faults = (fieldOf(result, "faults") || "").split(","), reason = fieldOf(result, "reason");
	const n = ranks.length, who = who0 || function (p) { return "seat " + p + " (" + (names[p] || "?") + ")"; };
	if (!result || !ranks[0]) return ["No result: the game did not end."];
	const order = ranks.map(function (r, p) { return p; }).sort(function (a, b) { return ranks[a] - ranks[b] || a - b; });
	const first = order.filter(function (p) { return ranks[p] === "1"; });
	let head;
	if (n === 1) head = who(0) + " scored " + scores[0] + " " + unit + ".";
	else if (first.length === n) head = "A draw: every seat shares first place with " + scores[0] + " " + unit + ".";
	else if (first.length > 1) head = first.map(who).join(" and ") + " share first place.";
	else head = who(first[0]) + " wins with " + scores[first[0]] + " " + unit + (lowerWins ? " (the lower score wins)." : ".");
	const lines = [head];
	order.forEach(function (p) {
		const shared = ranks.filter(function (r) { return r === ranks[p]; }).length > 1;
		let s = (shared ? "shared " : "") + ordinal(ranks[p]) + ": " + who(p) + ", " + scores[p] + " " + unit;
		if (faults[p] && faults[p] !== "-") s += "; " + (who0 ? "" : faults[p] + ": ") + (FAULT_WORDS[faults[p]] || "a fault");
		lines.push(s);
	});
	lines.push(reason === "end" ? "The game ended by its rules." : reason === "faults" ? "It ended because no seat could go on."
		: reason === "limit" ? "The game's time limit ran out." : "It ended: " + (reason || "?") + ".");
	return lines;
}

// "a T", "an I": the article as the letter is said.
function article(letter) { return ("IOLSFHMNRX".indexOf(letter) >= 0 ? "an " : "a ") + letter; }

const ROT_WORDS = { 0: "flat", 1: "turned once", 2: "turned twice", 3: "turned three times", R: "turned right", L: "turned left" };

// A move in words, for variant v ("T0@4" -> "a T, flat, in column 4").
function moveWords(v, t) {
	let m;
	if (!t) return "";
	if (v === "link" && (m = t.match(/^([IOTJLSZ])([0-3])@(\d+)$/)))
		return "dropped " + article(m[1]) + " (" + ROT_WORDS[m[2]] + ") in column " + m[3];
	if (v === "link" && (m = t.match(/^roll (\S+)$/)))
		return m[1] === "logo" ? "the die shows the logo: any piece" : "the die shows " + m[1];
	if (v === "tetroll") {
		if ((m = t.match(/^roll:(\d+)$/))) return "the dice show " + m[1].split("").join(" ");
		if (t === "keep") return "kept the dice";
		if ((m = t.match(/^reroll:(\d+):b(\d)$/))) return "rerolled " + m[1].split("").join(" ") + ", crossing out bonus #" + m[2] + "'s first prize";
		if ((m = t.match(/^([IOTJLSZ])([0-3])@(\d+):(\d+)$/))) return "placed " + article(m[1]) + " (" + ROT_WORDS[m[2]] + ") at column " + m[3] + ", row " + m[4];
		if ((m = t.match(/^copy@(\d+):(\d+)$/))) return "copied the number to column " + m[1] + ", row " + m[2];
		if ((m = t.match(/^ring:(\d)$/))) return "marked a ring of bonus #" + m[1];
		if ((m = t.match(/^write:(\d)@(\d+):(\d+)$/))) return "wrote " + m[1] + " at column " + m[2] + ", row " + m[3];
	}
	if (v === "rush") {
		if ((m = t.match(/^take:([IOTJLSZ])$/))) return "took " + article(m[1]) + " from the box";
		if ((m = t.match(/^place:([IOTJLSZ])([0-3])@(\d+),(\d+)$/))) return "placed the " + m[1] + " (" + ROT_WORDS[m[2]] + ") at column " + m[3] + ", row " + m[4];
		if ((m = t.match(/^give:(\d)$/))) return "gave the block in hand to seat " + m[1];
		if (t === "discard") return "discarded a block that fits nowhere";
		if ((m = t.match(/^order:([\d,]+)$/))) return "chance orders the tick: seats " + m[1].split(",").join(", ");
	}
	if (v === "matrix") {
		if (/^deal /.test(t)) return "the pieces are dealt";
		if (t === "-") return "placed nothing";
		if ((m = t.match(/^([IOTJLSZ][0R2L]@-?\d+,\d+)(\+.*)?$/)))
			return "placed " + t.split("+").map(function (p) { const q = p.match(/^([IOTJLSZ])([0R2L])@(-?\d+),(\d+)$/);
				return q ? article(q[1]) + " (" + (q[2] === "0" ? "spawn" : q[2] === "2" ? "upside down" : ROT_WORDS[q[2]]) + ") at column " + q[3] + ", row " + q[4] : p; }).join(" and ");
	}
	return t;
}

// ---- a person's words: the games, the seats, the AIs ----------------------
// Each game in one line, who plays, how long, and how it is won (the start
// page, the play pages' "how to win" panel; the rules pages say it all).
const GAME_WORDS = {
	link: { what: "Drop pieces into one shared tower; link your own colour into groups of three or more.",
		players: "2-4 players", length: "about 10 minutes", seats: 2,
		win: "Groups of 3 or more of your pieces score one point a piece; each gap you leave under a piece costs 1 or 2. Most points wins." },
	tetroll: { what: "Roll four dice, make a shape, write it on your sheet; finish rows and fill bonus tracks.",
		players: "1-2 players", length: "about 15 minutes", seats: 2,
		win: "A full row scores 10 less each repeated number; bonus tracks pay rings and prizes. Most points wins." },
	rush: { what: "Take blocks from the shared box and fit them on your own board; give awkward ones away.",
		players: "2-4 players", length: "about 5 minutes", seats: 2,
		win: "Fewest uncovered squares wins. Covering a top-row square ends the game for everyone at once." },
	matrix: { what: "Everyone places a piece on one shared field at the same time; unique cells and cleared rows score.",
		players: "2-7 players (7 by the rules)", length: "about 10 minutes", seats: 7,
		win: "+1 for each cell only you covered, +5 for each cleared row you are in, -3 next to a hole. First to the target ends it; most points wins." },
};

// Seats are named by their colour (PALETTE's order), never by number.
const SEAT_COLOURS = ["Red", "Blue", "Yellow", "Green", "Orange", "Sky", "Pink", "Grey"];

// Our AIs' levels by strength (docs/ai/README.md, Levels): bot-V-levelL, bot-V is 5.
const LEVEL_WORDS = ["", "gentle", "easy", "medium", "hard", "strongest"];

// An opponent's program name for a person: "medium AI", "strongest AI",
// "a person"; other bots keep their name.
function playerWords(name) {
	let m;
	if (!name) return "?";
	if (/^person\d*$/.test(name)) return "a person";
	if ((m = name.match(/^bot-(link|tetroll|rush|matrix)-level([1-5])$/))) return LEVEL_WORDS[+m[2]] + " AI";
	if (/^bot-(link|tetroll|rush|matrix)$/.test(name)) return "strongest AI";
	if (/^bot-(link|tetroll|rush|matrix)-baseline$/.test(name)) return "baseline AI";
	return name;
}

// "Blue (medium AI)" for seat p of a game whose seats are names[]; me: the
// reader's seat ("Red (you)").
function seatWords(p, names, me) {
	return SEAT_COLOURS[p] + " (" + (p === me ? "you" : playerWords(names && names[p])) + ")";
}

// A result line for the person at seat me, in one headline: "You won
// 17-12", "Draw", "You ran out of time", "You finished 2nd of 3".
function personResult(result, me, lowerWins) {
	const ranks = (fieldOf(result, "ranks") || "").split(","), scores = (fieldOf(result, "scores") || "").split(",");
	const faults = (fieldOf(result, "faults") || "").split(",");
	const n = ranks.length;
	if (!ranks[0]) return "The game ended without a result.";
	const f = faults[me] || "-";
	if (f === "timeout") return "You ran out of time.";
	if (f === "resigned") return "You resigned.";
	if (f !== "-" && f !== "") return "Your seat left the game: it " + (FAULT_WORDS[f] || "faulted") + ".";
	const mine = scores[me], best = ranks.map(function (r, p) { return p; }).filter(function (p) { return p !== me; })
		.sort(function (a, b) { return ranks[a] - ranks[b] || a - b; })[0];
	const firsts = ranks.filter(function (r) { return r === "1"; }).length;
	if (n === 1) return "You scored " + mine + ".";
	if (firsts === n) return "Draw, " + mine + "-" + mine + (n > 2 ? " (all " + n + " share first place)" : "") + ".";
	if (ranks[me] === "1" && firsts > 1) return "You share first place with " + mine + ".";
	const vs = +mine < 0 || +scores[best] < 0 ? mine + " to " + scores[best] : mine + "-" + scores[best];
	if (n === 2) return (ranks[me] === "1" ? "You won " : "You lost ") + vs + ".";
	if (ranks[me] === "1") return "You won with " + mine + "; next best " + scores[best] + ".";
	return "You finished " + ordinal(ranks[me]) + " of " + n + " with " + mine + ".";
}
