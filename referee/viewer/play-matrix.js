// play-matrix: a person's round at the Main Match (PLAY_VARIANTS.matrix):
// the legal SRS landings of the piece held shown on the field, one chosen
// with ← → (or by hovering), turned with R, placed with Enter or a click;
// table talk as a chat panel (say, offer, gift, accept, refuse, tome)
// limited to the partners the rules allow this round (the `talk` field;
// gifts to anyone). Holding several pieces after trades, the moves are
// offered as buttons. Only a move of the `moves` list is ever sent; every
// text from the other seats is shown as text. With a talk window (the
// option `talk`, ms, set by the server for a table with a person) the
// round shows its time left, and a move placed in it may be changed
// until it closes (ui.open, ui.done: play.js). A message with a character
// the protocol cannot carry (it is ASCII) is not sent, and says why.
"use strict";
(function () {
	const K = PLAYKIT;
	const log = el("ul", { id: "chatlog" });	// the talk of the whole game
	let hooked = false;

	function note(text, buttons) {
		const li = el("li", {}, text);
		(buttons || []).forEach(function (b) { li.appendChild(b); });
		log.appendChild(li);
		log.scrollTop = log.scrollHeight;
		return li;
	}
	// the answer buttons of offer `id` (all when null) are done with
	function answered(id) {
		Array.from(log.querySelectorAll("button.answer")).forEach(function (b) {
			if (id === null || b.dataset.id === id) b.disabled = true;
		});
	}
	let round = null;
	let windowEnd = 0, windowTimer = null;	// this round's talk window (ms since the epoch)
	function talkMs(ui) {
		const G = ui.game(), m = G && (G.options || "").match(/(^|,)talk[=:](\d+)/);
		return m ? Number(m[2]) : 0;
	}
	// the window's countdown, in the panel's #talkwindow; at its end the move sent is final
	function windowTick(ui) {
		clearTimeout(windowTimer);
		const left = windowEnd - Date.now(), span = document.getElementById("talkwindow");
		if (left <= 0) {
			if (span) span.textContent = "";
			if (windowEnd) ui.done();
			windowEnd = 0;
			return;
		}
		if (span) span.textContent = "Talk window: " + Math.ceil(left / 1000) + " s left; until then you may place your piece again.";
		windowTimer = setTimeout(function () { windowTick(ui); }, Math.min(left, 1000));
	}
	let who = function (p) { return SEAT_COLOURS[p] || "?"; };
	function hook(ui) {
		if (hooked) return;
		hooked = true;
		who = function (p) { return ui.who(+p); };
		ui.onLine = function (verb, rest) {
			const w = rest.split(" ");
			if (verb === "heard") note(who(w[0]) + " says: " + w.slice(1).join(" "));
			else if (verb === "offered") {
				const id = w[0], li = note(who(w[1]) + (w[3] === "-" ? " gives you its " + w[2] : " offers its " + w[2] + " for your " + w[3]) + " ");
				[["accept", "accept"], ["refuse", "refuse"]].forEach(function (a) {
					li.appendChild(K.button(a[1], { class: "answer", "data-id": id }, function () {
						ui.side(a[0] + " " + id);
						Array.from(li.querySelectorAll("button")).forEach(function (b) { b.disabled = true; });
					}));
				});
			} else if (verb === "traded") note("A trade is done: " + who(w[1]) + " gave " + article(w[2]) + " to " + who(w[3]) + (w[4] !== "-" ? " for " + article(w[4]) : "") + ".");
			else if (verb === "held") note("You now hold " + (rest === "-" ? "nothing" : rest.split("").join(", ")) + ".");
			else if (verb === "closed") {
				note("An offer closed (" + (w[1] || "").replace(/-/g, " ") + ").");
				answered(w[0]);
			}
			else if (verb === "ok") note("Sent.");
			else if (verb === "refused" && w[1] === "bad-text") note("Not sent: the referee takes only plain letters, digits and punctuation (ASCII).");
			else if (verb === "refused") note("Not allowed: " + w.slice(1).join(" ").replace(/-/g, " ") + ".");
			else if (verb === "rejected") note("Your chosen place no longer fits what you hold: choose again.");
		};
	}

	function chat(ui, pane, f) {
		const box = el("div", { class: "chat", id: "chat" });
		pane.appendChild(box);
		const talk = f.talk || "-", me = ui.seat, n = Number(f.players) || 2;
		const others = [];
		for (let p = 0; p < n; p++) if (p !== me) others.push(p);
		const partners = talk === "all" ? others : K.list(talk).map(Number).filter(function (p) { return p !== me; });
		box.appendChild(el("b", {}, "Table talk"));
		box.appendChild(el("span", { class: "muted" }, " this round with " + (partners.length ? partners.map(who).join(", ") : "nobody (gifts only)") +
			"; gifts left " + (f.gifts || "0")));
		box.appendChild(el("div", { id: "talkwindow" }));
		box.appendChild(log);
		function seatSelect(id, seats) {
			const s = el("select", { id: id });
			seats.forEach(function (p) { s.appendChild(el("option", { value: String(p) }, who(p))); });
			return s;
		}
		function pieceSelect(id, pieces) {
			const s = el("select", { id: id });
			pieces.forEach(function (k) { s.appendChild(el("option", { value: k }, k)); });
			return s;
		}
		const held = (f.held || "-") === "-" ? [] : f.held.split("");
		if (partners.length) {
			const r1 = el("div", { class: "row" });
			const to = seatSelect("sayto", partners), text = el("input", { id: "saytext", type: "text", maxlength: "180", placeholder: "a message" });
			r1.append(el("span", {}, "say to"), to, text, K.button("say", { id: "say" }, function () {
				const t = text.value.trim();
				// the protocol's talk is printable ASCII: refused whole, with the reason, never stripped
				const bad = Array.from(t).filter(function (c) { return !/^[ -~]$/.test(c); });
				if (bad.length) {
					note("Not sent: messages can hold only plain letters, digits and punctuation (ASCII), not " +
						bad.filter(function (c, j) { return bad.indexOf(c) === j; }).join(" ") + ".");
					return;
				}
				if (t) { ui.side("say " + to.value + " " + t); note("You to " + who(+to.value) + ": " + t); text.value = ""; }
			}));
			box.appendChild(r1);
			if (held.length) {
				const r2 = el("div", { class: "row" });
				const ot = seatSelect("offerto", partners), give = pieceSelect("give", held), want = pieceSelect("want", "IOTJLSZ".split(""));
				r2.append(el("span", {}, "offer"), ot, el("span", {}, "your"), give, el("span", {}, "for its"), want,
					K.button("offer", { id: "offer" }, function () { ui.side("offer " + ot.value + " " + give.value + " " + want.value); }));
				box.appendChild(r2);
			}
		}
		if (held.length && Number(f.gifts) > 0) {
			const r3 = el("div", { class: "row" });
			const gt = seatSelect("giftto", others), gp = pieceSelect("gift", held);
			r3.append(el("span", {}, "give your"), gp, el("span", {}, "to (anyone)"), gt,
				K.button("gift", { id: "giftbtn" }, function () { ui.side("gift " + gt.value + " " + gp.value); }));
			box.appendChild(r3);
		}
		if (f.round === "1" && (f.tome || "-") === "-")
			box.appendChild(K.button("take the challenge tome", { id: "tome" }, function () { ui.side("tome"); }));
	}

	PLAY_VARIANTS.matrix = function (ui, moves, box) {
		hook(ui);
		const f = K.fields(ui.state());
		// offers of a round that is over lapsed with it
		if (f.round !== round) {
			answered(null);
			const ms = talkMs(ui);
			windowEnd = ms > 0 ? Date.now() + ms : 0;
		}
		round = f.round;
		// a move placed in the window may change until it closes (a margin for the way here)
		ui.open = function () { return Date.now() < windowEnd - 500; };
		ui.windowLeft = function () { return Math.max(0, windowEnd - Date.now()); };
		const pane = K.pane(box, "matrix");
		pane.setAttribute("data-round", f.round || "");
		K.keys(null);
		const W = Number(f.width) || 10, H = Number(f.height) || 20;
		const landings = {};	// "T0" -> [{move, x, y, cells}]
		let top = H;
		moves.forEach(function (m) {
			const q = m.match(/^([IOTJLSZ])([0R2L])@(-?\d+),(\d+)$/);
			if (!q) return;
			const x = +q[3], y = +q[4];
			const cells = K.SRS[q[1]][q[2]].map(function (c) { return [x + c[0], y + c[1]]; });
			cells.forEach(function (c) { top = Math.max(top, c[1] + 1); });
			(landings[q[1] + q[2]] = landings[q[1] + q[2]] || []).push({ move: m, x: x, y: y, cells: cells });
		});
		const keys = Object.keys(landings).sort(function (a, b) { return "0R2L".indexOf(a[1]) - "0R2L".indexOf(b[1]); });
		K.prompt(pane, "Round " + f.round + ": place your " + (f.held && f.held !== "-" ? f.held.split("").join(" and ") : "nothing") +
			(f.next && f.next !== "-" ? " (next: " + f.next + ")" : "") + ". " +
			(keys.length ? "The green cells are where it may land: choose with ← → (or hover), turn it with R, place it with Enter (or a click)." : ""));
		if (!keys.length) {
			// several pieces held (after trades), or none: the moves as buttons
			const bar = el("div", { class: "playbar" });
			pane.appendChild(bar);
			moves.forEach(function (m) {
				bar.appendChild(K.button(m === "-" ? "place nothing" : moveWords("matrix", m), { "data-move": m }, function () { ui.send(m); }));
			});
			K.focusKeys(bar);
		} else {
			keys.forEach(function (k) { landings[k].sort(function (a, b) { return a.x - b.x || a.y - b.y; }); });
			const field = (f.field || "").split("/").filter(Boolean);
			const rows = [];
			for (let y = top - 1; y >= 0; y--) rows.push(field[field.length - 1 - y] || ".".repeat(W));
			let key = keys[0], i = 0;
			const bar = el("div", { class: "playbar" });
			pane.appendChild(bar);
			const pic = el("span", { class: "current" }), where = el("span", { class: "muted" });
			bar.append(pic, K.button("⟳ turn (R)", { id: "rotate" }, rotate), K.button("◀", { id: "left" }, function () { pick(i - 1); }),
				K.button("▶", { id: "right" }, function () { pick(i + 1); }), K.button("place (Enter)", { id: "place" }, place), where);
			// each cell in the colour of the seat that covered it (the live
			// step's owners), the starting field grey
			const st = ui.step(), own = st && st.own ? st.own.split("/") : [];
			const b = K.board(rows, function (ch, x, y) {
				if (ch === ".") return null;
				const o = (own[own.length - 1 - y] || "")[x];
				return o >= "0" && o <= "9" ? { fill: PALETTE[+o], label: SEAT_COLOURS[+o][0] } : o === "*" ? { fill: "#777", label: "*" } : "#bbb";
			}, {
				hover: function (x, y) {
					const j = landings[key].findIndex(function (l) { return l.cells.some(function (c) { return c[0] === x && c[1] === y; }); });
					if (j >= 0) pick(j);
				},
				click: function (x, y) {
					const j = landings[key].findIndex(function (l) { return l.cells.some(function (c) { return c[0] === x && c[1] === y; }); });
					if (j >= 0) { pick(j); place(); }
				},
			}, { share: 0.4, before: K.since("field", rows) });
			pane.appendChild(b.svg);
			function draw() {
				b.clear();
				landings[key].forEach(function (l) { b.show(l.cells, "target"); });
				const l = landings[key][i];
				b.show(l.cells, "ghost", PALETTE[ui.seat], { "data-move": l.move });
				b.svg.setAttribute("aria-label", "the field; your " + key[0] + " " + moveWords("matrix", l.move).replace(/^placed \S+ \S+ /, ""));
				b.svg.setAttribute("data-move", l.move);
				where.textContent = moveWords("matrix", l.move).replace(/^placed /, "") + " (" + (i + 1) + " of " + landings[key].length + ")";
			}
			function pick(j) { i = (j + landings[key].length) % landings[key].length; draw(); }
			function rotate() {
				const x = landings[key][i].x;
				key = keys[(keys.indexOf(key) + 1) % keys.length];
				// the landing of the new turn nearest the old column
				let best = 0;
				landings[key].forEach(function (l, j) { if (Math.abs(l.x - x) < Math.abs(landings[key][best].x - x)) best = j; });
				i = best;
				pic.textContent = "";
				pic.append(K.picture(K.SRS[key[0]][key[1]], PALETTE[ui.seat], 12), document.createTextNode(" " + (key[1] === "0" ? "as dealt" : key[1] === "2" ? "upside down" : ROT_WORDS[key[1]])));
				draw();
			}
			function place() { ui.send(landings[key][i].move); }
			K.keys({ ArrowLeft: function () { pick(i - 1); }, ArrowRight: function () { pick(i + 1); }, r: rotate, ArrowUp: rotate,
				Enter: place, ArrowDown: place, " ": place });
			key = keys[keys.length - 1];
			rotate();
		}
		chat(ui, pane, f);
		windowTick(ui);
		pane.setAttribute("data-ready", "1");
		return true;
	};
})();
