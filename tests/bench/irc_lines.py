#!/usr/bin/env python3
"""irc_lines.py -- what players read on IRC, and how late: porrazo-bot's
channel and private lines per play, per turn and per deal, and the channel's
lag, measured on a real ngircd with its stock flood limits and the bot's
default pacing.

    python3 tests/bench/irc_lines.py --bot build/bin/porrazo-bot --scenario all
    python3 tests/bench/irc_lines.py --bot ... --scenario 4x5 --moves 60
    python3 tests/bench/irc_lines.py --bot ... --scenario smoke     # ctest

Each scenario starts its own ngircd on loopback (tests/irc/ircd.py with
MaxPenaltyTime left at ngircd's default, so its penalties apply to the bot
as on a real network) and its own porrazo-bot whose configuration names
only the server, the nick and the channels (no burst, no line_ms: the
default pacing; every [bot] key at its default but log_level = debug, which
only makes the bot log the lines it writes). The players are IRC clients
that know only what the bot tells them:
  * their hand from the private deal line ("Your hand in #c (deal d of n):
    CARDS ..."), or a turn prompt's "hand CARDS", or "(your hand: CARDS)";
    they remove the cards they play (a hand message older than a play
    cannot bring a played card back: the cards played in the deal are
    remembered);
  * the table and whose turn it is from the state part of the newest channel
    line ("... · NICK to play", "NICK (dealer) chooses ...", "NICK arranges
    the tendido ...", "Game over ...");
  * "capture or place?" (R5.5) is answered with "!play CARD capture";
  * the dealer says "!tendido later" at the first deal of a hand, "!tendido
    now" at later ones, and "!arrange best".
A player acts when the channel shows it is its turn (a state line received
after its game's previous command), but never before P seconds after its
game's previous command. Every command is said in the channel.

Scenarios: "1xP" one 2-player game, "2xP" two games at once (2 players
and 4 partners), "4xP" four games at once (2 players, 3 players, 4
partners "!new 4 partners", 8 players), for P = 5 and 2.5 s; "lang" a 2-
and a 3-player game in an English channel and the same two in a Spanish
one (lang_es) at once, P = 5 s, each Spanish game then printed beside its
English twin;
each runs until every game made --moves accepted moves (plays, tendido
choices, arrangements) or --duration seconds passed, then waits for the
bot to finish talking (at most --drain seconds).

Printed per scenario (and per game with --games):
  ch/play    the bot's channel lines from the first deal on (every line:
             plays, deals, scores, replies), per move: a card played, a
             tendido choice or an arrangement -- each a command the channel
             must show
  ch/card    the same lines per card played
  priv/turn  private lines other than the deal's hands, per move
  deal ch    channel lines of a deal (the "Deal d of n" line, score lines,
             and state-only lines before the deal's first move), per deal
  deal priv  private deal lines per player per deal
  lag        from a play command sent to the first channel line showing
             "NICK CARD" (median, p95, max); q1->q4 = the mean lag of the
             first quarter of plays, then of the last quarter (the lag grows
             when the second is well above the first)
  relay      how late ngircd relayed the bot's channel lines (its debug
             log's write stamp to the observer's arrival), p95
  deals s    each deal: from the command that triggers it (the last !join,
             or the deal's last play) to the last private hand received and
             the channel told ("deal d of n"), in order; the scenario's row
             shows the 8-player game's deals (the first one comes after the
             lobby's lines: every "sits down" is queued before it)
  link       registrations of the bot, ERROR/QUIT seen, reconnections in
             its log

The parsers (parse_channel, parse_private) read the new one-line format
("ann 7♥ takes 7♣ · bob 3♠ · table 3♠ J♦ · ann to play") and the older one
("ann plays 7♥ and takes 7♣." then "Table: 3♠ J♦ · ann to play");
tests/irc/test_irc_lines.py imports them.

Python standard library only; tests/irc/ircd.py, client.py and bot_irc.py
are used as they are. --keep keeps each scenario's files (bot log, config,
database, ngircd log). --json FILE writes every figure and sample.
"""
import argparse
import json
import os
import re
import statistics
import sys
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
IRC_TESTS = os.path.join(os.path.dirname(HERE), "irc")
if IRC_TESTS not in sys.path:
    sys.path.insert(0, IRC_TESTS)

from ircd import IRCd, exit_on_sigterm  # noqa: E402
from client import same_name  # noqa: E402
from bot_irc import (BotProcess, Workdir, strip_formatting,  # noqa: E402
                     wait_bot_in_channel, ngircd_registrations)

BOT_NICK = "porrazo"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]"
SUIT_LETTER = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}

# ---------------------------------------------------------------------------
# Reading the bot's lines


