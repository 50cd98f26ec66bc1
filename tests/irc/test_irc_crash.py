#!/usr/bin/env python3
"""test_irc_crash.py -- twenty games played at once over IRC while the bot
is SIGKILLed at random moments and restarted on the same database.

Twenty channels (#k01..#k20: sixteen configured, the most a configuration
takes, and four the bot is invited to, kept across restarts) each hold a
2-player game "to 11" (aNN and bNN) on a real ngircd, watched by one
kibitzer in every channel; the bot paces lines at burst 20 / line_ms 20, so
a round of moves leaves it a backlog to send. In each round every game's
player to act sends its move at once (in the channel or privately); then
either the driver waits for every game's outcome, or -- in 3 to 5 rounds
chosen at random -- the bot is SIGKILLed after a random pause (before it
read the moves, while it handles them, while it sends their announcements,
or once idle) and started again. After a restart every game resynchronises
on the bot's "is back" line (or on the game's end) and the hand it sends
the player to act.

At the end, with the outbox empty (read with sqlite3), for every game:
  * its state as the players know it from the bot's messages (whose turn,
    what is on the table, the hand of the player to act; the final board
    when it ended) equals porrazo-replay's on the exported game;
  * no announcement is missing: every move of the exported game has its
    "NICK CARD" segment in the channel, in order (lines cut by a kill
    may come twice), and no such line announces a move that is not in it.

usage: test_irc_crash.py BOT REPLAY   (PZ_IRC_CRASH_SEED=N repeats a run)
"""
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config, TIMEOUT,  # noqa: E402
                     wait_bot_in_channel, check, is_game_end, is_status, status_table,
                     run_main, log, BOT_NICK, NETWORK)

GAMES = 20
CHANNELS = ["#k%02d" % i for i in range(1, GAMES + 1)]
CONFIGURED = CHANNELS[:16]  # config.c's CFG_LIST; the rest by invitation
OPTIONS = "to 11"
ROUNDS = 36
SEED = 9191
# A play's segment of a channel line ("ann 7♥ takes 7♣ · bob 3♠ · table ...")
PLAYS = re.compile(r"^(\S+) ((?:10|[A2-9JQK])[♣♦♥♠])(?: |$)")
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def card_code(card):
    """"10♦" -> "TD", as porrazo-replay writes cards."""
    rank, suit = card[:-1], card[-1]
    return ("T" if rank == "10" else rank) + SUITS[suit]


def resync(game, since, killed_at):
    """After a restart: the game's "is back" line (whose turn it is) and
    the hand the bot then sends the player to act -- or the game's end, if
    the last move ended it. Lines the killed bot had not sent come first:
    returns how many channel lines of the game arrived after the kill and
    before "is back" (those, and any still in flight at the kill)."""
    def back(e):
        return e.kind == "room" and ((e.text.startswith(BOT_NICK + " is back")
                                      and is_status(e.text)) or is_game_end(e.text))
    e = game.wait(back, "%s: the bot's \"is back\" line" % game.channel, since)
    late = sum(1 for x in game.events[since:e.seq] if x.kind == "room" and x.time > killed_at)
    if is_game_end(e.text):
        game.table.over = True
        return late
    game.table.public(e.text)
    game.settle(since, e)
    return late


def restart(bot, kib, rng):
    """SIGKILLs the bot after a random pause and starts it again; returns
    (when it was killed, seconds until it was back in every channel)."""
    time.sleep(rng.choice((0, 0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.4, 1.0)))
    rc = bot.kill()
    check(rc == -9, "porrazo-bot exited %s before SIGKILL" % rc)
    obs_mark = kib.mark()
    t = time.monotonic()
    bot.start()
    for ch in CHANNELS:
        wait_bot_in_channel(kib, channel=ch, since=obs_mark, timeout=max(60.0, TIMEOUT))
    return t, time.monotonic() - t


