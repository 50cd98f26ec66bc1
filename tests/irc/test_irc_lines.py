#!/usr/bin/env python3
"""test_irc_lines.py -- what the channel reads, on a real ngircd with its
stock flood limits (MaxPenaltyTime at ngircd's default) and porrazo-bot's
default pacing (its configuration names only the server, the nick and the
channels; log_level = debug so that it logs what it writes).

Two games at once: a 2-player game "to 21" in #duo and a partners game
("!new 4 partners") in #quad, played for a few deals by scripted players
who know only what the bot says (tests/bench/irc_lines.py's players: their
hand from the private deal line, the turn from the newest channel line's
state part) and act as soon as the channel shows their turn. Checks, per
game:
  * at most 1.2 channel lines per move (every bot line in the channel from
    the first deal on, over the moves: cards played, tendido choices and
    arrangements, each a command whose outcome the channel must show);
  * at most 2 channel lines per deal ("Deal d of n", score lines, and lines
    before the deal's first move);
  * one private line per player per deal (its hand), and no other private
    line (nobody is quiet long enough for a turn prompt);
  * every state part the channel shows ("table ... · NICK to play", "NICK
    (dealer) chooses", "NICK arranges the tendido", "Game over") is the
    state after the plays announced so far: the game is exported after the
    bot stops (porrazo-bot --export ID) and porrazo-replay is run on the
    prefix of its actions that ends with the k-th play, k = the plays
    announced in the channel up to that line (and on the prefixes that add
    the tendido choices and arrangements before the next play, in order:
    a line may never show an older state than the line before it); its
    turn, phase and table must be the line's; and the plays announced are
    the exported plays, in order;
  * every state part is the state when the line was written: the bot's own
    log orders the commands it read and the lines it wrote, and a line
    written after the bot read an accepted command shows the state after it.

usage: test_irc_lines.py BOT REPLAY
"""
import json
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
from bot_irc import (IRCd, BotProcess, Workdir, check, run_main, wait_bot_in_channel,  # noqa
                     ngircd_registrations, TestFailure, log)
import irc_lines as il  # noqa: E402  (tests/bench/irc_lines.py)

SEED = 61
DUO = ("#duo", 2, "to 21", ["ann", "bob"], 20)            # ~3 deals
QUAD = ("#quad", 4, "partners", ["cat", "dan", "eve", "fay"], 26)   # ~2 deals
PLAY_FOR = 70.0          # seconds of commands at most
MAX_LINES_PER_PLAY = 1.2
MAX_DEAL_LINES = 2

RANK = {"10": "T"}
SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def canon(card):
    """'10♥' -> 'TH' (porrazo-replay's form)."""
    return RANK.get(card[:-1], card[:-1]) + SUIT[card[-1]]


class Replayer:
    """porrazo-replay on prefixes of an exported scenario, memoised."""

    def __init__(self, replay_exe, scenario):
        self.exe = replay_exe
        self.scenario = scenario
        self.actions = scenario["actions"]
        self.cache = {}

    def state(self, k):
        """The state after the first k actions."""
        if k not in self.cache:
            sc = dict(self.scenario)
            sc["actions"] = self.actions[:k]
            out = subprocess.run([self.exe, "-"], input=json.dumps(sc), check=True,
                                 capture_output=True, text=True, timeout=30).stdout
            self.cache[k] = json.loads(out.splitlines()[-1])
        return self.cache[k]


def export(bot_exe, db, game_id):
    out = subprocess.run([bot_exe, "--export", str(game_id), "--db", db], check=True,
                         capture_output=True, text=True, timeout=30).stdout
    return json.loads(out)


def state_matches(line_state, st, seat_of):
    """Whether a line's state part (kind, actor, table) is porrazo-replay's
    state st. Returns None when it is, else what differs."""
    kind, actor, table = line_state
    phase = st["phase"]
    want = {"play": "play", "tendido": "tendido_choice", "arrange": "arrange",
            "over": "game_over"}[kind]
    if phase != want:
        return "phase %s, the line says %s" % (phase, kind)
    if kind in ("play",) and st["turn"] != seat_of[actor.lower()]:
        return "turn seat %s, the line says %s (seat %d)" % (st["turn"], actor,
                                                            seat_of[actor.lower()])
    if kind in ("tendido", "arrange") and st["dealer"] != seat_of[actor.lower()]:
        return "dealer seat %s, the line says %s" % (st["dealer"], actor)
    if table is not None and kind != "over":
        if sorted(canon(c) for c in table) != sorted(st["table"]):
            return "table %s, the line shows %s" % (" ".join(st["table"]),
                                                     " ".join(canon(c) for c in table))
    return None


