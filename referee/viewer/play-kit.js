// play-kit: what the variants' play pages share (play-link.js, ...): the
// pieces' cells, a clickable board drawn as SVG, the keys, small controls.
// A page never decides legality: it offers only moves of the referee's
// `moves` list and sends one with ui.send(). Plain script, no libraries.
"use strict";
const PLAYKIT = (function () {
	// link's 19 orientations (protocol.md, link "Move notation"), used by
	// link, tetroll and rush: cells (x, y) from the box's lower-left corner
	const CELLS = {
		I0: [[0, 0], [1, 0], [2, 0], [3, 0]], I1: [[0, 0], [0, 1], [0, 2], [0, 3]],
		O0: [[0, 0], [1, 0], [0, 1], [1, 1]],
		T0: [[0, 0], [1, 0], [2, 0], [1, 1]], T1: [[0, 0], [0, 1], [1, 1], [0, 2]],
		T2: [[1, 0], [0, 1], [1, 1], [2, 1]], T3: [[1, 0], [0, 1], [1, 1], [1, 2]],
		J0: [[0, 0], [1, 0], [2, 0], [0, 1]], J1: [[0, 0], [0, 1], [0, 2], [1, 2]],
		J2: [[2, 0], [0, 1], [1, 1], [2, 1]], J3: [[0, 0], [1, 0], [1, 1], [1, 2]],
		L0: [[0, 0], [1, 0], [2, 0], [2, 1]], L1: [[0, 0], [1, 0], [0, 1], [0, 2]],
		L2: [[0, 0], [0, 1], [1, 1], [2, 1]], L3: [[1, 0], [1, 1], [0, 2], [1, 2]],
		S0: [[0, 0], [1, 0], [1, 1], [2, 1]], S1: [[1, 0], [0, 1], [1, 1], [0, 2]],
		Z0: [[1, 0], [2, 0], [0, 1], [1, 1]], Z1: [[0, 0], [0, 1], [1, 1], [1, 2]],
	};
	// a mirror image of each orientation (flipping: link and tetroll)
	const MIRROR = { I0: "I0", I1: "I1", O0: "O0", T0: "T0", T1: "T3", T2: "T2", T3: "T1",
		J0: "L0", J1: "L3", J2: "L2", J3: "L1", L0: "J0", L1: "J3", L2: "J2", L3: "J1",
		S0: "Z0", S1: "Z1", Z0: "S0", Z1: "S1" };
	// the Main Match's SRS states (protocol.md, matrix "Move notation"):
	// cells (dx, dy) from the rotation point
	const SRS = {
		I: { 0: [[-1, 0], [0, 0], [1, 0], [2, 0]], R: [[1, 1], [1, 0], [1, -1], [1, -2]], 2: [[-1, -1], [0, -1], [1, -1], [2, -1]], L: [[0, 1], [0, 0], [0, -1], [0, -2]] },
		O: { 0: [[0, 0], [1, 0], [0, 1], [1, 1]], R: [[0, 0], [1, 0], [0, 1], [1, 1]], 2: [[0, 0], [1, 0], [0, 1], [1, 1]], L: [[0, 0], [1, 0], [0, 1], [1, 1]] },
		T: { 0: [[-1, 0], [0, 0], [1, 0], [0, 1]], R: [[0, 1], [0, 0], [0, -1], [1, 0]], 2: [[-1, 0], [0, 0], [1, 0], [0, -1]], L: [[0, 1], [0, 0], [0, -1], [-1, 0]] },
		J: { 0: [[-1, 1], [-1, 0], [0, 0], [1, 0]], R: [[0, 1], [1, 1], [0, 0], [0, -1]], 2: [[-1, 0], [0, 0], [1, 0], [1, -1]], L: [[0, 1], [0, 0], [0, -1], [-1, -1]] },
		L: { 0: [[-1, 0], [0, 0], [1, 0], [1, 1]], R: [[0, 1], [0, 0], [0, -1], [1, -1]], 2: [[-1, -1], [-1, 0], [0, 0], [1, 0]], L: [[-1, 1], [0, 1], [0, 0], [0, -1]] },
		S: { 0: [[-1, 0], [0, 0], [0, 1], [1, 1]], R: [[0, 1], [0, 0], [1, 0], [1, -1]], 2: [[-1, -1], [0, -1], [0, 0], [1, 0]], L: [[-1, 1], [-1, 0], [0, 0], [0, -1]] },
		Z: { 0: [[-1, 1], [0, 1], [0, 0], [1, 0]], R: [[1, 1], [1, 0], [0, 0], [0, -1]], 2: [[-1, 0], [0, 0], [0, -1], [1, -1]], L: [[-1, -1], [-1, 0], [0, 0], [0, 1]] },
	};
	const PIECE = PIECE_COLOURS;

	const fields = stateFields, list = stateList;

	// The cell size that lets a board of w x h cells take the window: the
	// room below the top of #moves (the play page's controls), less a
	// line or two of words and buttons above the board; on a narrow
	// screen the board takes the whole width.
	function cellSize(w, h, share) {
		const moves = document.getElementById("moves");
		const top = moves ? Math.max(0, moves.getBoundingClientRect().top + window.scrollY) : 150;
		const narrow = window.innerWidth < 700;
		const byW = Math.floor((window.innerWidth - 24) * (narrow ? 0.96 : share || 0.55) / w);
		const byH = Math.floor((window.innerHeight - top - (narrow ? 110 : 95)) / h);
		return Math.max(narrow ? 9 : 12, Math.min(40, byW, byH));
	}

	// The board each variant page drew last (by name): what changed since
	// is framed as the last moves (opts.before of board()).
	const seen = {}, was = {};
	function since(name, rows) {
		// the same board drawn again (a resize): the same marks
		if (seen[name] && seen[name].join("/") === rows.join("/")) return was[name];
		was[name] = seen[name];
		seen[name] = rows;
		return was[name];
	}
	// A clickable board: rows top row first; paint(ch, x, y) -> a fill, or
	// {fill, label}, or null (empty). Cells carry data-x, data-y (row 0 at the bottom), data-c.
	// on.hover(x, y), on.click(x, y), on.leave(). show(cells, cls) marks
	// cells ([[x, y], ...]) as a ghost of class cls; clear() takes them off.
	function board(rows, paint, on, opts) {
		opts = opts || {};
		const H = rows.length, W = rows[0].length, C = opts.cell || cellSize(W, H, opts.share);
		// opts.side(y): a few words right of row y (tetroll's row scores)
		const SW = opts.side ? 3 * C : 0;
		const s = svg("svg", { class: "playboard", id: opts.id || "playboard", width: W * C + 2 + SW, height: H * C + 2,
			viewBox: "-1 -1 " + (W * C + 2 + SW) + " " + (H * C + 2), role: "img", tabindex: "0",
			"aria-label": opts.label || "your board, " + W + " columns by " + H + " rows" });
		const rects = [];
		rows.forEach(function (row, r) {
			const y = H - 1 - r;
			rects[y] = [];
			for (let x = 0; x < W; x++) {
				const p = paint(row[x], x, y), fill = p && p.fill ? p.fill : p;
				const text = p && p.label !== undefined ? p.label : opts.labels && row[x] !== "." ? row[x] : "";
				const rect = svg("rect", { x: x * C, y: r * C, width: C - 1, height: C - 1, fill: fill || "#fff",
					stroke: "#ccc", "data-x": x, "data-y": y, "data-c": row[x], class: "cell" });
				// what changed since the board opts.before (the last moves)
				if (opts.before && opts.before.length === H && opts.before[r][x] !== row[x] && row[x] !== ".") {
					rect.setAttribute("data-last", "1");
					rect.setAttribute("stroke", "#000");
					rect.setAttribute("stroke-width", "2.5");
				}
				s.appendChild(rect);
				rects[y][x] = rect;
				if (fill && text)
					s.appendChild(svg("text", { x: x * C + C / 2, y: r * C + C * 0.7, "text-anchor": "middle", class: "celltext",
						fill: p.ink || ink(fill), "font-size": Math.round(C * 0.5) }, text));
			}
		});
		for (let y = 0; opts.side && y < H; y++) {
			const t = opts.side(y);
			if (t) s.appendChild(svg("text", { x: W * C + 6, y: (H - 1 - y) * C + C * 0.7, class: "rowscore",
				"font-size": Math.round(C * 0.45) }, t));
		}
		const ghosts = svg("g", { class: "ghosts" });
		s.appendChild(ghosts);
		function at(ev) {
			const r = s.getBoundingClientRect(), k = (W * C + 2 + SW) / r.width;
			const x = Math.floor(((ev.clientX - r.left) * k - 1) / C), row = Math.floor(((ev.clientY - r.top) * (H * C + 2) / r.height - 1) / C);
			return x >= 0 && x < W && row >= 0 && row < H ? [x, H - 1 - row] : null;
		}
		// a mouse: hover shows, a click commits; touch: a tap shows (the
		// ghost, and the Confirm button), a second tap on what is shown
		// (or Confirm) commits
		let touch = false, previewed = "";	// the move a first tap showed
		s.addEventListener("pointerdown", function (ev) { touch = ev.pointerType === "touch" || ev.pointerType === "pen"; });
		s.addEventListener("mousemove", function (ev) { const p = at(ev); if (p && on.hover && !touch) on.hover(p[0], p[1]); });
		s.addEventListener("mouseleave", function () { if (on.leave && !touch) on.leave(); });
		s.addEventListener("click", function (ev) {
			const p = at(ev);
			if (ev.pointerType) touch = ev.pointerType === "touch" || ev.pointerType === "pen";
			if (!p || !on.click) return;
			if (!touch) { on.click(p[0], p[1]); return; }
			const shown = function () { const g = ghosts.querySelector("[data-move]"); return g ? g.getAttribute("data-move") : ""; };
			if (on.hover) on.hover(p[0], p[1]);
			const now = shown();
			if (previewed && now === previewed) { previewed = ""; confirm(null); on.click(p[0], p[1]); return; }
			previewed = now;
			confirm(now ? function () { previewed = ""; on.click(p[0], p[1]); } : null, now);
		});
		return {
			svg: s, W: W, H: H, C: C,
			rect: function (x, y) { return rects[y] && rects[y][x]; },
			show: function (cells, cls, fill, attrs) {
				cells.forEach(function (c) {
					if (c[0] < 0 || c[0] >= W || c[1] < 0 || c[1] >= H) return;
					const g = svg("rect", { x: c[0] * C + 1, y: (H - 1 - c[1]) * C + 1, width: C - 3, height: C - 3,
						class: cls, fill: fill || "none", "data-x": c[0], "data-y": c[1] });
					for (const k in attrs || {}) g.setAttribute(k, attrs[k]);
					ghosts.appendChild(g);
				});
			},
			clear: function (cls) {
				Array.from(ghosts.querySelectorAll(cls ? "." + cls : "rect")).forEach(function (g) { g.remove(); });
			},
		};
	}

	// A small picture of an orientation's cells (CELLS key or SRS cells).
	function picture(cells, fill, size) {
		const C = size || 12;
		let mx = 0, my = 0, nx = 0, ny = 0;
		cells.forEach(function (c) { mx = Math.max(mx, c[0]); my = Math.max(my, c[1]); nx = Math.min(nx, c[0]); ny = Math.min(ny, c[1]); });
		const w = mx - nx + 1, h = my - ny + 1;
		const s = svg("svg", { class: "piecepic", width: w * C, height: h * C, viewBox: "0 0 " + w * C + " " + h * C });
		cells.forEach(function (c) {
			s.appendChild(svg("rect", { x: (c[0] - nx) * C, y: (my - c[1]) * C, width: C - 1, height: C - 1, fill: fill }));
		});
		return s;
	}

	// The touch preview's Confirm button (#confirm, the play page's):
	// confirm(f, move) shows it to call f, confirm(null) hides it.
	function confirm(f, move) {
		const b = document.getElementById("confirm");
		if (!b) return;
		b.hidden = !f;
		b.onclick = f ? function () { b.hidden = true; f(); } : null;
		b.setAttribute("data-move", move || "");
	}

	// One keydown handler for the page; each `go` installs its own keys
	// (a focused move button keeps its own Enter and space).
	let keymap = null;
	document.addEventListener("keydown", function (ev) {
		if (!keymap || (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName))) return;
		if (ev.target && ev.target.tagName === "BUTTON" && ev.target.hasAttribute("data-move") && (ev.key === "Enter" || ev.key === " ")) return;
		const f = keymap[ev.key] || keymap[ev.key.toLowerCase()];
		if (f) { f(ev); ev.preventDefault(); }
	});
	function keys(map) { keymap = map; confirm(null); }

	// A die's face as SVG: size px square, pips drawn as the dice show them.
	function die(v, size, attrs) {
		const S = size || 52, r = S * 0.09;
		const s = svg("svg", Object.assign({ class: "die", width: S, height: S, viewBox: "0 0 " + S + " " + S,
			role: "img", "aria-label": "a die showing " + v }, attrs || {}));
		s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: S - 3, height: S - 3, rx: S * 0.16, fill: "#fff", stroke: "#222", "stroke-width": 2.5, class: "face" }));
		const a = S * 0.27, b = S * 0.5, c = S * 0.73;
		const PIPS = { 1: [[b, b]], 2: [[a, a], [c, c]], 3: [[a, a], [b, b], [c, c]], 4: [[a, a], [c, a], [a, c], [c, c]],
			5: [[a, a], [c, a], [b, b], [a, c], [c, c]], 6: [[a, a], [c, a], [a, b], [c, b], [a, c], [c, c]] };
		(PIPS[v] || []).forEach(function (p) { s.appendChild(svg("circle", { cx: p[0], cy: p[1], r: r, fill: "#222" })); });
		return s;
	}
	// Keys that walk a list of choices: ← → (and Tab is the browser's).
	function cycle(n, i, d) { return n ? (i + d + n) % n : 0; }
	// ← → move the focus among the pane's move buttons (Enter presses
	// the focused one); the first is focused at once.
	function focusKeys(pane) {
		const all = function () { return Array.from(pane.querySelectorAll("button[data-move]:not([disabled])")); };
		const step = function (d) {
			const b = all(), i = b.indexOf(document.activeElement);
			if (b.length) b[cycle(b.length, i < 0 ? 0 : i, i < 0 ? 0 : d)].focus();
		};
		keys({ ArrowLeft: function () { step(-1); }, ArrowRight: function () { step(1); },
			ArrowUp: function () { step(-1); }, ArrowDown: function () { step(1); } });
		setTimeout(function () { const b = all(); if (b.length && pane.isConnected) b[0].focus({ preventScroll: true }); }, 0);
	}

	function button(text, attrs, onclick) {
		const b = el("button", Object.assign({ type: "button" }, attrs || {}), text);
		b.addEventListener("click", onclick);
		return b;
	}
	// The element a variant's turn is drawn in, numbered (data-turn).
	let turns = 0;
	function pane(box, variant) {
		const p = el("div", { class: "playpane", "data-variant": variant, "data-turn": String(++turns) });
		box.appendChild(p);
		return p;
	}
	// A line of words above the controls (what to do now).
	function prompt(box, text) {
		const p = el("p", { class: "playprompt" }, text);
		box.appendChild(p);
		return p;
	}

	return { CELLS: CELLS, MIRROR: MIRROR, SRS: SRS, PIECE: PIECE, fields: fields, list: list, board: board,
		picture: picture, keys: keys, button: button, prompt: prompt, cellSize: cellSize, pane: pane, since: since,
		die: die, cycle: cycle, confirm: confirm, focusKeys: focusKeys };
})();
