// play-link: a person's turn at Tetris Link (PLAY_VARIANTS.link, called by
// play.js at each `go`): the rolled shape, the tower; hover a column to see
// where the piece lands, turn (R) and mirror (M) it with the keys or the
// buttons, click (or Enter) to drop; on a logo roll, choose the shape from
// the supply. Only a move of the `moves` list is ever sent.
"use strict";
(function () {
	const K = PLAYKIT;
	let last = null;	// the orientation chosen at the previous turn

	PLAY_VARIANTS.link = function (ui, moves, box) {
		const f = K.fields(ui.state()), rows = (f.board || "").split("/");
		const legal = {};
		moves.forEach(function (m) {
			const i = m.indexOf("@");
			if (i > 0 && K.CELLS[m.slice(0, i)]) (legal[m.slice(0, i)] = legal[m.slice(0, i)] || {})[m.slice(i + 1)] = true;
		});
		const keys = Object.keys(legal).sort();
		if (!keys.length || !rows[0]) return false;
		const W = rows[0].length, H = rows.length;
		const height = [];
		for (let x = 0; x < W; x++) {
			let h = 0;
			rows.forEach(function (row, r) { if (row[x] !== "." && h === 0) h = H - r; });
			height[x] = h;
		}
		let key = last && legal[last] ? last : keys[0], col = null;
		const free = function (k) { return { J: "L", Z: "S" }[k[0]] || k[0]; };

		const pane = K.pane(box, "link");
		const logo = f.roll === "logo";
		const supply = (K.list(f.supply)[ui.seat] || "").replace(/([A-Z])(\d+)/g, "$1 ×$2 ").trim();
		K.prompt(pane, (logo ? "The die shows the logo: choose any piece you have left." :
			"The die shows " + article(f.roll) + ".") + " Your pieces left: " + supply + ". " +
			"Move it with ← → (or hover), turn it with R, mirror it with M, drop it with Enter (or a click).");
		const bar = el("div", { class: "playbar" });
		pane.appendChild(bar);
		// the shapes to choose from (a logo roll; L/J and S/Z are one shape)
		const shapes = [];
		keys.forEach(function (k) { if (shapes.indexOf(free(k)) < 0) shapes.push(free(k)); });
		if (shapes.length > 1)
			shapes.forEach(function (s) {
				bar.appendChild(K.button(s, { class: "shape", "data-shape": s, title: "play " + s }, function () {
					set(keys.filter(function (k) { return free(k) === s; })[0]);
				}));
			});
		const pic = el("span", { class: "current" });
		bar.append(pic,
			K.button("⟳ turn (R)", { id: "rotate" }, rotate),
			K.button("⇋ mirror (M)", { id: "mirror" }, mirror),
			K.button("drop (Enter)", { id: "drop", "data-move": "" }, function () { drop(); }));
		const where = el("span", { class: "where muted" });
		bar.appendChild(where);
		// each cell in its seat's colour, marked with the colour's initial
		const b = K.board(rows, function (ch) { return ch === "." ? null : { fill: PALETTE[+ch], label: SEAT_COLOURS[+ch][0] }; },
			{ hover: function (x) { aim(x); }, click: function (x) { aim(x); drop(); }, leave: function () { } },
			{ labels: false, before: K.since("tower", rows), label: "the tower, " + W + " columns by " + H + " rows" });
		pane.appendChild(b.svg);

		function width(k) { return 1 + Math.max.apply(null, K.CELLS[k].map(function (c) { return c[0]; })); }
		function landing(k, x) {
			let y = 0;
			K.CELLS[k].forEach(function (c) { y = Math.max(y, height[x + c[0]] - c[1]); });
			return K.CELLS[k].map(function (c) { return [x + c[0], y + c[1]]; });
		}
		function set(k) {
			key = k;
			last = k;
			pic.textContent = "";
			pic.appendChild(K.picture(K.CELLS[k], PALETTE[ui.seat], 12));
			pic.appendChild(document.createTextNode(" " + ROT_WORDS[k[1]]));
			b.svg.setAttribute("data-key", k);
			b.svg.setAttribute("data-cols", Object.keys(legal[k]).join(","));
			aim(col === null ? Number(Object.keys(legal[k])[0]) : col);
		}
		function aim(x) {
			col = Math.max(0, Math.min(W - width(key), x));
			b.clear();
			const drop = document.getElementById("drop");
			if (drop) drop.setAttribute("data-move", legal[key][col] ? key + "@" + col : "");
			if (legal[key][col]) {
				b.show(landing(key, col), "ghost", PALETTE[ui.seat], { "data-move": key + "@" + col });
				where.textContent = moveWords("link", key + "@" + col).replace(/^dropped /, "");
				b.svg.setAttribute("aria-label", "the tower; your piece: " + where.textContent);
			} else {
				where.textContent = "it does not fit in column " + col;
			}
		}
		function rotate() {
			const same = keys.filter(function (k) { return k[0] === key[0]; });
			set(same[(same.indexOf(key) + 1) % same.length]);
		}
		function mirror() {
			const m = K.MIRROR[key];
			if (legal[m]) set(m);
		}
		function drop() {
			if (legal[key][col]) ui.send(key + "@" + col);
		}
		K.keys({
			ArrowLeft: function () { aim(col - 1); }, ArrowRight: function () { aim(col + 1); },
			r: rotate, ArrowUp: rotate, m: mirror, Enter: drop, ArrowDown: drop, " ": drop,
		});
		set(key);
		pane.setAttribute("data-ready", "1");
		return true;
	};
})();
