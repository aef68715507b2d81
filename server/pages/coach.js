// coach: the "review" panel of a finished game's replay page, as
// `referee serve` serves it (docs/serve.md, "Review and hints"). For each
// seat a person played, a button asks the server for our AI's review
// (GET /games/ID/review?seat=S, polled while it runs: a worker process
// computes it); then a table lists every decision of the person: the move
// played, the AI's choice, the cost by its judgement, each linked to its
// step of the replay, and a line under the controls says what the AI
// thought of the decision on screen.
"use strict";
(function () {
	const G = JSON.parse(document.getElementById("game").textContent);
	const id = decodeURIComponent(location.pathname.split("/")[2] || "");
	const people = [];
	G.bots.forEach(function (b, p) { if (b.command === "web" || b.command === "human") people.push(p); });
	if (!people.length || !id) return;
	// the replay page is self-contained (viewer.css inline): the panel's
	// own few rules come with it
	document.head.appendChild(el("style", {}, "#review { margin: .6em 0; } #review h2 { font-size: 1.05em; margin: .2em 0; }" +
		" #reviewtable tr.good td { background: #efe; } #reviewtable tr.cost td { background: #fff4e5; }" +
		" #reviewtable tr.here td { outline: 2px solid #06c; outline-offset: -2px; font-weight: bold; }" +
		" #coachnow { font-weight: bold; color: #333; }"));
	const panel = el("section", { id: "review" });
	panel.appendChild(el("h2", {}, "review by our AI"));
	const now = el("p", { id: "coachnow", class: "muted" }, "");
	const note = el("p", { id: "reviewstate", class: "muted" }, "");
	const table = el("table", { id: "reviewtable" });
	const buttons = el("p", {});
	people.forEach(function (p) {
		const b = el("button", { type: "button", id: "review-" + p, "data-seat": String(p) }, "review seat " + p + " (" + G.bots[p].name + ")");
		b.addEventListener("click", function () { ask(p, b); });
		buttons.appendChild(b);
	});
	panel.append(buttons, note, now, table);
	const controls = document.getElementById("controls");
	if (controls && controls.nextSibling) controls.parentNode.insertBefore(panel, controls.nextSibling);
	else document.body.appendChild(panel);

	let R = null, at = {};	// the review; replay step -> its decision
	function ask(p, b) {
		b.disabled = true;
		note.textContent = "asking our AI…";
		function poll() {
			fetch("/games/" + encodeURIComponent(id) + "/review?seat=" + p).then(function (r) {
				return r.ok ? r.json() : r.text().then(function (t) { throw new Error(t); });
			}).then(function (j) {
				if (j.state === "running") {
					note.textContent = "our AI is reviewing: decision " + j.step + " of " + (j.count || "?") + " (" + Math.round(j.seconds) + " s)";
					note.dataset.step = j.step;
					setTimeout(poll, 500);
				} else if (j.state === "done") {
					b.disabled = false;
					show(p, j.steps);
				} else {
					b.disabled = false;
					note.textContent = "no review: " + j.error;
				}
			}).catch(function (e) { b.disabled = false; note.textContent = "no review: " + e.message; });
		}
		poll();
	}
	function cost(d) {
		if (d.cost === null || d.cost === undefined) return d.why || "-";
		return d.as_good ? "0 (as good as the AI's)" : d.cost.toFixed(2) + " " + (d.unit || "");
	}
	function show(p, steps) {
		R = steps;
		at = {};
		// decision k is the seat's k-th move in the replay
		const mine = [];
		G.steps.forEach(function (st, i) { if (st.s === p && (st.k === "move" || st.k === "random")) mine.push(i); });
		table.textContent = "";
		table.appendChild(el("tr", {})).append(el("th", {}, "decision"), el("th", { class: "l" }, "played"),
			el("th", { class: "l" }, "our AI's choice"), el("th", {}, "cost"), el("th", {}, "rank of the move played"));
		let total = 0, same = 0;
		steps.forEach(function (d, k) {
			const tr = el("tr", { "data-decision": String(d.step), class: d.as_good ? "good" : d.cost > 0 ? "cost" : "" });
			const td = el("td", {});
			if (mine[k] !== undefined) {
				td.appendChild(el("a", { href: "#m=" + mine[k] }, String(d.step)));
				at[mine[k]] = d;
			} else td.textContent = String(d.step);
			tr.append(td, el("td", { class: "l mono", title: words(d.played) }, d.played || "(none)"),
				el("td", { class: "l mono", title: words(d.choice) }, d.choice || "(none)"),
				el("td", {}, cost(d)), el("td", {}, d.rank ? d.rank + " of " + d.moves : "-"));
			table.appendChild(tr);
			if (typeof d.cost === "number") total += d.cost;
			if (d.as_good) same++;
		});
		note.textContent = "seat " + p + " (" + G.bots[p].name + "): " + steps.length + " decisions, " + same +
			" as good as our AI's, total cost " + total.toFixed(2) + " " + ((steps[0] || {}).unit || "");
		note.dataset.decisions = steps.length;
		here();
	}
	function words(m) { return m && typeof moveWords === "function" ? moveWords(G.variant, m) : ""; }
	function here() {
		if (!R) return;
		const d = at[Number(document.body.getAttribute("data-step"))];
		Array.from(table.querySelectorAll("tr.here")).forEach(function (r) { r.classList.remove("here"); });
		const row = d && table.querySelector('tr[data-decision="' + d.step + '"]');
		if (row) row.classList.add("here");
		now.textContent = d ? "at this decision (" + d.step + ") our AI would play " + (d.choice || "?") + "; the move played, " +
			(d.played || "?") + ", cost " + cost(d) : "(not a reviewed decision: step to one of the person's moves)";
	}
	new MutationObserver(here).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
})();
