#!/usr/bin/env python3
"""web_e2e.py -- the game pages end to end: porrazo-bot --console with a [web]
section serves them while scripted players (tests/bot/console_game.py) play a
whole game through the console.

  web_e2e.py BOT REPLAY leak OUTDIR
      After every move, every page and JSON of the game, its room and its
      players is fetched: none may name a card that any player holds then
      (the truth: the game exported and replayed by porrazo-replay, not the
      page's own code), nor any hand's seed or the game's salt (FAIRNESS.md:
      secrets until the end; the page shows each hand's seal). Once it has
      ended the page shows every seed and the salt, each hand "verified";
      a copy of the database with a hand's seed changed shows "does not
      match" there. Hostile nicks show as text. set web off: 404s.
  web_e2e.py BOT REPLAY browser OUTDIR
      Debian's chromium headless (selenium, chromium-driver): the live page
      updates within 2 s of a move and of set lang es/en (its language too),
      the finished page draws one chart point
      per deal and every hand's seed "verified" (the live one only seals),
      no JavaScript error is logged, no nick became markup; a screenshot of
      each is kept in OUTDIR.
  web_e2e.py BOT REPLAY lang OUTDIR
      The pages in the room's language: the game's page, its JSON's human
      text, the room's and a player's page in English, then in Spanish once
      the room says set lang es (html lang="es", Spanish words, none of the
      pages' English sentences, cards said as "siete de corazones"), English
      again with set lang en; the finished game's fair deals in Spanish; the
      404 in the bot's language whatever the room's (it names no room); and
      a bot whose configuration says language = es serving the room that
      set none in Spanish. The Spanish finished page is kept in OUTDIR.
"""
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bot"))
import console_game as cg  # noqa: E402