def cards_in(text):
    return re.findall(CARD, text)


def ascii_card(card):
    """'10♥' -> '10h' (what a player types)."""
    return card[:-1] + SUIT_LETTER[card[-1]]


def segments(text):
    return [s.strip() for s in text.split(" · ")]


# The game's lines in English or Spanish (a room "lang_es", issue 20).
_STATE_RX = [
    (re.compile(r"^(\S+) to play\b"), "play"),
    (re.compile(r"^(\S+) (?:\(dealer\) |deals and )chooses\b"), "tendido"),
    (re.compile(r"^(\S+) arranges the tendido"), "arrange"),
    (re.compile(r"^juega (\S+)$"), "play"),
    (re.compile(r"^(\S+) reparte y elige\b"), "tendido"),
    (re.compile(r"^(\S+) ordena el tendido"), "arrange"),
]
_TABLE_RX = re.compile(r"^(?:[Tt]able|mesa):? ?(.*)$")
_PLAY_RX = re.compile(r"^(\S+) (?:plays )?(" + CARD + r")(?![♣♦♥♠])")
_DEAL_RX = re.compile(r"(?i)\b(?:deal|reparto) (\d+) (?:of|de) (\d+)")
_SCORE_RX = re.compile(r"(?i)^score\b|\((?:to|a) \d+\)$|— (?:to|gana quien llegue a) \d+$")
_OVER_RX = re.compile(r"(?i)\bgame over\b|\U0001F3C6|\bwins? the game\b|fin de la partida|"
                      r"\bganan? la partida\b")
_HAND_RX = re.compile(r"(?i)\b(?:hand|mano):? (" + CARD + r"(?: " + CARD + r")*)")
_BOARD_RX = re.compile(r"^(.+?)\s+\[[█░]+\] (\d+)$")
_LOBBY_RX = re.compile(r"opens a Porrazo table|sits down|^Seats:|leaves the table|"
                       r"stands up|game is cancelled")


class Parsed:
    """One channel line, read: plays [(nick, card)], state (kind, actor,
    table) or None, deal (d, n) or None, reply_to, and flags."""
    __slots__ = ("text", "plays", "state", "deal", "reply_to", "score", "lobby", "over")

    def __repr__(self):
        return "<Parsed plays=%s state=%s deal=%s reply_to=%s>" % (
            self.plays, self.state, self.deal, self.reply_to)


def parse_channel(text, nicks):
    """Reads a channel line of the bot (formatting stripped) in a game whose
    players are nicks. A line "NICK: ..." is a reply to NICK: no plays nor
    state are read from it (it may quote an old state)."""
    p = Parsed()
    p.text = text
    p.plays, p.state, p.deal, p.reply_to = [], None, None, None
    p.score = p.lobby = p.over = False
    lower = {n.lower() for n in nicks}
    m = re.match(r"(\S+): ", text)
    if m and m.group(1).lower() in lower:
        p.reply_to = m.group(1)
        return p
    if _LOBBY_RX.search(text):
        p.lobby = True
    d = _DEAL_RX.search(text)
    if d:
        p.deal = (int(d.group(1)), int(d.group(2)))
    if _SCORE_RX.search(text) or _BOARD_RX.match(text):
        p.score = True
    table = None
    actor = kind = None
    for seg in segments(text):
        mp = _PLAY_RX.match(seg)
        if mp and mp.group(1).lower() in lower:
            p.plays.append((mp.group(1), mp.group(2)))
            continue
        mt = _TABLE_RX.match(seg)
        if mt:
            table = cards_in(mt.group(1))
            continue
        for rx, k in _STATE_RX:
            ms = rx.match(seg)
            if ms and ms.group(1).lower() in lower:
                actor, kind = ms.group(1), k
    if _OVER_RX.search(text):
        p.over = True
        kind, actor = "over", None
    if kind is not None:
        p.state = (kind, actor, table)
    return p


def parse_private(text):
    """A private line: (kind, cards, deal) where kind is "deal" (a hand of
    "(deal d of n)"), "hand" (a turn prompt's "hand ..." or "(your hand:
    ...)"), "choice" (capture or place?) or "other"; cards the hand (None
    when the line shows none); deal (d, n) or None."""
    m = re.search(r"\((?:deal|reparto) (\d+) (?:of|de) (\d+)\):\s*(.*)$", text)
    if m:
        first = m.group(3).split(" · ")[0]
        return "deal", cards_in(first), (int(m.group(1)), int(m.group(2)))
    hands = _HAND_RX.findall(text)      # a prompt's "hand 2♣ 5♦", "(your hand: ...)"
    if hands:
        return "hand", cards_in(hands[-1]), None
    if is_choice_question(text):
        return "choice", None, None
    return "other", None, None


