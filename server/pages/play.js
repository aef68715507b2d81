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
	// The table (docs/viewer.md, "The play page"): a bar with the game's
	// name, the rules, the sound and resigning; the seats around the
	// board, each in its colour with its score and clock; what to do now;
	// the board with your controls (#moves) beside the whole table (#live);
	// how to win, with the score as it stands; the end screen (#result).
	document.body.classList.add("play");
	const h1 = el("h1", {}, "tetrarena");
	const rulesLink = el("a", { id: "rules-link", href: "/rules", target: "_blank" }, "Rules");
	const sound = el("button", { id: "sound", type: "button", "aria-pressed": "false" });
	const resign = el("button", { id: "resign", type: "button" }, "Resign");
	const confirmBtn = el("button", { id: "confirm", type: "button", hidden: "" }, "Confirm");
	const top = el("header", { id: "top" });
	top.append(h1, rulesLink, sound, resign);
	const seatsBar = el("section", { id: "seats", "aria-label": "the players" });
	const status = el("p", { id: "status", role: "status", "aria-live": "polite" }, "Connecting…");
	const clock = el("span", { id: "clock", class: "clock" });
	const moves = el("div", { id: "moves" });
	const box = el("div", { id: "live", role: "img", "aria-label": "the whole table" });
	const table = el("main", { id: "table" });
	const howto = el("aside", { id: "howto" });
	table.append(moves, box, howto);
	const result = el("section", { id: "result", hidden: "", role: "dialog", "aria-label": "the game is over" });
	const statusRow = el("div", { id: "statusrow" });
	statusRow.append(status, confirmBtn);
	document.body.append(top, seatsBar, statusRow, result, table);
	let lastStep = null;	// the latest live step (scores)
	let lastStepAt = Date.now();

	// ---- sound: a beep for your turn and the end, muted by a toggle ----
	const MUTE = "tetrarena-mute";
	let audio = null;
	function muted() { try { return localStorage.getItem(MUTE) === "1"; } catch (e) { return false; } }
	function drawSound() {
		sound.textContent = muted() ? "Sound: off" : "Sound: on";
		sound.setAttribute("aria-pressed", muted() ? "false" : "true");
	}
	sound.addEventListener("click", function () {
		try { localStorage.setItem(MUTE, muted() ? "0" : "1"); } catch (e) { /* no storage: stays */ }
		drawSound();
	});
	drawSound();
	function beep(freq, ms) {
		if (muted()) return;
		try {
			audio = audio || new (window.AudioContext || window.webkitAudioContext)();
			const o = audio.createOscillator(), g = audio.createGain();
			o.frequency.value = freq;
			g.gain.value = 0.08;
			o.connect(g);
			g.connect(audio.destination);
			o.start();
			o.stop(audio.currentTime + ms / 1000);
		} catch (e) { /* no audio here */ }
	}

	// ---- the seats: colour, who, score, clock ----
	function names() { return G ? G.bots.map(function (b) { return b.name; }) : []; }
	function who(p) { return seatWords(p, names(), D.seat); }
	function v() { return variant || (G && G.variant) || ""; }
	function unit() { return v() === "rush" ? "uncovered" : "points"; }
	function drawSeats() {
		if (!G) return;
		if (seatsBar.children.length !== G.players) {
			seatsBar.textContent = "";
			for (let p = 0; p < G.players; p++) {
				const c = el("div", { class: "seatcard" + (p === D.seat ? " me" : ""), "data-seat": String(p) });
				const sw = el("span", { class: "swatch" });
				sw.style.background = PALETTE[p];
				c.append(sw, el("span", { class: "who" }, who(p)), el("span", { class: "score" }),
					p === D.seat ? clock : el("span", { class: "clock" }));
				if (p === D.seat) c.appendChild(el("span", { class: "clock bank" }));
				seatsBar.appendChild(c);
			}
		}
		const sc = lastStep && lastStep.sc ? lastStep.sc : [];
		Array.from(seatsBar.children).forEach(function (c, p) {
			c.querySelector(".score").textContent = (sc[p] !== undefined ? sc[p] : 0) + " " + unit();
			c.style.borderColor = PALETTE[p];
		});
		drawHowto();
	}
	// "how to win", and where you stand now
	function drawHowto() {
		const w = GAME_WORDS[v()];
		if (!w) return;
		rulesLink.href = "/rules/" + v();
		h1.textContent = (G && G.title ? G.title : v()) + ": you are " + SEAT_COLOURS[D.seat];
		howto.textContent = "";
		howto.append(el("h2", {}, "How to win"), el("p", {}, w.win));
		const sc = lastStep && lastStep.sc ? lastStep.sc.map(Number) : null;
		if (sc && sc.length) {
			const mine = sc[D.seat], others = sc.filter(function (x, p) { return p !== D.seat; });
			const lower = v() === "rush";
			const best = others.length ? (lower ? Math.min.apply(null, others) : Math.max.apply(null, others)) : null;
			let t = "Now you have " + mine + " " + (lower ? "uncovered squares" : "points");
			if (best !== null) {
				const d = lower ? best - mine : mine - best;
				t += d > 0 ? ": you lead by " + d + "." : d < 0 ? ": you are " + (-d) + " behind the leader." : ": level with the leader.";
			} else t += ".";
			howto.appendChild(el("p", { id: "livescore" }, t));
		}
		const more = el("a", { href: "/rules/" + v(), target: "_blank" }, "All the rules of " + (G && G.title ? G.title : v()));
		howto.appendChild(el("p", {}, "")).appendChild(more);
	}
	// the creator's page: the links of the other person seats, to hand on
	if (D.invites && D.invites.length) {
		const inv = el("ul", { id: "invites", "aria-label": "invite friends" });
		D.invites.forEach(function (i) {
			const li = el("li", {}, "Invite a friend to play " + SEAT_COLOURS[i.seat] + ": ");
			li.appendChild(el("a", { href: i.url, "data-seat": String(i.seat) }, location.origin + i.url));
			inv.appendChild(li);
		});
		statusRow.after(inv);
	}

	let moved = false;	// a move sent for the open `go`
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
			say("Your turn.", true);
		} else if (!over) {
			pending = false;
			moves.textContent = "";
			say("waiting for the others");
		}
		tick();
	}
	function say(text, turn) { status.textContent = text; status.className = turn ? "turn" : ""; }
	function clockText(ms) {
		const t = Math.ceil(ms / 1000);
		return t >= 60 ? Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0") : (ms / 1000).toFixed(1) + " s";
	}
	function tick() {
		const left = Math.max(0, deadline - Date.now());
		// your clock: the time left for this move; the others': how long
		// they have been thinking since the last move
		clock.textContent = over ? "" : pending ? clockText(left) + " left" : "waiting";
		clock.classList.toggle("low", pending && left < 10000);
		clock.classList.toggle("running", pending);
		// every seat's bank from the server (`web clocks`), counted down
		// while it runs, low under 10 s; before the first: how long the
		// others have been thinking since the last move
		Array.from(seatsBar.querySelectorAll(".seatcard")).forEach(function (c) {
			const p = Number(c.dataset.seat), b = banks[p], me = p === D.seat;
			const span = c.querySelector(me ? ".bank" : ".clock");
			if (!span) return;
			if (over) { span.textContent = ""; return; }
			if (b) {
				const ms = Math.max(0, b.ms - (b.running ? Date.now() - banksAt : 0));
				span.textContent = (me ? "bank " : "") + clockText(ms);
				span.dataset.ms = String(ms);
				span.classList.toggle("low", ms < 10000);
				span.classList.toggle("running", b.running);
			} else if (!me) span.textContent = "thinking " + clockText(Date.now() - lastStepAt);
		});
	}
	// A move stays open to change while the variant says its round's
	// talk window is (ui.open: the Main Match's option `talk`): the last
	// one sent counts; ui.done() fixes it when the window closes.
	function play(move) {
		if (!pending || list.indexOf(move) < 0) return;	// only a legal move, once
		const open = !!(ui.open && ui.open());
		if (moved && !open) return;
		moved = true;
		if (!open) {
			pending = false;
			moves.textContent = "";
		}
		send("move " + move);
		PLAYKIT.confirm(null);
		say("Played: " + (moveWords(v(), move) || "your move") +
			(open ? ". You may still talk, and change it until the talk window closes." : ". Waiting for the others."));
		tick();
	}
	function done() {
		if (!moved || !pending) return;
		pending = false;
		moves.textContent = "";
		say("The talk window closed: your move is final. Waiting for the others.");
		tick();
	}
	// the board of your turn shrinks to the window's height (the words
	// and buttons above it wrap on a narrow screen)
	function fit() {
		const s = document.getElementById("playboard");
		if (!s) return;
		const r = s.getBoundingClientRect(), room = window.innerHeight - (r.top + window.scrollY) - 6;
		if (r.bottom + window.scrollY > window.innerHeight && room > 80) {
			s.style.height = room + "px";
			s.style.width = "auto";
		}
	}
	// for a variant's page: the `go` state, side lines (table talk), the
	// lines play.js does not handle, the game's header
	const ui = { send: play, seat: D.seat, moves: function () { return list; },
		state: function () { return goState; }, pending: function () { return pending; },
		side: function (line) { if (!over) send(line); }, onLine: null, game: function () { return G; },
		open: null, done: done, windowLeft: null,
		step: function () { return lastStep; }, who: function (p) { return who(p); },
		clocks: function () { return banks; } };
	function offer() {
		moves.textContent = "";
		const custom = PLAY_VARIANTS[variant || (G && G.variant)];
		if (custom && custom(ui, list, moves)) { fit(); return; }
		list.forEach(function (m) {
			const b = el("button", { type: "button", "data-move": m }, moveWords(v(), m) || m);
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
			say("The game begins.");
			drawHowto();
		} else if (verb === "moves") {
			if (fresh) list = [];	// the lines before one go make one list
			fresh = false;
			list = list.concat(rest.split(" ").filter(Boolean));
		} else if (verb === "go") {
			pending = true;
			moved = false;
			fresh = true;
			deadline = Date.now() + Number(rest.split(" ")[0]);
			goState = rest.slice(rest.indexOf(" ") + 1);
			say("Your turn.", true);
			beep(660, 120);
			offer();
			// a talk window's time is free: the clock counts from its end
			if (ui.windowLeft) deadline += ui.windowLeft();
			tick();
		} else if (verb === "result") {
			end(rest);
		} else if (ui.onLine) {
			ui.onLine(verb, rest, line);
		}
	}
	// The end screen: the result in words ("You won 17-12", common.js),
	// each seat's place, and what next: a rematch (the same seats
	// rotated, a new seed), a new game, the replay. The resign button and
	// the clocks go.
	function end(rest) {
		if (!result.hidden) return;
		over = true;
		pending = false;
		moves.textContent = "";
		PLAYKIT.keys(null);
		resign.hidden = true;
		confirmBtn.hidden = true;
		Array.from(document.querySelectorAll(".clock")).forEach(function (c) { c.textContent = ""; c.hidden = true; });
		result.dataset.result = rest;
		result.textContent = "";
		const lower = !!(G && G.lower_score_wins);
		const head = personResult(rest, D.seat, lower);
		result.appendChild(el("h2", { id: "headline" }, head));
		if (G) {
			const words = resultWords(rest, names(), lower, v() === "rush" ? "uncovered squares" : "points", who);
			const ul = el("ul", { class: "words" });
			words.slice(1).forEach(function (w) { ul.appendChild(el("li", {}, w)); });
			result.appendChild(ul);
		}
		const bar = el("div", { class: "endbar" });
		const again = el("button", { id: "rematch", type: "button" }, "Rematch");
		again.addEventListener("click", rematch);
		bar.append(again, el("a", { id: "newgame", class: "button", href: "/" }, "New game"),
			el("a", { id: "replay", href: "/games/" + encodeURIComponent(D.id) + "/replay" }, "Watch the replay"));
		result.appendChild(bar);
		result.appendChild(el("p", { id: "rematch-error", class: "bad", hidden: "" }));
		result.hidden = false;
		say(head);
		beep(440, 300);
		again.focus();
	}
	// A rematch: POST /games as the start page does, the same seats
	// rotated by one (each moves to the next seat), the same options, a
	// new seed; the answer's Location is your new seat's page.
	function rematch() {
		if (!G) return;
		const n = G.players, body = new URLSearchParams();
		body.append("variant", G.variant);
		for (let p = 0; p < n; p++) {
			const name = G.bots[(p + n - 1) % n].name;
			body.append("seat", /^person\d*$/.test(name) ? "person" : name);
		}
		(G.options || "").split(",").forEach(function (kv) {
			const i = kv.indexOf("=") >= 0 ? kv.indexOf("=") : kv.indexOf(":");
			if (i > 0) body.append("opt." + kv.slice(0, i), kv.slice(i + 1));
		});
		const err = document.getElementById("rematch-error");
		fetch("/games", { method: "POST", body: body, headers: { "Content-Type": "application/x-www-form-urlencoded" } })
			.then(function (r) {
				if (r.ok && r.redirected) { location.href = r.url; return; }
				return r.text().then(function (t) { err.textContent = "No rematch: " + t; err.hidden = false; });
			}).catch(function (e) { err.textContent = "No rematch: " + e; err.hidden = false; });
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
			resign.textContent = "Click again to resign";
			setTimeout(function () { delete resign.dataset.armed; if (!resigned) resign.textContent = "Resign"; }, 4000);
			return;
		}
		resigned = true;
		send("resign");
		pending = false;
		moves.textContent = "";
		say("You resigned; the game goes on without you.");
	});
	let resigned = false;
	timer = setInterval(tick, 100);
	// the whole table, drawn as the replay draws it, with the seats named
	function drawTable() {
		if (!G || !lastStep) return;
		let j = G.steps.indexOf(lastStep);
		while (j > 0 && G.steps[j] && G.steps[j].k === "chance") j--;
		const pic = typeof BOARDS === "function" ? BOARDS(G, lastStep, j > 0 ? G.steps[j - 1] : null, { who: who }) : null;
		box.textContent = "";
		if (pic) {
			pic.setAttribute("aria-label", "the whole table: " + G.bots.map(function (b, p) { return who(p); }).join(", "));
			box.appendChild(pic);
		}
	}
	connect();
	LIVE.watch(D.id, {
		game: function (g) { G = g; drawSeats(); },
		step: function (n, st) { lastStep = st; lastStepAt = Date.now(); drawTable(); drawSeats(); },
		end: function (info) { end(info.result); },
	});
	// a resize draws the board again at once
	let resizing = null, drawnAt = window.innerWidth + "x" + window.innerHeight;
	window.addEventListener("resize", function () {
		clearTimeout(resizing);
		resizing = setTimeout(function () {
			const now = window.innerWidth + "x" + window.innerHeight;
			if (now === drawnAt) return;
			drawnAt = now;
			drawTable();
			if (pending) offer();
		}, 30);
	});
	hintButton(D, top);
})();

