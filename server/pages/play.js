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
	const moves = el("div", { id: "moves" });
	const box = el("div", { id: "live" });
	const result = el("p", { id: "result", hidden: "" });
	const resign = el("button", { id: "resign", type: "button" }, "resign");
	document.body.append(h1, status, clock, moves, resign, result, box);

	let list = [], fresh = true, pending = false, deadline = 0, timer = null, over = false, G = null, goState = "", variant = null;
	const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?game=" +
		encodeURIComponent(D.id) + "&seat=" + D.seat + "&token=" + encodeURIComponent(D.token || "");
	const ws = new WebSocket(url);
	function send(line) { ws.send(line); }
	function say(text, turn) { status.textContent = text; status.className = turn ? "turn" : ""; }
	function tick() {
		const left = Math.max(0, deadline - Date.now());
		clock.textContent = pending ? (left / 1000).toFixed(1) + " s left" : "";
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
		side: function (line) { if (!over) send(line); }, onLine: null, game: function () { return G; } };
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
	ws.addEventListener("message", function (ev) {
		const line = String(ev.data), sp = line.indexOf(" ");
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
	});
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
	ws.addEventListener("close", function () {
		if (!over && !resigned) say("the connection closed");
		clearInterval(timer);
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
	LIVE.watch(D.id, {
		game: function (g) { G = g; },
		step: function (n, st, g) { LIVE.draw(box, g, st); },
		end: function (info) { end(info.result); },
	});
})();