def is_choice_question(text):
    return bool(re.search(r"capture or (?:be played )?(?:in )?place|capture or place",
                          text))


def stats(values):
    """(median, p95 nearest rank, max) or (None, None, None)."""
    v = sorted(values)
    if not v:
        return None, None, None
    return statistics.median(v), v[min(len(v) - 1, max(0, -(-95 * len(v) // 100) - 1))], v[-1]


# ---------------------------------------------------------------------------
# A game and its players


class Player:
    def __init__(self, nick, client):
        self.nick, self.client = nick, client
        self.hand = []
        self.played = set()      # cards played in the current deal
        self.deal_key = None     # (epoch, d) of the hand's deal
        self.epoch = 0
        self.last_d = 0
        self.seen_deals = set()
        self.hand_asked = 0.0

    def private(self, kind, cards, deal):
        """Takes a private hand line; returns True when it is a deal's hand
        (the first line of a new deal for this player)."""
        new_deal = False
        if kind == "deal":
            d = deal[0]
            if d < self.last_d:          # deal 1 of a new hand
                self.epoch += 1
            self.last_d = d
            key = (self.epoch, d)
            if key != self.deal_key:
                self.deal_key = key
                self.played = set()
            if key not in self.seen_deals:
                self.seen_deals.add(key)
                new_deal = True
        if cards is not None and kind in ("deal", "hand"):
            self.hand = [c for c in cards if c not in self.played]
        return new_deal


class Game:
    """One table: its channel, players (seat order = join order), and
    everything seen and said."""

    def __init__(self, channel, n, options, nicks, pace, max_moves, joins_one_by_one=False):
        self.channel, self.n, self.options = channel, n, options
        self.joins_one_by_one = joins_one_by_one
        self.joined = 0
        self.nicks = nicks
        self.pace, self.max_moves = pace, max_moves
        self.players = {}
        self.phase = "idle"        # idle, opening, joining, playing, over, done
        self.state = None          # (kind, actor, table) of the newest state line
        self.state_seq = -1
        self.acted_seq = -1        # state_seq when the last command was said
        self.last_cmd = -1e9
        self.pending = None        # the command waiting for its evidence
        self.moves = 0
        self.plays = 0
        self.refusals = 0
        self.unconfirmed = 0
        self.questions = 0
        self.hand_requests = 0
        self.cmds = []             # every command said
        self.chan = []             # (time, Parsed)
        self.priv = []             # (time, nick, kind, text, is_deal_hand)
        self.deal_no = 1
        self.started_at = None     # first deal line seen
        self.join_sent = None
        self.log = []

    def label(self):
        return "%dp%s%s" % (self.n, " partners" if "partners" in self.options else "",
                             " es" if self.channel.endswith("es") else "")

    def say(self, nick, text, kind, **extra):
        t = time.monotonic()
        self.players[nick].client.privmsg(self.channel, text)
        cmd = dict(t=t, nick=nick, text=text, kind=kind, state=self.state, **extra)
        self.cmds.append(cmd)
        if kind in ("play", "tendido", "arrange", "new", "join"):
            self.last_cmd = t
        return cmd

    # -- what the bot says -------------------------------------------------

    def on_channel(self, t, text):
        p = parse_channel(text, self.nicks)
        self.chan.append((t, p))
        seq = len(self.chan) - 1
        if p.deal and self.started_at is None:
            self.started_at = t
        if p.deal:
            self.deal_no = p.deal[0]
        pend = self.pending
        if p.reply_to is not None:
            if pend and same_name(p.reply_to, pend["nick"]):
                self.on_reply(t, pend, text[len(p.reply_to) + 2:])
            return
        if self.phase == "opening" and pend and pend["kind"] == "new" \
                and pend["nick"] in text:
            self.confirm(t, pend)
            self.phase = "joining"
            self.joined = 0
        if self.phase == "joining" and pend and pend["kind"] == "join" \
                and pend["nick"] in text:
            self.confirm(t, pend)
        if pend and pend["kind"] == "play" and (pend["nick"].lower(), pend["card"]) in \
                [(n.lower(), c) for n, c in p.plays]:
            pl = self.players[pend["nick"]]
            if pend["card"] in pl.hand:
                pl.hand.remove(pend["card"])
            pl.played.add(pend["card"])
            self.plays += 1
            self.moves += 1
            self.confirm(t, pend)
        if p.state is not None:
            if pend and pend["kind"] in ("tendido", "arrange") and pend["state"] is not None \
                    and p.state[:2] != pend["state"][:2]:
                self.moves += 1
                self.confirm(t, pend)
            if pend and pend["kind"] == "join" and self.phase == "joined":
                self.confirm(t, pend)
            self.state = p.state
            self.state_seq = seq
            if self.phase == "joined":
                self.phase = "playing"
            if p.state[0] == "over":
                self.phase = "over"

    def on_private(self, t, nick, text):
        kind, cards, deal = parse_private(text)
        pl = self.players[nick]
        is_deal = pl.private(kind, cards, deal)
        self.priv.append((t, nick, kind, text, is_deal))
        pend = self.pending
        if pend and same_name(pend["nick"], nick) and (
                kind == "choice" or "you hold no " in text
                or (kind == "other" and not text.startswith("Your turn"))):
            self.on_reply(t, pend, text)

    def on_reply(self, t, pend, text):
        """A reply to the player whose command waits for its outcome."""
        if pend["kind"] == "play" and is_choice_question(text):
            self.questions += 1
            pend["refused"] = "asked: capture or place?"
            cmd = self.say(pend["nick"], "!play %s capture" % ascii_card(pend["card"]),
                           "play", card=pend["card"])
            self.pending = cmd
            return
        if pend["kind"] in ("play", "tendido", "arrange", "new", "join"):
            self.refusals += 1
            pend["refused"] = text
            self.pending = None
            self.acted_seq = -1
            self.log.append("refused %r: %s" % (pend["text"], text))

    def confirm(self, t, pend):
        pend["shown"] = t
        pend["lag"] = t - pend["t"]
        self.pending = None

    # -- what the players do -----------------------------------------------

    def step(self, now, drain_timeout):
        """Says the next command if it is time. Returns True once done."""
        if self.pending is not None:
            if now - self.pending["t"] > drain_timeout:
                self.unconfirmed += 1
                self.log.append("no evidence of %r after %.0f s"
                                % (self.pending["text"], drain_timeout))
                self.pending = None
                self.acted_seq = -1
            return False
        if self.moves >= self.max_moves or self.phase == "done":
            return True
        creator = self.nicks[0]
        if self.phase in ("idle", "over"):
            if now < self.last_cmd + max(self.pace, 2.0):
                return False
            self.phase = "opening"
            self.pending = self.say(creator, "!new %d %s" % (self.n, self.options), "new")
            return False
        if self.phase == "joining":
            # every other player joins (at once, or each after the bot
            # named the previous one); the last !join deals
            while self.joined < len(self.nicks) - 1:
                self.joined += 1
                cmd = self.say(self.nicks[self.joined], "!join", "join")
                self.pending = cmd
                if self.joins_one_by_one and self.joined < len(self.nicks) - 1:
                    return False
            self.join_sent = cmd["t"]
            self.phase = "joined"
            return False
        if self.phase != "playing" or self.state is None:
            return False
        if self.state_seq <= self.acted_seq or now < self.last_cmd + self.pace:
            return False
        kind, actor, _table = self.state
        if actor is None or actor not in self.players:
            return False
        pl = self.players[actor]
        if kind == "tendido":
            word = "later" if self.deal_no <= 1 else "now"
            self.pending = self.say(actor, "!tendido " + word, "tendido")
        elif kind == "arrange":
            self.pending = self.say(actor, "!arrange best", "arrange")
        elif kind == "play":
            if not pl.hand:
                if now - pl.hand_asked > 10:
                    pl.hand_asked = now
                    self.hand_requests += 1
                    pl.client.privmsg(BOT_NICK, "hand " + self.channel)
                return False
            card = pl.hand[0]
            self.pending = self.say(actor, "!play " + ascii_card(card), "play", card=card)
        else:
            return False
        self.acted_seq = self.state_seq
        return False


# ---------------------------------------------------------------------------
# Running a scenario


def write_bot_config(path, server, channels):
    """Only what must be said: the server, the nick, the channels (and the
    Spanish ones, "lang_es": those of the games "...es"). Pacing, flood
    control and reminders stay at their defaults."""
    spanish = [c for c in channels if c.endswith("es")]
    with open(path, "w") as f:
        f.write("# written by tests/bench/irc_lines.py: defaults but the log level\n"
                "[bot]\nlog_level = debug\n\n"
                "[irc bench]\nhost = %s\nport = %d\ntls = false\nnick = %s\n"
                "channels = %s\n" % (server.host, server.port, BOT_NICK, ", ".join(channels)))
        if spanish:
            f.write("lang_es = %s\n" % ", ".join(spanish))
    return path


# "3es": a 3-player game in a Spanish channel (its name ends in "es").
GAME_KINDS = {
    "2": (2, ""), "3": (3, ""), "4p": (4, "partners"), "8": (8, ""),
    "2es": (2, ""), "3es": (3, ""),
}


def make_games(kinds, pace, max_moves):
    games = []
    for g, kind in enumerate(kinds, 1):
        n, options = GAME_KINDS[kind]
        channel = "#g%d_%s" % (g, kind)
        nicks = ["%s%d" % (NAMES[i], g) for i in range(n)]
        games.append(Game(channel, n, options, nicks, pace, max_moves))
    return games


class Pump:
    """Moves the bot's lines from the clients' histories into the games, in
    arrival order: the observer's channel lines and each player's private
    lines."""

    def __init__(self, observer, games):
        self.observer, self.games = observer, games
        self.by_channel = {g.channel.lower(): g for g in games}
        self.by_nick = {}
        for g in games:
            for nick, pl in g.players.items():
                self.by_nick[nick.lower()] = (g, pl)
        self.cursor = {}
        self.bot_events = []       # QUIT/ERROR/JOIN of the bot seen by the observer

    def _new(self, c):
        with c._cond:
            start = self.cursor.get(id(c), c._conn_start)
            hist = c.history[start:]
            self.cursor[id(c)] = len(c.history)
        return hist

    def run(self):
        fresh = []
        for m in self._new(self.observer):
            if not same_name(m.nick, BOT_NICK):
                continue
            if m.command == "PRIVMSG" and m.target and m.target.lower() in self.by_channel:
                fresh.append((m.time, "room", m.target.lower(), m))
            elif m.command in ("QUIT", "ERROR", "JOIN", "PART", "KICK"):
                self.bot_events.append((m.time, m.line))
        for nick, (g, pl) in self.by_nick.items():
            for m in self._new(pl.client):
                if m.command in ("PRIVMSG", "NOTICE") and same_name(m.nick, BOT_NICK) \
                        and m.to_me:
                    fresh.append((m.time, "private", nick, m))
        fresh.sort(key=lambda x: x[0])
        for t, kind, key, m in fresh:
            text = strip_formatting(m.text)
            if kind == "room":
                self.by_channel[key].on_channel(t, text)
            else:
                g, pl = self.by_nick[key]
                if not text.startswith("\x01"):
                    g.on_private(t, pl.nick, text)
        return len(fresh)


def connect_all(server, nicks, channels_of):
    """Registers every client (in parallel: ngircd makes each wait ~1 s)
    and joins its channels."""
    clients, errors = {}, []

    def one(nick):
        try:
            c = server.client(nick, timeout=60)
            for ch in channels_of(nick):
                c.join(ch, timeout=60)
            clients[nick] = c
        except Exception as e:  # noqa: BLE001 -- reported below
            errors.append("%s: %s" % (nick, e))
    threads = [threading.Thread(target=one, args=(n,)) for n in nicks]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors:
        raise RuntimeError("clients could not connect: " + "; ".join(errors))
    return clients


def run_scenario(name, kinds, pace, args):
    """Plays one scenario; returns its results (dict)."""
    games = make_games(kinds, pace, args.moves)
    channels = [g.channel for g in games]
    t_start = time.monotonic()
    with IRCd(max_penalty_time=None, max_joins=len(channels) + 2) as server, \
            Workdir(prefix="pz-irc-lines-") as work:
        if args.keep:
            os.environ["PZ_IRC_KEEP"] = "1"
        conf = write_bot_config(work.path("bot.conf"), server, channels)
        db = work.path("bench.db")
        observer = connect_all(server, ["watch"], lambda n: channels)["watch"]
        bot = BotProcess(args.bot, conf, db, seed=args.seed).start()
        try:
            for ch in channels:
                wait_bot_in_channel(observer, BOT_NICK, ch, timeout=60)
            everyone = [n for g in games for n in g.nicks]
            chan_of = {n: g.channel for g in games for n in g.nicks}
            clients = connect_all(server, everyone, lambda n: [chan_of[n]])
            for g in games:
                for nick in g.nicks:
                    g.players[nick] = Player(nick, clients[nick])
            pump = Pump(observer, games)
            pump.run()
            t_play = time.monotonic()
            deadline = t_play + args.duration
            while True:
                pump.run()
                now = time.monotonic()
                done = [g.step(now, args.drain) for g in games]
                if all(done) or now > deadline:
                    break
                if not bot.running:
                    raise RuntimeError("porrazo-bot exited (%s):\n%s"
                                       % (bot.proc.returncode, bot.tail()))
                time.sleep(0.01)
            t_stop_cmds = time.monotonic()
            # The bot finishes talking: every command's evidence, then quiet.
            last_event = time.monotonic()
            end = time.monotonic() + args.drain
            while time.monotonic() < end:
                if pump.run():
                    last_event = time.monotonic()
                if all(g.pending is None or g.pending["kind"] not in ("play", "tendido",
                                                                      "arrange")
                       for g in games) and time.monotonic() - last_event > args.quiet:
                    break
                time.sleep(0.05)
            t_end = time.monotonic()
            sent = bot.sent(commands=("PRIVMSG", "NOTICE"))
            relinks = bot.find(r"connecting again|disconnected|closing the link|"
                               r"reconnect", since=0)
            regs = ngircd_registrations(server)
            ngircd_flood = [l for l in server.log().splitlines() if re.search(
                r"flood|penalty|Excess|too long", l, re.I)]
        finally:
            bot.cleanup()
        for c in list(clients.values()) + [observer]:
            c.close()
    res = analyse(name, games, pace, sent, observer_events=pump.bot_events)
    res.update(dict(wall_s=round(t_end - t_start, 1), play_s=round(t_stop_cmds - t_play, 1),
                    drain_s=round(t_end - t_stop_cmds, 1), registrations=regs,
                    relinks=[l.text for l in relinks], ngircd_flood_log=ngircd_flood))
    return res


# ---------------------------------------------------------------------------
# Figures


def classify_channel(g):
    """Counts a game's channel lines from its first deal on: total, deal
    lines, replies; and the number of deals."""
    total = deal = replies = lobby = 0
    deals = 0
    deal_t = None        # the newest deal line, while no command followed it
    sent = sorted(c["t"] for c in g.cmds)
    for t, p in g.chan:
        if g.started_at is None or t < g.started_at or p.lobby:
            lobby += 1
            continue
        total += 1
        if p.reply_to:
            replies += 1
            continue
        if deal_t is not None and any(deal_t < x < t for x in sent):
            deal_t = None
        if p.deal:
            deals += 1
            deal += 1
            deal_t = t
        elif p.score or (deal_t is not None and not p.plays):
            deal += 1
    return dict(lines=total, deal_lines=deal, replies=replies, lobby_lines=lobby, deals=deals)


def deal_times(g):
    """For each "Deal d of n" line of g: seconds from the command that
    triggered it to the last private deal line and the deal line seen."""
    out = []
    for i, (t, p) in enumerate(g.chan):
        if not p.deal:
            continue
        before = [c for c in g.cmds if c["t"] < t and c["kind"] in ("play", "join", "tendido",
                                                                   "arrange")
                  and not c.get("refused")]
        if not before:
            continue
        trigger = before[-1]["t"]
        got = {}
        for (tp, nick, kind, text, is_deal) in g.priv:
            if tp > trigger and kind == "deal" and nick not in got \
                    and re.search(r"\((?:deal|reparto) %d (?:of|de)" % p.deal[0], text):
                got[nick] = tp
        done = max([t] + list(got.values()))
        out.append(dict(deal=p.deal[0], seconds=round(done - trigger, 2),
                        hands=len(got), players=g.n, channel_s=round(t - trigger, 2)))
    return out


def relay_lags(g, sent, t0=None):
    """ngircd's delay for the game's channel lines: the bot's write (its
    log line's arrival) to the observer's arrival, matched in order."""
    mine = [l.time for l, line in sent
            if line.split(" ", 2)[1].lower() == g.channel.lower()]
    seen = [t for t, _ in g.chan]
    return [b - a for a, b in zip(mine, seen)]


def game_figures(g, sent):
    c = classify_channel(g)
    plays = [x for x in g.cmds if x["kind"] == "play" and "lag" in x]
    lags = [x["lag"] for x in plays]
    other = [x["lag"] for x in g.cmds if x["kind"] in ("tendido", "arrange") and "lag" in x]
    q = max(1, len(lags) // 4)
    by_time = [x["lag"] for x in sorted(plays, key=lambda x: x["t"])]
    q1 = statistics.mean(by_time[:q]) if by_time else None
    q4 = statistics.mean(by_time[-q:]) if by_time else None
    priv_deal = sum(1 for x in g.priv if x[4])
    priv_other = len(g.priv) - priv_deal
    med, p95, mx = stats(lags)
    rl = relay_lags(g, sent)
    dts = deal_times(g)
    return dict(
        game=g.label(), channel=g.channel, pace_s=g.pace, moves=g.moves, plays=g.plays,
        questions=g.questions, refusals=g.refusals, unconfirmed=g.unconfirmed,
        hand_requests=g.hand_requests,
        channel_lines=c["lines"], lobby_lines=c["lobby_lines"], reply_lines=c["replies"],
        deals=c["deals"], deal_channel_lines=c["deal_lines"],
        channel_lines_per_play=round(c["lines"] / g.moves, 3) if g.moves else None,
        channel_lines_per_card_play=round(c["lines"] / g.plays, 3) if g.plays else None,
        private_lines=len(g.priv), private_deal_lines=priv_deal,
        private_lines_per_turn=round(priv_other / g.moves, 3) if g.moves else None,
        deal_lines_channel=round(c["deal_lines"] / c["deals"], 2) if c["deals"] else None,
        deal_lines_private=round(priv_deal / (c["deals"] * g.n), 2) if c["deals"] else None,
        lag_median=med, lag_p95=p95, lag_max=mx, lag_q1=q1, lag_q4=q4,
        other_lag_median=statistics.median(other) if other else None,
        relay_median=statistics.median(rl) if rl else None,
        relay_p95=stats(rl)[1], relay_max=stats(rl)[2],
        deal_times=dts, lags=[round(x, 3) for x in lags], log=g.log[:20])


def analyse(name, games, pace, sent, observer_events):
    per = [game_figures(g, sent) for g in games]
    lags = [x for f in per for x in f["lags"]]
    plays = sum(f["plays"] for f in per)
    moves = sum(f["moves"] for f in per)
    ch = sum(f["channel_lines"] for f in per)
    deals = sum(f["deals"] for f in per)
    priv_other = sum(f["private_lines"] - f["private_deal_lines"] for f in per)
    priv_deal = sum(f["private_deal_lines"] for f in per)
    seat_deals = sum(f["deals"] * g.n for f, g in zip(per, games))
    # lag growth over the whole scenario: plays ordered by send time
    allp = sorted((x["t"], x["lag"]) for g in games for x in g.cmds
                  if x["kind"] == "play" and "lag" in x)
    q = max(1, len(allp) // 4)
    q1 = statistics.mean([l for _, l in allp[:q]]) if allp else None
    q4 = statistics.mean([l for _, l in allp[-q:]]) if allp else None
    med, p95, mx = stats(lags)
    deal8 = [d for f in per if f["game"].startswith("8p") for d in f["deal_times"]]
    relay = [f["relay_p95"] for f in per if f["relay_p95"] is not None]
    return dict(
        scenario=name, games=len(games), pace_s=pace, moves=moves, plays=plays,
        channel_lines_per_play=round(ch / moves, 3) if moves else None,
        channel_lines_per_card_play=round(ch / plays, 3) if plays else None,
        private_lines_per_turn=round(priv_other / moves, 3) if moves else None,
        deal_lines_channel=round(sum(f["deal_channel_lines"] for f in per) / deals, 2)
        if deals else None,
        deal_lines_private=round(priv_deal / seat_deals, 2) if seat_deals else None,
        deals=deals, lag_median=med, lag_p95=p95, lag_max=mx, lag_q1=q1, lag_q4=q4,
        relay_p95=max(relay) if relay else None,
        deal8=deal8, refusals=sum(f["refusals"] for f in per),
        unconfirmed=sum(f["unconfirmed"] for f in per),
        questions=sum(f["questions"] for f in per),
        bot_events=[e for _, e in observer_events if not e.split(" ")[1:2] == ["JOIN"]],
        per_game=per)


def fmt(x, spec="%.2f"):
    return "-" if x is None else spec % x


def print_table(results, per_game=False, out=sys.stdout):
    head = ("scenario", "moves", "ch/play", "ch/card", "priv/turn", "deal ch", "deal priv",
            "lag med", "p95", "max", "q1->q4", "relay95", "deals s", "link")
    rows = []

    def row(label, r, link):
        d8 = r.get("deal8") or ([] if "deal_times" not in r else r["deal_times"])
        d8 = [d["seconds"] for d in d8] if d8 else []
        rows.append((label, "%d" % r["moves"], fmt(r["channel_lines_per_play"]),
                     fmt(r["channel_lines_per_card_play"]),
                     fmt(r["private_lines_per_turn"]), fmt(r["deal_lines_channel"], "%.1f"),
                     fmt(r["deal_lines_private"], "%.1f"), fmt(r["lag_median"]),
                     fmt(r["lag_p95"]), fmt(r["lag_max"]),
                     "%s->%s" % (fmt(r["lag_q1"], "%.1f"), fmt(r["lag_q4"], "%.1f")),
                     fmt(r["relay_p95"]),
                     "/".join("%.1f" % s for s in d8) if d8 else "-", link))
    for r in results:
        link = "%d reg%s%s" % (r["registrations"], ", %d relink" % len(r["relinks"])
                               if r["relinks"] else "",
                               ", " + "; ".join(r["bot_events"])[:40] if r["bot_events"] else "")
        row("%s P=%gs" % (r["scenario"], r["pace_s"]), r, link)
        if per_game and r["games"] > 1:
            for f in r["per_game"]:
                row("  " + f["game"], f, "")
    widths = [max(len(h), *(len(x[i]) for x in rows)) for i, h in enumerate(head)]
    line = "  ".join(h.ljust(w) for h, w in zip(head, widths))
    print(line, file=out)
    print("-" * len(line), file=out)
    for x in rows:
        print("  ".join(v.ljust(w) for v, w in zip(x, widths)), file=out)


SCENARIOS = {
    "1x5": (["2"], 5.0), "1x2.5": (["2"], 2.5),
    "2x5": (["2", "4p"], 5.0), "2x2.5": (["2", "4p"], 2.5),
    "4x5": (["2", "3", "4p", "8"], 5.0), "4x2.5": (["2", "3", "4p", "8"], 2.5),
    # the same games side by side in an English and a Spanish channel
    "lang": (["2", "2es", "3", "3es"], 5.0),
}


def print_languages(r):
    """Each Spanish game beside its English twin of the same run: channel
    lines per move and the lag's p95, with their ratios (issue 20: at most
    1.05 lines per move, a p95 within 10%)."""
    games = {f["game"]: f for f in r["per_game"]}
    for name, es in sorted(games.items()):
        en = games.get(name[:-3]) if name.endswith(" es") else None
        if en is None or not es["channel_lines_per_play"] or not en["channel_lines_per_play"]:
            continue
        print("%s: Spanish %.3f lines/move, lag p95 %s s; English %.3f, %s s; ratio lines %.2f, "
              "p95 %s" % (name[:-3], es["channel_lines_per_play"], fmt(es["lag_p95"]),
                          en["channel_lines_per_play"], fmt(en["lag_p95"]),
                          es["channel_lines_per_play"] / en["channel_lines_per_play"],
                          fmt(es["lag_p95"] / en["lag_p95"] if es["lag_p95"] and en["lag_p95"]
                              else None)))


def main():
    exit_on_sigterm()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="build/bin/porrazo-bot")
    ap.add_argument("--scenario", default="all",
                    help="1x5, 1x2.5, 2x5, 2x2.5, 4x5, 4x2.5, lang (2 and 3 players in an English "
                         "and a Spanish channel at once), all, or smoke (one 2-player game, "
                         "a few moves at P=1 s); comma-separated")
    ap.add_argument("--moves", type=int, default=40, help="accepted moves per game (40)")
    ap.add_argument("--duration", type=float, default=600,
                    help="at most this many seconds of commands per scenario (600)")
    ap.add_argument("--drain", type=float, default=240,
                    help="after the last command, wait at most this long for the bot (240)")
    ap.add_argument("--quiet", type=float, default=4, help="the bot is done after this "
                    "many seconds without a line (4)")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--games", action="store_true", help="a row per game too")
    ap.add_argument("--json", help="write every figure and sample to this file")
    ap.add_argument("--keep", action="store_true", help="keep the files of each scenario")
    ap.add_argument("--smoke-check", action="store_true",
                    help="exit 1 unless every scenario made its moves and printed its row")
    args = ap.parse_args()
    if not os.access(args.bot, os.X_OK):
        sys.exit("not an executable: %s" % args.bot)
    names = args.scenario.split(",")
    if names == ["all"]:
        names = ["1x5", "1x2.5", "2x5", "2x2.5", "4x5", "4x2.5"]
    results = []
    for name in names:
        if name == "smoke":
            kinds, pace = ["2"], 1.0
        elif name in SCENARIOS:
            kinds, pace = SCENARIOS[name]
        else:
            sys.exit("unknown scenario %r" % name)
        print("# %s: %d game(s) %s, P=%g s, %d moves per game ..." % (
            name, len(kinds), "+".join(kinds), pace, args.moves), file=sys.stderr, flush=True)
        r = run_scenario(name, kinds, pace, args)
        results.append(r)
        for f in r["per_game"]:
            for l in f["log"]:
                print("#   %s %s" % (f["channel"], l), file=sys.stderr)
        print("# %s done in %.0f s (commands %.0f s, drain %.0f s)" % (
            name, r["wall_s"], r["play_s"], r["drain_s"]), file=sys.stderr, flush=True)
    print_table(results, per_game=args.games)
    for r in results:
        print_languages(r)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.smoke_check:
        bad = [r["scenario"] for r in results
               if any(f["moves"] < args.moves for f in r["per_game"])
               or r["channel_lines_per_play"] is None or r["lag_median"] is None]
        if bad:
            print("FAIL: scenario(s) %s did not make their moves" % ", ".join(bad))
            sys.exit(1)
        print("ok")


if __name__ == "__main__":
    main()
