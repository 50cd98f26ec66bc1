#!/usr/bin/env python3
"""web_slow.py BOT OUTDIR -- a slowloris against the pages while a game is
under way (porrazo-bot --console, tests/bot/console_game.py's players):
from 18 loopback addresses (127.0.0.1-18), 16 connections each that send a
header line every 3 s and never finish (each one closed is opened again),
for 15 s. Throughout, a new client (127.0.0.100) and a new client behind
the trusted proxy (127.0.0.50, [web] trusted_proxy: each request names its
client in X-Forwarded-For) are served the game's page within 1 s, every
half second; and the game loop answers !turn within 1.2 times its unloaded
median (medians of 40, the loaded one plus 3 ms of slack for a shared
machine's noise). During it, the per-address limit counts the proxy's real
clients: 16 requests of one client under way through the proxy (headers
in, body awaited), its 17th (named by Forwarded: for=) is refused 503
while another client through the same proxy is served. Before it, with
header_secs = 3 and nobody else arriving, a connection sending a header
line every half second is closed 3 s after it opened (the watchdog, not
the next client). A GET with a body is answered 413."""
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
PROXY, HEADER_SECS = "127.0.0.50", 3


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


def ask(port, path, source="127.0.0.100", extra=b""):
    """A whole request from source (extra: more header lines): (the reply's
    status line, the seconds it took)."""
    t0 = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n" + extra +
              b"Connection: close\r\n\r\n")
    reply = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        reply += chunk
    s.close()
    return reply.split(b"\r\n", 1)[0], time.monotonic() - t0


def served_within(port, path, source="127.0.0.100", extra=b""):
    status, took = ask(port, path, source, extra)
    check(status.startswith(b"HTTP/1.1 200"), "a new client from %s (%r) got %r" %
          (source, extra, status))
    return took


def behind_proxy(client):
    return b"X-Forwarded-For: 198.51.100.200, " + client.encode() + b"\r\n"


def closed_after(port, path):
    """One connection sending a header line every half second, nobody else
    arriving: the seconds until the server closes it (10 at most)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                 source_address=("127.0.0.60", 0))
    t0 = time.monotonic()
    s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n")
    s.settimeout(0.5)
    try:
        while time.monotonic() - t0 < 10:
            try:
                if s.recv(200) == b"":
                    break  # closed (the server shut it down)
            except socket.timeout:
                pass
            s.sendall(b"X-Slow: 1\r\n")
    except OSError:
        pass  # reset: closed too
    s.close()
    return time.monotonic() - t0


def real_client_limit(port, path):
    """PER_ADDRESS requests of one client through the proxy, under way (the
    headers in, a body promised and never sent): its next is refused while
    another client of the proxy is served. (seconds the refusal took to
    come, the other's wait)."""
    held = []
    try:
        for _ in range(PER_ADDRESS):
            s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                         source_address=(PROXY, 0))
            s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n" +
                      behind_proxy("203.0.113.7") + b"Content-Length: 5\r\n\r\n")
            held.append(s)
        t0, seen = time.monotonic(), []
        while True:  # the server may not have read all 16 yet: ask again until it has
            status, _ = ask(port, path, PROXY, b'Forwarded: for="203.0.113.7:4711"\r\n')
            seen.append(status)
            if status.startswith(b"HTTP/1.1 503"):
                break
            check(time.monotonic() - t0 < 2, "a 17th request of one client behind the proxy "
                  "was not refused within 2 s: %r" % seen)
            time.sleep(0.1)
        refused = time.monotonic() - t0
        other = served_within(port, path, PROXY, behind_proxy("203.0.113.8"))
    finally:
        for s in held:
            s.close()
    return refused, other


def main():
    bot_exe, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        g = we.Game(bot_exe, tmp, ["ann", "bob"], seed=3303,
                    web="trusted_proxy = %s\nheader_secs = %d\n" % (PROXY, HEADER_SECS))
        path = g.game_url.split(str(g.port), 1)[1].encode()
        calm = statistics.median(turn_times(g, 40))
        late = closed_after(g.port, path)
        check(HEADER_SECS <= late < HEADER_SECS + 1.5, "a connection whose headers never end "
              "was closed after %.2f s (header_secs = %d), nobody else arriving" %
              (late, HEADER_SECS))
        stop, held = threading.Event(), {}
        threads = [threading.Thread(target=attacker, args=(g.port, path, k, stop, held))
                   for k in range(1, ADDRESSES + 1)]
        for t in threads:
            t.start()
        try:
            time.sleep(2)  # every address holds what it can
            waits, proxied, loaded, t_end = [], [], [], time.monotonic() + SECONDS
            refused = None
            while time.monotonic() < t_end:
                waits.append(served_within(g.port, path))
                proxied.append(served_within(g.port, path, PROXY, behind_proxy(
                    "192.0.2.%d" % (len(proxied) % 250 + 1))))
                if refused is None and len(waits) == 5:
                    refused, other = real_client_limit(g.port, path)
                    proxied.append(other)
                loaded += turn_times(g, 4)
            busy = sum(held.values())
        finally:
            stop.set()
            for t in threads:
                t.join()
        worst, under = max(waits), statistics.median(loaded)
        check(worst < 1.0, "a new client waited %.2f s during the slowloris" % worst)
        check(max(proxied) < 1.0, "a new client behind the proxy waited %.2f s during the "
              "slowloris" % max(proxied))
        check(refused is not None, "the real clients' limit was never tried")
        check(under <= 1.2 * calm + 0.003, "!turn: %.2f ms loaded, %.2f ms calm" %
              (under * 1000, calm * 1000))
        check(busy >= ADDRESSES * PER_ADDRESS / 2, "the slowloris held only %d connections" % busy)
        # a GET with a body is answered (413), not closed unanswered; from an
        # address of its own: 127.0.0.1 is attacker 1's, whose 16 connections,
        # closed a moment ago, the server may not have counted out yet (its
        # per-address limit then closes a 17th unanswered, as it should)
        s = socket.create_connection(("127.0.0.1", g.port), timeout=5,
                                     source_address=("127.0.0.101", 0))
        s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                  b"Connection: close\r\n\r\nabc")
        reply = s.recv(200)
        s.close()
        check(reply.startswith(b"HTTP/1.1 413"), "a GET with a body: %r" % reply[:40])
        rc, _, err = g.bot.close()
        check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        print("slowloris: %d addresses x %d connections (%d held at the last count) for %d s; "
              "%d new clients served, the slowest in %.3f s; %d behind the proxy, the slowest "
              "in %.3f s; one client's %d requests under way through the proxy: its next "
              "refused (503) after %.2f s, another client served; !turn %.2f ms loaded, "
              "%.2f ms calm; a never-ending header closed after %.2f s (header_secs = %d)"
              % (ADDRESSES, PER_ADDRESS, busy, SECONDS, len(waits), worst, len(proxied),
                 max(proxied), PER_ADDRESS, refused, under * 1000, calm * 1000, late,
                 HEADER_SECS))


if __name__ == "__main__":
    main()
