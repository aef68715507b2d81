// The replay page of `referee view --html`: draws what the referee put in
// the element #game (see docs/viewer.md). Plain script, no libraries.
"use strict";
(function () {
	const G = JSON.parse(document.getElementById("game").textContent);
	const N = G.players, S = G.steps, last = S.length - 1;
	const SEAT = PALETTE;
	const DASH = ["", "6 3", "2 2", "8 2 2 2", "1 3", "10 4", "4 2 1 2", "3 6"];
	const ANSI = { 1: "#D55E00", 2: "#009E73", 3: "#F0E442", 4: "#0072B2", 5: "#CC79A7", 6: "#56B4E9", 7: "#dddddd", 0: "#000000" };
	let cur = 0, timer = null;

	function field(line, key) {
		const m = (" " + (line || "")).match(new RegExp(" " + key + "=([^ ]*)"));
		return m ? m[1].split(",") : [];
	}
	function swatch(p) {
		return el("span", { class: "swatch", style: "background:" + SEAT[p] + ";color:" + ink(SEAT[p]) }, String(p));
	}

	// The variant's own picture, its ANSI colours drawn as styled spans.
	function drawBoard(pre, text) {
		pre.textContent = "";
		let fg = null, bg = null;
		const parts = text.split(/\x1b\[([0-9;]*)m/);
		for (let i = 0; i < parts.length; i++) {
			if (i % 2 === 1) {
				const codes = parts[i].split(";").map(Number);
				for (let j = 0; j < codes.length; j++) {
					const c = codes[j];
					if (c === 0 || parts[i] === "") { fg = bg = null; }
					else if (c >= 30 && c <= 37) fg = ANSI[c - 30];
					else if (c >= 40 && c <= 47) bg = ANSI[c - 40];
					else if (c === 100) bg = "#888888";
					else if ((c === 48 || c === 38) && codes[j + 1] === 5) {
						const col = codes[j + 2] === 208 ? "#E69F00" : "#bbbbbb";
						if (c === 48) bg = col; else fg = col;
						j += 2;
					}
				}
				continue;
			}
			if (!parts[i]) continue;
			if (!fg && !bg) { pre.appendChild(document.createTextNode(parts[i])); continue; }
			const span = el("span", {}, parts[i]);
			let st = "";
			if (bg) st += "background:" + bg + ";color:" + ink(bg) + ";";
			if (fg) st += "color:" + fg + ";font-weight:bold;";
			span.setAttribute("style", st);
			pre.appendChild(span);
		}
	}

	// ---- the page -------------------------------------------------------
	const ranks = field(G.result, "ranks"), scores = field(G.result, "scores");
	document.body.appendChild(el("h1", {}, G.title + " replay"));
	const head = el("p", { id: "header" });
	head.appendChild(el("span", {}, "variant " + G.variant + " · options " + (G.options || "-") +
		" · seed " + G.seed + " · fault policy " + G.policy + " · " + last + " steps"));
	document.body.appendChild(head);
	const bots = el("table", { id: "bots" });
	bots.appendChild(el("tr", {})).append(el("th", {}, "seat"), el("th", { class: "l" }, "bot"),
		el("th", { class: "l" }, "sha256"), el("th", { class: "l" }, "command"));
	G.bots.forEach(function (b, p) {
		const tr = el("tr", {});
		const td = el("td", {}); td.appendChild(swatch(p));
		tr.append(td, el("td", { class: "l" }, b.name), el("td", { class: "l mono", title: b.sha256 || "" },
			(b.sha256 || "-").slice(0, 16)), el("td", { class: "l mono" }, b.command || ""));
		bots.appendChild(tr);
	});
	document.body.appendChild(bots);
	// the result in words (the line itself on hover and folded below)
	const names = G.bots.map(function (b) { return b.name; });
	const UNIT = { rush: "uncovered squares" }[G.variant] || "points";
	const words = resultWords(G.result, names, G.lower_score_wins, UNIT);
	const res = el("div", { id: "result", title: "result " + (G.result || "(none)") });
	res.appendChild(el("p", { id: "headline" }, words[0]));
	const standing = el("ol", { id: "standing" });
	words.slice(1, -1).forEach(function (w) { standing.appendChild(el("li", {}, w)); });
	res.append(standing, el("p", { class: "muted" }, words[words.length - 1] + " "));
	res.lastChild.appendChild(el("span", { class: "mono raw" }, "result " + (G.result || "(none)")));
	document.body.appendChild(res);

	const controls = el("div", { id: "controls" });
	const bFirst = el("button", { id: "first", title: "first (Home)" }, "|◀");
	const bPrev = el("button", { id: "prev", title: "back (←)" }, "◀");
	const bPlay = el("button", { id: "play", title: "play/pause (space)" }, "▶ play");
	const bNext = el("button", { id: "next", title: "forward (→)" }, "▶");
	const bLast = el("button", { id: "last", title: "last (End)" }, "▶|");
	const slider = el("input", { id: "slider", type: "range", min: "0", max: String(last), value: "0" });
	const pos = el("span", { id: "pos", class: "mono" });
	const speed = el("select", { id: "speed", title: "speed of play" });
	[["0.25", "¼×"], ["0.5", "½×"], ["1", "1×"], ["2", "2×"], ["4", "4×"], ["8", "8×"]].forEach(function (o) {
		const opt = el("option", { value: o[0] }, o[1]);
		if (o[0] === "1") opt.selected = true;
		speed.appendChild(opt);
	});
	controls.append(bFirst, bPrev, bPlay, bNext, bLast, slider, pos, el("label", { for: "speed" }, "speed"), speed);
	document.body.appendChild(controls);

	const layout = el("div", { id: "layout" });
	const pictures = el("div", { id: "pictures" });
	const drawing = el("div", { id: "drawingbox" });
	// The engine's own text picture: under the drawing, or alone for a
	// variant the page does not draw.
	const text = el("details", { id: "textpicture" });
	text.appendChild(el("summary", {}, "text picture"));
	const board = el("pre", { id: "board" });
	text.appendChild(board);
	pictures.append(drawing, text);
	const side = el("div", { id: "side" });
	layout.append(pictures, side);
	document.body.appendChild(layout);
	const what = el("p", { id: "what", class: "mono" });
	const table = el("table", { id: "scores" });
	table.appendChild(el("tr", {})).append(el("th", {}, "seat"), el("th", { class: "l" }, "bot"),
		el("th", {}, "score"), el("th", {}, "rank"), el("th", {}, "ms"));
	const rows = [];
	for (let p = 0; p < N; p++) {
		const tr = el("tr", { "data-seat": String(p) });
		const td = el("td", {}); td.appendChild(swatch(p));
		const sc = el("td", { class: "score" }), rk = el("td", { class: "rank" }), ms = el("td", { class: "ms" });
		tr.append(td, el("td", { class: "l" }, G.bots[p].name), sc, rk, ms);
		table.appendChild(tr);
		rows.push({ sc: sc, rk: rk, ms: ms });
	}
	side.append(what, table, el("h2", {}, "info lines, table talk, faults"));
	const notes = el("ul", { id: "notes" });
	side.appendChild(notes);

	// ---- charts: score per seat, time per move, faults marked ------------
	function chart(id, title, value, yname) {
		const W = 640, H = 180, L = 40, B = 20;
		let max = 1, min = 0;
		S.forEach(function (st) { for (let p = 0; p < N; p++) { const v = value(st, p); if (v !== null) { max = Math.max(max, v); min = Math.min(min, v); } } });
		const x = function (i) { return L + (W - L - 8) * (last ? i / last : 0); };
		const y = function (v) { return H - B - (H - B - 8) * (v - min) / (max - min || 1); };
		const g = svg("svg", { id: id, width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
		g.appendChild(svg("title", {}, title));
		g.appendChild(svg("text", { x: 2, y: 12 }, yname + " (max " + Math.round(max * 10) / 10 + ")"));
		g.appendChild(svg("line", { x1: L, y1: H - B, x2: W - 8, y2: H - B, stroke: "#888" }));
		g.appendChild(svg("text", { x: L, y: H - 5 }, "step 0"));
		g.appendChild(svg("text", { x: W - 60, y: H - 5 }, "step " + last));
		for (let p = 0; p < N; p++) {
			let d = "";
			S.forEach(function (st, i) { const v = value(st, p); if (v !== null) d += (d ? "L" : "M") + x(i).toFixed(1) + " " + y(v).toFixed(1); });
			if (d) g.appendChild(svg("path", { d: d, fill: "none", stroke: SEAT[p], "stroke-width": 2, "stroke-dasharray": DASH[p] }));
		}
		S.forEach(function (st, i) {
			(st.f || []).forEach(function (p) {
				const m = svg("text", { x: x(i) - 4, y: 22, fill: "#a00", class: "faultmark" }, "✕" + p);
				m.appendChild(svg("title", {}, "fault of seat " + p + " before step " + i));
				g.appendChild(m);
			});
		});
		const cursor = svg("line", { y1: 0, y2: H - B, stroke: "#000", "stroke-dasharray": "2 2" });
		g.appendChild(cursor);
		g.addEventListener("click", function (ev) {
			const r = g.getBoundingClientRect();
			go(Math.round((ev.clientX - r.left - L) / (W - L - 8) * last));
		});
		return { svg: g, move: function (i) { cursor.setAttribute("x1", x(i)); cursor.setAttribute("x2", x(i)); } };
	}
	const charts = [
		chart("scorechart", "each seat's score over the game", function (st, p) { return st.sc[p]; }, "score"),
		chart("timechart", "wall time of each move, ms", function (st, p) { return st.ms && st.ms[p] !== null && st.ms[p] !== undefined ? st.ms[p] : null; }, "ms per move"),
	];
	const legend = el("p", {});
	for (let p = 0; p < N; p++) { legend.appendChild(swatch(p)); legend.appendChild(document.createTextNode(" " + G.bots[p].name + "  ")); }
	const chartsDiv = el("div", { id: "charts" });
	chartsDiv.append(el("h2", {}, "score per seat (✕ marks a fault)"), charts[0].svg, el("h2", {}, "time per move"), charts[1].svg, legend);
	document.body.appendChild(chartsDiv);

	// ---- stepping ---------------------------------------------------------
	// The drawing as large as the window lets it be: beside the side panel
	// in a wide window, the whole width in a narrow one, within its height.
	function fit(pic) {
		const w = Number(pic.getAttribute("width")), h = Number(pic.getAttribute("height"));
		const aw = (window.innerWidth >= 1000 ? window.innerWidth * 0.62 : window.innerWidth) - 40;
		const ah = Math.max(320, window.innerHeight - 140);
		const k = Math.max(0.6, Math.min(aw / w, ah / h, 4));
		pic.setAttribute("width", String(Math.round(w * k)));
		pic.setAttribute("height", String(Math.round(h * k)));
	}
	// What a step is, in words.
	function stepWords(st) {
		if (st.k === "start") return "The start: nothing played yet.";
		const who = st.s >= 0 ? "Seat " + st.s + " (" + names[st.s] + ") " : "";
		if (st.k === "chance") return "Chance: " + moveWords(G.variant, st.t) + ".";
		if (st.k === "round") return "A round: every seat placed at once.";
		if (st.k === "halt") return "The game's time ran out.";
		return who + (st.k === "random" ? "(a random move played for it) " : "") + moveWords(G.variant, st.t) + ".";
	}
	function noteWords(n) {
		const who = n.s >= 0 ? "seat " + n.s + " (" + names[n.s] + ")" : "";
		const t = n.t || "";
		const kind = t.split(" ")[0];
		switch (n.k) {
		case "fault": return who + " fault: " + kind + ", " + (FAULT_WORDS[kind] || "?") +
			(t.length > kind.length ? " [" + t.slice(kind.length + 1) + "]" : "");
		case "retire": return who + " is out of the game (it ranks last)";
		case "out": return who + " is out: the referee plays its moves at random from now on";
		case "missing": return who + " sent no move this round";
		case "submit": return who + " moved: " + moveWords(G.variant, t);
		case "submit-random": return who + ": a random move was played for it: " + moveWords(G.variant, t);
		case "rejected": return who + "'s " + t + " came too late (another move came first): not a fault";
		case "side": return who + " table talk: " + t;
		case "info": return who + " says: " + t.replace(/^info /, "");
		default: return (who ? who + " " : "") + n.k + (t ? " " + t : "");
		}
	}
	let shown = -1;
	function go(i) {
		cur = Math.max(0, Math.min(last, i | 0));
		const st = S[cur];
		drawBoard(board, st.b);
		// the last move's cells: what changed at the latest step that was
		// not chance (a roll after a move leaves that move marked)
		let j = cur;
		while (j > 0 && S[j].k === "chance") j--;
		const pic = BOARDS(G, st, j > 0 ? S[j - 1] : null);
		drawing.textContent = "";
		if (pic) {
			fit(pic);
			// a step forward is animated: the last move's cells drop in
			if (cur === shown + 1) pic.classList.add("animate");
			drawing.appendChild(pic);
		}
		shown = cur;
		text.open = !pic || text.open;
		slider.value = String(cur);
		pos.textContent = "step " + cur + " / " + last;
		let w = stepWords(st);
		if (cur === last && G.result) w += "  Game over: " + words[0];
		what.textContent = w;
		what.title = st.k + (st.s >= 0 ? " seat " + st.s : "") + (st.t ? ": " + st.t : "");
		for (let p = 0; p < N; p++) {
			rows[p].sc.textContent = String(st.sc[p]);
			rows[p].rk.textContent = cur === last && ranks[p] !== undefined ? ranks[p] : "";
			rows[p].ms.textContent = st.ms && st.ms[p] !== null && st.ms[p] !== undefined ? st.ms[p].toFixed(1) : "";
		}
		notes.textContent = "";
		(st.n || []).forEach(function (n) {
			if (n.k === "stderr") {
				// folded: a bot's stderr for this decision can be long
				const d = el("details", {});
				const lines = n.t.split("\n").length;
				d.append(el("summary", {}, "seat " + n.s + " stderr (" + lines + (lines === 1 ? " line)" : " lines)")), el("pre", {}, n.t));
				notes.appendChild(el("li", { class: "stderr" })).appendChild(d);
				return;
			}
			const li = el("li", { class: n.k, title: (n.s >= 0 ? "seat " + n.s + " " : "") + n.k + (n.t ? " " + n.t : "") }, noteWords(n));
			notes.appendChild(li);
		});
		if (!(st.n || []).length) notes.appendChild(el("li", { class: "muted" }, "(nothing before this step)"));
		charts.forEach(function (c) { c.move(cur); });
		const h = "#m=" + cur;
		if (location.hash !== h) history.replaceState(null, "", h);
		document.body.setAttribute("data-step", String(cur));
	}
	function play(on) {
		if (timer) { clearInterval(timer); timer = null; }
		if (on) {
			if (cur === last) go(0);
			timer = setInterval(function () { if (cur >= last) play(false); else go(cur + 1); }, 400 / Number(speed.value));
		}
		bPlay.textContent = timer ? "⏸ pause" : "▶ play";
	}
	bFirst.onclick = function () { play(false); go(0); };
	bPrev.onclick = function () { play(false); go(cur - 1); };
	bNext.onclick = function () { play(false); go(cur + 1); };
	bLast.onclick = function () { play(false); go(last); };
	bPlay.onclick = function () { play(!timer); };
	slider.oninput = function () { play(false); go(Number(slider.value)); };
	speed.onchange = function () { if (timer) play(true); };
	window.addEventListener("resize", function () { shown = -2; go(cur); });
	document.addEventListener("keydown", function (ev) {
		if (ev.target && ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
		const k = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
		if (k) { play(false); go(cur + k); ev.preventDefault(); }
		else if (ev.key === "Home") { play(false); go(0); ev.preventDefault(); }
		else if (ev.key === "End") { play(false); go(last); ev.preventDefault(); }
		else if (ev.key === " ") { play(!timer); ev.preventDefault(); }
	});
	// The page opens on the first move (not the empty start, nor a chance
	// move before anyone played), or where the address says.
	let first = 0;
	while (first < last && !/^(move|round|random)$/.test(S[first].k)) first++;
	if (!/^(move|round|random)$/.test(S[first].k)) first = 0;
	document.body.setAttribute("data-first", String(first));
	cur = first;
	function fromHash() {
		const m = location.hash.match(/^#m=(\d+)$/);
		go(m ? Number(m[1]) : cur);
	}
	window.addEventListener("hashchange", fromHash);
	fromHash();
	if (scores.length && scores.length !== N) console.warn("result has " + scores.length + " scores for " + N + " seats");
})();
