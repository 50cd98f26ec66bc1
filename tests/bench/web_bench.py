#!/usr/bin/env python3
"""web_bench.py -- the game pages' speed (bot/web), beside nginx, and what
they cost the game loop. A measurement printed as figures, not a test.

  web_bench.py BOT [--games N] [--seconds S] [--connections C]

1. A whole game is played through porrazo-bot --console (tests/bot's
   scripted players) with a [web] section; its finished page's URL is kept.
2. wrk (-t1: one client thread) asks for that page for S seconds with C
   connections: median and p99 latency, requests/s. The pages' server is one
   thread, so this is one core's worth. The same page saved as a static file
   is then served by nginx (one worker) and measured the same way.
3. The database is grown to N games (default 100,000: copies of the finished
   game's row, seats, its first 10 actions and a token, in one transaction
   with sqlite3, while no bot runs) and both are measured again.
4. With the bot running on the big database and a new game under way in
   #console, "!turn" is sent 300 times through the console (each answered
   before the next) without load, then again while wrk loads the page: the
   two medians of the reply time.
5. (first, and alone with --idle-only) An idle live page: a game under
   way is opened in Debian's chromium headless (python3-selenium) through
   a counting TCP relay for --idle-seconds (default 60) while nobody
   moves: the bytes one viewer costs a minute, both ways.
"""
import argparse
import os
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bot"))
import console_game as cg  # noqa: E402


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class WebBot(cg.Bot):
    def __init__(self, exe, db, conf, seed=7):
        self.proc = subprocess.Popen(
            [exe, "--console", "--config", conf, "--db", db, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""


def write_conf(path, port):
    with open(path, "w") as f:
        f.write("[bot]\nlog_level = warn\n[web]\nlisten = 127.0.0.1:%d\n"
                "base_url = http://127.0.0.1:%d\n" % (port, port))


def wait_port(port, timeout=10):
    t0 = time.time()
    while time.time() - t0 < timeout:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nothing listens on %d" % port)


def to_ms(text):
    m = re.match(r"([\d.]+)(us|ms|s)$", text)
    v = float(m.group(1))
    return v / 1000 if m.group(2) == "us" else v if m.group(2) == "ms" else v * 1000


def wrk(url, seconds, connections):
    out = subprocess.run(["wrk", "-t1", "-c%d" % connections, "-d%ds" % seconds, "--latency",
                          url], check=True, capture_output=True, text=True).stdout
    p50 = to_ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = to_ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError("%s: %s non-2xx answers" % (url, errors.group(1)))
    return p50, p99, rps


def nginx(tmp, page, port):
    root = os.path.join(tmp, "nginx")
    os.makedirs(os.path.join(root, "www"), exist_ok=True)
    for d in (tmp, root, os.path.join(root, "www")):  # nginx's worker may be nobody
        os.chmod(d, 0o755)
    with open(os.path.join(root, "www", "page.html"), "w") as f:
        f.write(page)
    conf = os.path.join(root, "nginx.conf")
    with open(conf, "w") as f:
        f.write("worker_processes 1; pid %s/nginx.pid; error_log %s/error.log;\n"
                "events { worker_connections 1024; }\n"
                "http { access_log off; client_body_temp_path %s; proxy_temp_path %s;\n"
                "  fastcgi_temp_path %s; uwsgi_temp_path %s; scgi_temp_path %s;\n"
                "  server { listen 127.0.0.1:%d; root %s/www;\n"
                "    location / { default_type text/html; } } }\n"
                % ((root,) * 7 + (port, root)))
    proc = subprocess.Popen(["nginx", "-c", conf, "-p", root, "-g", "daemon off;"],
                            stderr=subprocess.DEVNULL)
    wait_port(port)
    return proc


def play_game(bot_exe, db, conf):
    bot = WebBot(bot_exe, db, conf)
    table = cg.Table(["ann", "bob"])
    cg.open_table(bot, table, 2, "")
    cg.play_out(table, bot.send)
    bot.close()
    url = None
    for line in table.transcript:
        m = re.search(r"(http://127\.0\.0\.1:\d+/g/\d+-[0-9a-f]+)", line)
        if m:
            url = m.group(1)
    return url


def grow(db, games):
    """Copies game 1 until the database holds `games` games."""
    con = sqlite3.connect(db)
    con.execute("BEGIN")
    have = con.execute("SELECT count(*) FROM games").fetchone()[0]
    cols = [r[1] for r in con.execute("PRAGMA table_info(games)") if r[1] != "id"]
    sel = ", ".join("'#bench' || (?1 % 1000)" if c == "room" else "4" if c == "status" else c
                    for c in cols)
    for i in range(have, games):
        cur = con.execute("INSERT INTO games (%s) SELECT %s FROM games WHERE id = 1"
                          % (", ".join(cols), sel), (i,))
        gid = cur.lastrowid
        con.execute("INSERT INTO seats SELECT ?1, seat, player, nick FROM seats "
                    "WHERE game_id = 1", (gid,))
        con.execute("INSERT INTO actions SELECT ?1, seq, json, at FROM actions "
                    "WHERE game_id = 1 AND seq < 10", (gid,))
        con.execute("INSERT INTO kv VALUES ('web', 'g:' || ?1, lower(hex(randomblob(16))))",
                    (gid,))
    con.execute("COMMIT")
    con.close()


def turn_times(bot, n):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        bot.send("ann: !turn")
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def relay(listen, port, counted, stop):
    """Forwards each connection on listen to port, adding the bytes to counted[0]."""
    def pipe(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                counted[0] += len(data)
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
    listen.settimeout(0.2)
    while not stop.is_set():
        try:
            c, _ = listen.accept()
        except socket.timeout:
            continue
        up = socket.create_connection(("127.0.0.1", port))
        for a, b in ((c, up), (up, c)):
            threading.Thread(target=pipe, args=(a, b), daemon=True).start()


def idle_bytes(bot_exe, seconds):
    """Bytes a minute that one idle live page costs (step 5)."""
    sys.path.insert(0, os.path.join(HERE, "..", "web"))
    import web_e2e as we
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(arg)
    opts.binary_location = "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as tmp:
        g = we.Game(bot_exe, tmp, ["ann", "bob"], seed=5)
        listen = socket.socket()
        listen.bind(("127.0.0.1", 0))
        listen.listen(16)
        counted, stop = [0], threading.Event()
        t = threading.Thread(target=relay, args=(listen, g.port, counted, stop))
        t.start()
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        try:
            driver.get("http://127.0.0.1:%d%s" % (listen.getsockname()[1],
                                                 g.game_url.split(str(g.port), 1)[1]))
            time.sleep(2)  # the page and its files are in
            start = counted[0]
            time.sleep(seconds)
            per_minute = (counted[0] - start) * 60 / seconds
        finally:
            driver.quit()
            stop.set()
            t.join()
            g.bot.close()
    print("idle live page: %.1f KB a minute per viewer (%d s measured, both ways)"
          % (per_minute / 1000, seconds))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bot")
    ap.add_argument("--games", type=int, default=100000)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--connections", type=int, default=10)
    ap.add_argument("--idle-seconds", type=int, default=60)
    ap.add_argument("--idle-only", action="store_true")
    a = ap.parse_args()
    idle_bytes(a.bot, a.idle_seconds)
    if a.idle_only:
        return
    # its own tools, which neither bot/play nor tests/check installs
    missing = [pkg for tool, pkg in (("wrk", "wrk"), ("nginx", "nginx-light"), ("curl", "curl"))
               if shutil.which(tool) is None and not os.path.exists("/usr/sbin/" + tool)]
    if missing:
        sys.exit("web_bench: needs %s: sudo apt-get install %s (tests/deps.sh: "
                 "PZ_BENCH_PACKAGES)" % (", ".join(missing), " ".join(missing)))
    os.environ["PATH"] += ":/usr/sbin"
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.db")
        port = free_port()
        conf = os.path.join(tmp, "web.conf")
        write_conf(conf, port)
        url = play_game(a.bot, db, conf)
        if url is None:
            sys.exit("web_bench: the game's lines carried no page")
        path = url.split(str(port), 1)[1]
        print("%-28s %10s %10s %12s" % ("page", "median ms", "p99 ms", "requests/s"))
        rows = []
        for n in (1, a.games):
            if n > 1:
                t0 = time.time()
                grow(db, n)
                print("(database grown to %d games in %.0f s, %.0f MB)"
                      % (n, time.time() - t0, os.path.getsize(db) / 1e6))
            bot = WebBot(a.bot, db, conf)
            wait_port(port)
            page = subprocess.run(["curl", "-sf", url], check=True, capture_output=True,
                                  text=True).stdout
            r = wrk(url, a.seconds, a.connections)
            print("%-28s %10.3f %10.3f %12.0f" % ((("porrazo-bot, %d games" % n),) + r))
            nport = free_port()
            ng = nginx(tmp, page, nport)
            try:
                r2 = wrk("http://127.0.0.1:%d/page.html" % nport, a.seconds, a.connections)
            finally:
                ng.terminate()
                ng.wait()
            print("%-28s %10.3f %10.3f %12.0f" % (("nginx static, same page",) + r2))
            rows.append((n, r, r2))
            if n == a.games:
                cg.open_table(bot, cg.Table(["ann", "bob"]), 2, "")
                turn_times(bot, 20)  # warm
                quiet = turn_times(bot, 300)
                load = threading.Thread(target=wrk, args=(url, 30, a.connections))
                load.start()
                time.sleep(0.5)
                loaded = turn_times(bot, 300)
                load.join()
                print("!turn median: %.3f ms without page load, %.3f ms under it (%.2fx)"
                      % (quiet, loaded, loaded / quiet))
            bot.close()
        print("page at %d games: %.2fx nginx's median; page size %d bytes (path %s)"
              % (a.games, rows[-1][1][0] / rows[-1][2][0], len(page), path[:8] + "..."))


if __name__ == "__main__":
    main()
