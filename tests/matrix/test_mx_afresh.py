#!/usr/bin/env python3
"""test_mx_afresh.py -- no command lost when the bot starts its sync afresh
(issue 35), porrazo-bot against the homeserver double.

A two-player game is dealt; then, twice (a move said in the game's room,
then a move said privately in the player's direct room), /sync fails in
each way a hostile homeserver has: 200 with a body that is not JSON, 500s,
200 without next_batch, and at last the bot's sync token refused (400
M_UNKNOWN "Invalid stream token": the double forgets the tokens it issued,
as a server restored from a backup would). A command is said in each of
these faults: the move first, then read-only commands (!turn, !score, and
a private "hand"). The bot makes its filter again, drops its token, starts
afresh, and must read back what it had not handled: each command applied
and answered once, in order, the move in the game's export, the commands
handled before never answered again. The first reply after each recovery
is answered 200 without an event_id: it is sent again under the same
transaction id, not dropped. Sixty lines of chatter follow the commands in
the room, so its fresh timeline holds none of them: they are read back
with /messages. Then a !turn in each of 12 rooms, each followed by sixty
lines of chatter, while /sync fails 500 and then the token is refused:
every room read back (more rooms than the bot pages at once), each !turn
answered once.

Then the game is played out and its scores must equal porrazo-replay's on
the export: every move said, faults or not, is in it once.

usage: test_mx_afresh.py PORRAZO_BOT PORRAZO_REPLAY
"""
import json
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402

PLAYERS = [("ann", "Ann"), ("bob", "Bob")]
CHATTER = 60  # lines said in the room after the commands: its timeline is limited
NOT_JSON = b"\x00\xff<html>not json {"
# The faults of /sync, in the order a command is said in each.
SYNC_FAULTS = [
    ("not JSON", dict(status=200, body=NOT_JSON)),
    ("500", dict(status=500)),
    ("no next_batch", dict(status=200, body={"rooms": {"join": {}}})),
]


def wait(cond, what, timeout=TIMEOUT * 3, bot=None):
    deadline = time.monotonic() + timeout
    while not cond():
        if bot is not None and not bot.alive():
            raise AssertionError("porrazo-bot died:\n" + bot.log()[-3000:])
        g.check(time.monotonic() < deadline, "%s; log tail:\n%s" % (
            what, bot.log()[-3000:] if bot is not None else ""))
        time.sleep(0.02)


def actions_of(bot_exe, db):
    """The moves of game 1 in its export (not the dealer's next_hand)."""
    out = subprocess.run([bot_exe, "--export", "1", "--db", db], check=True,
                         capture_output=True, text=True).stdout
    return [a for a in json.loads(out)["actions"] if "seat" in a]


def bot_bodies(hs, room, since):
    return [e["content"]["body"] for e in hs.events(room, since=since)
            if e["sender"] == g.BOT and e["type"] == "m.room.message"]


def line_for(table, where):
    """The line the player to act says next, in the room (":") or privately
    (">"), whatever console_game would choose for the step."""
    line = table.next_line(0 if where == ":" else 1)
    g.check(line is not None, "nobody is to act: %s" % table.transcript[-4:])
    if where == ">":
        line = re.sub(r"^(\S+): !", r"\1> ", line)
    else:
        line = re.sub(r"^(\S+)> ", r"\1: !", line)
    return line


