"""A random bot that uses threads and multiprocessing in its own processes
(tests/t2020-jail-filter.sh: interpreters under the jail's filter).

At `game` it runs a thread, a multiprocessing Pool(2), a Process echoing
over two multiprocessing Queues and a multiprocessing Lock, and says
`info mp ok MS` (or `info mp failed WHY`); then each move is chosen by a
pool worker (a process-shared semaphore wait and wake a move).
"""
import multiprocessing as mp
import random
import sys
import threading
import time


def square(x):
    return x * x


def pick(moves, n):
    return random.Random(n).choice(moves)


def echo(qin, qout):
    for item in iter(qin.get, None):
        qout.put(item)


def warm_up():
    box = []
    t = threading.Thread(target=lambda: box.append(sum(range(1000))))
    t.start()
    t.join()
    assert box == [499500]
    pool = mp.Pool(2)
    assert pool.map(square, range(50)) == [x * x for x in range(50)]
    qin, qout = mp.Queue(), mp.Queue()
    p = mp.Process(target=echo, args=(qin, qout))
    p.start()
    for i in range(20):
        qin.put(i)
        assert qout.get(timeout=10) == i
    qin.put(None)
    p.join(10)
    assert p.exitcode == 0
    lock = mp.Lock()
    with lock:
        pass
    return pool


def main():
    pool, moves, n = None, [], 0
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "game":
            print("hello jailbot-mp 1 moves", flush=True)
            start = time.monotonic()
            try:
                pool = warm_up()
                print("info mp ok %d" % ((time.monotonic() - start) * 1000), flush=True)
            except Exception as e:  # say it, and play on alone
                print("info mp failed %r" % e, flush=True)
        elif w[0] == "moves":
            moves = w[1:]
        elif w[0] == "go":
            n += 1
            move = pool.apply(pick, (moves, n)) if pool else moves[0]
            print("move " + move, flush=True)
        elif w[0] == "quit":
            break
    if pool:
        pool.terminate()


if __name__ == "__main__":
    main()
