#!/usr/bin/env python3
"""test_irc_drain.py -- a restart with a huge outbox and nobody speaking:
every message goes out, fairly, quickly, and the outbox ends empty.

The bot is started once on a real ngircd (so that it makes its database),
stopped, and its outbox is filled with python's sqlite3 the way the host
fills it (bot/store/store.c's schema): 40 channels the bot joins (16 configured,
the most a configuration takes, and 24 it was invited to: the adapter's
"invited" list in the kv table), 25 messages each, and 300 private
targets -- players whose nicks are connected clients ("n:NICK" ids) -- 28
messages each, the first of them a hand (priority 1); some messages are
long enough to take two lines. 9,400 rows: more than outq reads in one
turn (LOAD_MAX 8192), so the load goes on over several turns. The rows
are inserted round by round (every target's first message, then every
target's second...), as a busy host would queue them.

The bot is started again with no pacing (line_ms 0: ngircd here applies no
penalties) and nobody says a word. While it drains, another process holds
the database's write lock (sqlite3 BEGIN EXCLUSIVE; readers go on in WAL
mode): the bot sends from memory, cannot mark what it sent, says so once,
and marks it all in one go once the lock is released. Checks:
  * every message reaches its channel or player once, each target's
    messages in their order (hands first);
  * the order across targets, from the bot's own log of what it sent:
    hands first (outq may let one other message pass after every few hands,
    so no reply starves behind a deal: at most one per URGENT_RUN hands),
    then the channels' messages ahead of private ones (one private message
    after every ROOM_RUN channel messages, so neither starves), and round
    robin among the channels and among the players: between two messages
    to one target, no other target of its kind gets two;
  * while the lock is held nothing leaves the outbox and nothing is sent
    twice; the bot logs "cannot mark messages sent" once, then that it
    marks again; the outbox is empty soon after the lock goes;
  * the bot never reconnected, and the whole drain took a reasonable time.

The 300 players are one-thread Crowd connections (client.IRCClient's thread
per client would load a 2-core machine more than the bot does); the
channels are watched by one client.IRCClient.

usage: test_irc_drain.py BOT REPLAY
"""
import os
import re
import selectors
import socket
import sqlite3
import sys
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, check, scaled,  # noqa: E402
                     run_main, log, strip_formatting, BOT_NICK, NETWORK)
from client import Message  # noqa: E402

CHANNELS = ["#d%02d" % i for i in range(1, 41)]
CONFIGURED = CHANNELS[:16]  # config.c's CFG_LIST; the rest as invited channels
PLAYERS = ["p%03d" % i for i in range(1, 301)]
PER_CHANNEL = 25
PER_PLAYER = 28
LONG_EVERY = 9         # every 9th message is long: two lines
DRAIN_MAX_S = 30.0     # on an idle machine: about a second
URGENT_RUN = 4         # bot/outbox/outq.c's URGENT_RUN_MAX: hands taken before one other message
ROOM_RUN = 3           # bot/outbox/outq.c's ROOM_RUN_MAX: room messages before one private one


