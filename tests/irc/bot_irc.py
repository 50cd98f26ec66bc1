"""bot_irc.py -- shared helpers of the IRC end-to-end tests of porrazo-bot
(Python standard library only):

    from bot_irc import *
    with IRCd() as server, Workdir() as work:
        conf = write_config(work.path("bot.conf"), server, burst=20, line_ms=100)
        bot = BotProcess(BOT, conf, work.path("game.db"), seed=7).start()
        kib = server.client("kibitz"); kib.join("#porrazo")
        wait_bot_in_channel(kib, "porrazo", "#porrazo")
        game = IRCGame(server, bot, ["ann", "bob", "cat"], observer=kib)
        game.open("to 21")              # !new 3 to 21, !join...: dealt when full
        game.play_out(); game.finish()  # play until the game is over, final board
        check_scores_equal_replay(game, BOT, REPLAY, work.path("game.db"))

The game model is tests/bot/console_game.py's Table, fed with what the IRC
clients really receive, translated to the console's transcript lines:
  channel PRIVMSG from the bot      ->  "#console <porrazo> TEXT"
  PRIVMSG/NOTICE from the bot to P  ->  "-> P: TEXT"
(mIRC formatting stripped first). Its next_line() says what the player to act
types ("ann: !play 7h" in the channel, "ann> play 7h" privately).

Synchronisation does not rely on the order of lines across targets (the
bot's send queue is fair across targets and sends hands first): after an
action, the driver waits for the next status line in the channel ("... bob to
play", "Game over") or for a reply to the actor, then, when a card is to be
played, for a private hand of the actor that arrived after the action and
shows the same table as the status line.

Every wait is scaled by PZ_IRC_TIMEOUT (client.TIMEOUT, 30 s by default).
Set PZ_IRC_KEEP=1 to keep the temporary directories (bot log, config,
database, ngircd's log), PZ_IRC_DEBUG=1 to see every IRC line of the clients.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
BOT_TESTS = os.path.join(os.path.dirname(HERE), "bot")
for _p in (HERE, BOT_TESTS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import client as irc_client  # noqa: E402
from client import IRCError, IRCTimeout, Disconnected, same_name  # noqa: E402,F401
from ircd import IRCd, exit_on_sigterm  # noqa: E402,F401
import console_game as cg  # noqa: E402

TIMEOUT = irc_client.TIMEOUT
CHANNEL = "#porrazo"
BOT_NICK = "porrazo"
NETWORK = "test"

# mIRC formatting: colour (\x03 with up to two digits, a comma and two more),
# hex colour (\x04RRGGBB), bold, italics, underline, strike, monospace,
# reverse, reset.
_FORMAT = re.compile(r"\x03(?:\d{1,2}(?:,\d{1,2})?)?|\x04(?:[0-9A-Fa-f]{6}"
                     r"(?:,[0-9A-Fa-f]{6})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]")
CARD = cg.CARD
STATUS_RX = [rx for rx, _ in cg.STATUS]


def strip_formatting(text):
    """The text without mIRC colour and formatting codes."""
    return _FORMAT.sub("", text)


def scaled(seconds):
    """A wait of `seconds` on an idle machine, scaled like TIMEOUT (30 s)."""
    return seconds * TIMEOUT / 30.0


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class TestFailure(AssertionError):
    pass


def check(cond, what):
    if not cond:
        raise TestFailure(what)


# ---------------------------------------------------------------------------
# Temporary directory


class Workdir:
    """A temporary directory for the bot's config, database and log, removed
    at the end unless PZ_IRC_KEEP is set."""

    def __init__(self, prefix="pz-bot-irc-"):
        self.dir = tempfile.mkdtemp(prefix=prefix)

    def path(self, name):
        return os.path.join(self.dir, name)

    def cleanup(self):
        if os.environ.get("PZ_IRC_KEEP"):
            log("bot files kept in %s" % self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cleanup()
        return False


# ---------------------------------------------------------------------------
# The bot's configuration


def write_config(path, server, *, network=NETWORK, nick=BOT_NICK, channels=(CHANNEL,),
                 burst=20, line_ms=100, tls=False, port=None, ca_file=None,
                 owners=(), log_level="debug", reminder="off", private_notice=False,
                 no_colour=(), irc_extra=None, bot_extra=None, database=None,
                 prompt_after="off"):
    """Writes a porrazo-bot configuration with one [irc NETWORK] section on
    server (an IRCd) and returns path. irc_extra / bot_extra: more keys,
    {key: value} written as they are (e.g. {"sasl_password": "${PZ_X}"}).
    prompt_after "off" (the default here): the player to act is prompted
    privately at every turn, which the scripted players rely on; None: the
    bot's default (only players quiet for a while)."""
    # Scripted clients speak at machine speed: flood control is off unless
    # a test turns it on through bot_extra (test_irc_flooder.py).
    bot = {"name": "porrazo", "prefix": "!", "reminder": reminder,
           "log_level": log_level, "flood_commands": "0"}
    if prompt_after is not None:
        bot["prompt_after"] = prompt_after
    if database:
        bot["database"] = database
    if owners:
        bot["owners"] = ", ".join(owners)
    bot.update(bot_extra or {})
    irc = {"host": server.host,
           "port": port or (server.tls_port if tls else server.port),
           "tls": "true" if tls else "false",
           "nick": nick,
           "channels": ", ".join(channels),
           "private_notice": "true" if private_notice else "false"}
    if burst is not None:
        irc["burst"] = burst       # None: the default (4)
    if line_ms is not None:
        irc["line_ms"] = line_ms   # None: the default (1500)
    if ca_file:
        irc["ca_file"] = ca_file
    if no_colour:
        irc["no_colour"] = ", ".join(no_colour)
    irc.update(irc_extra or {})
    lines = ["# written by tests/irc/bot_irc.py", "[bot]"]
    lines += ["%s = %s" % kv for kv in bot.items()]
    lines += ["", "[irc %s]" % network]
    lines += ["%s = %s" % kv for kv in irc.items()]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