def check_states_follow_plays(g, scenario, replayer):
    """Each channel state is the state after the plays announced so far
    (see the module docstring). Returns the number of lines checked."""
    actions = scenario["actions"]
    seat_of = {n.lower(): i for i, n in enumerate(g.nicks)}
    play_idx = [i for i, a in enumerate(actions) if "play" in a]
    k = 0              # plays announced so far
    floor = 0          # the line before showed the state after `floor` actions
    checked = 0
    for t, p in g.chan:
        if p.reply_to or p.lobby:
            continue
        for nick, card in p.plays:
            check(k < len(play_idx), "%s: more plays announced than exported: %r"
                  % (g.channel, p.text))
            a = actions[play_idx[k]]
            check(a["seat"] == seat_of[nick.lower()] and a["play"] == canon(card),
                  "%s: play #%d announced as %s %s, exported as seat %d %s (line %r)"
                  % (g.channel, k + 1, nick, card, a["seat"], a["play"], p.text))
            k += 1
        if p.state is None:
            continue
        lo = play_idx[k - 1] + 1 if k else 0
        hi = play_idx[k] if k < len(play_idx) else len(actions)
        lo = max(lo, floor)
        why = []
        for j in range(lo, hi + 1):
            w = state_matches(p.state, replayer.state(j), seat_of)
            if w is None:
                floor = j
                break
            why.append("after %d actions: %s" % (j, w))
        else:
            raise TestFailure("%s: the line %r does not show the state after the %d plays "
                              "announced so far (%s)" % (g.channel, p.text, k, "; ".join(why)))
        checked += 1
    return checked


def check_states_current_when_written(g, bot, scenario, replayer):
    """A line written after the bot read an accepted command of this game
    shows the state after it: walks the bot's log (what it read, what it
    wrote, in its own order), counting the game's accepted commands."""
    accepted = [c for c in g.cmds if c["kind"] in ("play", "tendido", "arrange")]
    texts = [c["text"] for c in g.cmds if c["kind"] in ("play", "tendido", "arrange")]
    nicks = {n.lower() for n in g.nicks}
    seat_actions = [i for i, a in enumerate(scenario["actions"]) if "seat" in a]
    seat_of = {n.lower(): i for i, n in enumerate(g.nicks)}
    read = 0           # the game's move commands read so far
    done = 0           # of them accepted
    checked = 0
    for l in bot.lines:
        text = l.text
        i = text.find(": << :")
        if i >= 0:
            rest = text[i + 6:]
            who = rest.split("!", 1)[0].lower()
            if who in nicks and (" PRIVMSG %s :" % g.channel) in rest:
                said = rest.split(" :", 1)[1]
                if read < len(accepted) and said == texts[read]:
                    if not accepted[read].get("refused"):
                        done += 1
                    read += 1
            continue
        i = text.find(": >> PRIVMSG %s :" % g.channel)
        if i < 0:
            continue
        # the log shows control characters as "?": "?04" was a colour
        body = re.sub(r"\?(?:\d{1,2}(?:,\d{1,2})?)?", "", text.split(" :", 1)[1])
        p = il.parse_channel(body, g.nicks)
        if p.reply_to or p.state is None or p.lobby:
            continue
        k = seat_actions[done - 1] + 1 if done else 0
        # a hand's end deals the next one by itself (next_hand actions)
        while k < len(scenario["actions"]) and "seat" not in scenario["actions"][k]:
            k += 1
        w = state_matches(p.state, replayer.state(k), seat_of)
        check(w is None, "%s: the bot wrote %r after reading %d accepted moves, but the "
              "state then was different: %s" % (g.channel, body, done, w))
        checked += 1
    return checked


def check_private_lines(g, n_deals):
    """One private line per player per deal: its hand; nothing else. (The
    last deal's dealer may still wait for its hand: the tendido choice.)"""
    deals = {}
    others = []
    for t, nick, kind, text, is_deal in g.priv:
        if kind == "deal":
            d = il.parse_private(text)[2][0]
            deals.setdefault(nick, []).append(d)
        else:
            others.append("%s: %s" % (nick, text))
    for nick in g.nicks:
        got = deals.get(nick, [])
        # deal numbers in order; the same number twice = two lines for a deal
        dup = [d for i, d in enumerate(got) if i and got[i - 1] == d]
        check(len(got) >= n_deals - 1, "%s: %s got %d private deal lines for %d deals: %s"
              % (g.channel, nick, len(got), n_deals, got))
        check(not dup, "%s: %s got %d private lines for deal %s: %s" % (
            g.channel, nick, got.count(dup[0]) if dup else 0, dup[:1],
            [x[3] for x in g.priv if x[1] == nick and x[2] == "deal"][:4]))
    check(not others, "%s: private lines other than the deals' hands: %s"
          % (g.channel, others[:4]))
    return sum(len(v) for v in deals.values())


