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
	const form = el("form", { class: "start", method: "post", action: "/games", id: "start", novalidate: "" });
	main.appendChild(form);
	// a field with its label, and the place for its error beside it
	function labelled(text, input, key) {
		const l = el("label", {}, text + " ");
		l.appendChild(input);
		l.appendChild(el("span", { class: "fielderr", id: "err-" + key, "aria-live": "polite" }));
		form.appendChild(l);
		return input;
	}
	function bad(key, text) {
		const e = document.getElementById("err-" + key);
		if (e) e.textContent = text || "";
		const i = document.getElementById(key === "seed" || key === "time" || key === "count" ? key : key.replace(/^opt\./, "opt-"));
		if (i && i.setAttribute) { if (text) i.setAttribute("aria-invalid", "true"); else i.removeAttribute("aria-invalid"); }
		return !!text;
	}
	const variant = labelled("Game", el("select", { name: "variant", id: "variant" }), "variant");
	C.variants.forEach(function (v) { variant.appendChild(el("option", { value: v.name }, v.title)); });
	const line = el("p", { class: "gameline", id: "gameline" });
	form.appendChild(line);
	const count = labelled("Players", el("input", { type: "number", id: "count", min: 1, max: 8, value: 2 }), "count");
	const seats = el("fieldset", { id: "seats" });
	form.appendChild(seats);
	const seed = labelled("Seed (empty: random)", el("input", { name: "seed", id: "seed", inputmode: "numeric", size: 12 }), "seed");
	// a person's clock in words (relaxed by default); the time control is our AIs'
	const clock = labelled("Your clock", el("select", { name: "clock", id: "clock" }), "clock");
	(C.clocks || []).forEach(function (c) { clock.appendChild(el("option", { value: c.name }, c.words)); });
	const time = labelled("The AIs' time control", el("input", { name: "time", id: "time", value: C.time, size: 36 }), "time");
	const opts = el("fieldset", { id: "options" });
	form.appendChild(opts);
	form.appendChild(el("button", { type: "submit", id: "go" }, "Start the game"));
	form.appendChild(el("span", { class: "fielderr", id: "err-form", "aria-live": "polite" }));
	void time;

	function current() { return C.variants.find(function (v) { return v.name === variant.value; }); }
	// a seat's choice in terms that carry over to another game: a person,
	// our AI at a level (1-5), or another bot by name
	function role(value) {
		let m;
		if (value === "person") return { person: true };
		if ((m = value.match(/^bot-(link|tetroll|rush|matrix)-level([1-5])$/))) return { level: +m[2] };
		if (/^bot-(link|tetroll|rush|matrix)$/.test(value)) return { level: 5 };
		return { name: value };
	}
	function has(name) { return C.opponents.some(function (o) { return o.name === name; }); }
	function levelName(v, L) { return L === 5 ? "bot-" + v : "bot-" + v + "-level" + L; }
	// what a seat of game v is, given the role it had (or the default: medium)
	function choose(v, r, options) {
		if (r && r.person) return "person";
		if (r && r.name && options.indexOf(r.name) >= 0) return r.name;
		const L = r && r.level ? r.level : 3;
		for (const l of [L, 3, 5, 4, 2, 1]) if (has(levelName(v, l))) return levelName(v, l);
		return options.filter(function (o) { return o !== "person"; })[0] || "person";
	}
	let shown = null;	// the game whose seats are drawn
	function drawSeats(changedGame) {
		const v = current(), w = GAME_WORDS[v.name] || {};
		line.textContent = (w.what || "") + " " + (w.players || "") + ", " + (w.length || "") + ". ";
		line.appendChild(el("a", { href: "/rules/" + v.name, target: "_blank", id: "rules-link" }, "Rules"));
		let n = Math.max(v.min, Math.min(v.max, Number(count.value) || v.min));
		const before = Number(count.value);
		if (changedGame) n = Math.max(v.min, Math.min(v.max, w.seats || 2));
		count.min = v.min; count.max = v.max; count.value = n;
		bad("count", "");
		const note = document.getElementById("err-count");
		note.className = "note";
		if (changedGame && shown && before !== n)
			note.textContent = "now " + n + " (was " + before + "): " + v.title + (n === v.max ? " is played by " + n : " is for " + v.min + "-" + v.max) + "; AIs fill the seats";
		const old = Array.from(seats.querySelectorAll("select")).map(function (s) { return role(s.value); });
		seats.textContent = "";
		seats.appendChild(el("legend", {}, "Who plays (each seat has its colour)"));
		for (let p = 0; p < n; p++) {
			const s = el("select", { name: "seat", id: "seat" + p });
			s.appendChild(el("option", { value: "person" }, p === 0 ? "You (a person, on this page)" : "A person"));
			const values = ["person"];
			for (let L = 1; L <= 5; L++)
				if (has(levelName(v.name, L))) {
					s.appendChild(el("option", { value: levelName(v.name, L) }, "AI: " + LEVEL_WORDS[L] + (L === 3 ? " (the default)" : "")));
					values.push(levelName(v.name, L));
				}
			C.opponents.forEach(function (o) {
				if ((o.variant && o.variant !== v.name) || values.indexOf(o.name) >= 0) return;
				s.appendChild(el("option", { value: o.name }, "Other: " + o.name));
				values.push(o.name);
			});
			// a seat keeps its role across games; a new seat: you first, then medium AIs
			s.value = choose(v.name, old[p] || (p === 0 ? { person: true } : { level: 3 }), values);
			const l = el("label", { class: "seat" });
			const sw = el("span", { class: "swatch", "aria-hidden": "true" }, " ");
			sw.style.background = PALETTE[p];
			l.append(sw, document.createTextNode(" " + SEAT_COLOURS[p] + " "), s);
			seats.appendChild(l);
		}
		shown = v.name;
	}
	function drawOptions() {
		const v = current();
		opts.textContent = "";
		opts.appendChild(el("legend", {}, "Options (empty: the default)"));
		if (v.name === "rush") {
			// a person cannot race a bot in real time: turns, or a human pace
			const pace = el("select", { id: "pace" });
			pace.appendChild(el("option", { value: "lockstep" }, "in turns (everyone acts once a tick)"));
			[1000, 1500, 2500].forEach(function (ms) {
				pace.appendChild(el("option", { value: String(ms) }, "real time, one action per " + ms / 1000 + " s"));
			});
			pace.addEventListener("change", function () {
				document.getElementById("opt-lockstep").value = pace.value === "lockstep" ? "1" : "0";
				document.getElementById("opt-pace").value = pace.value === "lockstep" ? "" : pace.value;
			});
			const l = el("label", {}, "How a person plays ");
			l.appendChild(pace);
			opts.appendChild(l);
		}
		v.options.forEach(function (o) {
			const i = el("input", { name: "opt." + o.key, id: "opt-" + o.key, type: "number", min: o.min, max: o.max,
				placeholder: String(o.def), title: o.help });
			if (v.name === "rush" && o.key === "lockstep") i.value = "1";	// in turns by default
			const l = el("label", {}, o.key + " ");
			l.appendChild(i);
			l.appendChild(el("span", { class: "muted" }, " " + o.help + " (" + o.min + "-" + o.max + ")"));
			l.appendChild(el("span", { class: "fielderr", id: "err-opt." + o.key }));
			opts.appendChild(l);
		});
	}
	// every field checked here, each error beside its field
	function check() {
		const v = current();
		let wrong = false;
		const sd = seed.value.trim();
		wrong = bad("seed", sd === "" ? "" : !/^\d{1,20}$/.test(sd) || BigInt(sd) > 18446744073709551615n
			? "a whole number from 0 to 18446744073709551615, or empty" : "") || wrong;
		const n = Number(count.value);
		if (!(n >= v.min && n <= v.max)) { wrong = true; document.getElementById("err-count").className = "fielderr"; bad("count", v.title + " is for " + v.min + "-" + v.max + " players"); }
		v.options.forEach(function (o) {
			const i = document.getElementById("opt-" + o.key), t = i.value.trim();
			wrong = bad("opt." + o.key, t === "" || (/^-?\d+$/.test(t) && +t >= o.min && +t <= o.max) ? "" : "a whole number from " + o.min + " to " + o.max) || wrong;
		});
		return !wrong;
	}
	// The form goes by fetch, so that a refusal (400: JSON {field, error}
	// from the server, or a line of text) is shown beside its field; a
	// game that starts opens its page.
	form.addEventListener("submit", function (ev) {
		ev.preventDefault();
		bad("form", "");
		if (!check()) return;
		const body = new URLSearchParams();
		new FormData(form).forEach(function (val, key) { if (!(key.indexOf("opt.") === 0 && val === "")) body.append(key, val); });
		fetch("/games", { method: "POST", body: body, headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" } })
			.then(function (r) {
				return r.text().then(function (t) {
					if (r.ok) {	// {id, location, invites}: the first person's page (it lists the invites)
						try { location.href = JSON.parse(t).location; } catch (e) { bad("form", "the server's answer could not be read"); }
						return;
					}
					let field = "form", error = t.trim();
					try { const j = JSON.parse(t); field = j.field || "form"; error = j.error || j.message || error; } catch (e) {
						const m = error.match(/^(seed|time|variant|seat|opt\.\w+)\b/);
						if (m) field = m[1];
					}
					if (field === "seat" || field === "seats") field = "count";
					if (!document.getElementById("err-" + field)) field = "form";
					bad(field, error);
				});
			}).catch(function (e) { bad("form", "the server did not answer: " + e); });
	});
	variant.addEventListener("change", function () { drawSeats(true); drawOptions(); });
	count.addEventListener("change", function () { drawSeats(false); });
	seed.addEventListener("input", function () { bad("seed", ""); });
	drawSeats(true);
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