def outcome(game, mark, actor):
    """The outcome of actor's move sent at mark (IRCGame.play_one's end)."""
    what, e = game.await_status(mark, actor)
    if what == "status":
        game.actions += 1
        game.settle(mark, e)
    elif what == "choice":
        game.choices += 1
        game.table.need_capture = True
    else:
        raise AssertionError("%s: the bot refused a move: %s" % (game.channel, e.line()))


def play_round(games, bot, kib, rng, kill):
    """Every live game's player to act moves; then outcomes, or a kill and
    every game resynchronised: then returns (seconds until the bot was back,
    channel lines the killed bot had left to send)."""
    pending = []
    for g in games:
        g.pump()
        if g.table.over:
            continue
        line = g.table.next_line(g.step)
        check(line is not None, "%s: nobody is told to act" % g.channel)
        g.table.need_capture = False
        mark = g.mark()
        actor = g.say(line)
        g.step += 1
        pending.append((g, mark, actor))
    if not kill:
        for g, mark, actor in pending:
            outcome(g, mark, actor)
        return None
    killed_at, took = restart(bot, kib, rng)
    late = 0
    for g, mark, _ in pending:
        late += resync(g, mark, killed_at)
    return took, late


def outbox_count(db):
    con = sqlite3.connect(db, timeout=5)
    try:
        return con.execute("SELECT count(*) FROM outbox").fetchone()[0]
    finally:
        con.close()


def game_ids(db):
    con = sqlite3.connect(db, timeout=5)
    try:
        return dict(con.execute("SELECT room, id FROM games WHERE network = ?", (NETWORK,)))
    finally:
        con.close()


def replayed(bot_exe, replay_exe, db, gid):
    scenario = subprocess.run([bot_exe, "--export", str(gid), "--db", db], check=True,
                              capture_output=True, text=True, timeout=TIMEOUT).stdout
    out = subprocess.run([replay_exe, "-"], input=scenario, check=True, capture_output=True,
                         text=True, timeout=TIMEOUT).stdout.splitlines()
    return json.loads(scenario), json.loads(out[-1])


def seat_nicks(game):
    """The seats in order, from the channel's "Seats: 1. a01 2. b01" line."""
    for e in game.events:
        if e.kind == "room" and e.text.startswith("Seats: "):
            return re.findall(r"\d+\. (\S+)", e.text)
    raise AssertionError("%s: no Seats line" % game.channel)


def check_state(game, state):
    """What the players know equals the replay's state."""
    ch = game.channel
    if state["phase"] == "game_over":
        check(game.table.over, "%s: the replay ended the game, the channel did not" % ch)
        board = game.board()
        check(list(board.values()) == list(state["scores"]),
              "%s: board %s, replay %s" % (ch, board, state["scores"]))
        return "over"
    check(not game.table.over, "%s: the channel ended the game, the replay did not" % ch)
    seats = seat_nicks(game)
    status = [e for e in game.events if e.kind == "room" and is_status(e.text)
              and not game.is_a_reply(e)][-1]
    kinds = {"tendido_choice": "tendido", "arrange": "arrange", "play": "play"}
    check(kinds.get(state["phase"]) == game.table.kind and seats[state["turn"]] == game.table.actor,
          "%s: the channel says %s (%s), the replay %s to act (%s): %r"
          % (ch, game.table.actor, game.table.kind, seats[state["turn"]], state["phase"],
             status.text))
    if state["phase"] == "play":
        table = [card_code(c) for c in status_table(status.text)]
        check(sorted(table) == sorted(state["table"]),
              "%s: the table %s in the channel, %s in the replay" % (ch, table, state["table"]))
        hand = [card_code(c) for c in game.table.hand[game.table.actor]]
        check(sorted(hand) == sorted(state["hands"][state["turn"]]),
              "%s: %s's hand %s, %s in the replay" % (ch, game.table.actor, hand,
                                                       state["hands"][state["turn"]]))
    return state["phase"]


