// play-tetroll: a person's decisions at Tetroll (PLAY_VARIANTS.tetroll):
// the dice drawn, click dice to mark them for a reroll and choose which
// first prize pays for it (or keep them); the shape the dice make, any
// shape on a joker; the piece placed on the sheet by hovering and
// clicking, turned (R) and mirrored (M); the copy, #3's ring and #6's
// number as clicks on the sheet or the tracks; each finished row's score
// beside it, the bonus tracks under the sheet. Only a move of the `moves`
// list is ever sent.
"use strict";
(function () {
	const K = PLAYKIT;

	function tracks(pane, f, seat) {
		const rings = K.list(f.rings), marked = K.list(f["rings" + seat]), prizes = (f["prizes" + seat] || "").split("");
		const PRIZE = { o: "first prize open", x: "first prize crossed out", 1: "first prize won", 2: "runner-up won" };
		const p = el("p", { class: "tracks muted" });
		p.textContent = "Your bonus tracks: " + rings.map(function (n, b) {
			return "#" + (b + 1) + " " + (marked[b] || 0) + "/" + n + " (" + (PRIZE[prizes[b]] || "?") + ")";
		}).join(", ") + ". Score now: " + (K.list(f.scores)[seat] || "?") + ".";
		pane.appendChild(p);
	}

	function dice(ui, moves, pane, f) {
		const values = (f.dice || "").split("").filter(function (c) { return /[1-6]/.test(c); });
		const shape = f.shape === "joker" ? "a joker (a majority of 6s): you choose the shape, every cell a 6"
			: f.shape && f.shape !== "-" ? "the " + f.shape[1] + " (its cells are " + f.shape[0] + "s)" : "no shape";
		K.prompt(pane, "Your dice make " + shape + ". Keep them, or mark dice to reroll (a click, or Tab and Enter), paying with a bonus's first prize.");
		const row = el("div", { class: "dice" });
		pane.appendChild(row);
		const marked = values.map(function () { return false; });
		const pay = el("div", { class: "playbar" });
		values.forEach(function (v, i) {
			const b = K.button("", { class: "die-button", "data-value": v, "aria-pressed": "false",
				"aria-label": "a die showing " + v + ": press to mark it for a reroll" }, function (ev) {
				marked[i] = !marked[i];
				ev.currentTarget.classList.toggle("reroll", marked[i]);
				ev.currentTarget.setAttribute("aria-pressed", marked[i] ? "true" : "false");
				offer();
			});
			b.appendChild(K.die(+v, window.innerWidth < 700 ? 40 : 52));
			row.appendChild(b);
		});
		const kb = el("div", { class: "playbar" });
		kb.appendChild(K.button("keep these dice", { id: "keep", "data-move": "keep" }, function () { ui.send("keep"); }));
		pane.append(kb, pay);
		setTimeout(function () { const k = document.getElementById("keep"); if (k && k.isConnected) k.focus({ preventScroll: true }); }, 0);
		function offer() {
			pay.textContent = "";
			const chosen = values.filter(function (v, i) { return marked[i]; }).sort().join("");
			if (!chosen) return;
			const options = moves.filter(function (m) { return m.indexOf("reroll:" + chosen + ":") === 0; });
			if (!options.length) { pay.appendChild(el("span", { class: "muted" }, "no bonus can pay for that reroll")); return; }
			pay.appendChild(el("span", {}, "Reroll " + chosen.split("").join(" ") + ", crossing out the first prize of: "));
			options.forEach(function (m) {
				const b = m.split(":b")[1];
				pay.appendChild(K.button("bonus #" + b, { class: "reroll-pay", "data-move": m }, function () { ui.send(m); }));
			});
		}
		return true;
	}

	// The sheet as a board; targets: cells to click, "x:y" -> move.
	function sheet(ui, pane, f, paint, on) {
		const rows = (f["sheet" + ui.seat] || "").split("/"), H = rows.length - 3;
		// the special spaces, from the game's layout (the live header)
		const G = ui.game(), layout = G && G.layout ? G.layout.split("/") : [];
		const SPACE = { r: ["○", "#eef4ff"], d: ["×2", "#dde8ff"], c: ["c", "#fff0dd"] };
		const b = K.board(rows, paint || function (ch, x, y) {
			if (ch !== ".") return PALETTE[(+ch + 5) % 7];
			if (y >= H) return "#f2f2f2";
			const sp = SPACE[(layout[H - 1 - y] || "")[x]];
			return sp ? { fill: sp[1], label: sp[0], ink: "#666" } : null;
		}, on, { labels: true, share: 0.4, before: K.since("sheet", rows), side: function (y) {
			// a finished row's score: 10 less each number seen before in it
			if (y >= H) return "";
			const row = rows[rows.length - 1 - y];
			if (row.indexOf(".") >= 0) return "";
			const seen = {};
			let score = 10;
			row.split("").forEach(function (c) { if (seen[c]) score -= +c; seen[c] = true; });
			return "= " + score;
		} });
		pane.appendChild(b.svg);
		return b;
	}

	function place(ui, moves, pane, f) {
		const legal = {};
		moves.forEach(function (m) {
			const q = m.match(/^([IOTJLSZ][0-3])@(\d+):(\d+)$/);
			if (q) (legal[q[1]] = legal[q[1]] || {})[q[2] + ":" + q[3]] = true;
		});
		const keys = Object.keys(legal).sort();
		if (!keys.length) return false;
		const joker = f.shape === "joker";
		K.prompt(pane, (joker ? "A joker: choose any shape, every cell a 6. " : "Place " + (f.shape ? "the " + f.shape[1] + " of " + f.shape[0] + "s" : "the piece") + ". ") +
			"Choose where with ← → (or hover), turn it with R, mirror it with M, write it with Enter (or a click).");
		const bar = el("div", { class: "playbar" });
		pane.appendChild(bar);
		const free = function (k) { return { J: "L", Z: "S" }[k[0]] || k[0]; };
		const shapes = [];
		keys.forEach(function (k) { if (shapes.indexOf(free(k)) < 0) shapes.push(free(k)); });
		if (shapes.length > 1)
			shapes.forEach(function (s) {
				bar.appendChild(K.button(s, { class: "shape", "data-shape": s }, function () { set(keys.filter(function (k) { return free(k) === s; })[0]); }));
			});
		const pic = el("span", { class: "current" });
		bar.append(pic, K.button("⟳ turn (R)", { id: "rotate" }, rotate), K.button("⇋ mirror (M)", { id: "mirror" }, mirror));
		let key = keys[0], aimed = null, idx = 0;
		const b = sheet(ui, pane, f, null, {
			hover: function (x, y) { aim(x, y); },
			click: function (x, y) { aim(x, y); if (aimed) ui.send(aimed); },
			leave: function () { b.clear("ghost"); aimed = null; },
		});
		function cover(x, y) {
			// (x, y) itself when it is a legal anchor (a marked cell), else
			// the legal anchor whose piece covers (x, y)
			if (legal[key][x + ":" + y]) return x + ":" + y;
			const cells = K.CELLS[key].slice().sort(function (a, c) { return a[0] + a[1] - c[0] - c[1]; });
			for (let i = 0; i < cells.length; i++) {
				const a = (x - cells[i][0]) + ":" + (y - cells[i][1]);
				if (legal[key][a]) return a;
			}
			return null;
		}
		function aim(x, y) {
			b.clear("ghost");
			const a = cover(x, y);
			aimed = a ? key + "@" + a : null;
			if (!a) return;
			const ax = +a.split(":")[0], ay = +a.split(":")[1];
			b.show(K.CELLS[key].map(function (c) { return [ax + c[0], ay + c[1]]; }), "ghost", PALETTE[ui.seat], { "data-move": aimed });
		}
		function set(k) {
			key = k;
			pic.textContent = "";
			pic.append(K.picture(K.CELLS[k], PALETTE[ui.seat], 12), document.createTextNode(" " + ROT_WORDS[k[1]]));
			b.clear();
			// where it may go: each legal anchor's lower-left cell
			b.show(Object.keys(legal[k]).map(function (a) { return a.split(":").map(Number); }), "target");
			b.svg.setAttribute("data-targets", Object.keys(legal[k]).join(","));
			b.svg.setAttribute("data-key", k);
			pick(0);
		}
		// the keyboard: ← → walk the legal places (bottom up, left to right)
		function pick(j) {
			const a = Object.keys(legal[key]).map(function (t) { return t.split(":").map(Number); })
				.sort(function (p, q) { return p[1] - q[1] || p[0] - q[0]; });
			idx = K.cycle(a.length, j, 0);
			if (a.length) aim(a[idx][0], a[idx][1]);
			b.svg.setAttribute("aria-label", "your sheet; the piece " + (aimed ? moveWords("tetroll", aimed).replace(/^placed /, "") : ""));
		}
		function rotate() {
			const same = keys.filter(function (k) { return k[0] === key[0]; });
			set(same[(same.indexOf(key) + 1) % same.length]);
		}
		function mirror() { if (legal[K.MIRROR[key]]) set(K.MIRROR[key]); }
		K.keys({ r: rotate, ArrowUp: rotate, m: mirror, ArrowLeft: function () { pick(idx - 1); }, ArrowRight: function () { pick(idx + 1); },
			Enter: function () { if (aimed) ui.send(aimed); }, " ": function () { if (aimed) ui.send(aimed); } });
		set(key);
		return true;
	}

	// copy@X:Y and write:V@X:Y: a cell of the sheet (and a value first)
	function cells(ui, moves, pane, f, stage) {
		const q = (f.queue || "").split(",")[0];
		const values = {};
		moves.forEach(function (m) {
			const w = m.match(/^write:(\d)@/);
			if (w) values[w[1]] = true;
		});
		K.prompt(pane, stage === "copy" ? "A copy space: choose an empty cell (← → and Enter, or a click) to write the same number (" + q.split(":")[1] + ") in." :
			"Bonus #6's prize: choose a number (a click, or its key 1-6), then an empty cell (← → and Enter, or a click) to write it in.");
		const bar = el("div", { class: "playbar" });
		pane.appendChild(bar);
		let prefix = stage === "copy" ? "copy@" : null, ti = 0, t = [];
		const b = sheet(ui, pane, f, null, {
			click: function (x, y) { if (prefix && moves.indexOf(prefix + x + ":" + y) >= 0) ui.send(prefix + x + ":" + y); },
		});
		function targets() {
			b.clear();
			t = moves.filter(function (m) { return prefix && m.indexOf(prefix) === 0; }).map(function (m) { return m.slice(prefix.length); });
			b.show(t.map(function (a) { return a.split(":").map(Number); }), "target");
			b.svg.setAttribute("data-targets", t.join(","));
			pick(0);
		}
		// the keyboard: ← → walk the empty cells, Enter writes
		function pick(j) {
			b.clear("ghost");
			if (!t.length) return;
			ti = K.cycle(t.length, j, 0);
			const c = t[ti].split(":").map(Number);
			b.show([c], "ghost", PALETTE[ui.seat], { "data-move": prefix + t[ti] });
		}
		function choose(v) {
			prefix = "write:" + v + "@";
			Array.from(bar.children).forEach(function (c) { c.classList.toggle("on", c.dataset.value === v); });
			targets();
		}
		const map = { ArrowLeft: function () { pick(ti - 1); }, ArrowRight: function () { pick(ti + 1); },
			Enter: function () { if (t.length) ui.send(prefix + t[ti]); }, " ": function () { if (t.length) ui.send(prefix + t[ti]); } };
		Object.keys(values).sort().forEach(function (v) {
			bar.appendChild(K.button(v, { class: "value", "data-value": v, "aria-label": "write a " + v }, function () { choose(v); }));
			map[v] = function () { choose(v); };
		});
		K.keys(map);
		targets();
		return true;
	}

	PLAY_VARIANTS.tetroll = function (ui, moves, box) {
		const f = K.fields(ui.state()), stage = f.stage;
		const pane = K.pane(box, "tetroll");
		pane.setAttribute("data-stage", stage || "");
		K.keys(null);
		let done;
		if (stage === "dice") done = dice(ui, moves, pane, f);
		else if (stage === "place") done = place(ui, moves, pane, f);
		else if (stage === "copy" || stage === "write") done = cells(ui, moves, pane, f, stage);
		else if (stage === "ring") {
			K.prompt(pane, "Bonus #3's prize: mark one ring of another bonus.");
			const bar = el("div", { class: "playbar" });
			pane.appendChild(bar);
			moves.forEach(function (m) {
				bar.appendChild(K.button("a ring of bonus #" + m.split(":")[1], { "data-move": m }, function () { ui.send(m); }));
			});
			done = moves.length > 0;
			K.focusKeys(pane);
		}
		if (!done) { pane.remove(); return false; }
		tracks(pane, f, ui.seat);
		pane.setAttribute("data-ready", "1");
		return true;
	};
})();
