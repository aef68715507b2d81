// standings: a tournament served while it runs (docs/serve.md,
// "Tournaments"): the standings, polled from /standings.json, and the
// games (watch any in progress, replay any finished).
"use strict";
(function () {
	document.body.appendChild(el("h1", {}, "tetrarena tournament"));
	const note = el("p", { id: "progress", class: "muted" }, "");
	const table = el("table", { id: "standings" });
	const report = el("p", {});
	report.appendChild(el("a", { href: "/report" }, "the report (once the tournament is over)"));
	const list = el("ul", { id: "games" });
	document.body.append(note, table, report, el("h2", {}, "games"), list);
	// numbers as a person reads them: rounded, Elo signed, its 95%
	// interval as ± half its width (the bounds on hover)
	function num(x, d) { return typeof x === "number" && isFinite(x) ? x.toFixed(d) : "-"; }
	function signed(x) { return typeof x === "number" && isFinite(x) ? (x > 0.5 ? "+" : x < -0.5 ? "−" : "") + Math.abs(Math.round(x)) : "-"; }
	function elo(r) {
		const half = (r.elo_high - r.elo_low) / 2;
		return signed(r.elo) + (isFinite(half) ? " ± " + Math.round(half) : "");
	}
	function standings() {
		fetch("/standings.json").then(function (r) { return r.json(); }).then(function (S) {
			table.textContent = "";
			if (!S) { note.textContent = "no game has ended yet"; return; }
			note.textContent = (S.games !== undefined ? S.games + " games played" : "") + (S.partial ? " (so far)" : "");
			note.dataset.games = S.games;
			if (!S.partial) note.textContent += ": the tournament is over";
			report.firstChild.textContent = S.partial ? "the report (once the tournament is over)" : "the report";
			const rows = S.bots || S.standings || [];
			if (!rows.length) return;
			const two = rows[0].wins !== undefined;
			const head = el("tr");
			["#", "bot", "games", "points"].concat(two ? ["won-drawn-lost"] : [], ["mean place", "Elo", "faults", "time a move"])
				.forEach(function (k, i) { head.appendChild(el("th", i === 1 ? { class: "l" } : {}, k)); });
			table.appendChild(head);
			rows.forEach(function (r) {
				const tr = el("tr", { "data-bot": r.name });
				const cells = [String(r.rank), r.name, String(r.games), num(r.points, 1)];
				if (two) cells.push(r.wins + "-" + r.draws + "-" + r.losses);
				cells.push(num(r.mean_rank, 1), elo(r), String(r.faults), num(r.mean_ms, 0) + " ms");
				cells.forEach(function (c, i) {
					const td = el("td", i === 1 ? { class: "l" } : {}, c);
					if (i === cells.length - 3) {
						td.className = "elo";
						td.title = "95% interval: " + signed(r.elo_low) + " to " + signed(r.elo_high);
					}
					tr.appendChild(td);
				});
				table.appendChild(tr);
			});
		}).catch(function () {});
	}
	function games() {
		fetch("/api/games").then(function (r) { return r.json(); }).then(function (G) {
			list.textContent = "";
			G.forEach(function (g) {
				const li = el("li");
				li.appendChild(el("a", { href: "/games/" + encodeURIComponent(g.id) }, g.title));
				li.appendChild(document.createTextNode(" " + g.state + " "));
				if (g.state === "over") li.appendChild(el("a", { href: "/games/" + encodeURIComponent(g.id) + "/replay" }, "replay"));
				list.appendChild(li);
			});
		}).catch(function () {});
	}
	standings(); games();
	setInterval(function () { standings(); games(); }, 1000);
})();
