// live: a game watched as it is played, from the server's Server-Sent
// Events (docs/serve.md, "Watching"): the header (`game`), every step with
// its number as the event id (`step`), the latest step alone when the
// history was lost (`full`), and the result (`end`). The browser's
// EventSource resumes with Last-Event-ID by itself after a dropped
// connection. LIVE.watch(id, on) calls on.game(G), on.step(n, st, G) and
// on.end(info, G) (step's fourth argument: true for `full`); LIVE.draw(box, G, st) draws a step as the replay does.
"use strict";
const LIVE = (function () {
	function watch(id, on) {
		const es = new EventSource("/games/" + encodeURIComponent(id) + "/events");
		let G = null;
		es.addEventListener("game", function (ev) {
			G = JSON.parse(ev.data);
			G.steps = [];
			if (on.game) on.game(G);
		});
		function step(ev, full) {
			const n = Number(ev.lastEventId), st = JSON.parse(ev.data);
			if (full) G.steps = [];
			G.steps[n] = st;
			if (on.step) on.step(n, st, G, full);
		}
		es.addEventListener("step", function (ev) { step(ev, false); });
		es.addEventListener("full", function (ev) { step(ev, true); });
		es.addEventListener("end", function (ev) {
			es.close();
			G.result = JSON.parse(ev.data).result;
			if (on.end) on.end(JSON.parse(ev.data), G);
		});
		return es;
	}
	// "ranks=1,2 scores=14,9 faults=-,- reason=end" -> {ranks: [...], ...}
	function fields(line) {
		const f = {};
		(line || "").split(" ").forEach(function (kv) {
			const i = kv.indexOf("=");
			if (i > 0) f[kv.slice(0, i)] = kv.slice(i + 1).split(",");
		});
		return f;
	}
	function ordinal(n) {
		return n + (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");
	}
	function draw(box, G, st) {
		box.textContent = "";
		// the last move's cells framed, as in the replay: the step before
		// the latest one that was not chance
		let j = G.steps.indexOf(st);
		while (j > 0 && G.steps[j] && G.steps[j].k === "chance") j--;
		const pic = typeof BOARDS === "function" ? BOARDS(G, st, j > 0 ? G.steps[j - 1] : null) : null;
		if (pic) box.appendChild(pic);
		const p = el("p", { class: "muted" });
		const words = typeof moveWords === "function" && st.t ? moveWords(G.variant, st.t) : st.t;
		p.textContent = (st.k === "start" ? "the start" : st.k + (st.s >= 0 ? " by seat " + st.s : "") + (words ? ": " + words : "")) +
			"; scores " + (st.sc || []).join(", ");
		box.appendChild(p);
	}
	return { watch: watch, draw: draw, fields: fields, ordinal: ordinal };
})();
