#!/usr/bin/python3
"""test_mx_e2ee.py -- porrazo-bot in end-to-end encrypted rooms, its players
real E2EE clients: matrix-nio with python3-olm (encryption_enabled), against
the homeserver double.

  game      three nio players in an encrypted room (made as Element makes
            it) play a whole game: every move reaches the bot only
            encrypted, every bot event is read by decrypting it (none stays
            undecryptable), the hands come in encrypted direct rooms, the
            scores equal porrazo-replay's; the request log holds no plaintext
            m.room.message from the bot in an encrypted room; the bot is
            killed (SIGKILL) mid-game and restarted: its sessions survive
            and no (session, index) of its events is used twice (checked
            by decrypting every event with a player's inbound session); the
            room's key is renewed after 100 messages
  lifecycle a player's own encrypted direct room with the bot is answered in,
            encrypted; four players, one of whose device keys the server changed
            without a signature: that device never gets a room key; a
            player's second device, added mid-game, reads the next line, and
            once it is logged out (deleted) the key changes without it; a
            player leaves and the next line is under a new room key the
            leaver never got; a command whose room key comes after it waits
            and is answered once the key is there

usage: test_mx_e2ee.py PORRAZO_BOT PORRAZO_REPLAY
exit status 77 (skipped) when nio cannot encrypt here.
"""
import asyncio
import os
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

try:
    import nio
    import nio.crypto
    import olm  # noqa: F401
    if not nio.crypto.ENCRYPTION_ENABLED:
        raise ImportError("nio without encryption")
except ImportError as e:
    print("SKIP: nio cannot encrypt here (%s): apt-get install python3-matrix-nio python3-olm" % e)
    sys.exit(77)

import test_mx_game as g  # noqa: E402
import console_game as cg  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from test_mx_game import check_no_plaintext, write_e2ee_config as write_config  # noqa: E402,E501
from test_mx_nio import FILTER, NioGame, own_join  # noqa: E402


class E2eeGame(NioGame):
    """NioGame whose clients encrypt: each keeps its Olm store in tmp,
    uploads and queries keys after every sync as a client's sync loop does,
    and sends with room_send into encrypted rooms."""

    def __init__(self, hs, db_path, bot, tmp, players=g.PLAYERS):
        g.MatrixGame.__init__(self, hs, db_path, bot, players)
        self.loop = asyncio.new_event_loop()
        self.clients = {}
        self.bot_kinds = set()
        self.undecrypted = []  # the bot's events a player could not read
        for local, name in players:
            store = os.path.join(tmp, "nio-" + local)
            os.makedirs(store, exist_ok=True)
            c = nio.AsyncClient(hs.url, hs.user_id(local), device_id="NIO" + local.upper(),
                                store_path=store,
                                config=nio.AsyncClientConfig(encryption_enabled=True,
                                                             store_sync_tokens=False))
            r = self.run(c.login("pw"))
            g.check(isinstance(r, nio.LoginResponse), "nio could not log in: %s" % r)
            self.clients[name] = c
            self.run(c.sync(timeout=0, sync_filter=FILTER))
            self.keys(c)

    def keys(self, c):
        if c.should_upload_keys:
            self.run(c.keys_upload())
        if c.should_query_keys:
            self.run(c.keys_query())

    def open_room(self):
        first, *rest = list(self.users.values())
        ann = self.clients[self.names[first]]
        r = self.run(ann.room_create(name="Mesa", invite=[g.BOT] + rest,
                                     initial_state=[nio.EnableEncryptionBuilder().as_dict()]))
        g.check(isinstance(r, nio.RoomCreateResponse), "nio could not make the room: %s" % r)
        self.room = r.room_id
        self.hs.wait_for_event(self.room, type="m.room.member", timeout=TIMEOUT * 2,
                               predicate=lambda e: e.get("state_key") == g.BOT and
                               e["content"].get("membership") == "join")
        self.sync_all()
        self.done[self.room] = 0

    def sync_all(self):
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
                    if getattr(ev, "sender", None) != g.BOT:
                        continue
                    if isinstance(ev, nio.MegolmEvent):
                        self.undecrypted.append((name, room_id, ev.event_id))
                        g.check(len(self.undecrypted) < 20, "%s cannot decrypt the bot's "
                                "events: %s" % (name, self.undecrypted[-3:]))
                    elif ev.source.get("type") == "m.room.message":
                        g.check(getattr(ev, "decrypted", False) or
                                not c.rooms[room_id].encrypted,
                                "%s read a plaintext bot event in an encrypted room" % name)
                        self.bot_kinds.add(type(ev).__name__)
                        got.setdefault(name, []).append((room_id, ev.source))
            self.keys(c)
        return got

    def say(self, line):
        import re
        m = re.match(r"(\S+)([:>]) (.*)$", line)
        name, where, text = m.group(1), m.group(2), m.group(3)
        uid = self.users[name]
        room = self.room if where == ":" else self.dm_of(uid)
        g.check(room is not None, "%s has no direct room with the bot" % name)
        self.lines_sent += 1
        if g.ACTION.match(line):
            self.actions_sent += 1
        c = self.clients[name]
        g.check(c.rooms[room].encrypted, "%s's room %s is not encrypted" % (name, room))
        r = self.run(c.room_send(room, "m.room.message", {"msgtype": "m.text", "body": text},
                                 ignore_unverified_devices=True))
        g.check(isinstance(r, nio.RoomSendResponse), "nio could not send: %s" % r)
        return r.event_id


