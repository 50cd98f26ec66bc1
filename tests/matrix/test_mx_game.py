#!/usr/bin/env python3
"""test_mx_game.py -- a whole Porrazo game on Matrix: porrazo-bot against the
homeserver double (homeserver.py), three scripted Matrix users who invite the
bot to a room (allowed by allow_invites), play in it and read their hands only
from the direct rooms the bot makes for them. The final scores must equal
porrazo-replay on the game the bot exports (its seed and actions).

The players are console_game.Table's (tests/bot/console_game.py): the same
model and strategy, fed with the Matrix events translated to its console
lines ("#console <porrazo> BODY" for the room, "-> NAME: BODY" for a direct
room). Synchronisation: after each line a player sends, the test waits until
the bot recorded the event as handled (the store's `seen` table) and its
outbox for the network is empty -- a message leaves the outbox only after the
homeserver returned its event id, so by then the double holds every event the
line caused.

Checked besides the scores: every event the bot sent is an m.notice with a
plain body and an HTML formatted_body; the player to move is mentioned
(m.mentions.user_ids, and a matrix.to pill); no event near the size limit;
the access token never in a query string (the double counts it) and always in
the Authorization header; the filter created once; every transaction id
posted once, and the outbox ids of the posted messages are exactly 1..N (none
lost, none twice); no refusal of a player's command (none was handled twice);
the bot stops cleanly on SIGTERM.

This file is also the harness of test_mx_faults.py and test_mx_restart.py
(MatrixGame, Bot, write_config, checks).

usage: test_mx_game.py PORRAZO_BOT PORRAZO_REPLAY
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
for d in (HERE, os.path.join(HERE, "..", "bot")):
    if d not in sys.path:
        sys.path.insert(0, d)

import console_game as cg  # noqa: E402
from homeserver import TIMEOUT, HomeServer, exit_on_sigterm  # noqa: E402
from mxclient import HTTPClient, q  # noqa: E402
from mxmodel import MatrixError  # noqa: E402

BOT = "@porrazo:test"
NETWORK = "local"
PLAYERS = [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")]
SEED = 4242
CONTENT_MAX = 60000
ACTION = re.compile(r"^\S+[:>] !?(play|tendido|arrange)\b")
REFUSAL = re.compile(r"not yours|^\S+: not now|you are not playing|has started already|"
                     r"already seated")
STATUS_RX = [rx for rx, _ in cg.STATUS]


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def write_config(path, hs_url, db, password="secret", token=None, allow=(":test",),
                 owners=(), irc=None, log_level="info"):
    """A porrazo-bot configuration with one [matrix local] network (and an
    [irc local] one when irc = (port, channel))."""
    lines = ["[bot]", "name = porrazo", "database = %s" % db, "reminder = off",
             "flood_commands = 0",
             "log_level = %s" % log_level]
    if owners:
        lines.append("owners = %s" % ", ".join(owners))
    lines += ["", "[matrix %s]" % NETWORK, "homeserver = %s" % hs_url, "user = %s" % BOT]
    if password:
        lines.append("password = %s" % password)
    if token:
        lines.append("access_token = %s" % token)
    if allow:
        lines.append("allow_invites = %s" % ", ".join(allow))
    if irc:
        lines += ["", "[irc local]", "host = 127.0.0.1", "port = %d" % irc[0], "tls = false",
                  "nick = porrazo", "channels = %s" % irc[1], "burst = 20", "line_ms = 100"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


E2EE_KEY = "e2ee test key"


def write_e2ee_config(path, hs, db):
    """write_config's, with encryption on (crypto_key): the encrypted-room tests'."""
    write_config(path, hs.url, db)
    with open(path, "a") as f:
        f.write("crypto_key = %s\n" % E2EE_KEY)


def check_no_plaintext(hs, rooms):
    """The bot sent no m.room.message into rooms (encrypted), and sent some
    m.room.encrypted: their count."""
    plain = [e for e in hs.requests(path="/send/m.room.message/", user=BOT)
             if any(r in e["path"] for r in rooms)]
    check(not plain, "the bot sent %d plaintext events into encrypted rooms: %s" % (
        len(plain), [e["path"] for e in plain[:3]]))
    enc = hs.requests(path="/send/m.room.encrypted/", user=BOT)
    check(enc, "the bot sent no encrypted event")
    return len(enc)


class Bot:
    """One porrazo-bot process on a configuration; its log in a file."""

    def __init__(self, exe, conf, log_path, seed=SEED):
        self.exe, self.conf, self.log_path, self.seed = exe, conf, log_path, seed
        self.proc = None
        self.start()

    def start(self):
        """Starts the bot and waits until it runs: the database is opened
        (the test's own reads of it never race the bot's checks at start,
        which give up at once on a locked file)."""
        self.log_file = open(self.log_path, "a")
        offset = self.log_file.tell()
        self.proc = subprocess.Popen([self.exe, "--config", self.conf, "--seed", str(self.seed)],
                                     stdin=subprocess.DEVNULL, stdout=self.log_file,
                                     stderr=self.log_file)
        deadline = time.monotonic() + TIMEOUT
        while " running on " not in self.log()[offset:]:
            if not self.alive() or time.monotonic() > deadline:
                raise AssertionError("porrazo-bot did not start:\n" + self.log()[offset:])
            time.sleep(0.01)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.log_file.close()

    def stop(self, timeout=30):
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = "hung"
        self.log_file.close()
        return rc

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()


class Db:
    """The bot's SQLite file, read-only, for the test's synchronisation."""

    def __init__(self, path):
        self.path = path

    def _query(self, sql, args=()):
        # a deadline, not a count of tries: under CI's load the bot may take
        # seconds to create the file, or hold it through a checkpoint
        last, deadline = None, time.monotonic() + 30
        while True:
            try:
                con = sqlite3.connect("file:%s?mode=ro" % self.path, uri=True, timeout=5)
                # the outbox's game lines hold the host's markers (bytes 0xFF,
                # bot/host/live.c), which are not UTF-8
                con.text_factory = lambda b: b.decode("utf-8", "replace")
                try:
                    return con.execute(sql, args).fetchall()
                finally:
                    con.close()
            except sqlite3.OperationalError as e:
                last = e
                if time.monotonic() > deadline:
                    raise AssertionError("cannot read %s for 30 s: %s" % (self.path, last))
                time.sleep(0.02)

    def seen(self, event_id):
        return bool(self._query("SELECT 1 FROM seen WHERE network = ? AND id = ?",
                                (NETWORK, event_id)))

    def outbox(self):
        return self._query("SELECT id, target, text FROM outbox WHERE network = ? ORDER BY id",
                           (NETWORK,))


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class MatrixGame:
    """Three scripted players and the bot in one room of the double, seen
    through console_game.Table."""

    def __init__(self, hs, db_path, bot, players=PLAYERS):
        self.hs, self.db, self.bot = hs, Db(db_path), bot
        self.users = {name: hs.user_id(local) for local, name in players}
        self.names = {uid: name for name, uid in self.users.items()}
        self.table = cg.Table([name for _, name in players])
        self.room = None
        self.done = {}          # room -> number of its events already read
        self.dms = {}           # user id -> direct room
        self.events = []        # every event of the bot, (room, event)
        self.actions_sent = 0
        self.lines_sent = 0
        self.before_hook = None   # called with the line before it is sent
        self.restart_hook = None  # called with the line and its event id once sent

    # -- set-up ----------------------------------------------------------------

    def open_room(self):
        """ann makes the room and invites the bot, then bob and cat."""
        first, *rest = list(self.users.values())
        self.room = self.hs.create_room(first, name="Mesa", invite=[BOT])
        self.hs.wait_for_event(self.room, type="m.room.member", timeout=TIMEOUT * 2,
                               predicate=lambda e: e.get("state_key") == BOT and
                               e["content"].get("membership") == "join")
        for uid in rest:
            self.hs.invite(self.room, first, uid)
            self.hs.join(self.room, uid)
        self.done[self.room] = len(self.hs.events(self.room))

    def join_invites(self):
        for uid in self.users.values():
            for r in self.hs.rooms_of(uid, membership="invite"):
                self.hs.join(r, uid)

    def dm_of(self, uid):
        """uid's direct room with the bot: the one room, other than the
        game's, that holds just the two of them (uid joins the bot's
        invitations after every step). m.direct is checked at the end."""
        if uid in self.dms:
            return self.dms[uid]
        mine = [r for r in self.hs.rooms_of(uid) if r != self.room and
                sorted(self.hs.members(r)) == sorted([BOT, uid])]
        check(len(mine) <= 1, "%s has %d direct rooms with the bot" % (uid, len(mine)))
        if mine:
            self.dms[uid] = mine[0]
        return mine[0] if mine else None

    # -- one line ----------------------------------------------------------------

    def say(self, line):
        """Sends a console line ("Ann: !play 7♥" in the room, "Ann> hand" in
        her direct room) as the player's Matrix message; its event id."""
        m = re.match(r"(\S+)([:>]) (.*)$", line)
        name, where, text = m.group(1), m.group(2), m.group(3)
        uid = self.users[name]
        room = self.room
        if where == ">":
            self.join_invites()
            room = self.dm_of(uid)
            check(room is not None, "%s has no direct room with the bot" % name)
        self.lines_sent += 1
        if ACTION.match(line):
            self.actions_sent += 1
        return self.hs.send_text(room, uid, text)

    def settle(self, event_id, timeout=None):
        """Waits until the bot handled event_id and sent all it queued."""
        deadline = time.monotonic() + (timeout or TIMEOUT * 4)
        while True:
            if not self.bot.alive():
                raise AssertionError("porrazo-bot died:\n" + self.bot.log()[-3000:])
            if self.db.seen(event_id) and not self.db.outbox():
                return
            if time.monotonic() > deadline:
                raise AssertionError("the bot did not handle %s and send its replies in time; "
                                     "outbox %s; log tail:\n%s" % (
                                         event_id, self.db.outbox()[:5],
                                         self.bot.log()[-3000:]))
            time.sleep(0.02)

    def collect(self):
        """The bot's new events in the room and the direct rooms, as console
        lines in the order the homeserver took them (origin_server_ts; the
        room first, then each player's direct room, within a millisecond):
        a player reads a hand sent before a play, then the play."""
        lines = []
        rooms = [(self.room, None)] + [(self.dm_of(uid), name) for name, uid in
                                       self.users.items()]
        for room, name in rooms:
            if room is None:
                continue
            evs = self.hs.events(room)
            start = self.done.get(room, 0)
            self.done[room] = len(evs)
            for ev in evs[start:]:
                if ev["sender"] != BOT or ev["type"] != "m.room.message":
                    continue
                self.events.append((room, ev))
                # the lines waiting for one room when it was sent to come in one
                # event, one line after the other
                for body in ev["content"].get("body", "").split("\n"):
                    lines.append((ev.get("origin_server_ts", 0), len(lines),
                                  "-> %s: %s" % (name, body) if name else
                                  "#console <porrazo> %s" % body))
        return [text for _, _, text in sorted(lines)]

    def step(self, line):
        if self.before_hook is not None:
            self.before_hook(self, line)
        eid = self.say(line)
        if self.restart_hook is not None:
            self.restart_hook(self, line, eid)
        self.settle(eid)
        self.join_invites()
        return self.collect()

    def play(self, max_steps=20000):
        t = self.table
        for p in list(self.users)[:1]:
            t.read(self.step("%s: !new %d" % (p, len(self.users))))
        for p in list(self.users)[1:]:
            t.read(self.step("%s: !join" % p))
        return cg.play_out(t, self.step, max_steps=max_steps)