def main(bot_exe, replay_exe):
    with IRCd(max_penalty_time=None) as server, Workdir(prefix="pz-irc-lines-") as work:
        games = [il.Game(ch, n, opts, nicks, 0.0, moves, joins_one_by_one=True)
                 for ch, n, opts, nicks, moves in (DUO, QUAD)]
        channels = [g.channel for g in games]
        conf = il.write_bot_config(work.path("bot.conf"), server, channels)
        db = work.path("lines.db")
        observer = il.connect_all(server, ["kibitz"], lambda n: channels)["kibitz"]
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        clients = {}
        try:
            for ch in channels:
                wait_bot_in_channel(observer, il.BOT_NICK, ch, timeout=60)
            chan_of = {n: g.channel for g in games for n in g.nicks}
            clients = il.connect_all(server, list(chan_of), lambda n: [chan_of[n]])
            for g in games:
                for nick in g.nicks:
                    g.players[nick] = il.Player(nick, clients[nick])
            pump = il.Pump(observer, games)
            t0 = time.monotonic()
            while time.monotonic() - t0 < PLAY_FOR:
                pump.run()
                now = time.monotonic()
                done = [games[0].step(now, 40)]
                # game 1 is opened first, so that its id is 1
                if games[0].phase not in ("idle", "opening"):
                    done.append(games[1].step(now, 40))
                if all(done) and len(done) == 2:
                    break
                check(bot.running, "porrazo-bot exited:\n" + bot.tail())
                time.sleep(0.01)
            played = time.monotonic() - t0
            end = time.monotonic() + 20
            quiet_since = time.monotonic()
            while time.monotonic() < end:
                if pump.run():
                    quiet_since = time.monotonic()
                if all(g.pending is None for g in games) and \
                        time.monotonic() - quiet_since > 2:
                    break
                time.sleep(0.05)
            regs = ngircd_registrations(server)
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        finally:
            bot.cleanup()
            for c in list(clients.values()) + [observer]:
                c.close()

        summary = []
        for gid, g in enumerate(games, 1):
            scenario = export(bot_exe, db, gid)
            replayer = Replayer(replay_exe, scenario)
            f = il.game_figures(g, bot.sent(commands=("PRIVMSG", "NOTICE")))
            log("%s: %d moves (%d plays), %d deals, %d channel lines (%.2f per play), "
                "deal lines %s, private deal lines %d, other private %d, lag median %s "
                "p95 %s; %s" % (g.channel, g.moves, g.plays, f["deals"], f["channel_lines"],
                                f["channel_lines_per_play"] or 0, f["deal_lines_channel"],
                                f["private_deal_lines"],
                                f["private_lines"] - f["private_deal_lines"],
                                il.fmt(f["lag_median"]), il.fmt(f["lag_p95"]), g.log[:3]))
            check(g.plays >= 6 and f["deals"] >= 2,
                  "%s: only %d plays and %d deals were made in %.0f s"
                  % (g.channel, g.plays, f["deals"], played))
            n_states = check_states_follow_plays(g, scenario, replayer)
            n_written = check_states_current_when_written(g, bot, scenario, replayer)
            check(regs == 1, "the bot registered %d times" % regs)
            check(f["channel_lines_per_play"] <= MAX_LINES_PER_PLAY,
                  "%s: %.2f channel lines per move (%d lines, %d moves), over %.1f"
                  % (g.channel, f["channel_lines_per_play"], f["channel_lines"], g.moves,
                     MAX_LINES_PER_PLAY))
            check(f["deal_lines_channel"] <= MAX_DEAL_LINES,
                  "%s: %.1f channel lines per deal (%d lines, %d deals), over %d"
                  % (g.channel, f["deal_lines_channel"], f["deal_channel_lines"], f["deals"],
                     MAX_DEAL_LINES))
            n_priv = check_private_lines(g, f["deals"])
            summary.append("%s %d plays %d deals %.2f lines/play, %.1f per deal, %d hands, "
                           "%d+%d states checked, lag p95 %s s"
                           % (g.channel, g.plays, f["deals"], f["channel_lines_per_play"],
                              f["deal_lines_channel"], n_priv, n_states, n_written,
                              il.fmt(f["lag_p95"])))
        print("irc lines: stock ngircd limits, default pacing, played %.0f s: %s"
              % (played, "; ".join(summary)))


if __name__ == "__main__":
    run_main(main)