# Nicks a console can type (no ':' or '>'), each an attack if not escaped.
HOSTILE = ['<img/src=x/onerror=alert(1)//', '"\'onfocus=alert(2)', '\u202eevil&amp;']
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANKS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
         "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen",
         "K": "king"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class WebBot(cg.Bot):
    """porrazo-bot --console with a configuration that serves the pages."""

    def __init__(self, exe, db, seed, conf):
        self.proc = subprocess.Popen(
            [exe, "--console", "--config", conf, "--db", db, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""


def fetch(url):
    """(status, body text)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def card_forms(code):
    """The ways a page could name card code ("TD"): 10♦, ten of diamonds, "TD"."""
    rank = "10" if code[0] == "T" else code[0]
    return [re.compile(r"(?<![0-9A-Za-z])%s%s" % (re.escape(rank), SUITS[code[1]])),
            re.compile(r"%s of %s" % (RANKS[code[0]], SUIT_NAMES[code[1]])),
            re.compile(r'"%s"' % code)]


def render(code):
    """A card code ("TD") as the chat writes it ("10♦")."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def held_cards(bot_exe, replay_exe, db):
    """Every card in a hand now, from the game's export replayed, the state,
    and the export's "fairness" (a game of --seed is never sealed: its
    export shows the seeds and the salt even under way, the page must not)."""
    scenario = subprocess.run([bot_exe, "--export", "1", "--db", db], check=True,
                              capture_output=True, text=True).stdout
    out = subprocess.run([replay_exe, "-"], input=scenario, check=True, capture_output=True,
                         text=True).stdout.splitlines()
    state = json.loads(out[-1])
    return [c for hand in state["hands"] for c in hand], state, json.loads(scenario)["fairness"]


def secret_forms(fair):
    """The game's salt and each hand's seed as a page could show them."""
    return [("the salt", re.compile(fair["salt"]))] + [
        ("hand %d's seed" % h["hand"], re.compile(r"(?<![0-9A-Za-z])%d(?![0-9A-Za-z])" % h["seed"]))
        for h in fair["hands"]]


def fair_cells(page):
    """The server's check of each hand on a finished game's page, in order."""
    return re.findall(r'<td class="(?:ok|bad)">([^<]*)</td>', page)


class Game:
    def __init__(self, bot_exe, tmp, players, seed, web=""):
        """web: more [web] lines ("trusted_proxy = ...\n")."""
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.conf = os.path.join(tmp, "web.conf")
        with open(self.conf, "w") as f:
            f.write("[bot]\nowners = console:%s\n[web]\nlisten = 127.0.0.1:%d\n"
                    "base_url = %s/\n%s" % (players[0], self.port, self.base, web))
        self.db = os.path.join(tmp, "web.db")
        self.bot = WebBot(bot_exe, self.db, seed, self.conf)
        self.table = cg.Table(players)
        self.game_url = self.room_url = None
        self.send("%s: !new %d" % (players[0], len(players)))
        for p in players[1:]:
            self.send("%s: !join" % p)  # the last fills the table: it starts
        self.send("%s: !web" % players[0])
        check(self.game_url is not None, "the opening line carries no page")
        check(self.room_url is not None, "web answered no room page")

    def send(self, line):
        lines = self.bot.send(line)
        self.table.read(lines)
        for l in lines:
            m = re.search(r"(http://127\.0\.0\.1:\d+/g/\d+-[0-9a-f]+)", l)
            if m:
                self.game_url = m.group(1)
            m = re.search(r"(http://127\.0\.0\.1:\d+/r/[0-9a-f]+)", l)
            if m:
                self.room_url = m.group(1)
        return lines

    def urls(self):
        out = [self.game_url, self.game_url + ".json", self.game_url + "/v",
               self.room_url, self.room_url + ".json"]
        pages = set()
        for url in (self.room_url, self.game_url):  # players' pages: standings, seats
            status, body = fetch(url)
            pages.update(re.findall(r'href="(/r/[0-9a-f]+/p/[0-9a-f]+)"', body))
        for p in sorted(pages):
            out += [self.base + p, self.base + p + ".json"]
        return out


def limits(g):
    """A slowloris from 127.0.0.1 (connections that never finish their
    headers) starves neither another address (127.0.0.2) nor the game loop;
    an oversized request is refused."""
    path = g.game_url.split(str(g.port), 1)[1]
    slow = []
    for _ in range(40):
        try:
            s = socket.create_connection(("127.0.0.1", g.port), timeout=2)
            s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n")
            slow.append(s)
        except OSError:
            break  # the per-address limit: refused, as it should be
    time.sleep(0.3)
    alive = 0
    for s in slow:  # those over the per-address limit were closed by the server
        s.setblocking(False)
        try:
            alive += s.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    check(1 <= alive <= 16, "%d slow connections from one address held (limit 16)" % alive)
    t0 = time.monotonic()
    other = socket.create_connection(("127.0.0.1", g.port), timeout=5,
                                     source_address=("127.0.0.2", 0))
    other.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    reply = b""
    while True:
        chunk = other.recv(65536)
        if not chunk:
            break
        reply += chunk
    other.close()
    check(reply.startswith(b"HTTP/1.1 200"), "another address was not served during a slowloris")
    check(time.monotonic() - t0 < 2, "another address waited %.1f s" % (time.monotonic() - t0))
    t0 = time.monotonic()
    g.send("ann: !games")
    check(time.monotonic() - t0 < 1, "the game loop was slow during a slowloris")
    for s in slow:
        s.close()
    big = socket.create_connection(("127.0.0.1", g.port), timeout=5)
    try:
        big.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 +
                    b"\r\n\r\n")
        reply = big.recv(100)
    except OSError:
        reply = b""
    big.close()
    check(not reply.startswith(b"HTTP/1.1 200"), "a 64 KiB header was answered 200")
    print("limits: %d of %d slow connections held, another address served, a 64 KiB header "
          "refused (%s)" % (alive, len(slow), reply.split(b"\r\n")[0].decode() or "closed"))


def leak(bot_exe, replay_exe, outdir):
    players = ["ann"] + HOSTILE
    with tempfile.TemporaryDirectory() as tmp:
        g = Game(bot_exe, tmp, players, seed=2301)
        fetched = moves = seen_public = seals = 0
        step = 0
        while not g.table.over:
            line = g.table.next_line(step)
            check(line is not None, "nobody is told to act:\n" + "\n".join(g.table.transcript[-6:]))
            g.table.need_capture = False
            g.send(line)
            step += 1
            held, state, fair = held_cards(bot_exe, replay_exe, g.db)
            if state.get("phase") == "game_over":
                break
            forms = [(c + ", held by a player,", f) for c in held for f in card_forms(c)]
            forms += secret_forms(fair)
            public = [f for c in state["table"] for f in card_forms(c)]
            for url in g.urls():
                status, body = fetch(url)
                check(status == 200, "%s answered %d" % (url, status))
                for c, f in forms:
                    check(not f.search(body), "%s names %s after move %d (%s)"
                          % (url, c, step, line))
                # the same search finds the cards that lie on the table
                seen_public += sum(1 for f in public if f.search(body))
                fetched += 1
                if url == g.game_url:  # each hand dealt so far: its seal, as the room read it
                    for h in fair["hands"]:
                        check("Hand %d: pack sealed <code>%s</code>" % (h["hand"], h["commit"][:12])
                              in body, "the page shows no seal of hand %d" % h["hand"])
                        seals += 1
                if url == g.game_url + ".json":  # the page's replay is the engine's game
                    doc = json.loads(body)
                    check([h["seal"] for h in doc["fairness"]["hands"]] ==
                          [h["commit"][:12] for h in fair["hands"]] and
                          not doc["fairness"]["revealed"], "the live JSON's seals: %s" %
                          doc["fairness"])
                    check(doc["scores"] == state["scores"], "scores %s, the engine's %s" %
                          (doc["scores"], state["scores"]))
                    check(sorted(doc["table"]) == sorted(render(c) for c in state["table"]),
                          "table %s, the engine's %s" % (doc["table"], state["table"]))
            moves += 1
        check(g.table.over, "the game did not end")
        check(seen_public > moves, "the search never found the table's cards on a page")
        players_pages = [u for u in g.urls() if "/p/" in u]
        check(len(players_pages) == 2 * len(players), "players' pages: %s" % players_pages)
        for url in players_pages:
            status, body = fetch(url)
            check(status == 200 and ("<svg" in body or url.endswith(".json")),
                  "%s answered %d" % (url, status))
        # The finished game: its JSON is the export; the page shows every deal.
        status, doc = fetch(g.game_url + ".json")
        export = subprocess.run([bot_exe, "--export", "1", "--db", g.db], check=True,
                                capture_output=True, text=True).stdout
        check(status == 200 and json.loads(doc) == json.loads(export),
              "the finished game's JSON is not its export")
        status, page = fetch(g.game_url)
        # The end reveals every seed and the salt, each hand checked by the server.
        fair = json.loads(export)["fairness"]
        check(fair_cells(page) == ["verified"] * len(fair["hands"]) and len(fair["hands"]) > 1,
              "the finished page's checks: %s for %d hands" % (fair_cells(page), len(fair["hands"])))
        for what, f in secret_forms(fair):
            check(f.search(page), "the finished page does not show %s" % what)
        check(all("<code>%s</code>" % h["commit"] in page for h in fair["hands"]),
              "the finished page does not show every commitment")
        said = re.findall(r"pack sealed ([0-9a-f]{12})", "\n".join(g.table.transcript))
        check(said == [h["commit"][:12] for h in fair["hands"]],
              "the room read seals %s, the record's commitments start %s" %
              (said, [h["commit"][:12] for h in fair["hands"]]))
        check("porrazo-replay --verify" in page and "FAIRNESS.md" in page,
              "the finished page does not say how to check it")
        check(page.count('class="pt s0"') == page.count("<h4>") > 1,
              "one chart point per deal: %d points, %d deals" %
              (page.count('class="pt s0"'), page.count("<h4>")))
        # Hostile nicks are text: escaped, bidi controls replaced.
        for body in (page, fetch(g.room_url)[1]):
            check("<img" not in body and "onerror=alert(1)" not in body.replace(
                "&lt;img/src=x/onerror=alert(1)//", ""), "a nick became markup")
            check("&lt;img/src=x/onerror=alert(1)//" in body, "the <img nick is not shown as text")
            check("&quot;&#39;onfocus=alert(2)" in body, "the quote nick is not shown as text")
            check("\u202e" not in body and "\ufffdevil&amp;amp;" in body,
                  "a bidi control reached the page")
        # A 404 does not tell which ids exist.
        tok = g.game_url.rsplit("-", 1)[1]
        wrong = [g.base + "/g/1-" + "0" * 32, g.base + "/g/999-" + tok, g.base + "/r/" + "0" * 32,
                 g.base + "/g/1-" + tok + "x", g.base + "/nothing"]
        bodies = set()
        for url in wrong:
            status, body = fetch(url)
            check(status == 404, "%s answered %d" % (url, status))
            bodies.add(body)
        check(len(bodies) == 1, "404s differ")
        # The final line carries the page too.
        final = [l for l in g.table.transcript if l.startswith("#console ")][-3:]
        check(any(g.game_url in l for l in final), "the final lines carry no page: %s" % final)
        # Headers: a strict policy, no cookie; HEAD answers without a body.
        with urllib.request.urlopen(urllib.request.Request(g.game_url, method="HEAD"),
                                    timeout=5) as r:
            csp = r.headers.get("Content-Security-Policy", "")
            check(r.status == 200 and r.read() == b"", "HEAD: %d with a body" % r.status)
            check("default-src 'none'" in csp and "script-src 'self'" in csp and
                  "unsafe-inline" not in csp, "Content-Security-Policy: %s" % csp)
            check(r.headers.get("Set-Cookie") is None, "a cookie was set")
            check(r.headers.get("X-Content-Type-Options") == "nosniff", "no nosniff")
        check("<script>" not in page and "style=" not in page and " on" not in
              re.sub(r">[^<]*<", "><", page), "inline script, style or handler on the page")
        # Only GET and HEAD.
        req = urllib.request.Request(g.game_url, data=b"x=1", method="POST")
        try:
            urllib.request.urlopen(req, timeout=5)
            check(False, "POST was answered")
        except urllib.error.HTTPError as e:
            check(e.code == 405, "POST answered %d" % e.code)
        # The room's moderators turn the pages off: 404, no link; then on.
        lines = g.send("ann: !set web off")
        check(fetch(g.game_url)[0] == 404 and fetch(g.room_url)[0] == 404,
              "pages still served with web off: %s" % lines)
        lines = g.send("ann: !web")
        check(not any("http://" in l for l in lines), "web still links with web off")
        g.send("ann: !set web on")
        check(fetch(g.game_url)[0] == 200, "pages not back with web on")
        limits(g)
        rc, rest, err = g.bot.close()
        check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        tampered(bot_exe, replay_exe, g, tmp, fair)
        check(seals >= moves, "seals checked on %d pages for %d moves" % (seals, moves))
        print("leak: %d moves, %d pages and JSON fetched, none with a held card, a seed or the "
              "salt; %d hands verified, a changed seed found" % (moves, fetched, len(fair["hands"])))


def tampered(bot_exe, replay_exe, g, tmp, fair):
    """A copy of the finished game's database with hand 1's seed changed:
    its page says "does not match" for that hand and only for it."""
    copy = os.path.join(tmp, "tampered.db")
    with sqlite3.connect(g.db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    with sqlite3.connect(copy) as db:
        n = db.execute("UPDATE hand_seeds SET seed = ? WHERE game_id = 1 AND hand = 1",
                       (str(fair["hands"][0]["seed"] ^ 1),)).rowcount
    check(n == 1, "no seed of hand 1 to change")
    port = free_port()
    conf = os.path.join(tmp, "tampered.conf")
    with open(conf, "w") as f:
        f.write("[web]\nlisten = 127.0.0.1:%d\n" % port)
    bot = WebBot(bot_exe, copy, 1, conf)
    try:
        url = "http://127.0.0.1:%d%s" % (port, g.game_url.split(str(g.port), 1)[1])
        status = page = None
        for _ in range(50):  # the pages start with the bot
            try:
                status, page = fetch(url)
                break
            except OSError:
                time.sleep(0.1)
        check(status == 200, "the tampered copy's page answered %d" % status)
        want = ["does not match"] + ["verified"] * (len(fair["hands"]) - 1)
        check(fair_cells(page) == want, "the tampered copy's checks: %s" % fair_cells(page))
    finally:
        rc, rest, err = bot.close()
    check(rc == 0, "porrazo-bot on the copy exited %d: %s" % (rc, err))
    record = os.path.join(tmp, "tampered.json")
    with open(record, "w") as f:
        subprocess.run([bot_exe, "--export", "1", "--db", copy], check=True, stdout=f)
    r = subprocess.run([replay_exe, "--verify", record], capture_output=True, text=True)
    check(r.returncode == 1 and "hand 1: its commitment" in r.stdout + r.stderr,
          "--verify on the tampered record: %d %s%s" % (r.returncode, r.stdout, r.stderr))


def browser(bot_exe, replay_exe, outdir):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=420,1400",
              "--disable-dev-shm-usage"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    players = ["ann", HOSTILE[0]]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            g = Game(bot_exe, tmp, players, seed=2302)
            driver.get(g.game_url)
            check(driver.find_elements(By.CSS_SELECTOR, "svg.chart"), "no chart")
            check(not driver.find_elements(By.CSS_SELECTOR, "main img"), "a nick became an <img>")
            check(HOSTILE[0] in driver.find_element(By.TAG_NAME, "main").text,
                  "the hostile nick is not shown as text")
            # Live, idle: the script polls the version and leaves the page alone.
            driver.execute_script("document.getElementById('main').dataset.mark = 'kept'")
            time.sleep(2.5)
            check(driver.execute_script("return document.getElementById('main').dataset.mark")
                  == "kept", "the live page was swapped while nothing happened")
            # Live: a move through the console shows within 2 s.
            worst = 0.0
            for step in range(6):
                before = driver.find_element(By.ID, "now").get_attribute("data-version")
                line = g.table.next_line(step)
                g.table.need_capture = False
                t0 = time.monotonic()
                g.send(line)
                while True:
                    try:
                        now = driver.find_element(By.ID, "now").get_attribute("data-version")
                    except Exception:
                        now = before  # the page is being swapped
                    if now != before:
                        break
                    check(time.monotonic() - t0 < 2.0,
                          "the live page did not update within 2 s of '%s'" % line)
                    time.sleep(0.05)
                worst = max(worst, time.monotonic() - t0)
            driver.save_screenshot(os.path.join(outdir, "web_live.png"))
            # The room turns Spanish: the live page follows within 2 s, and back.
            for cmd, code, words in (("!set lang es", "es", "La mesa ahora"),
                                     ("!set lang en", "en", "The table now")):
                t0 = time.monotonic()
                g.send("ann: " + cmd)
                while True:
                    try:
                        now = driver.find_element(By.ID, "now").text
                        lang = driver.execute_script("return document.documentElement.lang")
                    except Exception:
                        now = lang = ""  # the page is being swapped
                    if words in now and lang == code:
                        break
                    check(time.monotonic() - t0 < 2.0,
                          "the live page did not turn %s within 2 s of %s" % (code, cmd))
                    time.sleep(0.05)
                if code == "es":
                    driver.save_screenshot(os.path.join(outdir, "web_live_es.png"))
            # Under way: the hands' seals, no seed, no check.
            check(driver.find_elements(By.CSS_SELECTOR, "#fairness li code") and
                  not driver.find_elements(By.CSS_SELECTOR, "#fairness table"),
                  "the live page's fair deals: %s" % [
                      e.text for e in driver.find_elements(By.ID, "fairness")])
            step = 6
            while not g.table.over:
                line = g.table.next_line(step)
                g.table.need_capture = False
                g.send(line)
                step += 1
            time.sleep(1.5)  # the live page sees the end and stops polling
            driver.get(g.game_url)
            deals = len(driver.find_elements(By.CSS_SELECTOR, "#record h4"))
            for s in range(2):
                points = len(driver.find_elements(By.CSS_SELECTOR, "svg.chart circle.s%d" % s))
                check(points == deals and deals > 1,
                      "side %d: %d chart points for %d deals" % (s, points, deals))
            check(driver.find_elements(By.CSS_SELECTOR, "span.card.red[aria-label]"),
                  "no red card with a spoken name")
            # Ended: every hand's seed, checked by the server.
            checks = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#fairness tbody tr")]
            hands = len(driver.find_elements(By.CSS_SELECTOR, "#record h3"))
            check(len(checks) == hands > 1 and all(c.endswith("verified") for c in checks),
                  "the finished page's fair deals, %d hands: %s" % (hands, checks))
            driver.save_screenshot(os.path.join(outdir, "web_finished.png"))
            driver.get(g.room_url)
            check(driver.find_elements(By.CSS_SELECTOR, "table.standings"), "no standings")
            errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
            check(not errors, "browser console errors: %s" % errors)
            g.bot.close()
            print("browser: live updates within %.2f s at worst; %d deals, %d points each; "
                  "screenshots in %s" % (worst, deals, deals, outdir))
    finally:
        driver.quit()


# The pages' own English (bot/web), none of which a Spanish page may show,
# and Spanish words each Spanish page shows.
ENGLISH = ["The table now", "The end<", "Deal by deal", ">Players<", "Options:", "On the table:",
           "The score after each deal", "the room's games", "Fair deals", "pack sealed",
           " of clubs\"", " of diamonds\"", " of hearts\"", " of spades\"", "cards to deal",
           "While the game is under way", ">Standings<", ">Games<", ">date<", ">status<",
           "under way<", "finished<", "points a game on average", "Record over time",
           ">verified<", "Server's check", "No such page."]
SPANISH_GAME = ['<html lang="es">', "Reparto por reparto", ">Jugadores<", "Opciones:", "Marcador",
                "Los puntos después de cada reparto", "las partidas de la sala"]
SPANISH_ROOM = ['<html lang="es">', ">Partidas<", ">Clasificación<", ">fecha<", ">estado<",
                ">ganadas<"]
SPANISH_PLAYER = ['<html lang="es">', "puntos por partida en promedio", "las partidas de la sala"]


def pages_of(g):
    """The game's page, its JSON, the room's page and the first player's page."""
    status, game = fetch(g.game_url)
    check(status == 200, "the game's page answered %d" % status)
    player = re.findall(r'href="(/r/[0-9a-f]+/p/[0-9a-f]+)"', game)
    check(player, "the game's page links no player")
    out = {"game": (status, game), "json": fetch(g.game_url + ".json"), "room": fetch(g.room_url),
           "player": fetch(g.base + player[0])}
    for what, (status, _) in out.items():
        check(status == 200, "the %s answered %d" % (what, status))
    return {what: body for what, (_, body) in out.items()}


def english(pages, when):
    for what in ("game", "room", "player"):
        body = pages[what]
        check('<html lang="en">' in body, "%s: the %s page is not lang=en" % (when, what))
        for word in SPANISH_GAME[1:] + SPANISH_ROOM[1:] + SPANISH_PLAYER[1:]:
            check(word not in body, "%s: the English %s page says %r" % (when, what, word))
    check(re.search(r'aria-label="[a-z]+ of (clubs|diamonds|hearts|spades)"', pages["game"]),
          "%s: no card said in English" % when)


def spanish(pages, when):
    for what, words in (("game", SPANISH_GAME), ("room", SPANISH_ROOM),
                        ("player", SPANISH_PLAYER)):
        body = pages[what]
        for word in words:
            check(word in body, "%s: the Spanish %s page lacks %r" % (when, what, word))
        for word in ENGLISH:
            check(word not in body, "%s: the Spanish %s page says %r" % (when, what, word))
    check(re.search(r'aria-label="[a-z]+ de (tréboles|diamantes|corazones|picas)"', pages["game"]),
          "%s: no card said in Spanish" % when)


def not_found(g):
    status, body = fetch(g.base + "/r/" + "0" * 32)
    check(status == 404, "a wrong room answered %d" % status)
    return body


def lang(bot_exe, replay_exe, outdir):
    players = ["ann", "bob"]
    with tempfile.TemporaryDirectory() as tmp:
        g = Game(bot_exe, tmp, players, seed=2303)
        step = 0
        for _ in range(4):  # a few plays: the record and the chart have cards and points
            line = g.table.next_line(step)
            check(line is not None, "nobody is told to act")
            g.table.need_capture = False
            g.send(line)
            step += 1
        missing = not_found(g)
        en = pages_of(g)
        english(en, "under way, English room")
        g.send("ann: !set lang es")
        es = pages_of(g)
        spanish(es, "under way, set lang es")
        check(es["game"].count("<li>") == en["game"].count("<li>"),
              "the Spanish page shows other plays than the English one")
        # the JSON: the same data and codes, its human line in Spanish
        doc_en, doc_es = json.loads(en["json"]), json.loads(es["json"])
        check(doc_es["now"] != doc_en["now"], "the JSON's line stayed %r" % doc_en["now"])
        for key in ("status", "table", "scores", "to_act", "deals", "fairness"):
            check(doc_es[key] == doc_en[key], "the JSON's %s changed with the language" % key)
        check(fetch(g.game_url + "/v")[1].strip().endswith(".es"),
              "the live version does not change with the language: a live page keeps English")
        check(not_found(g) == missing, "the 404 changed with a room's language")
        check('<html lang="en">' in missing and "No such page." in missing,
              "the 404 is not in the bot's language")
        g.send("ann: !set lang en")
        english(pages_of(g), "under way, set lang en")
        while not g.table.over:
            line = g.table.next_line(step)
            check(line is not None, "nobody is told to act:\n" + "\n".join(g.table.transcript[-6:]))
            g.table.need_capture = False
            g.send(line)
            step += 1
        g.send("ann: !set lang es")
        es = pages_of(g)
        with open(os.path.join(outdir, "web_lang_es.html"), "w") as f:
            f.write(es["game"])  # kept to be read: a Spanish finished game's page
        spanish(es, "ended, set lang es")
        hands = es["game"].count("<h3>")
        check(fair_cells(es["game"]) == ["comprobada"] * hands and hands > 1,
              "the finished page's checks in Spanish: %s for %d hands"
              % (fair_cells(es["game"]), hands))
        check("Repartos limpios" in es["game"] and "Semilla" in es["game"],
              "the finished page's fair deals are not in Spanish")
        g.send("ann: !set lang off")  # the room follows the bot's language again
        english(pages_of(g), "ended, set lang off")
        rc, rest, err = g.bot.close()
        check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        # The configuration's language: the room set none, the bot says es.
        port = free_port()
        conf = os.path.join(tmp, "es.conf")
        with open(conf, "w") as f:
            f.write("[bot]\nlanguage = es\n[web]\nlisten = 127.0.0.1:%d\n" % port)
        bot = WebBot(bot_exe, g.db, 1, conf)
        try:
            g.base = "http://127.0.0.1:%d" % port
            g.game_url = g.base + g.game_url.split(str(g.port), 1)[1]
            g.room_url = g.base + g.room_url.split(str(g.port), 1)[1]
            for _ in range(50):  # the pages start with the bot
                try:
                    fetch(g.base + "/")
                    break
                except OSError:
                    time.sleep(0.1)
            spanish(pages_of(g), "a bot whose configuration says language = es")
            missing = not_found(g)
            check('<html lang="es">' in missing and "Esa página no existe." in missing,
                  "the 404 is not in the bot's language (es)")
        finally:
            rc, rest, err = bot.close()
        check(rc == 0, "porrazo-bot (language = es) exited %d: %s" % (rc, err))
        print("lang: a game's, a room's and a player's pages in English, in Spanish after set "
              "lang es (%d hands checked, comprobada), English after set lang en and off, "
              "Spanish from the configuration; the 404 in the bot's language" % hands)


def main():
    bot_exe, replay_exe, mode, outdir = sys.argv[1:5]
    os.makedirs(outdir, exist_ok=True)
    {"leak": leak, "browser": browser, "lang": lang}[mode](bot_exe, replay_exe, outdir)


if __name__ == "__main__":
    main()