# -- checks shared by the Matrix game tests ---------------------------------------

def txn_outbox_id(txn):
    """The outbox id in a transaction id "pz<instance>-<id>[+<merged>][.<part>]"
    (+N: N lines waiting behind it told in the same event)."""
    m = re.match(r"pz[0-9a-f]*-(\d+)(?:\+\d+)?(?:\.(\d+))?$", txn)
    check(m is not None, "transaction id %r is not the outbox's" % txn)
    return int(m.group(1)), int(m.group(2) or 0)


def txn_merged(txn):
    """How many messages waiting behind its own an event told (+N), 0 none."""
    m = re.search(r"\+(\d+)", txn)
    return int(m.group(1)) if m else 0


def check_events(game):
    """Every bot event: an m.notice with body and HTML, under the size
    limit, the player to move mentioned with a pill. Returns counts."""
    mentioned = 0
    for room, ev in game.events:
        c = ev["content"]
        prompt = room != game.room and "your turn" in c.get("body", "").lower()
        check(c.get("msgtype") == "m.notice" or (prompt and c.get("msgtype") == "m.text"),
              "not a notice (nor a private turn prompt): %s" % c)
        check(isinstance(c.get("body"), str), "no body: %s" % c)
        check(c.get("format") == "org.matrix.custom.html" and
              isinstance(c.get("formatted_body"), str), "no HTML body: %s" % c)
        check(len(canonical(c)) < CONTENT_MAX, "an event of %d bytes" % len(canonical(c)))
        ids = (c.get("m.mentions") or {}).get("user_ids", [])
        if room != game.room:
            continue
        for rx in STATUS_RX:
            m = rx.search(c["body"])
            if m and m.group(1) in game.users:
                uid = game.users[m.group(1)]
                check(ids == [uid], "%r does not mention %s: %s" % (c["body"], uid, ids))
                check('href="https://matrix.to/#/%s"' % uid in c["formatted_body"],
                      "no pill for %s in %r" % (uid, c["formatted_body"]))
                mentioned += 1
    check(mentioned > 0, "no status line named the player to move")
    return mentioned