def check_indexes(game, rooms):
    """Every bot event, decrypted with Ann's inbound sessions (python3-olm):
    no (session, index) twice."""
    ann = game.clients["Ann"]
    seen, n = {}, 0
    for room in rooms:
        for ev in game.hs.events(room):
            if ev["sender"] != g.BOT or ev["type"] != "m.room.encrypted":
                continue
            c = ev["content"]
            s = ann.olm.inbound_group_store.get(room, c["sender_key"], c["session_id"])
            if s is None:
                continue  # a direct room of another player
            _, index = s.decrypt(c["ciphertext"])
            key = (c["session_id"], index)
            g.check(key not in seen, "index %d of session %s used by %s and %s" % (
                index, c["session_id"][:8], seen.get(key), ev["event_id"]))
            seen[key] = ev["event_id"]
            n += 1
    g.check(n > 0, "no bot event decrypted by index")
    return n, len({s for s, _ in seen})


def whole_game(bot_exe, replay_exe, tmp):
    hs = g.new_world(tmp)
    g.exempt_from_rate_limits(hs, *[hs.user_id(local) for local, _ in g.PLAYERS])
    db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
    write_config(conf, hs, db)
    log = os.path.join(tmp, "bot.log")
    bot = g.Bot(bot_exe, conf, log)
    game = None
    killed = []

    def restart(game_, line, eid):
        if game_.actions_sent == 25 and not killed:
            game_.settle(eid)
            game_.bot.kill()
            killed.append(line)
            game_.bot = g.Bot(bot_exe, conf, log)

    try:
        hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        game = E2eeGame(hs, db, bot, tmp)
        game.open_room()
        game.restart_hook = restart
        t0 = time.monotonic()
        game.play()
        secs = time.monotonic() - t0
        g.check(killed, "the game ended before the kill")
        g.check(game.bot.stop() == 0, "porrazo-bot did not stop cleanly")
        board, scores, nactions = g.check_outcome(game, bot_exe, replay_exe, db)
        g.check_events(game)
        g.check(not game.undecrypted, "players could not decrypt %d bot events: %s" % (
            len(game.undecrypted), game.undecrypted[:3]))
        rooms = [game.room] + [game.dm_of(u) for u in game.users.values()]
        g.check(all(rooms), "a player has no direct room")
        for r in rooms:
            g.check(hs.state(r, "m.room.encryption") is not None, "%s is not encrypted" % r)
        nenc = check_no_plaintext(hs, rooms)
        nidx, nsessions = check_indexes(game, rooms)
        g.check(not hs.errors, "the double had internal errors:\n%s" % "\n".join(hs.errors))
        g.check("(100 messages)" in game.bot.log(), "the room key was not renewed at 100")
        keys = [e for e in hs.to_device_log if e["sender"] == g.BOT]
        print("e2ee game: %d actions in %.0f s, final %s = replay %s; %d encrypted events, %d "
              "checked by index over %d sessions, %d room keys sent; killed and restarted "
              "after %r" % (nactions, secs, board, scores, nenc, nidx, nsessions, len(keys),
                            killed[0]))
    finally:
        if game is not None:
            game.close()
        for b in (bot, game.bot if game is not None else None):
            if b is not None and b.alive():
                b.stop()
        hs.shutdown()


