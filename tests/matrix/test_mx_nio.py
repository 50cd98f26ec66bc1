#!/usr/bin/python3
"""test_mx_nio.py -- a real Matrix client library, matrix-nio (Debian's
python3-matrix-nio), as the players' client against porrazo-bot through the
homeserver double, run by the system's /usr/bin/python3 (where Debian puts
nio).

  game        three players, each an nio AsyncClient (password log-in, /sync
              with a filter, invitations joined, room_send), play a whole
              game: they read the room and their direct rooms only from
              their own clients' syncs, play by console_game's strategy, and
              the final scores equal porrazo-replay's; every event the bot
              sent parses as nio's RoomMessageNotice or RoomMessageText
  encrypting  a server that encrypts every private room: the players' clients
              see their direct rooms with the bot as encrypted, no hand ever
              comes in one, the game's room is told once, plainly, and the
              players who sit down after that are not seated (told why)

usage: test_mx_nio.py PORRAZO_BOT PORRAZO_REPLAY
exit status 77 (skipped) when nio is not installed.
"""
import asyncio
import os
import re
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

try:
    import nio
except ImportError:
    print("SKIP: python3-matrix-nio is not installed (apt-get install python3-matrix-nio)")
    sys.exit(77)

import test_mx_game as g  # noqa: E402  (puts tests/bot on the path too)
import console_game as cg  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402

FILTER = {"room": {"timeline": {"limit": 100}}}


def own_join(info, user_id):
    """Whether a joined room's sync section holds user_id's own join: a room
    newly joined, whose timeline Synapse always marks limited (its history
    before the join, not a gap)."""
    return any(getattr(ev, "state_key", None) == user_id and
               getattr(ev, "membership", None) == "join" for ev in info.timeline.events)


class NioGame(g.MatrixGame):
    """MatrixGame whose players are nio clients: they speak with room_send
    and read with their own /sync."""

    def __init__(self, hs, db_path, bot, players=g.PLAYERS):
        super().__init__(hs, db_path, bot, players)
        self.loop = asyncio.new_event_loop()
        self.clients = {}
        self.bot_kinds = set()  # the nio classes of the bot's events
        for local, name in players:
            c = nio.AsyncClient(hs.url, hs.user_id(local), device_id="NIO" + local.upper(),
                                config=nio.AsyncClientConfig(encryption_enabled=False,
                                                             store_sync_tokens=False))
            r = self.run(c.login("pw"))
            g.check(isinstance(r, nio.LoginResponse), "nio could not log in: %s" % r)
            self.clients[name] = c
            self.run(c.sync(timeout=0, sync_filter=FILTER))

    def run(self, coro):
        return self.loop.run_until_complete(asyncio.wait_for(coro, TIMEOUT))

    def close(self):
        for c in self.clients.values():
            self.run(c.close())
        self.loop.close()

    def open_room(self):
        """ann's client makes the room and invites the bot and the others."""
        first, *rest = list(self.users.values())
        ann = self.clients[self.names[first]]
        r = self.run(ann.room_create(name="Mesa", invite=[g.BOT] + rest))
        g.check(isinstance(r, nio.RoomCreateResponse), "nio could not make the room: %s" % r)
        self.room = r.room_id
        self.hs.wait_for_event(self.room, type="m.room.member", timeout=TIMEOUT * 2,
                               predicate=lambda e: e.get("state_key") == g.BOT and
                               e["content"].get("membership") == "join")
        self.sync_all()
        self.done[self.room] = 0

    def sync_all(self):
        """Each client syncs, joins what it is invited to (its direct room),
        and keeps the bot's new events: {name: [(room, event source)]}."""
        got = {}
        for name, c in self.clients.items():
            r = self.run(c.sync(timeout=0, sync_filter=FILTER))
            g.check(isinstance(r, nio.SyncResponse), "nio sync failed: %s" % r)
            for room_id in r.rooms.invite:
                self.run(c.join(room_id))
            for room_id, info in r.rooms.join.items():
                g.check(not info.timeline.limited or own_join(info, c.user_id),
                        "a limited timeline for %s" % name)
                for ev in info.timeline.events:
                    if getattr(ev, "sender", None) == g.BOT and \
                            ev.source.get("type") == "m.room.message":
                        self.bot_kinds.add(type(ev).__name__)
                        got.setdefault(name, []).append((room_id, ev.source))
        return got

    def join_invites(self):
        pass  # sync_all does it

    def dm_of(self, uid):
        """uid's direct room with the bot, as uid's client knows its rooms."""
        if uid in self.dms:
            return self.dms[uid]
        c = self.clients[self.names[uid]]
        mine = [rid for rid, room in c.rooms.items() if rid != self.room and
                set(room.users) | set(room.invited_users) == {g.BOT, uid}]
        g.check(len(mine) <= 1, "%s has %d direct rooms with the bot" % (uid, len(mine)))
        if mine:
            self.dms[uid] = mine[0]
        return mine[0] if mine else None

    def say(self, line):
        m = re.match(r"(\S+)([:>]) (.*)$", line)
        name, where, text = m.group(1), m.group(2), m.group(3)
        uid = self.users[name]
        room = self.room
        if where == ">":
            room = self.dm_of(uid)
            g.check(room is not None, "%s has no direct room with the bot" % name)
        self.lines_sent += 1
        if g.ACTION.match(line):
            self.actions_sent += 1
        r = self.run(self.clients[name].room_send(room, "m.room.message",
                                                  {"msgtype": "m.text", "body": text}))
        g.check(isinstance(r, nio.RoomSendResponse), "nio could not send: %s" % r)
        return r.event_id

    def collect(self):
        """The bot's new events as console lines, read from the clients'
        syncs: the room from its creator's, each direct room from its
        player's; in the order the homeserver took them."""
        got = self.sync_all()
        first = self.names[list(self.users.values())[0]]
        lines = []
        for name, events in got.items():
            for room, src in events:
                uid = self.users[name]
                if room == self.room and name != first:
                    continue
                dm = room != self.room
                if dm and room != self.dm_of(uid):
                    continue
                self.events.append((room, src))
                for body in src["content"].get("body", "").split("\n"):
                    lines.append((src.get("origin_server_ts", 0), len(lines),
                                  "-> %s: %s" % (name, body) if dm else
                                  "#console <porrazo> %s" % body))
        return [text for _, _, text in sorted(lines)]