def check_requests(hs):
    """The token only ever in the Authorization header; the filter made once."""
    check(hs.counters["access_token_in_query"] == 0, "the access token went in a query string")
    authed = [e for e in hs.requests() if e.get("auth") is not None]
    check(authed and all(e["auth"] == "header" for e in authed),
          "a request authenticated otherwise than by the header")
    posts = [p for p in hs.filter_posts if p["user"] == BOT]
    check(len(posts) == 1, "the filter was uploaded %d times" % len(posts))
    check(not hs.errors, "the double had internal errors:\n%s" % "\n".join(hs.errors))
    return len(authed)


def check_transactions(hs, allow_repeats):
    """Every outbox message posted exactly once: the non-repeated
    transactions name each outbox id 1..N once (a repeat is answered from the
    double's cache and posts nothing). Returns (messages, repeats)."""
    txns = [t for t in hs.transactions if t["user"] == BOT]
    fresh = [t for t in txns if not t["repeat"]]
    keys = [txn_outbox_id(t["txn_id"]) for t in fresh]
    twice = sorted({t["txn_id"] for t, k in zip(fresh, keys) if keys.count(k) > 1})
    check(not twice, "a message was posted twice: %s" % twice[:6])
    ids = sorted({k[0] for k in keys})
    # An event tells its message and the +N waiting behind it for the same
    # room, so the ids posted are not all of 1..N: together they cover them.
    told = sum(1 + txn_merged(t["txn_id"]) for t in fresh if txn_outbox_id(t["txn_id"])[1] == 0)
    check(ids and told >= len(ids) and ids[0] >= 1,
          "outbox ids posted %s tell %d messages" % (ids[:10], told))
    events = {t["event_id"] for t in fresh}
    check(len(events) == len(fresh), "two transactions gave one event")
    repeats = [t for t in txns if t["repeat"]]
    if not allow_repeats:
        check(not repeats, "%d transactions were repeated" % len(repeats))
    for t in repeats:
        first = [f for f in fresh if f["txn_id"] == t["txn_id"] and f["room_id"] == t["room_id"]]
        check(first and first[0]["event_id"] == t["event_id"],
              "a repeated transaction got another event")
    return len(ids), len(repeats)


