#!/usr/bin/env python3
"""web_slow.py BOT OUTDIR -- a slowloris against the pages while a game is
under way (porrazo-bot --console, tests/bot/console_game.py's players):
from 18 loopback addresses (127.0.0.1-18), 16 connections each that send a
header line every 3 s and never finish (each one closed is opened again),
for 15 s. Throughout, a new client (127.0.0.100) is served the game's page
within 1 s, every half second; and the game loop answers !turn within 1.2
times its unloaded median (medians of 40, the loaded one plus 3 ms of
slack for a shared machine's noise). A GET with a body is answered 413."""
import os
import socket
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_e2e as we  # noqa: E402

check = we.check
ADDRESSES, PER_ADDRESS, SECONDS = 18, 16, 15


def turn_times(g, n):
    out = []
    for _ in range(n):
        t0 = time.monotonic()
        g.send("ann: !turn")
        out.append(time.monotonic() - t0)
        time.sleep(0.05)
    return out


def attacker(port, path, k, stop, held):
    """One address's connections, kept open as long as the server lets them."""
    conns = []
    while not stop.is_set():
        while len(conns) < PER_ADDRESS and not stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=2,
                                             source_address=("127.0.0.%d" % k, 0))
                s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n")
                s.setblocking(False)
                conns.append(s)
            except OSError:
                time.sleep(0.2)
        held[k] = len(conns)
        stop.wait(3)
        alive = []
        for s in conns:
            try:
                s.sendall(b"X-Slow: 1\r\n")
                alive.append(s)
            except OSError:
                s.close()
        conns = alive
    for s in conns:
        s.close()


def served_within(port, path):
    t0 = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                 source_address=("127.0.0.100", 0))
    s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    reply = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        reply += chunk
    s.close()
    check(reply.startswith(b"HTTP/1.1 200"), "a new client got %r" % reply[:40])
    return time.monotonic() - t0


def main():
    bot_exe, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        g = we.Game(bot_exe, tmp, ["ann", "bob"], seed=3303)
        path = g.game_url.split(str(g.port), 1)[1].encode()
        calm = statistics.median(turn_times(g, 40))
        stop, held = threading.Event(), {}
        threads = [threading.Thread(target=attacker, args=(g.port, path, k, stop, held))
                   for k in range(1, ADDRESSES + 1)]
        for t in threads:
            t.start()
        try:
            time.sleep(2)  # every address holds what it can
            waits, loaded, t_end = [], [], time.monotonic() + SECONDS
            while time.monotonic() < t_end:
                waits.append(served_within(g.port, path))
                loaded += turn_times(g, 4)
            busy = sum(held.values())
        finally:
            stop.set()
            for t in threads:
                t.join()
        worst, under = max(waits), statistics.median(loaded)
        check(worst < 1.0, "a new client waited %.2f s during the slowloris" % worst)
        check(under <= 1.2 * calm + 0.003, "!turn: %.2f ms loaded, %.2f ms calm" %
              (under * 1000, calm * 1000))
        check(busy >= ADDRESSES * PER_ADDRESS / 2, "the slowloris held only %d connections" % busy)
        # a GET with a body is answered (413), not closed unanswered
        s = socket.create_connection(("127.0.0.1", g.port), timeout=5)
        s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                  b"Connection: close\r\n\r\nabc")
        reply = s.recv(200)
        s.close()
        check(reply.startswith(b"HTTP/1.1 413"), "a GET with a body: %r" % reply[:40])
        rc, _, err = g.bot.close()
        check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        print("slowloris: %d addresses x %d connections (%d held at the last count) for %d s; "
              "%d new clients served, the slowest in %.3f s; !turn %.2f ms loaded, %.2f ms calm"
              % (ADDRESSES, PER_ADDRESS, busy, SECONDS, len(waits), worst, under * 1000,
                 calm * 1000))


if __name__ == "__main__":
    main()
