// play-rush: a person's action at the 1989 board game (PLAY_VARIANTS.rush):
// take a block from the box (click its shape), place the active block on
// your board (hover to see it, click; R turns it), give the block in hand
// to an opponent's empty slot, or discard a block that fits nowhere. The
// opponents' boards are the live drawing under the controls. Lockstep or
// real time at a human pace (the start page's choice); only a move of the
// `moves` list is ever sent.
"use strict";
(function () {
	const K = PLAYKIT;

	PLAY_VARIANTS.rush = function (ui, moves, box) {
		const f = K.fields(ui.state()), rows = (f["board" + ui.seat] || "").split("/");
		if (!rows[0]) return false;
		const hand = K.list(f.hands)[ui.seat] || "-", slot = K.list(f.slots)[ui.seat] || "-";
		const legal = {}, takes = {}, gives = [];
		let discard = false;
		moves.forEach(function (m) {
			let q;
			if ((q = m.match(/^place:([IOTJLSZ][0-3])@(\d+),(\d+)$/))) (legal[q[1]] = legal[q[1]] || {})[q[2] + ":" + q[3]] = true;
			else if ((q = m.match(/^take:([IOTJLSZ])$/))) takes[q[1]] = m;
			else if (/^give:\d$/.test(m)) gives.push(m);
			else if (m === "discard") discard = true;
		});
		const keys = Object.keys(legal).sort();
		const pane = K.pane(box, "rush");
		pane.setAttribute("data-what", keys.length ? "place" : Object.keys(takes).length ? "take" : gives.length ? "give" : "discard");
		K.keys(null);
		const none = function (k) { return k && k !== "-" ? article(k) : "nothing"; };
		K.prompt(pane, "In your hand: " + none(hand) + "; in your slot: " + none(slot) + ". " +
			(keys.length ? "Choose where with ← → (or hover), turn it with R, place it with Enter (or a click). " : "") +
			(Object.keys(takes).length ? "Take a block from the box (← → and Enter, or a click). " : "") +
			(gives.length ? "Or give your block to an opponent's empty slot. " : ""));
		// the box
		const bar = el("div", { class: "playbar" });
		pane.appendChild(bar);
		bar.appendChild(el("span", {}, "The box:"));
		K.list(f.box).forEach(function (kc) {
			const k = kc[0], m = takes[k];
			const b = K.button(k + " ×" + kc.slice(1), m ? { "data-move": m, title: "take " + article(k) } : { disabled: "" },
				function () { if (m) ui.send(m); });
			b.style.background = m ? PLAYKIT.PIECE[k] : "";
			bar.appendChild(b);
		});
		const acts = el("div", { class: "playbar" });
		pane.appendChild(acts);
		gives.forEach(function (m) {
			acts.appendChild(K.button("give your " + hand + " to " + ui.who(+m.split(":")[1]), { "data-move": m }, function () { ui.send(m); }));
		});
		if (discard) acts.appendChild(K.button("discard (it fits nowhere)", { "data-move": "discard" }, function () { ui.send("discard"); }));
		if (keys.length) {
			let key = keys[0], aimed = null, idx = 0;
			const pic = el("span", { class: "current" });
			acts.append(pic, K.button("⟳ turn (R)", { id: "rotate" }, rotate));
			const b = K.board(rows, function (ch) { return ch === "." ? null : PLAYKIT.PIECE[ch] || "#888"; }, {
				hover: aim, click: function (x, y) { aim(x, y); if (aimed) ui.send(aimed); },
				leave: function () { b.clear("ghost"); aimed = null; },
			}, { labels: true, share: 0.4, before: K.since("board", rows) });
			pane.appendChild(b.svg);
			function aim(x, y) {
				b.clear("ghost");
				aimed = null;
				// (x, y) itself when it is a legal anchor (a marked cell), else
				// the legal anchor whose piece covers (x, y)
				const cells = [[0, 0]].concat(K.CELLS[key].slice().sort(function (a, c) { return a[0] + a[1] - c[0] - c[1]; }));
				for (let i = 0; i < cells.length && !aimed; i++) {
					const ax = x - cells[i][0], ay = y - cells[i][1];
					if (legal[key][ax + ":" + ay]) {
						aimed = "place:" + key + "@" + ax + "," + ay;
						b.show(K.CELLS[key].map(function (c) { return [ax + c[0], ay + c[1]]; }), "ghost", PLAYKIT.PIECE[key[0]], { "data-move": aimed });
					}
				}
			}
			function set(k) {
				key = k;
				pic.textContent = "";
				pic.append(K.picture(K.CELLS[k], PLAYKIT.PIECE[k[0]], 12), document.createTextNode(" " + ROT_WORDS[k[1]]));
				b.clear();
				b.show(Object.keys(legal[k]).map(function (a) { return a.split(":").map(Number); }), "target");
				b.svg.setAttribute("data-targets", Object.keys(legal[k]).join(","));
				pick(0);
			}
			// the keyboard: ← → walk the legal places (left to right, bottom up)
			function anchors() {
				return Object.keys(legal[key]).map(function (a) { return a.split(":").map(Number); })
					.sort(function (a, c) { return a[1] - c[1] || a[0] - c[0]; });
			}
			function pick(j) {
				const a = anchors();
				idx = K.cycle(a.length, j, 0);
				if (a.length) aim(a[idx][0], a[idx][1]);
				b.svg.setAttribute("aria-label", "your board; the " + key[0] + (aimed ? " " + moveWords("rush", aimed).replace(/^placed the \S+ /, "") : ""));
			}
			function rotate() { set(keys[(keys.indexOf(key) + 1) % keys.length]); }
			K.keys({ r: rotate, ArrowUp: rotate, ArrowLeft: function () { pick(idx - 1); }, ArrowRight: function () { pick(idx + 1); },
				Enter: function () { if (aimed) ui.send(aimed); }, " ": function () { if (aimed) ui.send(aimed); } });
			set(key);
		}
		else K.focusKeys(pane);
		pane.setAttribute("data-ready", "1");
		return true;
	};
})();
