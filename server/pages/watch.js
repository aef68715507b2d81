// watch: a live game for a spectator (docs/serve.md).
"use strict";
(function () {
	const D = JSON.parse(document.getElementById("data").textContent);
	const h1 = el("h1", {}, "game " + D.id), status = el("p", { id: "status" }, "waiting for the game to start");
	const box = el("div", { id: "live" }), result = el("p", { id: "result", hidden: "" });
	document.body.append(h1, status, box, result);
	LIVE.watch(D.id, {
		game: function (G) {
			h1.textContent = G.title + ": " + G.bots.map(function (b, p) { return "seat " + p + " " + b.name; }).join(", ");
		},
		step: function (n, st, G) {
			status.textContent = "step " + n;
			status.dataset.step = n;
			LIVE.draw(box, G, st);
		},
		end: function (info, G) {
			status.textContent = "the game is over";
			const f = LIVE.fields(info.result);
			result.textContent = G.bots.map(function (b, p) {
				return b.name + ": " + (f.ranks ? LIVE.ordinal(+f.ranks[p]) : "?") + ", " + (f.scores ? f.scores[p] : "?") + " points";
			}).join("; ") + " ";
			result.appendChild(el("a", { href: "/games/" + encodeURIComponent(D.id) + "/replay" }, "replay"));
			result.hidden = false;
		},
	});
})();
