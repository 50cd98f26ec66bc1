#!/usr/bin/env python3
"""test_mx_rooms.py -- the Matrix adapter's handling of rooms, one behaviour
after another, against the homeserver double with one bot process
(allow_invites = @ann:test, @bob:test, @dan:test; owners = local:@ann:test):

  backlog    a command said in a room the bot is in, before its very first
             sync, is not taken for a command; invitations waiting at the
             first sync are acted on (bob's accepted, cat's declined)
  history    a room's messages from before the bot joined are not commands
  notices    m.notice (another bot) and m.emote are never answered
  encrypted  an encrypted room is told once, plainly, that the bot cannot play
             there; its messages are ignored; not told again after a restart
  part       "!part" by a non-owner is refused; by an owner the bot leaves
  upgrade    a tombstone: the bot joins the replacement room, says so in both,
             and the room's game continues there
  names      a display name changed mid-game is the player's name from then on
  room names help in a room: its first line there, "the rest in our direct
             room"; table and games in the direct room name the game's
             room by its name, then by its alias, never by its id
  direct     a direct room a player opens with the bot is used as their
             private room (m.direct records it, no other is made)
  join       a join cut short by a crash (the invitation will not come
             again in the sync) is made after the restart
  restart    after a restart nothing old is answered again

Synchronisation: a probe "!score" whose one reply comes after whatever the
line before it could have caused (the bot handles a room's events and sends a
room's messages in order).

usage: test_mx_rooms.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402

USERS = [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat"), ("dan", "Dan")]
ENCRYPTED = r"^I can't play in encrypted rooms yet"


def bot_bodies(hs, room, since=None):
    return [e["content"].get("body", "") for e in hs.events(room, since=since)
            if e["sender"] == g.BOT and e["type"] == "m.room.message"]


def joined(hs, room, user=g.BOT, timeout=None):
    deadline = time.monotonic() + (timeout or TIMEOUT * 2)
    while hs.membership(room, user) != "join":
        g.check(time.monotonic() < deadline, "%s did not join %s" % (user, room))
        time.sleep(0.02)


def left(hs, room, user=g.BOT):
    deadline = time.monotonic() + TIMEOUT * 2
    while hs.membership(room, user) not in ("leave", "ban"):
        g.check(time.monotonic() < deadline, "%s did not leave %s" % (user, room))
        time.sleep(0.02)


def probe(hs, room, who="ann"):
    """ann says !score; returns the bodies of the bot from before the probe's
    reply (excluded), and the reply."""
    mark = hs.mark()
    hs.send_text(room, who, "!score")
    name = dict(USERS)[who]
    reply = hs.wait_for_event(room, sender=g.BOT, since=mark, timeout=TIMEOUT * 2,
                              predicate=lambda e: e["content"].get("body", "").startswith(
                                  name + ": ") or "Score" in e["content"].get("body", ""))
    before = []
    for e in hs.events(room, since=mark):
        if e["event_id"] == reply["event_id"]:
            break
        if e["sender"] == g.BOT and e["type"] == "m.room.message":
            before.append(e["content"]["body"])
    return before, reply["content"]["body"]


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe = sys.argv[1]
    exit_on_sigterm()
    t0 = time.monotonic()
    done = []
    with g.workdir("pz-mx-rooms-") as tmp:
        hs = g.new_world(tmp, players=USERS)
        bot = None
        try:
            # -- backlog: the bot is in r0 already; ann speaks before it starts
            r0 = hs.create_room("ann", name="Backlog", invite=[g.BOT])
            hs.join(r0, g.BOT)
            hs.send_text(r0, "ann", "!new 2")
            rb = hs.create_room("bob", name="Bob's", invite=[g.BOT])
            rc = hs.create_room("cat", name="Cat's", invite=[g.BOT])
            db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
            g.write_config(conf, hs.url, db, allow=("@ann:test", "@bob:test", "@dan:test"),
                           owners=("local:@ann:test",))
            bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
            hs.wait_for_request("GET", "/sync$", predicate=lambda e: "since" in e["query"],
                                timeout=TIMEOUT * 2)  # the first sync is over
            before, reply = probe(hs, r0)
            g.check(not before and "there is no game" in reply,
                    "the backlog was taken for a command: %s %r" % (before, reply))
            joined(hs, rb)
            left(hs, rc)
            g.check("not in allow_invites: declining" in bot.log(), "no log of the refusal")
            done.append("backlog")

            # -- history: "!new 2" said before the bot was invited
            r1 = hs.create_room("ann", name="History")
            hs.send_text(r1, "ann", "!new 2")
            hs.invite(r1, "ann", g.BOT)
            joined(hs, r1)
            before, reply = probe(hs, r1)
            g.check(not before and "there is no game" in reply,
                    "the room's history was replayed: %s %r" % (before, reply))
            done.append("history")

            # -- notices and emotes
            hs.invite(r1, "ann", "bob")
            hs.join(r1, "bob")
            hs.send_notice(r1, "bob", "!new 2")
            hs.send_text(r1, "bob", "!new 2", msgtype="m.emote")
            before, reply = probe(hs, r1)
            g.check(not before and "there is no game" in reply,
                    "a notice or an emote was answered: %s %r" % (before, reply))
            done.append("notices")

            # -- encrypted
            r2 = hs.create_room("ann", name="Secret", invite=[g.BOT], encrypted=True)
            joined(hs, r2)
            hs.wait_for_event(r2, sender=g.BOT, body=ENCRYPTED, timeout=TIMEOUT * 2)
            hs.send_text(r2, "ann", "!new 2")
            hs.send_encrypted(r2, "ann")
            probe(hs, r1)  # the bot has seen both by now (one sync)
            time.sleep(1)
            said = bot_bodies(hs, r2)
            g.check(len(said) == 1 and re.match(ENCRYPTED, said[0]),
                    "the encrypted room got %s" % said)
            done.append("encrypted")

            # -- part
            before, _ = probe(hs, r1)
            mark = hs.mark()
            hs.send_text(r1, "bob", "!part")
            hs.wait_for_event(r1, sender=g.BOT, since=mark, body="(?m)^Only an operator",
                              timeout=TIMEOUT * 2)
            g.check(hs.membership(r1, g.BOT) == "join", "a non-owner made the bot leave")
            hs.send_text(r1, "ann", "!part")
            left(hs, r1)
            done.append("part")

            # -- upgrade: a lobby moves to the replacement room
            r3 = hs.create_room("ann", name="Old", invite=[g.BOT, "@bob:test"])
            joined(hs, r3)
            hs.join(r3, "bob")
            pl = hs.state(r3, "m.room.power_levels")
            pl["users"][g.BOT] = 50  # so that it may still speak once the room is closed
            hs.set_state(r3, "ann", "m.room.power_levels", pl)
            mark = hs.mark()
            hs.send_text(r3, "ann", "!new 2")
            hs.wait_for_event(r3, sender=g.BOT, since=mark, body="opens a Porrazo table",
                              timeout=TIMEOUT * 2)
            n3 = hs.upgrade_room(r3, "ann")
            joined(hs, n3)
            hs.wait_for_event(r3, sender=g.BOT, body="(?m)^This room was upgraded: I am moving to " +
                              re.escape(n3), timeout=TIMEOUT * 2)
            # (the old room named by its name, as every room a person reads of)
            hs.wait_for_event(n3, sender=g.BOT, body="(?m)^This room replaces Old: the game goes "
                              "on here", timeout=TIMEOUT * 2)
            hs.join(n3, "bob")
            mark = hs.mark()
            hs.send_text(n3, "bob", "!join")
            hs.wait_for_event(n3, sender=g.BOT, since=mark, body=r"(?m)^Bob sits down \(2 of 2\)",
                              timeout=TIMEOUT * 2)
            done.append("upgrade")

            # -- names: bob becomes Roberto mid-game
            hs.set_displayname("bob", "Roberto")
            before, board = probe(hs, n3)
            lines = before + [board]
            deadline = time.monotonic() + TIMEOUT
            while not any(re.search(r"^Roberto\s+\[", b, re.M) for b in bot_bodies(hs, n3)):
                g.check(time.monotonic() < deadline, "the score board does not name Roberto: "
                        "%s" % bot_bodies(hs, n3)[-4:])
                time.sleep(0.05)
            g.check(lines, "no score board")
            done.append("names")

            # -- room names: help in a room says its short part there; in
            # ann's direct room, table and games name the game's room (its
            # name, else its alias), never its id
            hs.set_state(n3, "ann", "m.room.name", {"name": "Mesa Grande"})
            probe(hs, n3)  # the name is known before what follows
            mark = hs.mark()
            hs.send_text(n3, "ann", "!help")
            hs.wait_for_event(n3, sender=g.BOT, since=mark, timeout=TIMEOUT * 2,
                              body=r"(?m)^Lobby: .* the rest in our direct room$")
            for r in hs.rooms_of("ann", membership="invite"):
                hs.join(r, "ann")
            dms = hs.direct_rooms(g.BOT).get("@ann:test") or []
            g.check(len(dms) == 1, "ann's direct rooms: %s" % dms)
            dm = dms[0]
            g.check(hs.membership(dm, "ann") == "join", "ann is not in her direct room")
            hs.wait_for_event(dm, sender=g.BOT, since=mark, timeout=TIMEOUT * 2,
                              body=r"(?m)^Play: ")  # the rest of the help
            mark = hs.mark()
            hs.send_text(dm, "ann", "table")
            hs.wait_for_event(dm, sender=g.BOT, since=mark, timeout=TIMEOUT * 2,
                              body=r"(?m)^Mesa Grande: table ")
            hs.send_text(dm, "ann", "games")
            hs.wait_for_event(dm, sender=g.BOT, since=mark, timeout=TIMEOUT * 2,
                              body=r"(?m)^#\d+ (local )?Mesa Grande[:,] ")
            hs.set_state(n3, "ann", "m.room.name", {"name": ""})
            hs.set_state(n3, "ann", "m.room.canonical_alias", {"alias": "#mesa:test"})
            probe(hs, n3)
            mark = hs.mark()
            hs.send_text(dm, "ann", "table")
            hs.wait_for_event(dm, sender=g.BOT, since=mark, timeout=TIMEOUT * 2,
                              body=r"(?m)^#mesa:test: table ")
            said = bot_bodies(hs, dm)
            g.check(not any(n3 in b for b in said),
                    "a private line shows the room's id: %s" % [b for b in said if n3 in b])
            done.append("room names")

            # -- a direct room opened by the player
            d = hs.create_room("dan", invite=[g.BOT], is_direct=True, preset="trusted_private_chat")
            joined(hs, d)
            mark = hs.mark()
            hs.send_text(d, "dan", "stats")
            hs.wait_for_event(d, sender=g.BOT, since=mark, timeout=TIMEOUT * 2)
            deadline = time.monotonic() + TIMEOUT
            while hs.direct_rooms(g.BOT).get("@dan:test") != [d]:
                g.check(time.monotonic() < deadline, "m.direct: %s" % hs.direct_rooms(g.BOT))
                time.sleep(0.05)
            made = [e for e in hs.requests("POST", r"/createRoom$")
                    if "@dan:test" in str(e.get("body"))]
            g.check(not made, "the bot made another direct room for dan")
            done.append("direct")

            # -- a join cut short by a crash: resumed after the restart
            # (several times: libcurl itself sends a request again, without
            # telling, when a kept-alive connection closes before any answer)
            cut = hs.drop(r"/join$", when="before", count=20)
            r5 = hs.create_room("ann", name="Interrupted", invite=[g.BOT])
            deadline = time.monotonic() + TIMEOUT
            while "join failed" not in bot.log():
                g.check(time.monotonic() < deadline, "the join was not dropped")
                time.sleep(0.005)
            cut.cancel()
            bot.kill()  # before the retry (a back-off of at least half a second)
            g.check(hs.membership(r5, g.BOT) == "invite", "the bot joined before the kill")
            bot.start()
            joined(hs, r5)
            g.check("joining %s again" % r5 in bot.log(), "the join was not resumed")
            probe(hs, n3)  # the game room's "is back" is out
            done.append("interrupted join")

            # -- restart: nothing old answered again
            counts = {r: len(bot_bodies(hs, r)) for r in (r0, r2, n3, d)}
            g.check(bot.stop() == 0, "the bot did not stop cleanly")
            bot.start()
            _, board = probe(hs, n3)
            time.sleep(1)
            after = {r: len(bot_bodies(hs, r)) for r in (r0, r2, n3, d)}
            g.check(after[r0] == counts[r0] and after[r2] == counts[r2] and
                    after[d] == counts[d], "old rooms got new messages: %s -> %s" % (
                        counts, after))
            backs = [b for b in bot_bodies(hs, n3)[counts[n3]:] if b.startswith("porrazo is back")]
            g.check(len(backs) == 1, "the game room was told %d times it is back" % len(backs))
            done.append("restart")
            g.check_requests(hs)
            g.check(bot.stop() == 0, "the bot did not stop cleanly")
            bot = None
        finally:
            if bot is not None and bot.alive():
                bot.stop()
            hs.shutdown()
    print("matrix rooms: %s checked in %.0f s" % (", ".join(done), time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