def check_room_order(game):
    """In the game room (all messages of one priority) the posted outbox ids
    increase: the room's queue kept the outbox order."""
    ids = []
    for t in game.hs.transactions:
        if t["user"] == BOT and not t["repeat"] and t["room_id"] == game.room:
            ids.append(txn_outbox_id(t["txn_id"]))
    check(ids == sorted(ids), "the room's messages left out of order")
    return len(ids)


def check_outcome(game, bot_exe, replay_exe, db):
    """Scores = replay; every action accepted once; nothing refused."""
    transcript = game.table.transcript
    refusals = [l for l in transcript if l.startswith("#console") and REFUSAL.search(l)]
    refusals += [l for l in transcript if l.startswith("-> ") and REFUSAL.search(l[3:])]
    check(not refusals, "the bot refused commands (handled twice?): %s" % refusals[:3])
    scenario, state = cg.replay_scores(bot_exe, replay_exe, db)
    check(state["phase"] == "game_over", "the replay does not end the game")
    actions = [a for a in json.loads(scenario)["actions"] if "seat" in a]  # not next_hand
    check(len(actions) == game.actions_sent,
          "%d actions recorded for %d sent" % (len(actions), game.actions_sent))
    board = cg.final_scores(game.table)
    check(board and sorted(board.values()) == sorted(state["scores"]),
          "board %s differs from replay %s" % (board, state["scores"]))
    return board, state["scores"], len(actions)


