// rules: the pictures of the rules pages (server/rules.h), drawn with the
// play pages' own board code (play-kit.js): each <figure data-pic=NAME>
// gets its picture before its caption. Rows are written top row first:
// a digit is a seat's cell (its colour, its initial), a letter a block
// (rush), `+` the starting field, `g` a gap, `h` a hole, special spaces
// b B c (tetroll).
"use strict";
(function () {
	const K = PLAYKIT;
	const seat = function (ch) { return { fill: PALETTE[+ch], label: SEAT_COLOURS[+ch][0] }; };
	function board(fig, name, rows, paint, ghosts, label) {
		const b = K.board(rows, paint, {}, { cell: 24, id: "pic-" + name, label: label });
		b.svg.style.cursor = "default";
		(ghosts || []).forEach(function (g) { b.show(g.cells, g.cls || "ghost", g.fill); });
		fig.insertBefore(b.svg, fig.firstChild);
		return b;
	}
	function at(x, y, key) { return K.CELLS[key].map(function (c) { return [x + c[0], y + c[1]]; }); }
	const towerPaint = function (ch) {
		if (ch === "g") return { fill: "#fee", label: "✕", ink: "#b00" };
		return ch === "." ? null : seat(ch);
	};
	const SPACE = { b: ["○", "#eef4ff"], B: ["×2", "#dde8ff"], c: ["c", "#fff0dd"] };
	const PICS = {
		"link-die": function (fig) {
			const row = el("div", { class: "dice", role: "img", "aria-label": "the die's faces: I, O, T, L, S and the logo" });
			["I0", "O0", "T0", "L0", "S0"].forEach(function (k) {
				const face = el("span", { class: "dieface" });
				face.appendChild(K.picture(K.CELLS[k], "#444", 10));
				row.appendChild(face);
			});
			row.appendChild(el("span", { class: "dieface" }, "★"));
			fig.insertBefore(row, fig.firstChild);
		},
		"link-drop": function (fig) {
			board(fig, "link-drop", ["......", "......", "......", "......", "..11..", "..11.."], towerPaint,
				[{ cells: at(1, 2, "T0"), fill: PALETTE[0] }], "a tower: Red's T lands on Blue's O");
		},
		"link-group": function (fig) {
			board(fig, "link-group", ["......", "......", "1111..", "11000.", "110000", "00000."], towerPaint, [],
				"Red's I, O and T touch: a group of three");
		},
		"link-gap": function (fig) {
			board(fig, "link-gap", ["......", "......", "1111..", "0g0g.."], towerPaint, [], "two empty cells under Blue's I");
		},
		"tetroll-dice": function (fig) {
			const row = el("div", { class: "dice", role: "img", "aria-label": "dice 2, 2, 5, 5 make an O of 2s" });
			[2, 2, 5, 5].forEach(function (v) { row.appendChild(K.die(v, 48)); });
			row.appendChild(el("span", { class: "arrow" }, "→"));
			row.appendChild(K.picture(K.CELLS.O0, PALETTE[(2 + 5) % 7], 20));
			fig.insertBefore(row, fig.firstChild);
		},
		"tetroll-sheet": function (fig) {
			board(fig, "tetroll-sheet", ["..b...", "B..b..", "22c.b.", "22...."], function (ch) {
				if (/[1-6]/.test(ch)) return { fill: PALETTE[(+ch + 5) % 7], label: ch };
				const sp = SPACE[ch];
				return sp ? { fill: sp[1], label: sp[0], ink: "#666" } : null;
			}, [], "the bottom of a sheet with an O of 2s");
		},
		"rush-place": function (fig) {
			board(fig, "rush-place", ["......", "......", "......", "......", "OO....", "OOIIII"],
				function (ch) { return ch === "." ? null : { fill: K.PIECE[ch], label: ch }; },
				[{ cells: at(2, 1, "T0"), fill: K.PIECE.T }], "a board: a T placed on the I");
		},
		"rush-top": function (fig) {
			const b = board(fig, "rush-top", ["....", "....", "OO..", "OO.."],
				function (ch) { return ch === "." ? null : { fill: K.PIECE[ch], label: ch }; },
				[{ cells: at(0, 2, "J0"), fill: K.PIECE.J }], "a J reaching the top row ends the game");
			b.svg.appendChild(svg("line", { x1: 0, x2: 4 * b.C, y1: 0, y2: 0, stroke: "#b00", "stroke-width": 4 }));
		},
		"matrix-place": function (fig) {
			board(fig, "matrix-place", ["..........", "..........", "..........", "+..1111..+"], function (ch) {
				return ch === "+" ? { fill: "#bbb" } : ch === "." ? null : seat(ch);
			}, [{ cells: [[0, 1], [1, 1], [2, 1], [2, 0]], cls: "target" }, { cells: [[7, 1], [8, 1], [9, 1], [7, 0]], cls: "target" },
				{ cells: [[0, 1], [1, 1], [2, 1], [2, 0]], fill: PALETTE[0] }], "the field: where Red's J may go, in green");
		},
		"matrix-hole": function (fig) {
			board(fig, "matrix-hole", ["..........", "..........", "000.......", "+h01111..+"], function (ch) {
				if (ch === "h") return { fill: "#fee", label: "hole", ink: "#b00" };
				return ch === "+" ? { fill: "#bbb" } : ch === "." ? null : seat(ch);
			}, [], "Red's J next to a hole");
		},
	};
	Array.from(document.querySelectorAll("figure[data-pic]")).forEach(function (fig) {
		const f = PICS[fig.dataset.pic];
		if (f) f(fig);
	});
})();