# ---------------------------------------------------------------------------
# The bot process


class LogLine:
    __slots__ = ("time", "text", "run")

    def __init__(self, t, text, run):
        self.time, self.text, self.run = t, text, run

    def __repr__(self):
        return "<%d %.3f %s>" % (self.run, self.time, self.text)


# "2026-11-21T10:00:00Z debug: test: >> PRIVMSG #porrazo :..."
_SENT = re.compile(r"^(\S+) debug: (\S+): >> (.*)$")
_RECEIVED = re.compile(r"^(\S+) debug: (\S+): << (.*)$")


class BotProcess:
    """porrazo-bot --config CONF --db DB [--seed N], its standard error read
    by a thread that stamps every line with time.monotonic() (and copies it
    to bot.log in the config's directory). Restartable: start() again after
    stop() or kill(); self.runs counts the starts, lines keep their run."""

    def __init__(self, exe, config, db, seed=None, env=None, extra_args=()):
        self.exe, self.config, self.db, self.seed = exe, config, db, seed
        self.env = dict(os.environ)
        self.env.update(env or {})
        self.extra_args = list(extra_args)
        self.proc = None
        self.runs = 0
        self.lines = []
        self._cond = threading.Condition()
        self._reader = None
        self.log_file = os.path.join(os.path.dirname(os.path.abspath(config)), "bot.log")
        self.exit_codes = []

    def args(self):
        a = [self.exe, "--config", self.config, "--db", self.db]
        if self.seed is not None:
            a += ["--seed", str(self.seed)]
        return a + self.extra_args

    def start(self):
        if self.running:
            raise RuntimeError("the bot is already running")
        self.runs += 1
        with open(self.log_file, "a") as f:
            f.write("==== bot_irc: starting porrazo-bot (run %d): %s ====\n"
                    % (self.runs, " ".join(self.args())))
        self.proc = subprocess.Popen(self.args(), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env=self.env, close_fds=True)
        self._reader = threading.Thread(target=self._read, args=(self.proc, self.runs),
                                        daemon=True, name="bot-stderr-%d" % self.runs)
        self._reader.start()
        return self

    def _read(self, proc, run):
        with open(self.log_file, "ab") as copy:
            for raw in iter(proc.stderr.readline, b""):
                t = time.monotonic()
                copy.write(raw)
                copy.flush()
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                with self._cond:
                    self.lines.append(LogLine(t, text, run))
                    self._cond.notify_all()
        proc.stderr.close()

    @property
    def running(self):
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def _reap(self, timeout):
        rc = self.proc.wait(timeout)
        if self._reader is not None:
            self._reader.join(timeout)
        self.exit_codes.append(rc)
        return rc

    def stop(self, timeout=None):
        """SIGTERM (the bot says QUIT and exits); returns the exit status
        (SIGKILL after timeout, then the status is negative)."""
        if self.proc is None:
            return None
        timeout = TIMEOUT if timeout is None else timeout
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self._reap(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self._reap(timeout)
            raise TestFailure("porrazo-bot did not exit within %.0f s of SIGTERM" % timeout)

    def kill(self):
        """SIGKILL: no goodbye."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        return self._reap(TIMEOUT)

    def cleanup(self):
        if self.running:
            try:
                self.stop(5)
            except TestFailure:
                pass

    # -- the log ------------------------------------------------------------

    def mark(self):
        with self._cond:
            return len(self.lines)

    def text(self, since=0):
        with self._cond:
            return "\n".join(l.text for l in self.lines[since:])

    def tail(self, n=40):
        with self._cond:
            return "\n".join(l.text for l in self.lines[-n:])

    def find(self, pattern, since=0, run=None):
        rx = re.compile(pattern)
        with self._cond:
            return [l for l in self.lines[since:] if rx.search(l.text)
                    and (run is None or l.run == run)]

    def wait_log(self, pattern, since=0, timeout=None, dead_ok=False):
        """Waits for a log line (from index since) matching pattern; returns
        it. Fails early when the bot exits (unless dead_ok)."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        i = since
        with self._cond:
            while True:
                while i < len(self.lines):
                    if rx.search(self.lines[i].text):
                        return self.lines[i]
                    i += 1
                if not dead_ok and self.proc is not None and self.proc.poll() is not None \
                        and not (self._reader and self._reader.is_alive()):
                    raise TestFailure("porrazo-bot exited (%s) while waiting for /%s/ in "
                                      "its log:\n%s" % (self.proc.returncode, pattern,
                                                       self.tail()))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TestFailure("nothing matched /%s/ in the bot's log within %.0f s:"
                                      "\n%s" % (pattern, TIMEOUT if timeout is None
                                                else timeout, self.tail()))
                self._cond.wait(min(left, 0.5))

    def sent(self, since=0, commands=None):
        """(time, line) of every line the bot logged as sent (debug level),
        optionally only those whose command is in commands."""
        out = []
        with self._cond:
            lines = self.lines[since:]
        for l in lines:
            m = _SENT.match(l.text)
            if not m:
                continue
            line = m.group(3)
            if commands and line.split(" ", 1)[0].upper() not in commands:
                continue
            out.append((l, line))
        return out


def log_stamp_seconds(logline):
    """The whole UTC second of the bot's own timestamp of a log line."""
    stamp = logline.text.split(" ", 1)[0]
    return int(time.mktime(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")))


# ---------------------------------------------------------------------------
# IRC helpers


def wait_bot_in_channel(c, nick=BOT_NICK, channel=CHANNEL, since=None, timeout=None):
    """Waits until nick is in channel as client c (itself in the channel)
    sees it: a JOIN since `since` (default: c's current connection), else
    NAMES asked every few seconds. Returns the seconds waited."""
    start = time.monotonic()
    deadline = start + (TIMEOUT if timeout is None else timeout)
    next_names = start
    names_mark = None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TestFailure("%s did not see %s in %s within %.0f s" %
                              (c.name, nick, channel, time.monotonic() - start))
        if c.find("JOIN", sender=nick, target=channel, since=since):
            return time.monotonic() - start
        if names_mark is not None:
            for m in c.find("353", since=names_mark):
                if same_name(m.params[-2] if len(m.params) >= 2 else "", channel) and any(
                        same_name(n.lstrip("@+%~&"), nick) for n in m.text.split()):
                    return time.monotonic() - start
        if time.monotonic() >= next_names:
            names_mark = c.mark()
            c.send("NAMES " + channel)
            next_names = time.monotonic() + 3
        try:
            c.wait_for("JOIN", sender=nick, target=channel, since=since, consume=False,
                       timeout=min(0.5, max(0.05, left)))
        except IRCTimeout:
            pass


def bot_lines(c, since=None, channel=None, private=None, bot=BOT_NICK):
    """Messages from the bot that client c received: in a channel (channel=
    name), privately (private=True), or both."""
    out = []
    for m in c.find(("PRIVMSG", "NOTICE"), sender=bot, since=since if since is not None else 0):
        if channel is not None and same_name(m.target, channel):
            out.append(m)
        elif private and m.to_me:
            out.append(m)
    return out


def ngircd_registrations(server, nick=BOT_NICK):
    """How many times nick registered with the server (ngircd's log)."""
    return len(re.findall(r'User "%s!' % re.escape(nick), server.log()))


def make_player(server, nick, channel=CHANNEL, tls=False):
    c = server.client(nick, tls=tls)
    c.join(channel)
    return c


# ---------------------------------------------------------------------------
# A game played over IRC


def hand_cards(text):
    """The cards and the table of a "Your hand" message or a "Your turn"
    prompt: (deal, hand, table), or None."""
    m = re.match(r"Your hand in \S+ \(deal (\d+) of \d+\): (.*)$", text)
    p = None if m else re.match(
        r"(?:Reminder: )?Your turn in \S+ \(deal (\d+) of \d+\)"
        r"(?: — since your last play: .*? —)? hand (.*)$", text)
    if not m and not p:
        d = re.match(r"(?:Reminder: )?Your turn in \S+ \(deal (\d+) of \d+\).* you deal: "
                     r"choose the tendido first", text)
        if d:
            return int(d.group(1)), [], None  # the dealer's hand waits for the choice (R4.2)
        return None
    deal, rest = (int(m.group(1)), m.group(2)) if m else (int(p.group(1)), p.group(2))
    parts = rest.split(" · ")
    hand = re.findall(CARD, parts[0])
    table = None
    for part in parts[1:]:
        if part.startswith("table "):
            table = re.findall(CARD, part[len("table "):])
    return deal, hand, table


def status_table(text):
    """The table cards of the state at the end of a line ("... · table 3♠
    J♦ · bob to play", "ann: table empty · bob to play")."""
    found = None
    for m in re.finditer(r"(?:^|· |: )table ([^·]*)", text):
        found = re.findall(CARD, m.group(1))
    return found


def is_status(text):
    return any(rx.search(text) for rx in STATUS_RX) or "game over: " in text


def is_game_end(text):
    return "game over: " in text or "\U0001F3C6" in text


class Event:
    """One message from the bot as the game model sees it."""
    __slots__ = ("time", "kind", "nick", "text", "msg", "seq")

    def __init__(self, t, kind, nick, text, msg, seq):
        self.time, self.kind, self.nick, self.text, self.msg, self.seq = \
            t, kind, nick, text, msg, seq

    def line(self):
        if self.kind == "room":
            return "#console <%s> %s" % (BOT_NICK, self.text)
        return "-> %s: %s" % (self.nick, self.text)

    def __repr__(self):
        return "<Event %d %.3f %s>" % (self.seq, self.time, self.line())


class IRCGame:
    """Scripted players on IRC, each an IRCClient in the channel, and one
    observer (not a player) whose view of the channel is the transcript.

    players: list of nicks (clients made here) or {nick: IRCClient}."""

    def __init__(self, server, bot, players, observer, channel=CHANNEL, bot_nick=BOT_NICK,
                 tls=False):
        self.server, self.bot, self.channel, self.bot_nick = server, bot, channel, bot_nick
        self.observer = observer
        if isinstance(players, dict):
            self.clients = dict(players)
        else:
            self.clients = {}
            for p in players:
                self.clients[p] = make_player(server, p, channel, tls=tls)
        self.nicks = list(self.clients)            # current nicks, in seat order
        self.first_nick = {p: p for p in self.nicks}
        self.table = cg.Table(list(self.nicks))
        self.events = []                           # every Event, in the order seen
        self._cursor = {}                          # id(client) -> next history index
        self._observer_cursor = 0
        self.step = 0
        self.actions = 0                           # accepted actions
        self.choices = 0                           # R5.5 "capture or place" questions
        self.deal_lines = []                       # Events of "Deal N of M"
        self.robot_moves = 0                       # statuses waited for a computer player
        self.timeout = TIMEOUT                     # default wait of the game's steps

    # -- the model ------------------------------------------------------------

    def client(self, nick):
        return self.clients[nick]

    def pump(self):
        """Moves every new message from the bot (observer: channel; players:
        private) into the model, in arrival order."""
        fresh = []
        obs = self.observer
        with obs._cond:
            hist = obs.history
            n = len(hist)
            for i in range(self._observer_cursor, n):
                m = hist[i]
                if m.command == "PRIVMSG" and same_name(m.nick, self.bot_nick) \
                        and same_name(m.target, self.channel):
                    fresh.append((m.time, "room", None, m))
            self._observer_cursor = n
        for nick, c in self.clients.items():
            with c._cond:
                hist = c.history
                n = len(hist)
                for i in range(self._cursor.get(id(c), 0), n):
                    m = hist[i]
                    if m.command in ("PRIVMSG", "NOTICE") and same_name(m.nick, self.bot_nick) \
                            and m.to_me:
                        fresh.append((m.time, "private", nick, m))
                self._cursor[id(c)] = n
        fresh.sort(key=lambda x: x[0])
        for t, kind, nick, m in fresh:
            text = strip_formatting(m.text)
            if kind == "private" and text.startswith("\x01"):
                continue  # a CTCP reply is not game news
            ev = Event(t, kind, nick, text, m, len(self.events))
            self.events.append(ev)
            if kind == "room" and re.search(r"(?i)(?:^|· |New hand: )deal \d+ of \d+", text):
                self.deal_lines.append(ev)
            self.table.read([ev.line()])
        return len(fresh)

    def mark(self):
        self.pump()
        return len(self.events)

    def wait(self, pred, what, since, timeout=None, poll=0.02):
        """Waits until pred(event) holds for an Event from index since on;
        returns it."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        i = since
        while True:
            self.pump()
            while i < len(self.events):
                if pred(self.events[i]):
                    return self.events[i]
                i += 1
            if self.bot is not None and self.bot.proc is not None and not self.bot.running:
                raise TestFailure("porrazo-bot died (%s) while waiting for %s:\n%s"
                                  % (self.bot.proc.returncode, what, self.bot.tail()))
            if time.monotonic() > deadline:
                raise TestFailure("waited %.0f s for %s; last messages:\n  %s\nbot log:\n%s"
                                  % (timeout, what,
                                     "\n  ".join(e.line() for e in self.events[-12:]),
                                     self.bot.tail(25) if self.bot else ""))
            time.sleep(poll)

    # -- speaking -------------------------------------------------------------

    def say(self, line):
        """A console line "nick: text" (channel) or "nick> text" (private)."""
        m = re.match(r"(\S+?)(:|>) (.*)$", line)
        nick, where, text = m.group(1), m.group(2), m.group(3)
        c = self.clients[nick]
        if where == ":":
            c.privmsg(self.channel, text)
        else:
            c.privmsg(self.bot_nick, text)
        return nick

    def open(self, options="", creator=None, robots=0):
        """!new N OPTIONS by the first player, !join by the others, then
        "!addbot ROBOTS" when computer players take seats too; waits for
        each seat and for the deal (the game starts when full)."""
        players = list(self.nicks)
        n = len(players) + robots
        mark = self.mark()
        self.clients[players[0]].privmsg(self.channel, "!new %d %s" % (n, options))
        self.wait(lambda e: e.kind == "room" and "opens a Porrazo table" in e.text,
                  "the table to open", mark)
        for p in players[1:]:
            mark = self.mark()
            self.clients[p].privmsg(self.channel, "!join")
            self.wait(lambda e, p=p: e.kind == "room" and e.text.startswith(p + " sits down"),
                      "%s to sit down" % p, mark)
        if robots:
            mark = self.mark()
            self.clients[players[0]].privmsg(self.channel, "!addbot %d" % robots)
            self.wait(lambda e: e.kind == "room" and "sits down (%d of %d)" % (n, n) in e.text,
                      "the computer players to sit down", mark)
        outcome, e = self.await_status(mark, None)
        self.settle(mark, e)
        return e

    def is_reply_to(self, e, nick):
        """A reply to nick: in the channel "nick: ...", or a private message
        that is not a hand."""
        if e.kind == "room":
            return e.text.startswith(nick + ": ")
        return same_name(e.nick, nick) and not e.text.startswith(("Your hand", "Your turn", "Reminder: "))

    def is_a_reply(self, e):
        """A channel line answering one player ("ann: ..."), not news."""
        m = re.match(r"(\S+): ", e.text)
        return m is not None and any(same_name(m.group(1), n) for n in self.nicks)

    def await_status(self, mark, actor, timeout=None):
        """After an action by actor (or None) sent at mark: the next status
        line, or a reply to the actor. Returns ("status", Event),
        ("choice", Event) or ("refused", Event)."""
        def news(e):
            return e.kind == "room" and (is_status(e.text) or is_game_end(e.text)) \
                and not self.is_a_reply(e)

        def pred(e):
            return news(e) or (actor is not None and self.is_reply_to(e, actor))
        e = self.wait(pred, "the outcome of %s's action (step %d)" % (actor, self.step), mark,
                      timeout)
        if news(e):
            if is_game_end(e.text):
                self.table.over = True
            return "status", e
        if "can capture or be played in place" in e.text:
            return "choice", e
        return "refused", e

    def fresh_hand(self, nick, since, table, timeout=None):
        """Waits for a hand message to nick, from event since on, showing
        table (the status line's table) -- the bot sends the player to act
        its hand after every action."""
        def pred(e):
            if e.kind != "private" or not same_name(e.nick, nick):
                return False
            h = hand_cards(e.text)
            return h is not None and (table is None or h[2] == table)
        return self.wait(pred, "a fresh hand for %s (table %s)" % (nick, table), since, timeout)

    def settle(self, mark, status):
        """After a status line: waits for the hand of the player to act
        (the bot sends it after every action and at every deal) -- for a
        card to play, the one showing the table of the last status line
        read. That is status, or a later one: the model has read every line
        pumped so far, and a computer player's move may have come in the
        same pump as status (it moves at once), so the player to act and
        their hand are those after that move."""
        if self.table.over or not self.table.actor or self.table.robot_to_act():
            return
        last = status
        for e in self.events[status.seq + 1:]:
            if e.kind == "room" and is_status(e.text) and not self.is_a_reply(e):
                last = e
        table = status_table(last.text) if self.table.kind == "play" else None
        self.fresh_hand(self.table.actor, mark, table)

    def finish(self, sides=None, timeout=None):
        """After the game's end: waits for the final score board (sides
        lines after "Score — first to"). Returns the board."""
        sides = sides or len(self.nicks)
        end = self.wait(lambda e: e.kind == "room" and is_game_end(e.text), "the game's end",
                        0, timeout)
        head = self.wait(lambda e: e.kind == "room" and e.text.startswith("Score — first to"),
                         "the final score board", end.seq, timeout)
        rx = re.compile(r"^(.+?)\s+\[[█░]+\] (\d+)$")
        got = []
        self.wait(lambda e: e.kind == "room" and rx.match(e.text) is not None
                  and (got.append(e) or len(got) >= sides), "the final board's lines",
                  head.seq + 1, timeout)
        self.table.over = True
        return self.board()

    def play_one(self):
        """One line of the player to act; returns its outcome. While a
        computer player is to act: waits for its move (the next status)."""
        mark = self.mark()
        if self.table.robot_to_act():
            outcome, e = self.await_status(mark, None)
            self.robot_moves += 1
            self.settle(mark, e)
            return outcome, None
        line = self.table.next_line(self.step)
        if line is None:
            raise TestFailure("nobody is told to act; last lines:\n  " +
                              "\n  ".join(self.table.transcript[-10:]))
        self.table.need_capture = False
        mark = self.mark()
        actor = self.say(line)
        self.step += 1
        outcome, e = self.await_status(mark, actor)
        if outcome == "status":
            self.actions += 1
            self.settle(mark, e)
        elif outcome == "choice":
            self.choices += 1
            self.table.need_capture = True
        else:
            raise TestFailure("the bot refused %r: %s" % (line, e.line()))
        return outcome, line

    def play_out(self, max_steps=5000, until=None):
        """Plays until the game is over (or until(self) is true)."""
        while not self.table.over:
            if until is not None and until(self):
                return
            self.play_one()
            if self.step > max_steps:
                raise TestFailure("the game did not end in %d steps" % max_steps)

    # -- renames and reconnections -------------------------------------------

    def renamed(self, old, new):
        """Follows a nick change of a player in the model."""
        c = self.clients.pop(old)
        self.clients[new] = c
        self.nicks = [new if n == old else n for n in self.nicks]
        self.first_nick[new] = self.first_nick.pop(old)
        t = self.table
        t.players = [new if n == old else n for n in t.players]
        t.hand[new] = t.hand.pop(old)
        t.deal_no[new] = t.deal_no.pop(old)
        if t.actor == old:
            t.actor = new

    def resync(self, timeout=None):
        """After the server restarted: the status asked with `turn` (the
        bot's messages may have been lost with the server), then the player
        to act asks for its hand. Call it when the bot had nothing left to
        send before the restart (lines still queued would come after)."""
        asker = self.nicks[0]
        m2 = self.mark()
        self.clients[asker].privmsg(self.bot_nick, "turn")
        e = self.wait(lambda e: e.kind == "private" and same_name(e.nick, asker)
                      and (is_status(e.text) or e.text.startswith("Game over")),
                      "%s's answer to turn" % asker, m2, timeout)
        self.table.public(e.text)
        if not self.table.over and self.table.actor:
            actor = self.table.actor
            m3 = self.mark()
            self.clients[actor].privmsg(self.bot_nick, "hand")
            self.fresh_hand(actor, m3, status_table(e.text) if self.table.kind == "play"
                            else None, timeout)
        return e

    def back_after_bot_restart(self, since, timeout=None):
        """After the bot restarted: waits for its "porrazo is back" line in
        the channel (it comes after any older line the bot still had to
        send), which says whose turn it is, then for that player's hand."""
        e = self.wait(lambda e: e.kind == "room" and e.text.startswith(self.bot_nick + " is back")
                      and is_status(e.text), "the bot's \"is back\" line", since, timeout)
        self.table.public(e.text)
        self.settle(since, e)
        return e

    def quiet(self, seconds, timeout=None):
        """Waits until the bot has said nothing to any of our clients for
        `seconds` (its queue is empty). Returns the seconds waited."""
        start = time.monotonic()
        deadline = start + (self.timeout if timeout is None else timeout)
        last = len(self.events)
        last_t = time.monotonic()
        while True:
            self.pump()
            if len(self.events) != last:
                last, last_t = len(self.events), time.monotonic()
            if time.monotonic() - last_t >= seconds:
                return time.monotonic() - start
            if time.monotonic() > deadline:
                raise TestFailure("the bot kept talking for %.0f s" % (deadline - start))
            time.sleep(0.05)

    # -- results --------------------------------------------------------------

    def room_texts(self):
        return [e.text for e in self.events if e.kind == "room"]

    def private_events(self, nick=None):
        return [e for e in self.events if e.kind == "private"
                and (nick is None or same_name(e.nick, nick))]

    def board(self):
        return cg.final_scores(self.table)


def replay(bot_exe, replay_exe, db, game_id=1, scenario_only=False):
    """(scenario text, final state) of game_id replayed by porrazo-replay
    (only the scenario text with scenario_only)."""
    scenario = subprocess.run([bot_exe, "--export", str(game_id), "--db", db], check=True,
                              capture_output=True, text=True, timeout=TIMEOUT).stdout
    if scenario_only:
        return scenario
    out = subprocess.run([replay_exe, "-"], input=scenario, check=True, capture_output=True,
                         text=True, timeout=TIMEOUT).stdout.splitlines()
    return scenario, json.loads(out[-1])


def check_scores_equal_replay(game, bot_exe, replay_exe, db):
    """The last board shown in the channel equals porrazo-replay's final
    scores on the exported game (seat order); returns (board, state)."""
    scenario, state = replay(bot_exe, replay_exe, db)
    check(state.get("phase") == "game_over",
          "the replay of the exported game does not end it: %s" % state.get("phase"))
    board = game.board()
    check(board, "no score board was shown in the channel")
    check(list(board.values()) == list(state["scores"]),
          "board %s differs from replay %s" % (board, state["scores"]))
    # The players' actions: the bot deals the next hand by itself.
    n_actions = sum(1 for a in json.loads(scenario).get("actions", []) if "seat" in a)
    return board, state, n_actions


def check_hands_at_every_deal(game):
    """Every player got a private hand for every deal: for the k-th "Deal d
    of M" line, a hand message of deal d arriving after the previous deal
    line and before the next one."""
    deals = game.deal_lines
    check(deals, "no deal was announced")
    for k, d in enumerate(deals):
        number = int(re.search(r"(?i)deal (\d+) of", d.text).group(1))
        lo = deals[k - 1].time if k > 0 else float("-inf")
        hi = deals[k + 1].time if k + 1 < len(deals) else float("inf")
        for nick in game.nicks:
            got = [e for e in game.private_events(nick)
                   if lo < e.time < hi and (hand_cards(e.text) or (None,))[0] == number]
            check(got, "%s got no hand for deal #%d (deal %d of the hand)" % (nick, k + 1, number))
    return len(deals)


def check_no_hand_in_channel(clients, channel=CHANNEL):
    """No channel line from the bot, as any of clients saw it, shows a hand."""
    n = 0
    for c in clients:
        for m in bot_lines(c, channel=channel):
            t = strip_formatting(m.text)
            n += 1
            check(not re.search(r"Your (?:hand|turn) in |[Yy]our hand:|\(your hand", t),
                  "a hand was shown in %s: %r" % (channel, t))
    return n


def check_private_only_to(bot, allowed, since=0, extra_ok=()):
    """Every PRIVMSG/NOTICE the bot logged to a nick went to one of allowed;
    returns the count."""
    allowed = {a.lower() for a in allowed}
    n = 0
    for l, line in bot.sent(since, commands=("PRIVMSG", "NOTICE")):
        target = line.split(" ", 2)[1]
        if target.startswith(("#", "&", "+", "!")):
            continue
        n += 1
        check(target.lower() in allowed or any(re.search(x, line) for x in extra_ok),
              "the bot sent to non-player %s: %s" % (target, line))
    return n


def check_pace(bot, burst, line_ms, since=0, slack_lines=1):
    """The lines the bot sent through its queue (PRIVMSG/NOTICE) respect the
    token bucket: in any span of t seconds at most burst + t/line + slack.
    Checked on our arrival stamps of its log lines and, independently of our
    stamping, on the bot's own whole-second stamps. Returns (lines, seconds,
    worst ratio count/allowed, fastest 10-line span)."""
    sent = [l for l, _ in bot.sent(since, commands=("PRIVMSG", "NOTICE"))]
    line_s = line_ms / 1000.0
    times = [l.time for l in sent]
    worst = 0.0
    n = len(times)
    for i in range(n):
        for j in range(i + 1, n):
            count = j - i + 1
            allowed = burst + (times[j] - times[i]) / line_s + slack_lines
            worst = max(worst, count / allowed)
            check(count <= allowed,
                  "%d lines in %.2f s (lines %d..%d): more than burst %d + rate 1/%.1f s"
                  % (count, times[j] - times[i], i, j, burst, line_s))
    secs = [log_stamp_seconds(l) for l in sent]
    for i in range(n):
        for j in range(i + 1, n):
            span = secs[j] - secs[i] + 1  # whole seconds, both ends included
            check(j - i + 1 <= burst + span / line_s + slack_lines,
                  "%d lines within the bot's stamps %d..%d s: over burst+rate"
                  % (j - i + 1, secs[i], secs[j]))
    fastest = min((times[i + 9] - times[i] for i in range(n - 9)), default=None)
    return n, (times[-1] - times[0]) if n > 1 else 0.0, worst, fastest


# ---------------------------------------------------------------------------
# Running a test script


def run_main(main, usage="BOT REPLAY"):
    """Runs main(bot_exe, replay_exe) with SIGTERM as KeyboardInterrupt;
    prints FAIL and exits 1 on an assertion, 0 otherwise."""
    exit_on_sigterm()
    if len(sys.argv) < 3:
        print("usage: %s %s" % (os.path.basename(sys.argv[0]), usage), file=sys.stderr)
        sys.exit(2)
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    for exe in (bot_exe, replay_exe):
        if not os.access(exe, os.X_OK):
            print("FAIL: %s is not an executable" % exe)
            sys.exit(1)
    started = time.monotonic()
    try:
        main(bot_exe, replay_exe)
    except (TestFailure, IRCError, AssertionError, subprocess.CalledProcessError) as e:
        traceback.print_exc()
        print("FAIL (%.1f s): %s: %s" % (time.monotonic() - started, type(e).__name__, e))
        sys.exit(1)
    print("ok (%.1f s)" % (time.monotonic() - started))
    sys.exit(0)