def check_direct(game):
    """One unencrypted direct room per player, made once (is_direct), kept in
    m.direct, reused all game long. Returns the rooms."""
    hs = game.hs
    dms = [game.dm_of(u) for u in game.users.values()]
    check(all(dms) and len(set(dms)) == len(dms), "not one direct room per player: %s" % dms)
    direct = hs.direct_rooms(BOT)
    check(all(direct.get(u) == [dm] for u, dm in zip(game.users.values(), dms)),
          "m.direct does not record the direct rooms: %s" % direct)
    made = hs.requests("POST", r"/createRoom$", status=200)
    check(len(made) == len(dms), "%d rooms made for %d players" % (len(made), len(dms)))
    check(all(e["body"].get("is_direct") is True and e["body"].get("preset") in
              ("private_chat", "trusted_private_chat") for e in made), "not a private DM")
    for uid, dm in zip(game.users.values(), dms):
        check(hs.state(dm, "m.room.encryption") is None, "an encrypted direct room")
    return dms


def room_bodies(game, room):
    """The lines of the bot's events in room (an event tells the lines that
    waited for the room when it was sent), room ids written "!ROOM" (they
    differ from one run to the next)."""
    return [re.sub(r"![A-Za-z]+:test", "!ROOM", line)
            for r, ev in game.events if r == room for line in ev["content"]["body"].split("\n")]


class workdir:
    """A temporary directory, kept (and named on stderr) when PZ_MX_KEEP is set."""

    def __init__(self, prefix):
        self.path = tempfile.mkdtemp(prefix=prefix)

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        if os.environ.get("PZ_MX_KEEP"):
            sys.stderr.write("kept %s\n" % self.path)
        else:
            shutil.rmtree(self.path, ignore_errors=True)
        return False


def bodies_by_room(game):
    """{"room": the room's bodies, NAME: NAME's direct room's bodies}."""
    out = {"room": room_bodies(game, game.room)}
    for name, uid in game.users.items():
        out[name] = room_bodies(game, game.dm_of(uid))
    return out


def compare_rooms(ref, got):
    """Each room's sequence of bot messages equals the reference run's."""
    for k in ref:
        a, b = ref[k], got.get(k, [])
        if a == b:
            continue
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        raise AssertionError("%s: %d messages, the reference %d; from message %d:\n"
                             "  got:       %s\n  reference: %s" % (
                                 k, len(b), len(a), i, b[max(0, i - 1):i + 4],
                                 a[max(0, i - 1):i + 4]))


def new_world(tmp, players=PLAYERS, exempt_bot=True, **hs_args):
    """A started double with the bot's account and the players'. The double
    runs Synapse's default rate limits; exempt_bot has a server admin exempt
    the bot's account over HTTP, by Synapse's admin API, as the README tells
    the operator of a busy bot to do: a whole game at machine speed would
    otherwise wait 5 s for each event past the burst (a 284-move game about
    25 minutes). Tests of the limiter itself pass exempt_bot=False."""
    hs = HomeServer(**hs_args).start()
    hs.register("porrazo", "secret")
    for local, name in players:
        hs.register(local, "pw", displayname=name)
    if exempt_bot:
        exempt_from_rate_limits(hs, BOT)
    return hs


def exempt_from_rate_limits(hs, *user_ids):
    """POST /_synapse/admin/v1/users/{user_id}/override_ratelimit {0, 0} for
    each user with a server admin's token (the README's command), each then
    checked by GET."""
    try:
        hs.register("admin", "adminpw", admin=True)
    except MatrixError as e:  # the world's admin already: one per server
        check(e.errcode == "M_USER_IN_USE", "cannot register the server admin: %s" % e)
    # the admin's token from the double itself: a log-in over HTTP would show
    # in the tests' counts of the bot's log-ins
    c = HTTPClient(hs.url, token=hs.token_for("admin"))
    for user_id in user_ids:
        path = "/_synapse/admin/v1/users/%s/override_ratelimit" % q(user_id)
        r = c.post(path, {"messages_per_second": 0, "burst_count": 0})
        check(r.status == 200, "override_ratelimit for %s: %s" % (user_id, r))
        r = c.get(path)
        check(r.status == 200 and r.json == {"messages_per_second": 0, "burst_count": 0},
              "override_ratelimit of %s reads %s" % (user_id, r))