// The optional hint (server/coach.h): a button in the bar, only where the
// server gives hints (never in a tournament's or a ladder's game); nothing
// is shown until it is pressed. The AI's choice for the seat's latest
// decision, computed by a worker process on the server, polled.
function hintButton(D, bar) {
	const base = "/games/" + encodeURIComponent(D.id) + "/hint?seat=" + D.seat;
	fetch(base + "&probe=1").then(function (r) { return r.json(); }).then(function (j) {
		if (!j.hints) return;
		const b = el("button", { id: "hint", type: "button", title: "what our strongest AI would play now" }, "Hint");
		const out = el("span", { id: "hinttext", class: "muted" }, "");
		bar.append(b, out);
		b.addEventListener("click", function () {
			b.disabled = true;
			out.textContent = "thinking…";
			let first = true;
			function poll() {
				fetch(base + "&token=" + encodeURIComponent(D.token || "") + (first ? "&new=1" : "")).then(function (r) {
					return r.ok ? r.json() : r.text().then(function (t) { throw new Error(t); });
				}).then(function (h) {
					first = false;
					if (h.state === "running") { setTimeout(poll, 400); return; }
					b.disabled = false;
					out.textContent = h.state === "done" ? "our AI would play " + (h.decision.choice || "?") + " (decision " + h.decision.step + ")"
						: "no hint: " + h.error;
				}).catch(function (e) { b.disabled = false; out.textContent = "no hint: " + e.message.trim(); });
			}
			poll();
		});
	}).catch(function () {});
}
