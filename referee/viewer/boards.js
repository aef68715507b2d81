// The replay page's board drawings, one per variant, from a step's state
// line (`st`: the `go` line's fields, protocol.md) and what the referee adds
// (`own`: the Main Match's cell owners; the game's `layout`: tetroll's
// special spaces). Each drawn cell is an SVG rect with data-board, data-x,
// data-y (row 0 at the bottom) and data-c (what the state says is there), so
// that a test can read the drawing back. Plain script, no libraries.
"use strict";
const BOARDS = (function () {
	const CELL = 18;
	const PIECE = PIECE_COLOURS;

	const fields = stateFields, list = stateList;
	// how a seat is named: "seat 2" (the replay), or opts.who(p) (a
	// person's play page, which also leaves out the state's own words)
	let who = function (p) { return "seat " + p; }, plain = false;

	// A grid of cells. rows: top row first; paint(ch, x, y) -> null for an
	// empty cell or {fill, label, stroke}; before: the same board's rows at
	// the step before, whose changed cells are the last move's (class
	// "new", data-last="1", a thick black frame). Returns the group.
	function grid(parent, name, x0, y0, rows, paint, before) {
		const g = svg("g", { class: "grid", "data-board": name });
		const h = rows.length;
		rows.forEach(function (row, r) {
			for (let x = 0; x < row.length; x++) {
				const y = h - 1 - r, ch = row[x], p = paint(ch, x, y);
				const rect = svg("rect", { x: x0 + x * CELL, y: y0 + r * CELL, width: CELL - 1, height: CELL - 1,
					fill: p ? p.fill : "#fff", stroke: p && p.stroke ? p.stroke : "#ddd",
					"data-board": name, "data-x": x, "data-y": y, "data-c": ch });
				if (p && p.dash) rect.setAttribute("stroke-dasharray", p.dash);
				const was = before && before[r] !== undefined ? before[r][x] : ch;
				if (was !== undefined && was !== ch && ch !== ".") {
					rect.setAttribute("class", "new");
					rect.setAttribute("data-last", "1");
					rect.setAttribute("stroke", "#000");
					rect.setAttribute("stroke-width", "2.5");
				}
				g.appendChild(rect);
				if (p && p.label)
					g.appendChild(svg("text", { x: x0 + x * CELL + CELL / 2 - 0.5, y: y0 + r * CELL + CELL * 0.72,
						"text-anchor": "middle", fill: p.ink || ink(p.fill), class: "cell" }, p.label));
			}
		});
		parent.appendChild(g);
		return g;
	}
	function label(parent, x, y, text, cls) {
		parent.appendChild(svg("text", { x: x, y: y, class: cls || "" }, text));
	}
	function frame(w, h, title) {
		const s = svg("svg", { id: "drawing", width: w, height: h, viewBox: "0 0 " + w + " " + h, role: "img" });
		s.appendChild(svg("title", {}, title));
		return s;
	}

	// ---- link: the tower, each cell in its owner's colour ---------------
	function link(G, st, prev) {
		const f = fields(st.st), rows = (f.board || "").split("/"), W = rows[0].length;
		const before = prev ? (fields(prev.st).board || "").split("/") : null;
		const supply = list(f.supply), scores = list(f.scores);
		const s = frame(W * CELL + 230, rows.length * CELL + 30, "the tower");
		grid(s, "tower", 0, 4, rows, function (ch) {
			return ch === "." ? null : { fill: PALETTE[+ch], label: plain ? SEAT_COLOURS[+ch][0] : ch };
		}, before);
		let y = 16;
		label(s, W * CELL + 12, y, "die: " + (f.roll && f.roll !== "-" ? f.roll : "–"), "big");
		y += 24;
		for (let p = 0; p < G.players; p++) {
			const x = W * CELL + 12;
			s.appendChild(svg("rect", { x: x, y: y - 11, width: 14, height: 14, fill: PALETTE[p] }));
			label(s, x + 20, y, who(p) + (f.current === String(p) && f.stage === "place" ? " ◀" : "") +
				"  score " + (scores[p] || ""));
			label(s, x + 20, y + 15, "supply " + (supply[p] || "").replace(/([A-Z])(\d)/g, "$1 $2 ").trim(), "small");
			y += 38;
		}
		return s;
	}

	// ---- tetroll: each seat's sheet, special spaces, tracks and prizes --
	const SPACE = { r: "ring", d: "double", c: "copy" };
	function tetroll(G, st, prev) {
		const f = fields(st.st), n = G.players, pf = prev ? fields(prev.st) : null;
		const layout = (G.layout || "").split("/");
		const tracks = list(f.rings).map(Number);
		const W = Number(f.width), H = Number(f.height);
		const sheetW = W * CELL + 150;
		const s = frame(n * sheetW + 10, (H + 3) * CELL + 150, "the sheets");
		if (plain)
			label(s, 0, 14, (f.dice && f.dice !== "-" ? "rolled " + f.dice.split("").join(" ") : "") +
				(f.shape === "joker" ? ": a joker" : f.shape && f.shape !== "-" ? ": the " + f.shape[1] + " of " + f.shape[0] + "s" : ""), "big");
		else
			label(s, 0, 14, "dice " + (f.dice || "-") + "   shape " + (f.shape || "-") + "   stage " + (f.stage || "") +
				(f.queue && f.queue !== "-" ? "   to choose " + f.queue : ""), "big");
		for (let p = 0; p < n; p++) {
			const x0 = p * sheetW, y0 = 44;
			const rows = (f["sheet" + p] || "").split("/");
			const status = list(f.status)[p] || "";
			label(s, x0, y0 - 4, who(p) + (f.current === String(p) && f.stage !== "over" ? " ◀" : "") +
				"  " + (list(f.scores)[p] || "") + " points" + (status !== "play" && !plain ? "  (" + status + ")" : ""));
			grid(s, "sheet" + p, x0, y0 + 4, rows, function (ch, x, y) {
				// rows 0..H-1 are the grid, the 3 above it the rest
				const sp = y < H ? (layout[H - 1 - y] || "")[x] : ".";
				const mark = SPACE[sp];
				const filled = ch !== ".";
				if (!filled && !mark) return y >= H ? { fill: "#f4f4f4" } : null;
				return {
					fill: filled ? PALETTE[(+ch + 5) % 7] : "#fff", label: filled ? ch : sp === "r" ? "○" : sp === "d" ? "×2" : "c",
					ink: filled ? undefined : "#999", stroke: mark ? "#333" : null, dash: mark === "double" ? "3 2" : null,
				};
			}, pf ? (pf["sheet" + p] || "").split("/") : null);
			// the dashed line under the 3 rows above the grid
			s.appendChild(svg("line", { x1: x0, x2: x0 + W * CELL, y1: y0 + 4 + 3 * CELL - 0.5, y2: y0 + 4 + 3 * CELL - 0.5,
				stroke: "#000", "stroke-dasharray": "4 3" }));
			// the bonus tracks: rings marked of each track, and its prize
			const marked = list(f["rings" + p]).map(Number), prizes = (f["prizes" + p] || "").split("");
			const PRIZE = { o: "open", x: "crossed out", 1: "first prize", 2: "runner-up" };
			let ty = y0 + (H + 3) * CELL + 22;
			for (let b = 0; b < tracks.length; b++) {
				label(s, x0, ty, "#" + (b + 1), "small");
				for (let i = 0; i < tracks[b]; i++)
					s.appendChild(svg("circle", { cx: x0 + 30 + i * 12, cy: ty - 4, r: 4.5,
						fill: i < marked[b] ? "#333" : "#fff", stroke: "#333", class: i < marked[b] ? "ring on" : "ring" }));
				label(s, x0 + 30 + tracks[b] * 12 + 4, ty, PRIZE[prizes[b]] || "", "small");
				ty += 15;
			}
		}
		return s;
	}

	// ---- rush: every board, hands and slots, and the box ----------------
	function rush(G, st, prev) {
		const f = fields(st.st), n = G.players, pf = prev ? fields(prev.st) : null;
		const W = Number(f.width), H = Number(f.height), bw = Math.max(W * CELL + 24, plain ? 190 : 0);
		const hands = list(f.hands), slots = list(f.slots), unc = list(f.uncovered);
		const s = frame(Math.max(n * bw, 420), H * CELL + 110, "the boards and the box");
		const tetris = list(f.tetris);
		for (let p = 0; p < n; p++) {
			const x0 = p * bw, rows = (f["board" + p] || "").split("/");
			label(s, x0, 14, who(p) + "  " + (unc[p] || "") + " uncovered" + (tetris.indexOf(String(p)) >= 0 ? (plain ? "  reached the top" : "  (tetris)") : ""));
			label(s, x0, 30, plain ? "in hand " + (hands[p] && hands[p] !== "-" ? hands[p] : "nothing") + ", in slot " + (slots[p] && slots[p] !== "-" ? slots[p] : "nothing")
				: "hand " + (hands[p] || "-") + "  slot " + (slots[p] || "-"), "small");
			s.appendChild(svg("rect", { x: x0 - 2, y: 38, width: W * CELL + 3, height: H * CELL + 3, fill: "none", stroke: PALETTE[p], "stroke-width": 2 }));
			grid(s, "board" + p, x0, 40, rows, function (ch) {
				return ch === "." ? null : { fill: PIECE[ch] || "#888", label: ch };
			}, pf ? (pf["board" + p] || "").split("/") : null);
		}
		// the box: copies left of each shape
		const y = H * CELL + 64;
		label(s, 0, y, "box", "big");
		list(f.box).forEach(function (kc, i) {
			const k = kc[0], c = kc.slice(1), x = 40 + i * 52;
			s.appendChild(svg("rect", { x: x, y: y - 14, width: 18, height: 18, fill: PIECE[k] || "#888", class: "boxshape", "data-c": kc }));
			label(s, x + 4, y, k, "cell");
			label(s, x + 22, y, "×" + c);
		});
		if (!plain)
			label(s, 0, y + 24, (f.mode || "") + ", tick " + (f.tick || 0) + (f.end && f.end !== "-" ? ", ended: " + f.end : ""), "small");
		return s;
	}

	// ---- matrix: the field, each cell in the colour of who covered it --
	function matrix(G, st, prev) {
		const f = fields(st.st), H = Number(f.height);
		const own = (st.own || "").split("/");
		// the matrix, plus the buffer rows that hold a cell
		let top = own.length - H;
		while (top > 0 && !/[^.]/.test(own[own.length - H - top])) top--;
		const rows = own.slice(own.length - H - top);
		const pown = prev ? (prev.own || "").split("/") : null;
		const before = pown && pown.length === own.length ? pown.slice(own.length - H - top) : null;
		const W = rows[0].length;
		const s = frame(W * CELL + 380, rows.length * CELL + 40, "the matrix");
		grid(s, "field", 0, 8, rows, function (ch) {
			if (ch === ".") return null;
			if (ch === "*") return { fill: "#777", label: "*" };
			if (ch === "+") return { fill: "#bbb", label: "" };
			if (ch === "#") return { fill: "#444", label: "" };
			return { fill: PALETTE[+ch], label: plain ? SEAT_COLOURS[+ch][0] : ch };
		}, before);
		// the top of the matrix
		s.appendChild(svg("line", { x1: 0, x2: W * CELL, y1: 8 + top * CELL - 0.5, y2: 8 + top * CELL - 0.5, stroke: "#a00", "stroke-width": 2 }));
		const deal = (f.deal || "-").split("/")[0] || "", last = (f.last || "").split(";"), gains = list(f.gains);
		const scores = list(f.scores);
		let y = 16;
		label(s, W * CELL + 12, y, "round " + (f.round || "") + (plain ? "" : ", " + (f.stage || "")), "big");
		y += 20;
		for (let p = 0; p < G.players; p++) {
			const x = W * CELL + 12;
			s.appendChild(svg("rect", { x: x, y: y - 11, width: 14, height: 14, fill: PALETTE[p] }));
			const gain = gains[p] && gains[p] !== "0" ? " (" + (gains[p][0] === "-" ? "" : "+") + gains[p] + ")" : "";
			label(s, x + 20, y, plain ? who(p) + "  " + (scores[p] || "") + " points" + gain
				: "seat " + p + "  " + (scores[p] || "") + " pts  piece " + (deal[p] || "-") + "  last " + (last[p] || "-") + gain, "small");
			y += 20;
		}
		label(s, W * CELL + 12, y + 6, "* covered by two pieces at once; grey: the starting field", "small");
		if (f.cleared && f.cleared !== "0") label(s, W * CELL + 12, y + 24, f.cleared + " rows cleared", "small");
		return s;
	}

	const DRAW = { link: link, tetroll: tetroll, rush: rush, matrix: matrix };
	// The drawing of step st of game G, or null for a variant without one;
	// with prev (the step before), the cells that changed since are marked.
	// opts.who(p) names the seats for a person (the play page), in plain
	// words without the state's fields.
	return function (G, st, prev, opts) {
		const d = DRAW[G.variant];
		who = opts && opts.who ? opts.who : function (p) { return "seat " + p; };
		plain = !!(opts && opts.who);
		return d && st.st ? d(G, st, prev && prev.st ? prev : null) : null;
	};
})();
