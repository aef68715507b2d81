// watch: a game for a spectator (docs/serve.md, "Watching"). The steps
// arrive as the game makes them (bots play at full speed); the page plays
// them back at a person's pace: one step every `delay` seconds (the
// select, or ?delay=S in the address; 0 shows each as it arrives), with
// pause, one step on, and a jump to the latest. Every seat's clock is
// shown as it stood after the step shown.
//
// #status keeps what arrived (data-seen, data-step: the last one, data-gaps:
// steps not following the one before); #shown what is on screen
// (data-shown: its number, data-of: how many there are so far). The
// result shows once the playback reaches the end.
"use strict";
(function () {
	const D = JSON.parse(document.getElementById("data").textContent);
	const DELAYS = [0, 0.25, 0.5, 1, 1.5, 2, 3];
	const asked = Number(new URLSearchParams(location.search).get("delay"));
	let delay = new URLSearchParams(location.search).has("delay") && asked >= 0 && asked <= 3 ? asked : 0.5;
	const h1 = el("h1", {}, "game " + D.id), status = el("p", { id: "status", class: "muted" }, "waiting for the game to start");
	const bar = el("p", { id: "pacebar", class: "playbar" });
	const pause = el("button", { id: "pause", type: "button" }, "pause");
	const next = el("button", { id: "next", type: "button", title: "one step on (pauses)" }, "step ▸");
	const latest = el("button", { id: "latest", type: "button", title: "the newest step" }, "latest ▸▸");
	const sel = el("select", { id: "delay", title: "seconds between steps" });
	DELAYS.forEach(function (d) {
		const o = el("option", { value: String(d) }, d === 0 ? "as played" : d + " s a step");
		if (d === delay) o.selected = true;
		sel.appendChild(o);
	});
	if (DELAYS.indexOf(delay) < 0) {
		const o = el("option", { value: String(delay) }, delay + " s a step");
		o.selected = true;
		sel.appendChild(o);
	}
	const shown = el("span", { id: "shown" }, "");
	bar.append(pause, " ", next, " ", latest, " ", el("label", {}, "pace "), sel, " ", shown);
	const clocks = el("div", { id: "clocks", class: "seats" });
	const box = el("div", { id: "live" }), result = el("p", { id: "result", hidden: "" });
	document.body.append(h1, bar, clocks, status, box, result);

	let G = null, at = -1, paused = false, timer = 0, ended = null;

	function seconds(ms) {
		if (ms === null || ms === undefined) return "-";
		const s = ms / 1000;
		return s >= 60 ? Math.floor(s / 60) + ":" + ("0" + (s % 60).toFixed(1)).slice(-4) : s.toFixed(1) + " s";
	}
	function newest() { return G ? G.steps.length - 1 : -1; }
	function drawClocks(st) {
		clocks.textContent = "";
		G.bots.forEach(function (b, p) {
			const card = el("span", { class: "seatcard", "data-seat": String(p) });
			card.style.borderColor = PALETTE[p % PALETTE.length];
			const left = st.clk ? st.clk[p] : undefined, used = st.used ? st.used[p] : undefined;
			const c = el("span", { class: "clock" + (st.s === p ? " running" : "") + (left !== null && left !== undefined && left < 10000 ? " low" : "") },
				left === null ? "thought " + seconds(used) : left === undefined ? "no clock" : seconds(left) + " left");
			c.title = "the time left in the bank after this step (the increment added)";
			card.append(el("span", {}, "seat " + p + " " + b.name + ": "), c);
			if (left !== null && used !== undefined) card.append(el("span", { class: "muted" }, "thought " + seconds(used)));
			clocks.appendChild(card);
		});
	}
	function show(n) {
		const st = G.steps[n];
		if (!st) return;
		at = n;
		LIVE.draw(box, G, st);
		drawClocks(st);
		shown.textContent = "step " + n + " of " + newest() + (ended ? "" : " so far");
		shown.dataset.shown = n;
		shown.dataset.of = newest();
		if (ended && n === newest()) finish();
	}
	function tick() {
		timer = 0;
		if (!G || paused || at >= newest()) return;
		// a step not held (history lost): on to the next one there is
		let n = at + 1;
		while (n < newest() && !G.steps[n]) n++;
		show(n);
		schedule();
	}
	function schedule() {
		if (timer || paused || !G || at >= newest()) return;
		if (delay === 0 || at < 0) { tick(); return; }
		timer = setTimeout(tick, delay * 1000);
	}
	function stop() { clearTimeout(timer); timer = 0; }
	pause.addEventListener("click", function () {
		paused = !paused;
		pause.textContent = paused ? "play" : "pause";
		stop();
		schedule();
	});
	next.addEventListener("click", function () {
		paused = true;
		pause.textContent = "play";
		stop();
		if (G && at < newest()) {
			let n = at + 1;
			while (n < newest() && !G.steps[n]) n++;
			show(n);
		}
	});
	latest.addEventListener("click", function () {
		stop();
		if (G && newest() >= 0) show(newest());
	});
	sel.addEventListener("change", function () {
		delay = Number(sel.value);
		stop();
		schedule();
	});
	function finish() {
		if (!result.hidden) return;
		status.textContent = "the game is over";
		const f = LIVE.fields(ended.result);
		result.textContent = G.bots.map(function (b, p) {
			return b.name + ": " + (f.ranks ? LIVE.ordinal(+f.ranks[p]) : "?") + ", " + (f.scores ? f.scores[p] : "?") + " points";
		}).join("; ") + " ";
		result.appendChild(el("a", { href: "/games/" + encodeURIComponent(D.id) + "/replay" }, "replay"));
		result.hidden = false;
	}
	LIVE.watch(D.id, {
		game: function (g) {
			G = g;
			h1.textContent = G.title + ": " + G.bots.map(function (b, p) { return "seat " + p + " " + b.name; }).join(", ");
		},
		step: function (n, st, g, full) {
			// what arrived, in order: a step that is not the next one is a gap
			// (or a duplicate); `full` restarts the count
			const seen = Number(status.dataset.seen || 0);
			if (status.dataset.step !== undefined && n !== Number(status.dataset.step) + 1) status.dataset.gaps = Number(status.dataset.gaps || 0) + 1;
			status.dataset.seen = seen + 1;
			status.textContent = "received step " + n;
			status.dataset.step = n;
			if (full) { stop(); show(n); }
			shown.dataset.of = newest();
			if (at >= 0) shown.textContent = "step " + at + " of " + newest() + (ended ? "" : " so far");
			schedule();
		},
		end: function (info) {
			ended = info;
			status.textContent = "all " + (newest() + 1) + " steps received";
			if (at >= newest()) finish();
			else if (at >= 0) shown.textContent = "step " + at + " of " + newest();
		},
	});
})();
