#!/usr/bin/env python3
"""fair_game.py -- provably fair deals end to end (FAIRNESS.md), through
`porrazo-bot --console` with seeds from the system (no --seed):

  * two whole games are played; each record, as `porrazo-bot --export`
    prints it, verifies with `porrazo-replay --verify` and with the
    independent verify_record.py;
  * the room's "pack sealed X" line of every hand came before its first card
    and X is the start of that hand's commitment in the record;
  * one card of a pack, one seed, one commitment and one move changed in the
    record of the game with more hands each make --verify exit 1 naming the hand (or the action), and
    verify_record.py refuses the first three as well;
  * a third game left under way: its record has the commitments and no seed,
    salt or pack anywhere, and --verify says it is under way;
  * every hand's seed in the database differs from every other, and the
    three games' salts differ.

usage: fair_game.py BOT REPLAY
"""
import copy
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bot"))
import console_game as cg  # noqa: E402
import verify_record as vr  # noqa: E402

SEAL = re.compile(r"pack sealed ([0-9a-f]{12})\b")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def export(bot_exe, db, game):
    return json.loads(subprocess.run([bot_exe, "--export", str(game), "--db", db], check=True,
                                     capture_output=True, text=True).stdout)


def verify(replay_exe, record, tmp):
    """(exit status, message) of porrazo-replay --verify and of verify_record.py."""
    path = os.path.join(tmp, "record.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f)
    c = subprocess.run([replay_exe, "--verify", path], capture_output=True, text=True)
    p = subprocess.run([sys.executable, os.path.join(HERE, "verify_record.py"), path],
                       capture_output=True, text=True)
    return (c.returncode, (c.stdout + c.stderr).strip()), (p.returncode, p.stdout.strip())


def play_game(bot, players, game):
    """Plays game number game to its end; the room lines in order."""
    table = cg.Table(players)
    cg.open_table(bot, table, len(players), "")  # to 61: a hand alone scores less
    cg.play_out(table, bot.send)
    return [l for l in table.transcript if l.startswith("#console ")]


def check_seals(room, record, game):
    """Each hand's first line shows its commitment's start, before a card."""
    shown = [m.group(1) for l in room for m in SEAL.finditer(l)]
    commits = [h["commit"] for h in record["fairness"]["hands"]]
    check(shown == [c[:12] for c in commits],
          "game %d: the room showed %s, the record commits %s" % (game, shown, commits))
    for l in room:
        if SEAL.search(l):
            check("New hand: deal 1 of" in l.split("pack sealed")[0],
                  "game %d: a seal outside a hand's first line: %s" % (game, l))


def tamper(replay_exe, record, tmp):
    """Four changes, each refused with where it is."""
    hands = record["fairness"]["hands"]
    check(len(hands) >= 2, "the game had %d hand(s): too few to change hand 2" % len(hands))
    nh = [a for a in record["actions"] if "next_hand" in a]
    cases = []
    r = copy.deepcopy(record)  # one card of hand 2's pack: another card, by name
    deck = [a for a in r["actions"] if "next_hand" in a][0]["deck"]
    deck[16] = deck[17]
    cases.append(("a card", r, "hand 2: card 17 of its pack is", "hand 2: card 17"))
    r = copy.deepcopy(record)
    r["fairness"]["hands"][1]["seed"] ^= 1
    cases.append(("a seed", r, "hand 2: its commitment", "hand 2: commitment"))
    r = copy.deepcopy(record)
    c = r["fairness"]["hands"][0]["commit"]
    r["fairness"]["hands"][0]["commit"] = ("1" if c[0] == "0" else "0") + c[1:]
    cases.append(("a digest", r, "hand 1: its commitment", "hand 1: commitment"))
    r = copy.deepcopy(record)
    plays = [i for i, a in enumerate(r["actions"]) if "play" in a]
    r["actions"][plays[0]]["play"] = r["deck"][-1]  # hand 1's last card: in the stock then
    cases.append(("a move", r, "action %d is refused" % plays[0], None))
    for what, r, says, python_says in cases:
        (rc, msg), (prc, pmsg) = verify(replay_exe, r, tmp)
        check(rc == 1 and says in msg, "%s changed: --verify %d: %s" % (what, rc, msg))
        if python_says:
            check(prc == 1 and python_says in pmsg,
                  "%s changed: verify_record.py %d: %s" % (what, prc, pmsg))
        print("%s changed: %s" % (what, msg[:110]))


def check_sealed(bot_exe, replay_exe, db, tmp, room):
    """A game under way: commitments only."""
    record = export(bot_exe, db, 3)
    fair = record["fairness"]
    check(fair["revealed"] is False, "a game under way is revealed")
    check("salt" not in fair and all(set(h) == {"hand", "commit"} for h in fair["hands"]),
          "a game under way shows a salt or a seed: %s" % fair)
    check("seed" not in record and "deck" not in record, "a game under way shows its first pack")
    check(not any("deck" in a for a in record["actions"]), "a game under way shows a pack")
    text = json.dumps(record)
    check(not re.search(r"\"(seed|salt|deck)\"", text), "a secret in the record: %s" % text[:300])
    check(SEAL.findall("\n".join(room))[-1] == fair["hands"][-1]["commit"][:12],
          "the seal shown is not the record's commitment")
    (rc, msg), _ = verify(replay_exe, record, tmp)
    check(rc == 1 and "under way" in msg, "--verify of a game under way: %d %s" % (rc, msg))
    print("under way: %d commitment(s), no seed, salt or pack; --verify: %s" % (len(fair["hands"]), msg))


def check_seeds(db):
    con = sqlite3.connect(db)
    try:
        seeds = [s for (s,) in con.execute("SELECT seed FROM hand_seeds")]
        per_game = dict(con.execute("SELECT game_id, count(*) FROM hand_seeds GROUP BY game_id"))
        salts = [s for (s,) in con.execute("SELECT salt FROM fair WHERE sealed = 1")]
    finally:
        con.close()
    check(len(seeds) == len(set(seeds)), "a seed was dealt twice: %s" % seeds)
    check(len(salts) == 3 and len(set(salts)) == 3, "salts %s" % salts)
    print("%d hands (per game %s), %d distinct seeds, 3 distinct salts" %
          (len(seeds), per_game, len(set(seeds))))


def main(bot_exe, replay_exe):
    players = cg.NICKS[:2]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "fair.db")
        bot = cg.Bot(bot_exe, db, None)
        rooms = [play_game(bot, players, 1), play_game(bot, players, 2)]
        table = cg.Table(players)  # a third game: a few moves, then the bot stops
        cg.open_table(bot, table, 2, "")
        for step in range(6):
            table.read(bot.send(table.next_line(step)))
        rc, _, err = bot.close()
        check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        for game in (1, 2):
            record = export(bot_exe, db, game)
            check_seals(rooms[game - 1], record, game)
            (rc, msg), (prc, pmsg) = verify(replay_exe, record, tmp)
            check(rc == 0 and msg.startswith("verified: "), "game %d: --verify %d: %s" % (game, rc, msg))
            check(prc == 0, "game %d: verify_record.py %d: %s" % (game, prc, pmsg))
            print("game %d: %s; verify_record.py: %s" % (game, msg, pmsg))
        records = [export(bot_exe, db, game) for game in (1, 2)]
        tamper(replay_exe, max(records, key=lambda r: len(r["fairness"]["hands"])), tmp)
        check_sealed(bot_exe, replay_exe, db, tmp,
                     [l for l in table.transcript if l.startswith("#console ")])
        check_seeds(db)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1], sys.argv[2])
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
