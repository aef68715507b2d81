#!/usr/bin/env node
// A starter bot for tetrarena in JavaScript (node, no packages).
//
// It speaks the whole protocol (protocol.md) and plays every variant
// legally: it asks the referee for the `moves` feature and answers each
// `go` with one of the listed moves. Write your strategy in choose() below;
// nothing else needs to change. The bot keeps no state between `go` lines
// (each carries the whole game), so it can play many games in one process
// (`multi`).
//
// Run: bin/referee play --variant link "node bots/starter/starter.js" bin/bot-random
'use strict';
const readline = require('readline');

const NAME = 'starter-js', VERSION = '1';

// Return one of `moves` (strings in the variant's notation).
// state: the `go` line's fields as an object of strings (protocol.md, the
// variant's "go state" table), plus variant, seat (a number) and ms, the
// milliseconds you have for this move. moves: every legal move now.
function choose(state, moves) {
  return moves[Math.floor(random() * moves.length)];
}

// A small seeded generator (mulberry32), so that a game can be replayed.
let seed = Number(process.argv[2] || 1) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function fields(words) {
  const out = {};
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq > 0) out[w.slice(0, eq)] = w.slice(eq + 1);
  }
  return out;
}

let game = {};
let moves = [];
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  const words = line.replace(/\r$/, '').split(' ');
  switch (words[0]) {
    case 'game':
      game = fields(words.slice(2));
      process.stdout.write(`hello ${NAME} ${VERSION} moves multi\n`);
      break;
    case 'moves':
      moves = moves.concat(words.slice(1)); // a long list comes over several lines
      break;
    case 'go': {
      const state = fields(words.slice(2));
      state.variant = game.variant;
      state.seat = Number(game.seat);
      state.ms = Number(words[1]);
      // A seat with nothing it may place (the Main Match) still answers.
      const move = moves.length ? choose(state, moves) : '-';
      process.stdout.write(`move ${move}\n`);
      moves = [];
      break;
    }
    case 'quit':
      process.exit(0);
    // tetrarena, update, result, rejected, table talk...: nothing to do.
  }
});
input.on('close', () => process.exit(0));
