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
	function standings() {
		fetch("/standings.json").then(function (r) { return r.json(); }).then(function (S) {
			table.textContent = "";
			if (!S) { note.textContent = "no game has ended yet"; return; }
			note.textContent = (S.games !== undefined ? S.games + " games played" : "") + (S.partial ? " (so far)" : "");
			note.dataset.games = S.games;
			const rows = S.bots || S.standings || [];
			if (!rows.length) return;
			const keys = Object.keys(rows[0]).filter(function (k) { return typeof rows[0][k] !== "object"; });
			const head = el("tr");
			keys.forEach(function (k) { head.appendChild(el("th", {}, k)); });
			table.appendChild(head);
			rows.forEach(function (r) {
				const tr = el("tr");
				keys.forEach(function (k) { tr.appendChild(el("td", {}, String(r[k]))); });
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
