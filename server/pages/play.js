// play: a person's seat (docs/serve.md, "Playing"). The page is a bot: it
// speaks protocol.md over the WebSocket, one line per message, and only
// ever sends a move from the `moves` list the referee gave for the
// current `go`. The board comes from the same live events a spectator
// gets. This generic page lists the legal moves as buttons; a variant's
// own page (PLAY_VARIANTS[name], if loaded) may draw its own controls and
// call ui.send(move).
"use strict";
const PLAY_VARIANTS = {};
(function () {
	const D = JSON.parse(document.getElementById("data").textContent);
	const h1 = el("h1", {}, "game " + D.id + ": you are seat " + D.seat);
	const status = el("p", { id: "status" }, "connecting");
	const clock = el("span", { id: "clock" });
	const clocks = el("span", { id: "clocks" });
	const moves = el("div", { id: "moves" });
	const box = el("div", { id: "live" });
	const result = el("p", { id: "result", hidden: "" });
	const resign = el("button", { id: "resign", type: "button" }, "resign");
	document.body.append(h1, status, clock, clocks, moves, resign, result, box);
	// the creator's page: the links of the other person seats, to hand on
	if (D.invites && D.invites.length) {
		const inv = el("ul", { id: "invites" });
		D.invites.forEach(function (i) {
			const li = el("li", {}, "invite a friend to seat " + i.seat + ": ");
			li.appendChild(el("a", { href: i.url, "data-seat": String(i.seat) }, location.origin + i.url));
			inv.appendChild(li);
		});
		h1.after(inv);
	}

	let list = [], fresh = true, pending = false, deadline = 0, timer = null, over = false, G = null, goState = "", variant = null;
	const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?game=" +
		encodeURIComponent(D.id) + "&seat=" + D.seat + "&token=" + encodeURIComponent(D.token || "");
	// The seat survives the page (docs/serve.md, "A seat that survives"):
	// a page that comes back gets `web resume N STATE MS` and the N lines
	// so far, which it replays without answering; a page gone away
	// reconnects; a second page takes the seat over (`web taken`).
	let ws = null, replaying = 0, resumeState = "", resumeMs = 0, taken = false, retries = 0;
	let banks = [], banksAt = 0;	// the `web clocks` line: each seat's bank (ms), running or not
	function send(line) { if (!replaying && ws && ws.readyState === 1) ws.send(line); }
	function connect() {
		ws = new WebSocket(url);
		ws.addEventListener("message", function (ev) {
			retries = 0;
			const line = String(ev.data);
			if (line.startsWith("web ")) { web(line.slice(4)); return; }
			receive(line);
			if (replaying && --replaying === 0) resumed();
		});
		ws.addEventListener("close", function (ev) {
			if (over || resigned || taken || ev.code === 1000 || ev.code === 1008) {
				if (!over && !resigned && !taken) say("the connection closed");
				return;
			}
			// gone away mid-game (a network hiccup): come back while the grace lasts
			say("the connection was lost; reconnecting");
			if (retries++ < 30) setTimeout(connect, Math.min(500 * retries, 4000));
		});
	}
	function web(rest) {
		const f = rest.split(" "), verb = f[0];
		if (verb === "resume") {
			replaying = Number(f[1]) || 0;
			resumeState = f[2] || "answered";
			resumeMs = Number(f[3]) || 0;
			list = []; fresh = true; pending = false;
			if (!replaying) resumed();
		} else if (verb === "taken") {
			taken = true;
			over = true;
			pending = false;
			moves.textContent = "";
			say(f.slice(1).join(" "));
		} else if (verb === "clocks") {
			banks = f.slice(1).filter(Boolean).map(function (b) {
				return { ms: parseInt(b, 10), running: b.endsWith("*") };
			});
			banksAt = Date.now();
			tick();
		}
	}
	// the replay of the lines so far is done: the pending `go` is ours again
	function resumed() {
		if (resumeState === "pending" && !over) {
			deadline = Date.now() + resumeMs;
			say("your move: " + list.length + " legal moves", true);
		} else if (!over) {
			pending = false;
			moves.textContent = "";
			say("waiting for the others");
		}
		tick();
	}
	function say(text, turn) { status.textContent = text; status.className = turn ? "turn" : ""; }
	function tick() {
		const left = Math.max(0, deadline - Date.now());
		clock.textContent = pending ? (left / 1000).toFixed(1) + " s left" : "";
		// every seat's bank, counted down while it runs; under 10 s, class low
		clocks.textContent = "";
		if (over) return;
		banks.forEach(function (b, p) {
			const ms = Math.max(0, b.ms - (b.running ? Date.now() - banksAt : 0));
			const s = Math.floor(ms / 1000), text = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
			clocks.appendChild(el("span", { class: "bank" + (b.running ? " running" : "") + (ms < 10000 ? " low" : ""),
				"data-seat": String(p), "data-ms": String(ms) }, (p === D.seat ? "you" : "seat " + p) + " " + text));
		});
	}
	function play(move) {
		if (!pending || list.indexOf(move) < 0) return;	// only a legal move, once
		pending = false;
		moves.textContent = "";
		send("move " + move);
		say("sent " + move + "; waiting for the others");
		tick();
	}
	// for a variant's page: the `go` state, side lines (table talk), the
	// lines play.js does not handle, the game's header
	const ui = { send: play, seat: D.seat, moves: function () { return list; },
		state: function () { return goState; }, pending: function () { return pending; },
		side: function (line) { if (!over) send(line); }, onLine: null, game: function () { return G; },
		clocks: function () { return banks; } };
	function offer() {
		moves.textContent = "";
		const custom = PLAY_VARIANTS[variant || (G && G.variant)];
		if (custom && custom(ui, list, moves)) return;
		list.forEach(function (m) {
			const b = el("button", { type: "button", "data-move": m }, m);
			b.addEventListener("click", function () { play(m); });
			moves.appendChild(b);
		});
	}
	function receive(line) {
		const sp = line.indexOf(" ");
		const verb = sp < 0 ? line : line.slice(0, sp), rest = sp < 0 ? "" : line.slice(sp + 1);
		if (verb === "game") {
			// the variant from the `game` line: the live header may come later
			const m = rest.match(/(^| )variant=(\S+)/);
			variant = m ? m[2] : null;
			send("hello person 1 moves");
			say("the game begins");
		} else if (verb === "moves") {
			if (fresh) list = [];	// the lines before one go make one list
			fresh = false;
			list = list.concat(rest.split(" ").filter(Boolean));
		} else if (verb === "go") {
			pending = true;
			fresh = true;
			deadline = Date.now() + Number(rest.split(" ")[0]);
			goState = rest.slice(rest.indexOf(" ") + 1);
			say("your move: " + list.length + " legal moves", true);
			offer();
			tick();
		} else if (verb === "result") {
			end(rest);
		} else if (ui.onLine) {
			ui.onLine(verb, rest, line);
		}
	}
	// The end screen: the result in words (common.js), the link to the replay.
	function end(rest) {
		if (!result.hidden) return;
		over = true;
		pending = false;
		moves.textContent = "";
		const f = LIVE.fields(rest);
		const rank = f.ranks ? +f.ranks[D.seat] : 0, n = f.ranks ? f.ranks.length : 0;
		result.dataset.result = rest;
		result.textContent = "Game over: you finished " + LIVE.ordinal(rank) + " of " + n + " with " +
			(f.scores ? f.scores[D.seat] : "?") + (G && G.variant === "rush" ? " uncovered squares" : " points") +
			" (" + (f.reason || ["?"])[0] + "). ";
		result.appendChild(el("a", { href: "/games/" + encodeURIComponent(D.id) + "/replay" }, "replay"));
		if (G && typeof resultWords === "function") {
			const words = resultWords(rest, G.bots.map(function (b) { return b.name; }), G.lower_score_wins,
				G.variant === "rush" ? "uncovered squares" : "points");
			const ul = el("ul", { class: "words" });
			words.forEach(function (w) { ul.appendChild(el("li", {}, w)); });
			result.appendChild(ul);
		}
		result.hidden = false;
		say("the game is over");
	}
	// mid-game, leaving the page asks first (the seat waits for its grace)
	window.addEventListener("beforeunload", function (ev) {
		if (over || resigned || taken) return;
		ev.preventDefault();
		ev.returnValue = "";
	});
	// back from the browser's page cache: its socket is gone
	window.addEventListener("pageshow", function (ev) {
		if (ev.persisted && !over && !taken && (!ws || ws.readyState > 1)) connect();
	});
	// resigning is the line `resign` (protocol.md, Faults): the seat is out,
	// the game goes on for the others; the end screen comes with the game's end
	resign.addEventListener("click", function () {
		if (over || resigned) return;
		if (!resign.dataset.armed) {	// a second click within 4 s resigns
			resign.dataset.armed = "1";
			resign.textContent = "click again to resign";
			setTimeout(function () { delete resign.dataset.armed; if (!resigned) resign.textContent = "resign"; }, 4000);
			return;
		}
		resigned = true;
		send("resign");
		pending = false;
		moves.textContent = "";
		say("you resigned; the game goes on without you");
	});
	let resigned = false;
	timer = setInterval(tick, 100);
	connect();
	LIVE.watch(D.id, {
		game: function (g) { G = g; },
		step: function (n, st, g) { LIVE.draw(box, g, st); },
		end: function (info) { end(info.result); },
	});
})();