def run_game(bot_exe, replay_exe, tmp, hs, faults=None, restart_hook=None, before_hook=None,
             seed=SEED):
    """Starts the bot, plays a whole game, stops the bot. Returns the game."""
    db = os.path.join(tmp, "bot.db")
    conf = os.path.join(tmp, "bot.conf")
    write_config(conf, hs.url, db)
    bot = Bot(bot_exe, conf, os.path.join(tmp, "bot.log"), seed=seed)
    game = MatrixGame(hs, db, bot)
    game.db_path, game.conf = db, conf
    try:
        hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        game.open_room()
        if faults is not None:
            faults(hs)
        game.restart_hook = restart_hook
        game.before_hook = before_hook
        game.steps = game.play()
        hs.clear_faults()
    finally:
        if game.bot.alive():
            game.rc = game.bot.stop()
    return game


class ReferenceGame(threading.Thread):
    """The same game without faults or kills, in a world and a folder of its
    own, played on a thread while a test plays its own game: the rooms'
    bodies (bodies_by_room) the test's game is compared with. The game is
    the same whatever the timing (same seed, same scripted players, the bot
    exempt from the rate limits), so playing it beside the other changes
    nothing it is compared on; it saves the reference's minute of waiting
    first. rooms() waits for it and raises what it raised."""

    def __init__(self, bot_exe, replay_exe):
        super().__init__(name="reference game", daemon=True)
        self.bot_exe, self.replay_exe = bot_exe, replay_exe
        self.result, self.error, self.seconds = None, None, None
        self.start()

    def run(self):
        t0 = time.monotonic()
        try:
            with workdir("pz-mx-ref-") as tmp:
                hs = new_world(tmp)
                try:
                    ref = run_game(self.bot_exe, self.replay_exe, tmp, hs)
                    check(ref.rc == 0, "the reference bot exited %s" % ref.rc)
                    self.result = bodies_by_room(ref)
                finally:
                    hs.shutdown()
        except BaseException as e:  # handed to rooms(), in the test's thread
            self.error = e
        self.seconds = time.monotonic() - t0

    def rooms(self):
        """The reference's bodies by room, once its game is over."""
        self.join()
        if self.error is not None:
            raise AssertionError("the reference game: %s: %s" % (
                type(self.error).__name__, self.error))
        return self.result


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t0 = time.monotonic()
    with workdir("pz-mx-game-") as tmp:
        hs = new_world(tmp)
        try:
            game = run_game(bot_exe, replay_exe, tmp, hs)
            check(game.rc == 0, "porrazo-bot exited %s:\n%s" % (game.rc, game.bot.log()[-2000:]))
            board, scores, nactions = check_outcome(game, bot_exe, replay_exe, game.db_path)
            mentioned = check_events(game)
            nauth = check_requests(hs)
            nmsgs, _ = check_transactions(hs, allow_repeats=False)
            nroom = check_room_order(game)
            dms = check_direct(game)
            hands = [b for r, ev in game.events if r in dms for b in [ev["content"]["body"]]
                     if b.startswith("Your hand")]
            check(not any("Your hand" in b for b in room_bodies(game, game.room)),
                  "a hand was shown in the room")
            check(len(hands) >= 3, "hands did not come privately")
            # Secrets never reach the log: the password, nor any token issued.
            log = game.bot.log()
            secrets = ["secret"] + [t for t in list(hs._tokens)]
            check(all(x not in log for x in secrets), "a secret is in the bot's log")
        finally:
            hs.shutdown()
    print("matrix game: 3 players, %d actions, %d bot events (%d in the room, %d hand messages in "
          "3 direct rooms), %d mentions of the player to move, %d authenticated requests "
          "all by header, 1 filter, final %s = replay %s, %.1f s" % (
              nactions, nmsgs, nroom, len(hands), mentioned, nauth, board, scores,
              time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