def room_line(game, name, text="!help new"):
    """name says text in the room; the bot's answer, as every client syncs:
    (its event as the server holds it, {client name: decrypted or None})."""
    mark = game.hs.mark()
    eid = game.say("%s: %s" % (name, text))
    game.settle(eid)
    evs = [e for e in game.hs.events(game.room, since=mark) if e["sender"] == g.BOT]
    g.check(len(evs) == 1, "%d answers to %r" % (len(evs), text))
    ev = evs[0]
    read = {}
    for cname, c in game.clients.items():
        game.run(c.sync(timeout=0, sync_filter=FILTER))
        game.keys(c)
        read[cname] = None
        s = c.olm.inbound_group_store.get(game.room, ev["content"]["sender_key"],
                                          ev["content"]["session_id"])
        if s is not None:
            read[cname] = s.decrypt(ev["content"]["ciphertext"])[0]
    return ev, read


def lifecycle(bot_exe, tmp):
    players = [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat"), ("dan", "Dan")]
    hs = g.new_world(tmp, players=players)
    g.exempt_from_rate_limits(hs, *[hs.user_id(local) for local, _ in players])
    db, conf = os.path.join(tmp, "life.db"), os.path.join(tmp, "life.conf")
    write_config(conf, hs, db)
    bot = g.Bot(bot_exe, conf, os.path.join(tmp, "life.log"))
    game = None
    try:
        hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        game = E2eeGame(hs, db, bot, tmp, players=players)
        # a server that swaps Dan's device key: the bot must not trust it
        hs.tamper_device_keys("dan", "NIODAN")
        # Bob's own encrypted direct room with the bot (as Element makes one)
        bob = game.clients["Bob"]
        r = game.run(bob.room_create(is_direct=True, invite=[g.BOT],
                                     initial_state=[nio.EnableEncryptionBuilder().as_dict()]))
        g.check(isinstance(r, nio.RoomCreateResponse), "nio could not make a DM: %s" % r)
        dm = r.room_id
        hs.wait_for_event(dm, type="m.room.member", timeout=TIMEOUT * 2,
                          predicate=lambda e: e.get("state_key") == g.BOT and
                          e["content"].get("membership") == "join")
        game.sync_all()
        game.dms["@bob:test"] = dm
        mark = hs.mark()
        game.settle(game.say("Bob> help"))
        got = [e for e in hs.events(dm, since=mark) if e["sender"] == g.BOT]
        g.check(got and all(e["type"] == "m.room.encrypted" for e in got),
                "the answer in Bob's encrypted direct room: %s" % [e["type"] for e in got])
        answers = game.sync_all().get("Bob", [])
        g.check([src for rid, src in answers if rid == dm and src["content"].get("body")],
                "Bob could not read the answer in the direct room he made")
        game.open_room()
        ev1, read = room_line(game, "Ann")
        g.check(read["Ann"] and read["Bob"] and read["Cat"], "not read by all: %s" % read)
        g.check(read["Dan"] is None, "the tampered device got the room key")
        g.check("device NIODAN of @dan:test has keys that are not signed by it" in bot.log(),
                "the tampered device was not refused in the log")
        g.check(not [e for e in hs.to_device_log if e["sender"] == g.BOT and
                     e["device"] == "NIODAN"], "a to-device message went to the tampered device")
        # Ann's second device
        ann2 = nio.AsyncClient(hs.url, "@ann:test", device_id="NIOANN2",
                               store_path=os.path.join(tmp, "nio-ann2"),
                               config=nio.AsyncClientConfig(encryption_enabled=True,
                                                            store_sync_tokens=False))
        os.makedirs(os.path.join(tmp, "nio-ann2"), exist_ok=True)
        game.run(ann2.login("pw"))
        game.clients["Ann2"] = ann2
        game.run(ann2.sync(timeout=0, sync_filter=FILTER))
        game.keys(ann2)
        ev2, read = room_line(game, "Bob")
        ev2_seq = len(hs.to_device_log)
        g.check(read["Ann2"], "Ann's second device cannot read the next line")
        g.check(read["Ann"] and read["Cat"], "not read by all: %s" % read)
        # the second device goes (logged out, deleted): a new key without it
        game.run(ann2.logout())
        del game.clients["Ann2"]
        game.run(ann2.close())
        ev2b, read = room_line(game, "Bob")
        g.check(ev2b["content"]["session_id"] != ev2["content"]["session_id"],
                "the room key did not change when a device went")
        g.check(read["Ann"] and read["Cat"], "not read by all: %s" % read)
        g.check(not [e for e in hs.to_device_log if e["sender"] == g.BOT and
                     e["device"] == "NIOANN2" and e["seq"] > ev2_seq],
                "a room key went to the deleted device")
        ev2 = ev2b
        # Cat leaves: the next line is under a new key Cat never got
        game.run(game.clients["Cat"].room_leave(game.room))
        to_cat = len([e for e in hs.to_device_log if e["sender"] == g.BOT and
                      e["user"] == "@cat:test"])
        ev3, read = room_line(game, "Ann")
        g.check(ev3["content"]["session_id"] != ev2["content"]["session_id"],
                "the room key did not change when Cat left")
        g.check(read["Cat"] is None and read["Bob"], "after Cat left: %s" % read)
        g.check(len([e for e in hs.to_device_log if e["sender"] == g.BOT and
                     e["user"] == "@cat:test"]) == to_cat, "a room key went to Cat after she left")
        g.check("(a member or a device went)" in bot.log(), "the log does not say why")
        # a command whose key comes after it: Ann's client shares a new room key
        # (held by the server 4 s before it takes it) and meanwhile the command
        # it encrypts arrives
        ann = game.clients["Ann"]
        ann.olm.rotate_outbound_group_session(game.room)
        hold = hs.delay(path="/sendToDevice/", seconds=4.0, count=1, method="PUT")
        task = game.loop.create_task(ann.share_group_session(game.room,
                                                             ignore_unverified_devices=True))
        deadline = time.monotonic() + TIMEOUT
        while not hold.hits:
            g.check(time.monotonic() < deadline, "Ann's client did not share its key")
            game.loop.run_until_complete(asyncio.sleep(0.05))
        s = ann.olm.outbound_group_sessions[game.room]
        s.shared = True  # the share is on the wire: its key is for index 0
        late = ann.olm.group_encrypt(game.room, {"type": "m.room.message", "content": {
            "msgtype": "m.text", "body": "!help join"}})
        mark = hs.mark()
        eid = hs.send_event(game.room, "ann", "m.room.encrypted", late)
        time.sleep(1.5)
        g.check(not game.db.seen(eid), "a command was handled before its key came")
        game.loop.run_until_complete(asyncio.wait_for(task, TIMEOUT))
        game.settle(eid)
        answers = [e for e in hs.events(game.room, since=mark) if e["sender"] == g.BOT]
        g.check(answers, "the late command was not answered")
        g.check(bot.stop() == 0, "porrazo-bot did not stop cleanly")
        print("e2ee lifecycle: a player's encrypted DM answered, tampered device refused, second device reads, its going and a "
              "leaver rotate the key, a late key's command answered: ok")
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
    with g.workdir("pz-mx-e2ee-") as tmp:
        lifecycle(bot_exe, tmp)
    with g.workdir("pz-mx-e2ee-") as tmp:
        whole_game(bot_exe, replay_exe, tmp)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
