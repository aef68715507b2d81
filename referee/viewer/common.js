// What both pages share: DOM and SVG element makers and the colours.
"use strict";
// Okabe-Ito: apart for colour-blind readers. Seats 0-3 take the colours
// the engine gives link's seats in a terminal (red, blue, yellow, green);
// seats and bots are also labelled, and chart lines dashed, never colour
// alone.
const PALETTE = ["#D55E00", "#0072B2", "#F0E442", "#009E73", "#E69F00", "#56B4E9", "#CC79A7", "#999999"];

function el(tag, attrs, text) {
	const e = document.createElement(tag);
	for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
}

function svg(tag, attrs, text) {
	const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
	for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
}

// Black or white, whichever reads better on the colour bg ("#rrggbb").
function ink(bg) {
	const n = parseInt(bg.slice(1), 16);
	const l = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
	return l > 140 ? "#000" : "#fff";
}
