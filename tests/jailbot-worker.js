// A random bot whose moves are chosen by a worker thread (node's
// worker_threads), for tests/t2020-jail-filter.sh. At `game` it says
// `info worker ok` once the worker has answered.
const { Worker } = require("worker_threads");
const readline = require("readline");

const worker = new Worker(
  "const { parentPort } = require('worker_threads');" +
  "let n = 0;" +
  "parentPort.on('message', (m) => { n++; parentPort.postMessage(m[(n * 7919) % m.length]); });",
  { eval: true });
let moves = [];
const pending = [];
worker.on("message", (m) => { pending.shift()(m); });
const ask = (m) => new Promise((resolve) => { pending.push(resolve); worker.postMessage(m); });

const rl = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
rl.on("line", (line) => {
  queue = queue.then(async () => {
    const w = line.trim().split(/\s+/);
    if (w[0] === "game") {
      process.stdout.write("hello jailbot-worker 1 moves\n");
      const got = await ask(["a"]);
      process.stdout.write(got === "a" ? "info worker ok\n" : "info worker failed\n");
    } else if (w[0] === "moves") {
      moves = w.slice(1);
    } else if (w[0] === "go") {
      process.stdout.write("move " + (await ask(moves)) + "\n");
    } else if (w[0] === "quit") {
      await worker.terminate();
      process.exit(0);
    }
  });
});
rl.on("close", () => { worker.terminate(); });
