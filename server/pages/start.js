// start: choose a game to play (or watch) and see the live games
// (docs/serve.md, "The start page"). The form posts to /games, which
// answers with the play page of the first person's seat (or the game's
// watch page when no person plays).
"use strict";
(function () {
	const C = JSON.parse(document.getElementById("data").textContent);
	document.body.appendChild(el("h1", {}, "tetrarena: play our AI, or watch"));
	const main = el("main");
	document.body.appendChild(main);
	const form = el("form", { class: "start", method: "post", action: "/games", id: "start" });
	main.appendChild(form);
	function labelled(text, input) {
		const l = el("label", {}, text + " ");
		l.appendChild(input);
		form.appendChild(l);
		return input;
	}
	const variant = labelled("game", el("select", { name: "variant", id: "variant" }));
	C.variants.forEach(function (v) { variant.appendChild(el("option", { value: v.name }, v.title + " (" + v.name + ")")); });
	const count = labelled("seats", el("input", { type: "number", id: "count", min: 1, max: 8, value: 2 }));
	const seats = el("fieldset", { id: "seats" });
	form.appendChild(seats);
	const seed = labelled("seed (empty: random)", el("input", { name: "seed", id: "seed", inputmode: "numeric", size: 12 }));
	// a person's clock in words (relaxed by default); the time control is our AIs'
	const clock = labelled("your clock", el("select", { name: "clock", id: "clock" }));
	(C.clocks || []).forEach(function (c) { clock.appendChild(el("option", { value: c.name }, c.words)); });
	const time = labelled("the AIs' time control", el("input", { name: "time", id: "time", value: C.time, size: 36 }));
	const opts = el("fieldset", { id: "options" });
	form.appendChild(opts);
	form.appendChild(el("button", { type: "submit", id: "go" }, "start the game"));
	void seed; void time;

	function current() { return C.variants.find(function (v) { return v.name === variant.value; }); }
	function drawSeats() {
		const v = current(), n = Math.max(v.min, Math.min(v.max, Number(count.value) || v.min));
		count.min = v.min; count.max = v.max; count.value = n;
		const old = Array.from(seats.querySelectorAll("select")).map(function (s) { return s.value; });
		seats.textContent = "";
		seats.appendChild(el("legend", {}, "who sits where"));
		for (let p = 0; p < n; p++) {
			const s = el("select", { name: "seat", id: "seat" + p });
			s.appendChild(el("option", { value: "person" }, "a person (you, on this page)"));
			C.opponents.forEach(function (o) {
				if (!o.variant || o.variant === v.name) s.appendChild(el("option", { value: o.name }, o.name));
			});
			// our AI for the game: bot-NAME, else another of its bots
			const own = C.opponents.find(function (o) { return o.name === "bot-" + v.name; }) ||
				C.opponents.find(function (o) { return o.variant === v.name; });
			s.value = old[p] || (p === 0 ? "person" : own ? own.name : "person");
			const l = el("label", {}, "seat " + p + " ");
			l.appendChild(s);
			seats.appendChild(l);
		}
	}
	function drawOptions() {
		const v = current();
		opts.textContent = "";
		opts.appendChild(el("legend", {}, "options (empty: the default)"));
		if (v.name === "rush") {
			// a person cannot race a bot in real time: turns, or a human pace
			const pace = el("select", { id: "pace" });
			pace.appendChild(el("option", { value: "lockstep" }, "in turns (lockstep)"));
			[1000, 1500, 2500].forEach(function (ms) {
				pace.appendChild(el("option", { value: String(ms) }, "real time, one action per " + ms + " ms"));
			});
			pace.addEventListener("change", function () {
				document.getElementById("opt-lockstep").value = pace.value === "lockstep" ? "1" : "0";
				document.getElementById("opt-pace").value = pace.value === "lockstep" ? "" : pace.value;
			});
			const l = el("label", {}, "how a person plays ");
			l.appendChild(pace);
			opts.appendChild(l);
		}
		v.options.forEach(function (o) {
			const i = el("input", { name: "opt." + o.key, id: "opt-" + o.key, type: "number", min: o.min, max: o.max,
				placeholder: String(o.def), title: o.help });
			if (v.name === "rush" && o.key === "lockstep") i.value = "1";	// in turns by default
			const l = el("label", {}, o.key + " ");
			l.appendChild(i);
			l.appendChild(el("span", { class: "muted" }, " " + o.help));
			opts.appendChild(l);
		});
	}
	// empty options are left out: the variant's defaults stand
	// posted by script: a bad value comes back as {field, error}, shown beside its field
	form.addEventListener("submit", function (ev) {
		opts.querySelectorAll("input").forEach(function (i) { if (i.value === "") i.disabled = true; });
		ev.preventDefault();
		const body = new URLSearchParams(new FormData(form));
		opts.querySelectorAll("input").forEach(function (i) { i.disabled = false; });
		form.querySelectorAll(".field-error").forEach(function (e) { e.remove(); });
		fetch("/games", { method: "POST", body: body, headers: { Accept: "application/json" } })
			.then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
			.then(function (a) {
				if (a[0] === 200 && a[1].location) { location.href = a[1].location; return; }
				const at = { seats: count, options: opts, seat: seats, form: form.querySelector("#go") }[a[1].field] ||
					form.querySelector("[name='" + a[1].field + "']") || form.querySelector("#go");
				const err = el("span", { class: "field-error", id: "error-" + (a[1].field || "form"), role: "alert" },
					" " + (a[1].error || "the game could not start"));
				(at.closest("label") || at).after(err);
			})
			.catch(function () { form.submit(); });
	});
	variant.addEventListener("change", function () { drawSeats(); drawOptions(); });
	count.addEventListener("change", drawSeats);
	drawSeats();
	drawOptions();

	const side = el("section", {});
	side.appendChild(el("h2", {}, "games"));
	const list = el("ul", { id: "games" });
	side.appendChild(list);
	main.appendChild(side);
	function refresh() {
		fetch("/api/games").then(function (r) { return r.json(); }).then(function (games) {
			list.textContent = "";
			if (!games.length) list.appendChild(el("li", { class: "muted" }, "no game yet"));
			games.forEach(function (g) {
				const li = el("li");
				li.appendChild(el("a", { href: "/games/" + encodeURIComponent(g.id) }, g.title));
				li.appendChild(document.createTextNode(" " + g.state + (g.state === "over" ? "" : ", step " + g.steps) + " "));
				if (g.state === "over") li.appendChild(el("a", { href: "/games/" + encodeURIComponent(g.id) + "/replay" }, "replay"));
				list.appendChild(li);
			});
		}).catch(function () {});
	}
	refresh();
	setInterval(refresh, 2000);
})();