def whole_game(bot_exe, replay_exe, tmp):
    hs = g.new_world(tmp)
    # nio's players send over HTTP at machine speed, not a person's
    g.exempt_from_rate_limits(hs, *[hs.user_id(local) for local, _ in g.PLAYERS])
    db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
    g.write_config(conf, hs.url, db)
    bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
    game = None
    try:
        hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        game = NioGame(hs, db, bot)
        game.open_room()
        game.play()
        g.check(bot.stop() == 0, "porrazo-bot did not stop cleanly")
        board, scores, nactions = g.check_outcome(game, bot_exe, replay_exe, db)
        g.check_events(game)
        g.check(game.bot_kinds <= {"RoomMessageNotice", "RoomMessageText"} and
                "RoomMessageNotice" in game.bot_kinds,
                "nio read the bot's events as %s" % game.bot_kinds)
        g.check(not hs.errors, "the double had internal errors:\n%s" % "\n".join(hs.errors))
        return nactions, board, scores, len(game.events)
    finally:
        if game is not None:
            game.close()
        if bot.alive():
            bot.stop()
        hs.shutdown()


def encrypting_server(bot_exe, tmp):
    players = [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat")]
    hs = g.new_world(tmp, players=players, encrypt_by_default="invite")
    g.exempt_from_rate_limits(hs, *[hs.user_id(local) for local, _ in players])
    db, conf = os.path.join(tmp, "e2e.db"), os.path.join(tmp, "e2e.conf")
    g.write_config(conf, hs.url, db)
    bot = g.Bot(bot_exe, conf, os.path.join(tmp, "e2e.log"))
    game = None
    try:
        hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        game = NioGame(hs, db, bot, players=players)
        ann = game.clients["Ann"]
        r = game.run(ann.room_create(name="Open", preset=nio.RoomPreset.public_chat,
                                     invite=[g.BOT, "@bob:test", "@cat:test"]))
        g.check(isinstance(r, nio.RoomCreateResponse), "nio could not make the room: %s" % r)
        game.room = room = r.room_id
        hs.wait_for_event(room, type="m.room.member", timeout=TIMEOUT * 2,
                          predicate=lambda e: e.get("state_key") == g.BOT and
                          e["content"].get("membership") == "join")
        game.sync_all()
        for line in ("Ann: !new 2", "Bob: !join"):
            game.settle(game.say(line))
        deadline = time.monotonic() + TIMEOUT
        told = []
        while not told:
            g.check(time.monotonic() < deadline, "the room was not told")
            got = game.sync_all()
            told = [src for _, src in got.get("Ann", []) if
                    src["content"]["body"].startswith("Private hands cannot be delivered")]
            time.sleep(0.2)
        eid = game.say("Cat: !join")
        game.settle(eid)
        got = game.sync_all()
        answer = [src["content"]["body"] for _, src in got.get("Cat", [])]
        g.check(answer and "cannot" in answer[-1] and "sits" not in answer[-1],
                "cat was seated or not told: %s" % answer)
        time.sleep(1)
        got = game.sync_all()
        for name, c in game.clients.items():
            for rid, croom in c.rooms.items():
                if rid == room:
                    continue
                g.check(croom.encrypted, "%s's client sees an unencrypted room %s" % (name, rid))
        hands = [src for events in got.values() for rid, src in events if rid != room and
                 "hand" in src["content"]["body"].lower()]
        hands += [e for r in hs.rooms_of(g.BOT) if r != room for e in hs.events(r)
                  if e["sender"] == g.BOT and "hand" in e["content"].get("body", "").lower()]
        g.check(not hands, "a hand was sent into an encrypted room: %s" % hands[:1])
        said = [e for e in hs.events(room) if e["sender"] == g.BOT and
                "Private hands cannot be delivered" in e["content"].get("body", "")]
        g.check(len(said) == 1, "the room was told %d times" % len(said))
        g.check(bot.stop() == 0, "porrazo-bot did not stop cleanly")
    finally:
        if game is not None:
            game.close()
        if bot.alive():
            bot.stop()
        hs.shutdown()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t0 = time.monotonic()
    with g.workdir("pz-mx-nio-") as tmp:
        nactions, board, scores, nevents = whole_game(bot_exe, replay_exe, tmp)
        encrypting_server(bot_exe, tmp)
    print("matrix nio: a whole game by matrix-nio clients, %d actions, %d bot events read by "
          "their syncs, final %s = replay %s; a server that encrypts private rooms: no hand "
          "sent, the room told once, players who sit down after it not seated; %.0f s" % (
              nactions, nevents, board, scores, time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
