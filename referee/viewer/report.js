// A tournament's report.html: draws what the referee put in the element
// #report (standings.json and games.csv, see docs/viewer.md). Plain script.
"use strict";
(function () {
	const R = JSON.parse(document.getElementById("report").textContent);
	const ST = R.standings, bots = ST.bots;
	const COL = PALETTE;

	function fix(x, d) { return typeof x === "number" ? x.toFixed(d) : "-"; }
	function section(title) { document.body.appendChild(el("h2", {}, title)); }

	// games.csv: one row per seat of each game
	const lines = R.games_csv.split("\n").filter(function (l) { return l.length; });
	const cols = lines.length ? lines[0].split(",") : [];
	const rows = lines.slice(1).map(function (l) {
		const v = l.split(","), o = {};
		cols.forEach(function (c, i) { o[c] = v[i]; });
		return o;
	});
	const games = new Map();
	rows.forEach(function (r) {
		if (!games.has(r.id)) games.set(r.id, []);
		games.get(r.id).push(r);
	});

	document.body.appendChild(el("h1", {}, "Tournament report: " + ST.variant));
	const head = el("p", { id: "header" });
	head.append(document.createTextNode(ST.players + " players a game · seed " + ST.seed + " · "),
		el("span", { id: "gamecount" }, String(ST.games)), document.createTextNode(" games played of " + ST.total));
	if ((R.meta && R.meta.lower_wins || []).indexOf(ST.variant) >= 0)
		head.append(document.createTextNode(" · "), el("span", { id: "lowerwins" }, "the lower score wins" +
			(ST.variant === "rush" ? " (a score is the squares left uncovered)" : "")));
	document.body.appendChild(head);
	const META = R.meta || {};
	if (ST.partial) document.body.appendChild(el("p", { id: "partial", class: "fault" },
		"PARTIAL: " + ST.games + " of " + ST.total + " games played; the run did not finish."));
	if (ST.notes && ST.notes.length) {
		const ul = el("ul", { id: "runnotes" });
		ST.notes.forEach(function (n) { ul.appendChild(el("li", { class: "fault" }, n)); });
		document.body.appendChild(ul);
	}
	document.body.appendChild(el("p", { id: "meta" }, [
		"written " + (META.written || "?"), "referee " + (META.referee || "?"),
		"time control " + (META.time || "?"), "fault policy " + (META.policy || "?")].join(" · ")));
	if (ST.sandbox) {
		// Loud when the bots ran without a jail (standings.c says why).
		const bare = (ST.sandbox.off || 0) + (ST.sandbox.unavailable || 0);
		document.body.appendChild(el("p", { id: "sandbox", class: bare ? "fault" : "" }, "sandbox: " + ST.sandbox.text));
	}

	// ---- standings ---------------------------------------------------------
	section("Standings");
	const t = el("table", { id: "standings" });
	t.appendChild(el("tr", {})).append(el("th", {}, "#"), el("th", { class: "l" }, "bot"), el("th", {}, "games"),
		el("th", {}, "points"), el("th", {}, "W-D-L"), el("th", {}, "mean rank"), el("th", {}, "mean score"),
		el("th", {}, "Elo"), el("th", {}, "95% interval"), el("th", {}, "faults"), el("th", {}, "ms/move"), el("th", { class: "l" }, "program SHA-256"));
	bots.forEach(function (b) {
		const tr = el("tr", { "data-bot": b.name });
		tr.append(el("td", {}, String(b.rank)), el("td", { class: "l" }, b.name), el("td", {}, String(b.games)),
			el("td", {}, fix(b.points, 1)),
			b.wins === undefined ? el("td", { class: "muted", title: "wins, draws and losses are counted in 2-seat games: see the mean rank" }, "-")
				: el("td", {}, b.wins + "-" + b.draws + "-" + b.losses),
			el("td", {}, fix(b.mean_rank, 2)), el("td", {}, fix(b.mean_score, 2)),
			el("td", { class: "elo" }, fix(b.elo, 0)), el("td", {}, fix(b.elo_low, 0) + " … " + fix(b.elo_high, 0)),
			el("td", {}, String(b.faults)), el("td", {}, fix(b.mean_ms, 2)));
		const h = (META.hashes || {})[b.name];
		tr.appendChild(el("td", { class: "l mono hash", title: h || "not recorded" }, h ? h.slice(0, 12) : "-"));
		t.appendChild(tr);
	});
	document.body.appendChild(t);

	// ---- sequential test ----------------------------------------------------
	if (ST.sprt) {
		const S = ST.sprt;
		section("Sequential test (SPRT)");
		const decided = S.decision === "H1" ? "H1 accepted" : S.decision === "H0" ? "H0 accepted" : "continue (undecided)";
		const st = el("table", { id: "sprt" });
		[["test", (S.first ? S.first + " against " + S.second + ": " : "") + "elo0 " + S.elo0 + " against elo1 " + S.elo1 + ", alpha " + S.alpha + ", beta " + S.beta],
		 ["LLR", fix(S.llr, 2)], ["bounds", fix(S.lower, 2) + " … " + fix(S.upper, 2)],
		 ["pairs", String(S.pairs)], ["pentanomial (0 to 2 points a pair)", S.pentanomial.join("-")],
		 ["decision", decided]].forEach(function (kv) {
			st.appendChild(el("tr", {})).append(el("th", { class: "l" }, kv[0]), el("td", { class: "l", "data-k": kv[0].split(" ")[0] }, kv[1]));
		});
		document.body.appendChild(st);
		if (S.decision !== "continue" && ST.games < ST.total)
			document.body.appendChild(el("p", { id: "sprtstop" }, "Stopped after " + ST.games + " of " + ST.total +
				" games: the test decided (" + decided + ")."));
	}

	// ---- likelihood of superiority -------------------------------------------
	if (bots.length >= 2) {
		section("Likelihood of superiority (row stronger than column)");
		const lt = el("table", { id: "los" });
		const hr = el("tr", {});
		hr.appendChild(el("th", { class: "l" }, "row vs column"));
		bots.forEach(function (b) { hr.appendChild(el("th", {}, b.name)); });
		lt.appendChild(hr);
		bots.forEach(function (a) {
			const tr = el("tr", {});
			tr.appendChild(el("th", { class: "l" }, a.name));
			bots.forEach(function (b) {
				const p = a.stronger_than ? a.stronger_than[b.name] : undefined;
				tr.appendChild(a.name === b.name ? el("td", { class: "muted" }, "—")
					: el("td", { class: "losv" }, typeof p === "number" ? (100 * p).toFixed(1) + "%" : "-"));
			});
			lt.appendChild(tr);
		});
		document.body.appendChild(lt);
	}

	// Charts follow the window's width: each is drawn into its holder at
	// the holder's width, and drawn again when the window is resized.
	const charts = [];
	function chart(id, draw) {
		const holder = el("div", { class: "chart" });
		document.body.appendChild(holder);
		const c = { holder: holder, id: id, draw: draw };
		charts.push(c);
		paint(c);
	}
	function paint(c) {
		const W = Math.max(360, Math.floor(c.holder.clientWidth || document.body.clientWidth || 640) - 2);
		const g = c.draw(W);
		g.setAttribute("id", c.id);
		c.holder.replaceChildren(g);
	}
	let pending = false;
	window.addEventListener("resize", function () {
		if (pending) return;
		pending = true;
		requestAnimationFrame(function () { pending = false; charts.forEach(paint); });
	});

	// ---- ratings with 95% intervals ---------------------------------------
	section("Ratings (Elo) with 95% intervals");
	chart("ratingplot", function (W) {
		const rowH = 26, L = 150, H = bots.length * rowH + 30;
		let lo = 0, hi = 0;
		bots.forEach(function (b) { lo = Math.min(lo, b.elo_low, b.elo); hi = Math.max(hi, b.elo_high, b.elo); });
		const pad = (hi - lo) * 0.05 + 1;
		lo -= pad; hi += pad;
		const x = function (v) { return L + (W - L - 20) * (v - lo) / (hi - lo); };
		const g = svg("svg", { id: "ratingplot", width: W, height: H, role: "img" });
		g.appendChild(svg("title", {}, "ratings with 95% intervals"));
		g.appendChild(svg("line", { x1: x(0), x2: x(0), y1: 0, y2: H - 20, stroke: "#aaa", "stroke-dasharray": "3 3" }));
		g.appendChild(svg("text", { x: x(0) - 4, y: H - 6 }, "0"));
		g.appendChild(svg("text", { x: L, y: H - 6 }, Math.round(lo)));
		g.appendChild(svg("text", { x: W - 50, y: H - 6 }, Math.round(hi)));
		bots.forEach(function (b, i) {
			const y = 16 + i * rowH;
			g.appendChild(svg("text", { x: 4, y: y + 4 }, b.name));
			g.appendChild(svg("line", { class: "bar", x1: x(b.elo_low), x2: x(b.elo_high), y1: y, y2: y, stroke: COL[i % COL.length], "stroke-width": 4 }));
			g.appendChild(svg("circle", { cx: x(b.elo), cy: y, r: 5, fill: "#000" }));
			g.appendChild(svg("text", { x: Math.min(x(b.elo_high) + 6, W - 30), y: y + 4 }, fix(b.elo, 0)));
		});
		return g;
	});

	// ---- crosstable heat map ------------------------------------------------
	section("Crosstable: score share of the row's bot against the column's (heat map)");
	(function () {
		const ct = el("table", { id: "crosstable" });
		const hr = el("tr", {});
		hr.appendChild(el("th", { class: "l" }, "row vs column"));
		bots.forEach(function (b) { hr.appendChild(el("th", {}, b.name)); });
		ct.appendChild(hr);
		bots.forEach(function (a) {
			const tr = el("tr", {});
			tr.appendChild(el("th", { class: "l" }, a.name));
			bots.forEach(function (b) {
				const c = a.crosstable && a.crosstable[b.name];
				if (a.name === b.name || !c) { tr.appendChild(el("td", { class: "muted" }, a.name === b.name ? "—" : "")); return; }
				// share 0 (vermillion) .. 0.5 (white) .. 1 (blue)
				const s = c.share, k = Math.abs(s - 0.5) * 2;
				const base = s >= 0.5 ? [0, 114, 178] : [213, 94, 0];
				const mix = base.map(function (v) { return Math.round(255 + (v - 255) * k); });
				const td = el("td", { class: "heat", title: c.wins + "-" + c.draws + "-" + c.losses + " in " + c.games,
					style: "background:rgb(" + mix.join(",") + ");color:" + (k > 0.6 ? "#fff" : "#000") },
					(s * 100).toFixed(0) + "%");
				tr.appendChild(td);
			});
			ct.appendChild(tr);
		});
		document.body.appendChild(ct);
	})();

	// ---- distributions per bot --------------------------------------------
	function quantiles(a) {
		a = a.slice().sort(function (x, y) { return x - y; });
		const q = function (p) { const i = (a.length - 1) * p, f = Math.floor(i); return a[f] + (a[Math.min(f + 1, a.length - 1)] - a[f]) * (i - f); };
		return [a[0], q(0.25), q(0.5), q(0.75), a[a.length - 1]];
	}
	// log: a log10 axis (times span decades: an instant bot and a slow one
	// both stay readable); values below `floor` are drawn at it.
	function boxplot(id, title, value, log) {
		const floor = 0.001;
		const per = bots.map(function (b) { return rows.filter(function (r) { return r.bot === b.name; }).map(value).filter(function (v) { return isFinite(v); }); });
		chart(id, function (W) {
		const rowH = 26, L = 150, H = bots.length * rowH + 30;
		const f = log ? function (v) { return Math.log10(Math.max(v, floor)); } : function (v) { return v; };
		let lo = Infinity, hi = -Infinity;
		per.forEach(function (a) { a.forEach(function (v) { lo = Math.min(lo, f(v)); hi = Math.max(hi, f(v)); }); });
		if (!isFinite(lo)) { lo = 0; hi = 1; }
		if (log) { lo = Math.floor(lo); hi = Math.ceil(hi); }
		if (hi === lo) hi = lo + 1;
		const x = function (v) { return L + (W - L - 20) * (f(v) - lo) / (hi - lo); };
		const g = svg("svg", { id: id, width: W, height: H, role: "img", "data-scale": log ? "log" : "linear" });
		g.appendChild(svg("title", {}, title));
		if (log) {
			for (let e = lo; e <= hi; e++) {
				const xe = L + (W - L - 20) * (e - lo) / (hi - lo);
				g.appendChild(svg("line", { class: "tick", x1: xe, x2: xe, y1: 0, y2: H - 20, stroke: "#ddd" }));
				g.appendChild(svg("text", { x: xe - 8, y: H - 6 }, String(Math.pow(10, e)).replace(/^0\./, ".")));
			}
		} else {
			g.appendChild(svg("text", { x: L, y: H - 6 }, String(Math.round(lo * 100) / 100)));
			g.appendChild(svg("text", { x: W - 60, y: H - 6 }, String(Math.round(hi * 100) / 100)));
		}
		bots.forEach(function (b, i) {
			const y = 16 + i * rowH;
			g.appendChild(svg("text", { x: 4, y: y + 4 }, b.name));
			if (!per[i].length) return;
			const q = quantiles(per[i]);
			g.appendChild(svg("line", { x1: x(q[0]), x2: x(q[4]), y1: y, y2: y, stroke: "#444" }));
			g.appendChild(svg("rect", { x: x(q[1]), y: y - 8, width: Math.max(1, x(q[3]) - x(q[1])), height: 16, fill: COL[i % COL.length], stroke: "#000" }));
			g.appendChild(svg("line", { x1: x(q[2]), x2: x(q[2]), y1: y - 8, y2: y + 8, stroke: "#000", "stroke-width": 2 }));
		});
		return g;
		});
	}
	section("Score per game (box: quartiles, line: median, whiskers: min and max)");
	boxplot("scoreplot", "score per game per bot", function (r) { return Number(r.score); });
	section("Mean time per move in a game, ms (log scale)");
	boxplot("timeplot", "mean ms per move per bot and game, log scale", function (r) { return Number(r.mean_ms); }, true);

	// ---- seat advantage ---------------------------------------------------
	section("Seat advantage");
	(function () {
		const st = el("table", { id: "seats" });
		st.appendChild(el("tr", {})).append(el("th", {}, "seat"), el("th", {}, "games"), el("th", {}, "first places"),
			el("th", {}, "mean rank"), el("th", {}, "mean score"));
		for (let s = 0; s < ST.players; s++) {
			const a = rows.filter(function (r) { return Number(r.seat) === s; });
			const n = a.length || 1;
			const first = a.filter(function (r) { return r.rank === "1"; }).length;
			const mr = a.reduce(function (x, r) { return x + Number(r.rank); }, 0) / n;
			const ms = a.reduce(function (x, r) { return x + Number(r.score); }, 0) / n;
			st.appendChild(el("tr", {})).append(el("td", {}, String(s)), el("td", {}, String(a.length)),
				el("td", {}, first + " (" + (100 * first / n).toFixed(0) + "%)"), el("td", {}, mr.toFixed(2)), el("td", {}, ms.toFixed(2)));
		}
		document.body.appendChild(st);
	})();

	// ---- games ------------------------------------------------------------
	const replayed = new Set(R.replayed);
	function link(r) {
		if (!r.log || r.log === "-") return el("span", { class: "muted" }, "game " + r.id + " (no log)");
		if (replayed.has(r.log)) return el("a", { href: r.log + ".html" }, "game " + r.id);
		const a = el("a", { href: r.log, title: "make its replay: referee view --html " + r.log }, "game " + r.id + " (log)");
		return a;
	}
	section("Faulted games");
	const faulted = Array.from(games.values()).filter(function (g) { return g.some(function (r) { return r.faults !== "-"; }); });
	const fl = el("ul", { id: "faulted" });
	faulted.forEach(function (g) {
		const li = el("li", {});
		li.appendChild(link(g[0]));
		li.appendChild(document.createTextNode(": " + g.filter(function (r) { return r.faults !== "-"; }).map(function (r) { return r.bot + " (seat " + r.seat + ") " + r.faults; }).join("; ")));
		fl.appendChild(li);
	});
	if (!faulted.length) fl.appendChild(el("li", { class: "muted" }, "none"));
	document.body.appendChild(fl);

	section("Games");
	if (replayed.size < games.size) document.body.appendChild(el("p", {}, "Games marked (log) have no replay written with the report (more than 500 games, or no log to replay): the link opens the log, and `referee view --html LOG` makes its replay."));
	// Sortable (click a heading; again for the other order) and filterable
	// (each word typed must begin a word of the row: a bot's name, an end
	// such as "limit", a fault such as "timeout:1").
	const filter = el("input", { id: "gamefilter", type: "search", placeholder: "filter games: bot, end, fault…", size: "40" });
	const shown = el("span", { id: "gamesshown", class: "muted" });
	const fp = el("p", {});
	fp.append(filter, document.createTextNode(" "), shown);
	document.body.appendChild(fp);
	const gt = el("table", { id: "games" });
	const heads = [["game", "id"], ["round", "round"], ["seats: bot rank score", "seats"], ["faults", "faults"],
		["end", "end"], ["plies", "plies"], ["ms/move", "ms"], ["seed", "seed"], ["stderr", "stderr"]];
	const hrow = el("tr", {});
	heads.forEach(function (h) {
		if (h[1] === "stderr") { hrow.appendChild(el("th", { class: "l", title: "each seat's standard error, beside the log" }, h[0])); return; }
		hrow.appendChild(el("th", { class: "sort" + (h[1] === "seats" || h[1] === "faults" ? " l" : ""), "data-key": h[1], title: "sort" }, h[0]));
	});
	gt.appendChild(hrow);
	const grows = [];
	games.forEach(function (g) {
		const tr = el("tr", {});
		const td = el("td", {}); td.appendChild(link(g[0]));
		const faults = g.filter(function (r) { return r.faults !== "-"; }).map(function (r) { return r.bot + " " + r.faults; }).join("; ");
		const ms = g.reduce(function (x, r) { return x + Number(r.mean_ms || 0); }, 0) / g.length;
		const seats = g.map(function (r) { return r.bot + " " + r.rank + " " + r.score; }).join(" · ");
		// each seat's stderr, written beside the log as LOG.seatN.stderr
		const errs = el("td", { class: "l" });
		if (g[0].log && g[0].log !== "-")
			g.forEach(function (r, i) {
				if (i) errs.appendChild(document.createTextNode(" "));
				errs.appendChild(el("a", { class: "stderr", href: r.log + ".seat" + r.seat + ".stderr", title: r.bot + "'s stderr (seat " + r.seat + ")" }, String(r.seat)));
			});
		else errs.appendChild(el("span", { class: "muted" }, "-"));
		tr.append(td, el("td", {}, g[0].round), el("td", { class: "l" }, seats), el("td", { class: "l" + (faults ? " fault" : "") }, faults || "-"),
			el("td", {}, g[0].end), el("td", {}, g[0].plies), el("td", {}, ms.toFixed(2)), el("td", { class: "seed" }, g[0].seed || "-"), errs);
		const key = { id: Number(g[0].id), round: Number(g[0].round), seats: seats, faults: faults, end: g[0].end,
			plies: Number(g[0].plies), ms: ms, seed: g[0].seed || "" };
		grows.push({ tr: tr, key: key, words: (g[0].id + " " + seats + " " + (faults || "no-faults") + " " + g[0].end)
			.toLowerCase().split(/[\s;·+]+/) });
		gt.appendChild(tr);
	});
	document.body.appendChild(gt);
	let sortKey = "id", sortDir = 1;
	function refresh() {
		const words = filter.value.toLowerCase().split(/\s+/).filter(function (w) { return w.length; });
		let n = 0;
		grows.slice().sort(function (a, b) {
			const x = a.key[sortKey], y = b.key[sortKey];
			const c = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
			return (c || a.key.id - b.key.id) * sortDir;
		}).forEach(function (r) {
			const hit = words.every(function (w) { return r.words.some(function (t) { return t.indexOf(w) === 0; }); });
			r.tr.hidden = !hit;
			n += hit;
			gt.appendChild(r.tr);
		});
		shown.textContent = n + " of " + grows.length + " games shown";
		gt.querySelectorAll("th.sort").forEach(function (th) {
			th.setAttribute("aria-sort", th.getAttribute("data-key") === sortKey ? (sortDir > 0 ? "ascending" : "descending") : "none");
		});
	}
	hrow.addEventListener("click", function (e) {
		const th = e.target.closest("th.sort");
		if (!th) return;
		const k = th.getAttribute("data-key");
		sortDir = k === sortKey ? -sortDir : 1;
		sortKey = k;
		refresh();
	});
	filter.addEventListener("input", refresh);
	refresh();
})();