def check_announcements(game, scenario):
    """Every exported move has its "plays" line, in order; none other."""
    seats = seat_nicks(game)
    want = ["%s plays %s" % (seats[a["seat"]], a["play"]) for a in scenario["actions"]
            if "play" in a and "seat" in a]
    got = []
    for e in game.events:
        if e.kind != "room":
            continue
        for seg in e.text.split(" · "):
            m = PLAYS.match(seg)
            if m and m.group(1) in seats:
                got.append("%s plays %s" % (m.group(1), card_code(m.group(2))))
    it = iter(got)
    for i, w in enumerate(want):
        check(any(g == w for g in it), "%s: the announcement of move %d (%s) is missing or out "
              "of order" % (game.channel, i + 1, w))
    extra = set(got) - set(want)
    check(not extra, "%s: announced moves that are not in the game: %s" % (game.channel, extra))
    return len(want), len(got)


def main(bot_exe, replay_exe):
    rng_seed = int(os.environ.get("PZ_IRC_CRASH_SEED", str(int(time.time()))))
    rng = random.Random(rng_seed)
    kill_rounds = set(rng.sample(range(3, ROUNDS - 2), rng.randint(3, 5)))
    log("random seed %d: kills in rounds %s" % (rng_seed, sorted(kill_rounds)))
    with IRCd(max_joins=0) as server, Workdir() as work:
        kib = server.client("kibitz")
        for ch in CHANNELS:
            kib.join(ch)
        conf = write_config(work.path("bot.conf"), server, channels=CONFIGURED, burst=20,
                            line_ms=20, irc_extra={"join_on_invite": "true"})
        db = work.path("crash.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            for ch in CONFIGURED:
                wait_bot_in_channel(kib, channel=ch)
            for ch in CHANNELS[len(CONFIGURED):]:
                kib.send("INVITE %s %s" % (BOT_NICK, ch))
                wait_bot_in_channel(kib, channel=ch)
            games = []
            for i, ch in enumerate(CHANNELS):
                g = IRCGame(server, bot, ["a%02d" % (i + 1), "b%02d" % (i + 1)], observer=kib,
                            channel=ch)
                g.open(OPTIONS)
                games.append(g)
            backs, late = [], 0
            for rnd in range(ROUNDS):
                kill = play_round(games, bot, kib, rng, rnd in kill_rounds)
                if kill is not None:
                    backs.append(kill[0])
                    late += kill[1]
            deadline = time.monotonic() + TIMEOUT
            while outbox_count(db) != 0:
                check(time.monotonic() < deadline, "%d messages still in the outbox"
                      % outbox_count(db))
                time.sleep(0.1)
            games[0].quiet(1.0)
            for g in games:
                g.pump()

            ids = game_ids(db)
            phases, moves, lines = {}, 0, 0
            for g in games:
                scenario, state = replayed(bot_exe, replay_exe, db, ids[g.channel])
                phase = check_state(g, state)
                phases[phase] = phases.get(phase, 0) + 1
                w, n = check_announcements(g, scenario)
                moves += w
                lines += n
            check(len(backs) == len(kill_rounds), "%d restarts for %d kills"
                  % (len(backs), len(kill_rounds)))
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
            # With -DPZ_SANITIZE=ON, a report of ASan, LSan or UBSan fails too.
            reports = bot.find(r"Sanitizer|runtime error")
            check(not reports, "sanitizer reports in the bot's log: %s" % reports[:3])
        finally:
            bot.cleanup()
        print("irc crash (random seed %d): %d games, %d rounds, %d SIGKILLs (back in %s s; "
              "%d channel lines arrived between a kill and \"is back\"); %d moves "
              "announced by %d lines; final phases %s, each equal to porrazo-replay"
              % (rng_seed, GAMES, ROUNDS, len(backs), ", ".join("%.1f" % b for b in backs),
                 late, moves, lines, phases))


if __name__ == "__main__":
    run_main(main)