class Crowd:
    """Many plain IRC clients served by one thread: each registers as its
    nick, answers PING, and keeps every PRIVMSG/NOTICE it receives as
    (arrival time, text)."""

    CONNECTING_MAX = 8  # ngircd's listen backlog is short: a few at a time

    def __init__(self, host, port, nicks):
        self.host, self.port = host, port
        self.sel = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.got = {n: [] for n in nicks}
        self.todo = list(nicks)
        self.registered = set()
        self.closed = []
        self.stop = False
        self.conns = []
        self.thread = threading.Thread(target=self._run, daemon=True, name="crowd")
        self.thread.start()

    def _connect_more(self):
        """Starts connections (without blocking) while few are unregistered."""
        with self.lock:
            waiting = len(self.conns) - len(self.registered)
        while self.todo and waiting < self.CONNECTING_MAX:
            nick = self.todo.pop(0)
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            s.connect_ex((self.host, self.port))
            c = {"nick": nick, "sock": s, "in": b"",
                 "out": b"NICK %s\r\nUSER pz%s 0 * :crowd\r\n" % (nick.encode(), nick.encode())}
            self.conns.append(c)
            self.sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE, c)
            waiting += 1

    def _line(self, c, raw):
        m = Message(raw, 0, c["nick"])
        if m.command == "PING":
            c["out"] += b"PONG :" + (m.text.encode() if m.params else b"x") + b"\r\n"
        elif m.command in ("376", "422"):
            with self.lock:
                self.registered.add(c["nick"])
        elif m.command in ("PRIVMSG", "NOTICE") and m.to_me and m.nick == BOT_NICK:
            with self.lock:
                self.got[c["nick"]].append((m.time, m.text))

    def _run(self):
        while not self.stop:
            self._connect_more()
            for key, ev in self.sel.select(0.05):
                c = key.data
                s = c["sock"]
                if ev & selectors.EVENT_WRITE and c["out"]:
                    try:
                        n = s.send(c["out"])
                        c["out"] = c["out"][n:]
                    except (BlockingIOError, InterruptedError):
                        pass
                    except OSError as e:  # the connection failed
                        with self.lock:
                            self.closed.append("%s (%s)" % (c["nick"], e))
                        self.sel.unregister(s)
                        continue
                if ev & selectors.EVENT_READ:
                    try:
                        data = s.recv(65536)
                    except (BlockingIOError, InterruptedError):
                        data = None
                    except OSError:
                        data = b""
                    if data == b"":
                        with self.lock:
                            self.closed.append(c["nick"])
                        self.sel.unregister(s)
                        continue
                    if data:
                        c["in"] += data
                        while b"\n" in c["in"]:
                            raw, c["in"] = c["in"].split(b"\n", 1)
                            self._line(c, raw.rstrip(b"\r"))
                want = selectors.EVENT_READ | (selectors.EVENT_WRITE if c["out"] else 0)
                if key.events != want:
                    self.sel.modify(s, want, c)

    def wait_registered(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                done, closed = len(self.registered), list(self.closed)
            check(not closed, "crowd clients closed by the server: %s" % closed[:5])
            if done == len(self.got):
                return
            check(time.monotonic() < deadline, "only %d of %d crowd clients registered"
                  % (done, len(self.got)))
            time.sleep(0.05)

    def messages(self, nick):
        with self.lock:
            return list(self.got[nick])

    def close(self):
        self.stop = True
        self.thread.join(5)
        for c in self.conns:
            c["sock"].close()


def message_text(target, r, count):
    """The r-th message to target: "[target r]" first, "~r" last; every
    LONG_EVERY-th one long enough to be split over two lines."""
    filler = " ".join("w%02d" % (k % 100) for k in range(150 if r % LONG_EVERY == 4 else 6))
    return "[%s %d/%d] %s ~%d" % (target, r, count, filler, r)


def fill_outbox(db):
    """The invited channels, and the rows round by round; returns
    ({target: [text, ...]} in id order, the number of rows)."""
    want = {}
    rows = []
    now = int(time.time())
    for r in range(max(PER_CHANNEL, PER_PLAYER)):
        for ch in CHANNELS:
            if r < PER_CHANNEL:
                text = message_text(ch, r, PER_CHANNEL)
                rows.append((NETWORK, ch, 0, 0, text, now))
                want.setdefault(ch, []).append(text)
        for p in PLAYERS:
            if r < PER_PLAYER:
                text = message_text(p, r, PER_PLAYER)
                rows.append((NETWORK, "n:" + p, 1, 1 if r == 0 else 0, text, now))
                want.setdefault(p, []).append(text)
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT OR REPLACE INTO kv (scope, key, value) VALUES (?, 'invited', ?)",
                    ("irc:" + NETWORK, ",".join(CHANNELS[len(CONFIGURED):])))
        con.executemany("INSERT INTO outbox (network, target, kind, priority, text, created) "
                        "VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.close()
    return want, len(rows)


def outbox_count(db):
    con = sqlite3.connect(db, timeout=5)
    try:
        return con.execute("SELECT count(*) FROM outbox WHERE network = ?",
                           (NETWORK,)).fetchone()[0]
    finally:
        con.close()


def first_lines(got, target):
    """The messages' first lines among what target received: (time, r)."""
    out = []
    rx = re.compile(r"^\[%s (\d+)/\d+\] " % re.escape(target))
    for t, text in got:
        m = rx.match(strip_formatting(text))
        if m:
            out.append((t, int(m.group(1))))
    return out


def check_target(target, got, texts):
    """Every message of target arrived once, in order: its first line (the
    "[target r/n]" tag) and its last (the "~r" end), nothing else."""
    firsts = first_lines(got, target)
    rounds = [r for _, r in firsts]
    check(rounds == list(range(len(texts))),
          "%s received messages %s, wanted 0..%d in order" % (target, rounds, len(texts) - 1))
    ends = [int(m.group(1)) for _, text in got
            for m in [re.search(r" ~(\d+)$", strip_formatting(text))] if m]
    check(ends == rounds, "%s: the messages' last lines %s" % (target, ends))
    return len(got)


def sent_order(bot, since):
    """(target, r) of every message's first line, in the order the bot
    logged them."""
    rx = re.compile(r"^(?:PRIVMSG|NOTICE) (\S+) :\[(\S+) (\d+)/\d+\] ")
    return [(m.group(1), int(m.group(3))) for _, line in bot.sent(since)
            for m in [rx.match(line)] if m]


def check_hands_first(order):
    """Every hand (a player's message 0) goes before all but a few other
    messages: at most one other per URGENT_RUN hands before it. Returns
    the position of the last hand."""
    last = max(i for i, (t, r) in enumerate(order) if t in PLAYERS and r == 0)
    others = sum(1 for t, r in order[:last] if not (t in PLAYERS and r == 0))
    check(others <= len(PLAYERS) // URGENT_RUN + 1,
          "%d other messages went before the last hand" % others)
    return last


def check_rooms_first(order):
    """Among the messages that are not hands, once every channel is joined
    (its first message sent: before, a channel's messages wait for its
    JOIN while private ones go) and while channel messages are left: at
    most one private message after every ROOM_RUN channel messages, never
    two in a row. Returns the position of the last channel message among
    them."""
    rest = [t for t, r in order if not (t in PLAYERS and r == 0)]
    joined = max(rest.index(ch) for ch in CHANNELS)
    last = max(i for i, t in enumerate(rest) if t in CHANNELS)
    span = rest[joined:last + 1]
    private = sum(1 for t in span if t in PLAYERS)
    check(private <= (len(span) - private) // ROOM_RUN + 1,
          "%d private messages went among the last %d channel messages"
          % (private, len(span) - private))
    check(all(not (a in PLAYERS and b in PLAYERS) for a, b in zip(span, span[1:])),
          "two private messages in a row while channel messages waited")
    return last


def check_round_robin(order):
    """Among the messages that are not hands, for the channels and for the
    players apart: between two messages to one target, no other target of
    its kind gets two (each target in turn). Returns the longest turn seen
    (targets served between two messages to one)."""
    rest = [t for t, r in order if not (t in PLAYERS and r == 0)]
    return max(round_robin_turn([t for t in rest if t in kind]) for kind in (CHANNELS, PLAYERS))


def round_robin_turn(rest):
    """check_round_robin for the targets of one kind in their order."""
    # Some target got two between two messages to another exactly when the
    # span between two messages to one target lies inside such a span of
    # another: spans by start, none may end before one that started first.
    nxt, seen = [None] * len(rest), {}
    for k in range(len(rest) - 1, -1, -1):
        nxt[k] = seen.get(rest[k])
        seen[rest[k]] = k
    reach, outer, longest = -1, None, 0
    for k, end in enumerate(nxt):
        if end is None:
            continue
        check(end > reach, "round robin broken: %s got two messages (%d and %d) between two "
              "to %s" % (rest[k], k, end, outer))
        if end > reach:
            reach, outer = end, rest[k]
        longest = max(longest, end - k - 1)
    return longest


def main(bot_exe, replay_exe):
    with IRCd(max_joins=0) as server, Workdir() as work:
        conf = write_config(work.path("bot.conf"), server, channels=CONFIGURED, burst=20,
                            line_ms=0)
        db = work.path("drain.db")
        bot = BotProcess(bot_exe, conf, db, seed=1).start()
        crowd = None
        watch = None
        try:
            bot.wait_log(r"registered as %s" % BOT_NICK)
            check(bot.stop() == 0, "porrazo-bot did not stop cleanly")
            want, nrows = fill_outbox(db)
            log("%d rows queued for %d targets" % (nrows, len(want)))

            crowd = Crowd(server.host, server.port, PLAYERS)
            crowd.wait_registered(scaled(60))
            watch = server.client("watch")
            for ch in CHANNELS:
                watch.join(ch)

            mark = bot.mark()
            t0 = time.monotonic()
            bot.start()
            # Its start-up writes are done once it connects: lock it out.
            bot.wait_log(r"connecting to", since=mark)
            lock = sqlite3.connect(db, timeout=10, isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
            deadline = t0 + scaled(DRAIN_MAX_S) * 2
            while True:
                missing = [p for p in PLAYERS
                           if len(first_lines(crowd.messages(p), p)) < PER_PLAYER]
                room = [m for m in watch.history if m.command == "PRIVMSG"
                        and m.nick == BOT_NICK]
                missing += [ch for ch in CHANNELS
                            if len(first_lines([(m.time, m.text) for m in room
                                                if m.target == ch], ch)) < PER_CHANNEL]
                if not missing:
                    break
                check(time.monotonic() < deadline,
                      "after %.0f s, %d targets still miss messages (%s...); bot log:\n%s"
                      % (time.monotonic() - t0, len(missing), missing[:5], bot.tail(20)))
                time.sleep(0.1)
            last = max([t for p in PLAYERS for t, _ in crowd.messages(p)] +
                       [m.time for m in room])
            drain_s = last - t0
            registered = bot.find(r"registered as %s" % BOT_NICK, since=mark)[0].time - t0

            lines = 0
            for p in PLAYERS:
                lines += check_target(p, crowd.messages(p), want[p])
            for ch in CHANNELS:
                lines += check_target(ch, [(m.time, m.text) for m in room if m.target == ch],
                                      want[ch])
            # The order across targets, as sent (arrival times on 300
            # sockets cannot say).
            order = sent_order(bot, mark)
            check(len(order) == nrows, "%d messages logged as sent" % len(order))
            last_hand = check_hands_first(order)
            last_room = check_rooms_first(order)
            turn = check_round_robin(order)

            left = lock.execute("SELECT count(*) FROM outbox").fetchone()[0]
            check(left == nrows, "%d rows left the outbox under another's lock" % (nrows - left))
            time.sleep(1.5)  # a retry or two fail quietly
            lock.execute("ROLLBACK")
            lock.close()
            released = time.monotonic()
            deadline = time.monotonic() + scaled(10)
            while outbox_count(db) != 0:
                check(time.monotonic() < deadline, "%d rows left in the outbox"
                      % outbox_count(db))
                time.sleep(0.1)
            check(len(bot.find(r"registered as", since=mark)) == 1,
                  "the bot registered more than once")
            empty_s = time.monotonic() - released
            check(len(bot.find(r"warn: test: cannot mark messages sent", since=mark)) == 1,
                  "the failure to mark was not logged once:\n%s" % bot.text(mark)[-3000:])
            check(bot.find(r"the outbox is read and marked again", since=mark),
                  "the bot did not say it marks again")
            check(not bot.find(r"dropping|cannot send", since=mark),
                  "the bot dropped or failed something:\n%s" % bot.tail(20))
            check(drain_s < scaled(DRAIN_MAX_S), "the drain took %.1f s" % drain_s)
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
            # With -DPZ_SANITIZE=ON, a report of ASan, LSan or UBSan fails too.
            reports = bot.find(r"Sanitizer|runtime error")
            check(not reports, "sanitizer reports in the bot's log: %s" % reports[:3])
        finally:
            bot.cleanup()
            if crowd is not None:
                crowd.close()
            if watch is not None:
                watch.close()
        print("irc drain: %d messages (%d lines) to %d channels and %d players, registered "
              "after %.1f s, all delivered after %.1f s under another's write lock; the "
              "last hand was message %d, the channels' last message %d of the rest, round "
              "robin (turns of up to %d targets); outbox empty %.1f s after the lock went"
              % (nrows, lines, len(CHANNELS), len(PLAYERS), registered, drain_s, last_hand + 1,
                 last_room + 1, turn + 1, empty_s))


if __name__ == "__main__":
    run_main(main)