def faulty_round(game, bot_exe, where):
    """One move said while /sync fails every way, then the token refused.
    Returns what the round saw."""
    hs, bot, table = game.hs, game.bot, game.table
    line = line_for(table, where)
    while not g.ACTION.match(line):  # "hand" first: the move is the next line
        table.read(game.step(line))
        line = line_for(table, where)
    other = next(n for n in game.users if n != table.actor)
    was = (table.actor, table.kind)
    before = len(actions_of(bot_exe, game.db_path))
    marks = {r: hs.mark() for r in [game.room] + [game.dm_of(u) for u in game.users.values()]}
    log_at = len(bot.log())
    req_mark = hs.log_mark()
    extras = [("%s: !turn" % other, game.room, r"^%s: table" % other),
              ("%s: !score" % other, game.room, r"^Score"),
              ("%s> hand" % other, game.dm_of(game.users[other]), r"^Your hand")]
    said, prev = [], None
    for i, (name, kw) in enumerate(SYNC_FAULTS):
        fault = hs.fail(r"/sync$", count=None, **kw)
        if prev is None:
            hs.send_text(game.room, game.users[other], "a word while the server breaks")
        else:
            prev.cancel()
        wait(lambda: fault.hits >= 1, "no sync met the %s fault" % name, bot=bot)
        said.append(game.say(line if i == 0 else extras[i - 1][0]))
        prev = fault
    send_fault = hs.fail(r"/send/", 200, body={})  # the first reply after the recovery
    hs.forget_sync_tokens()
    prev.cancel()
    said.append(game.say(extras[2][0]))
    for i in range(CHATTER):  # the room's fresh timeline (50 events) holds none of the commands
        hs.send_text(game.room, game.users[other], "chatter %d" % i)
    for eid in said:
        game.settle(eid, timeout=TIMEOUT * 4)
    table.need_capture = False
    lines = game.collect()
    table.read(lines)
    for l in lines:  # the answer to !turn tells who is to act after the move
        m = re.match(r"#console <[^>]+> \S+: (.*)$", l)
        for rx, kind in g.cg.STATUS if m else ():
            if rx.search(m.group(1)):
                table.actor, table.kind = rx.search(m.group(1)).group(1), kind
    log = bot.log()[log_at:]
    # the move: in the export once, answered (no refusal: not handled twice)
    acts = actions_of(bot_exe, game.db_path)
    g.check(len(acts) == before + 1, "%d moves in the export after %r, %d before; the "
            "bot's last lines:\n%s" % (len(acts), line, before, "\n".join(table.transcript[-12:])))
    new_lines = table.transcript[-40:]
    refused = [l for l in new_lines if g.REFUSAL.search(l)]
    g.check(not refused, "a command was refused (handled twice?): %s" % refused)
    # each read-only command answered once
    for text, room, rx in extras:
        n = sum(1 for b in bot_bodies(hs, room, marks[room]) if re.search(rx, b, re.M))
        g.check(n == 1, "%r answered %d times: %s" % (text, n, bot_bodies(hs, room, marks[room])))
    # in order: the !turn said after the move tells the turn after it
    answers = [l.split(": ", 1)[1] for b in bot_bodies(hs, game.room, marks[game.room])
               for l in b.split("\n") if l.startswith("%s: table" % other)]
    now = [(m.group(1), kind) for a in answers for rx, kind in g.cg.STATUS
           for m in [rx.search(a)] if m]
    g.check(now and now[0] != was, "!turn after %r told %s, the turn before it" % (line, now))
    g.check(log.count("starting afresh") == 1, "the log says 'starting afresh' %d times" %
            log.count("starting afresh"))
    g.check("dropping message" not in log, "a reply was dropped:\n%s" % log[-2000:])
    # the reply answered 200 without an event_id went again, same transaction id
    sends = hs.requests("PUT", r"/send/", since=req_mark)
    cut = [e for e in sends if e["fault"] == "fail"]
    g.check(send_fault.hits == 1 and len(cut) == 1, "the send fault hit %d times" %
            send_fault.hits)
    again = [e for e in sends if e["raw_path"] == cut[0]["raw_path"] and e["status"] == 200 and
             e["fault"] is None]
    g.check(len(again) == 1, "the send answered without event_id went %d times again" %
            len(again))
    refused_syncs = hs.requests("GET", r"/sync$", status=400, since=req_mark)
    return line, len(refused_syncs), len(sends)


def many_rooms(game, count=12):
    """A command in each of `count` rooms (more than the bot pages back at
    once), then 60 lines of chatter in each, said while /sync fails 500,
    then the token refused: each room read back, each command answered once."""
    hs, bot = game.hs, game.bot
    bob = game.users["Bob"]
    rooms = [hs.create_room(bob, name="Side %d" % i, invite=[g.BOT]) for i in range(count)]
    wait(lambda: all(hs.membership(r, g.BOT) == "join" for r in rooms),
         "the bot did not join the side rooms", bot=bot)
    req_mark = hs.log_mark()
    fault = hs.fail(r"/sync$", 500, count=None)
    hs.send_text(rooms[0], bob, "a word while the server breaks")
    wait(lambda: fault.hits >= 1, "no sync met the 500 fault", bot=bot)
    marks = [hs.mark() for _ in rooms]
    said = [hs.send_text(r, bob, "!turn") for r in rooms]
    for r in rooms:
        for i in range(CHATTER):
            hs.send_text(r, bob, "chatter %d" % i)
    hs.forget_sync_tokens()
    fault.cancel()
    for eid in said:
        game.settle(eid, timeout=TIMEOUT * 4)
    for r, mark in zip(rooms, marks):
        n = sum(1 for b in bot_bodies(hs, r, mark) if b.startswith("Bob: there is no game"))
        g.check(n == 1, "!turn in %s answered %d times: %s" % (r, n, bot_bodies(hs, r, mark)))
    pages = hs.requests("GET", r"/messages$", since=req_mark)
    g.check(len({e["path"] for e in pages}) >= count,
            "%d rooms paged back for %d" % (len({e["path"] for e in pages}), count))
    return len(pages)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t0 = time.monotonic()
    done = []
    with g.workdir("pz-mx-afresh-") as tmp:
        hs = g.new_world(tmp, players=PLAYERS)
        bot = None
        try:
            db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
            g.write_config(conf, hs.url, db)
            bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
            game = g.MatrixGame(hs, db, bot, players=PLAYERS)
            game.db_path = db
            hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
            game.open_room()
            t = game.table
            t.read(game.step("Ann: !new 2"))
            t.read(game.step("Bob: !join"))
            for where in (":", ">"):
                line, nref, nsends = faulty_round(game, bot_exe, where)
                done.append("%r applied and answered once (%d syncs refused, %d sends)" % (
                    line, nref, nsends))
            npages = many_rooms(game)
            done.append("12 rooms read back (%d /messages pages)" % npages)
            steps = g.cg.play_out(t, game.step)
            g.check(bot.stop() == 0, "the bot did not stop cleanly")
            bot = None
            board, scores, nactions = g.check_outcome(game, bot_exe, replay_exe, db)
            opened = [b for b in bot_bodies(hs, game.room, None) if "opens a Porrazo table" in b]
            g.check(len(opened) == 1, "!new answered %d times" % len(opened))
            g.check(not hs.errors, "internal errors in the double:\n%s" % "\n".join(hs.errors))
        finally:
            if bot is not None and bot.alive():
                bot.stop()
            hs.shutdown()
    print("matrix afresh: %s; then %d steps, %d actions, final %s = replay %s; %.0f s" % (
        "; ".join(done), steps, nactions, board, scores, time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
