#!/usr/bin/python3
"""test_mx_e2ee_keys.py -- who gets porrazo-bot's room keys, and what it keeps
of the keys it gets; its players real E2EE clients (matrix-nio with
python3-olm) against the homeserver double.

  late dm   twenty players at ten encrypted tables of two, all at once: each
            table's game starts (its dealer says !tendido later), so each
            player's first hand goes to a brand-new encrypted direct room
            they are only invited to (the dealer's since their !new); they
            accept it 0 s, 3 s or 60 s after the invitation, and every one
            reads that first hand (the key was given to invited members, from
            the session's index 0), 20 of 20
  joined    a room whose history visibility is "joined": its invited member
            gets no key until they join, then from the current index
  withheld  a player's client withholds its room key from the bot's device
            (m.room_key.withheld, m.unverified, twice, then m.blacklisted):
            the player is told once per code, privately, why and what to
            change, in their language (Spanish for one who chose it), and the
            log says so
  replay    a player sends COMMANDS encrypted commands (300; --commands N):
            the bot's kv holds one row per inbound session (its replay window
            inside), none per message: the rows grow by the sessions only;
            an index posted again as a new event, or older than the window
            (a session used past it), is refused and logged

usage: test_mx_e2ee_keys.py PORRAZO_BOT [--commands N] [--only late|joined|withheld|replay]
exit status 77 (skipped) when nio cannot encrypt here.
"""
import argparse
import asyncio
import json
import os
import re
import sqlite3
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
from test_mx_nio import FILTER  # noqa: E402
from test_mx_e2ee import write_config  # noqa: E402

DELAYS = (0, 3, 60)  # seconds from a direct room's invitation to its acceptance
TABLES = 10
WINDOW = 128  # MX_REPLAY_WINDOW
HAND = re.compile(r"^Your hand in .+ \(deal 1 of \d+\)")


async def gather(*coros):
    """asyncio.gather inside the running loop (not the default one)."""
    return await asyncio.gather(*coros)


class World:
    """The double, the bot and nio players (local names), one event loop."""

    def __init__(self, bot_exe, tmp, players, tag):
        self.tmp = tmp
        self.locals = players
        self.hs = g.new_world(tmp, players=[(p, p.capitalize()) for p in players])
        g.exempt_from_rate_limits(self.hs, *[self.hs.user_id(p) for p in players])
        self.db_path = os.path.join(tmp, tag + ".db")
        conf = os.path.join(tmp, tag + ".conf")
        write_config(conf, self.hs, self.db_path)
        self.log = os.path.join(tmp, tag + ".log")
        self.bot = g.Bot(bot_exe, conf, self.log)
        self.db = g.Db(self.db_path)
        self.loop = asyncio.new_event_loop()
        self.clients = {}
        self.hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        self.run(gather(*[self.login(p) for p in players]))

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    async def login(self, local):
        store = os.path.join(self.tmp, "nio-" + local)
        os.makedirs(store, exist_ok=True)
        c = nio.AsyncClient(self.hs.url, self.hs.user_id(local),
                            device_id="NIO" + local.upper(), store_path=store,
                            config=nio.AsyncClientConfig(encryption_enabled=True,
                                                         store_sync_tokens=False))
        r = await c.login("pw")
        g.check(isinstance(r, nio.LoginResponse), "nio could not log in: %s" % r)
        self.clients[local] = c
        await self.sync(c)

    async def sync(self, c, timeout=0):
        """One sync, then the keys a client's sync loop uploads and queries."""
        r = await c.sync(timeout=timeout, sync_filter=FILTER)
        g.check(isinstance(r, nio.SyncResponse), "nio sync failed: %s" % r)
        if c.should_upload_keys:
            await c.keys_upload()
        if c.should_query_keys:
            await c.keys_query()
        return r

    async def wait_seen(self, event_id):
        """Until the bot handled event_id and sent what it queued."""
        deadline = time.monotonic() + TIMEOUT * 4
        while not (self.db.seen(event_id) and not self.db.outbox()):
            g.check(self.bot.alive(), "porrazo-bot died:\n" + self.bot.log()[-3000:])
            g.check(time.monotonic() < deadline, "the bot did not handle %s in time; log "
                    "tail:\n%s" % (event_id, self.bot.log()[-3000:]))
            await asyncio.sleep(0.05)

    async def send(self, local, room, text):
        r = await self.clients[local].room_send(
            room, "m.room.message", {"msgtype": "m.text", "body": text},
            ignore_unverified_devices=True)
        g.check(isinstance(r, nio.RoomSendResponse), "nio could not send: %s" % r)
        return r.event_id

    async def table(self, first, second, name):
        """first makes an encrypted room for the bot and second, both join."""
        c1, c2 = self.clients[first], self.clients[second]
        r = await c1.room_create(name=name, invite=[g.BOT, self.hs.user_id(second)],
                                 initial_state=[nio.EnableEncryptionBuilder().as_dict()])
        g.check(isinstance(r, nio.RoomCreateResponse), "nio could not make a room: %s" % r)
        room = r.room_id
        r = await c2.join(room)
        g.check(isinstance(r, nio.JoinResponse), "%s could not join: %s" % (second, r))
        deadline = time.monotonic() + TIMEOUT * 2
        while self.hs.membership(room, g.BOT) != "join":
            g.check(time.monotonic() < deadline, "the bot did not join %s" % name)
            await asyncio.sleep(0.05)
        await self.sync(c1)
        await self.sync(c2)
        return room

    def kv_rows(self, prefix=""):
        con = sqlite3.connect("file:%s?mode=ro" % self.db_path, uri=True, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM kv WHERE key LIKE ?",
                               (prefix + "%",)).fetchone()[0]
        finally:
            con.close()

    def close(self):
        for c in self.clients.values():
            self.run(c.close())
        if self.bot.alive():
            g.check(self.bot.stop() == 0, "porrazo-bot did not stop cleanly")
        g.check(not self.hs.errors, "the double had internal errors:\n%s" %
                "\n".join(self.hs.errors))
        self.hs.shutdown()


async def accept_and_read(w, local, game_rooms, delay):
    """local accepts the bot's direct room delay s after its invitation, then
    syncs until it has the bot's first event there: (delay, whether that
    event decrypted to the first hand, its body or why not)."""
    c = w.clients[local]
    invited_at, dm = None, None
    deadline = time.monotonic() + delay + TIMEOUT * 3
    while time.monotonic() < deadline:
        r = await w.sync(c, timeout=200)
        for room_id in r.rooms.invite:
            if room_id not in game_rooms and dm is None:
                dm, invited_at = room_id, time.monotonic()
        if invited_at is not None and time.monotonic() >= invited_at + delay:
            break
        await asyncio.sleep(0.05)
    g.check(dm is not None, "%s was never invited to a direct room" % local)
    r = await c.join(dm)
    g.check(isinstance(r, nio.JoinResponse), "%s could not join the direct room: %s" % (local, r))
    while time.monotonic() < deadline:
        r = await w.sync(c, timeout=200)
        info = r.rooms.join.get(dm)
        for ev in (info.timeline.events if info is not None else []):
            if getattr(ev, "sender", None) != g.BOT:
                continue
            if isinstance(ev, nio.MegolmEvent):
                return delay, False, "undecryptable (session %s)" % ev.session_id[:8]
            body = getattr(ev, "body", None)
            if body is not None:
                return delay, bool(HAND.match(body)), body[:60]
    return delay, False, "the bot's first event never came"


def late_dm(bot_exe, tmp):
    players = ["p%02d" % i for i in range(2 * TABLES)]
    w = World(bot_exe, tmp, players, "late")
    try:
        rooms = w.run(gather(*[
            w.table(players[2 * t], players[2 * t + 1], "Mesa %d" % t) for t in range(TABLES)]))

        async def start(t):
            first, second = players[2 * t], players[2 * t + 1]
            await w.wait_seen(await w.send(first, rooms[t], "!new 2"))
            await w.sync(w.clients[second])
            await w.wait_seen(await w.send(second, rooms[t], "!join"))
            # the dealer's hand comes once they chose when to lay the tendido
            await w.sync(w.clients[first])
            await w.wait_seen(await w.send(first, rooms[t], "!tendido later"))

        async def everything():
            readers = [asyncio.ensure_future(
                accept_and_read(w, p, set(rooms), DELAYS[i % len(DELAYS)]))
                for i, p in enumerate(players)]
            await asyncio.gather(*[start(t) for t in range(TABLES)])
            return await asyncio.gather(*readers)

        t0 = time.monotonic()
        got = w.run(everything())
        secs = time.monotonic() - t0
        bad = [(p, d, why) for p, (d, ok, why) in zip(players, got) if not ok]
        for d in DELAYS:
            n = [ok for dd, ok, _ in got if dd == d]
            print("accepted after %2d s: %d of %d read their first hand" % (d, sum(n), len(n)))
        g.check(not bad, "%d of %d players could not read their first hand: %s" % (
            len(bad), len(players), bad[:5]))
        print("late dm: %d of %d players read their first hand (%.0f s)" % (
            len(players) - len(bad), len(players), secs))
    finally:
        w.close()


def joined_history(bot_exe, tmp):
    """A room whose history is for joined members only: its invited member
    gets no room key until they join, then one from the session's current
    index (they cannot read the line sent before)."""
    w = World(bot_exe, tmp, ["ann", "bea"], "joined")
    try:
        ann = w.clients["ann"]
        r = w.run(ann.room_create(name="Mesa", invite=[g.BOT], initial_state=[
            nio.EnableEncryptionBuilder().as_dict(),
            {"type": "m.room.history_visibility", "state_key": "",
             "content": {"history_visibility": "joined"}}]))
        g.check(isinstance(r, nio.RoomCreateResponse), "nio could not make a room: %s" % r)
        room = r.room_id
        deadline = time.monotonic() + TIMEOUT * 2
        while w.hs.membership(room, g.BOT) != "join":
            g.check(time.monotonic() < deadline, "the bot did not join")
            time.sleep(0.05)
        w.hs.invite(room, "ann", "bea")
        w.run(w.sync(ann))
        mark = w.hs.mark()
        w.run(w.wait_seen(w.run(w.send("ann", room, "!help new"))))
        before = bot_lines(w, room, mark)
        g.check(before, "the bot did not answer")
        to_bea = [e for e in w.hs.to_device_log if e["sender"] == g.BOT and
                  e["user"] == "@bea:test"]
        g.check(not to_bea, "the invited member got a room key in a 'joined' room")
        bea = w.clients["bea"]
        w.run(bea.join(room))
        w.run(w.sync(bea))
        mark = w.hs.mark()
        w.run(w.wait_seen(w.run(w.send("ann", room, "!help new"))))
        after = bot_lines(w, room, mark)
        g.check(after and after[0]["content"]["session_id"] ==
                before[0]["content"]["session_id"], "the room key changed when Bea joined")
        w.run(read_lines(w, "bea", room, after))  # checks Bea has the key
        s = bea.olm.inbound_group_store.get(room, before[0]["content"]["sender_key"],
                                            before[0]["content"]["session_id"])
        g.check(s.first_known_index > 0, "Bea got the key from index 0 in a 'joined' room")
        try:
            s.decrypt(before[0]["content"]["ciphertext"])
            g.check(False, "Bea read a line sent before she joined a 'joined' room")
        except olm.OlmGroupSessionError:
            pass
        print("joined history: no key while invited; after the join, from index %d" %
              s.first_known_index)
    finally:
        w.close()


def bot_lines(w, room, since):
    return [e for e in w.hs.events(room, since=since) if e["sender"] == g.BOT]


async def read_lines(w, local, room, events):
    """What local's client decrypts of the bot's events in room."""
    c = w.clients[local]
    await w.sync(c)
    out = []
    for ev in events:
        s = c.olm.inbound_group_store.get(room, ev["content"]["sender_key"],
                                          ev["content"]["session_id"])
        g.check(s is not None, "%s has no key for the bot's line %s" % (local, ev["event_id"]))
        out.append(json.loads(s.decrypt(ev["content"]["ciphertext"])[0]))
    return out


def withheld(bot_exe, tmp):
    w = World(bot_exe, tmp, ["ann", "bea"], "withheld")
    try:
        room = w.run(w.table("ann", "bea", "Mesa"))
        # Bea chooses Spanish; both get their direct room (a hand-less line)
        for local in ("ann", "bea"):
            eid = w.run(w.send(local, room, "!new 2" if local == "ann" else "!join"))
            w.run(w.wait_seen(eid))
        eid = w.run(w.send("bea", room, "!lang es"))
        w.run(w.wait_seen(eid))
        dms = {}
        for local in ("ann", "bea"):
            c = w.clients[local]
            w.run(w.sync(c))
            for rid in list(c.invited_rooms):
                w.run(c.join(rid))
            w.run(w.sync(c))
            mine = [r for r in w.hs.rooms_of(local) if r != room and
                    sorted(w.hs.members(r)) == sorted([g.BOT, w.hs.user_id(local)])]
            g.check(len(mine) == 1, "%s has %d direct rooms with the bot" % (local, len(mine)))
            dms[local] = mine[0]

        def withhold(local, code):
            c = w.clients[local]
            content = {"algorithm": "m.megolm.v1.aes-sha2", "room_id": room,
                       "session_id": "s" * 43, "code": code,
                       "sender_key": c.olm.account.identity_keys["curve25519"],
                       "reason": "withheld by the test"}
            devs = w.hs.devices_of("porrazo")
            g.check(len(devs) == 1, "the bot has %d devices" % len(devs))
            msg = nio.event_builders.ToDeviceMessage("m.room_key.withheld", g.BOT, devs[0],
                                                     content)
            r = w.run(c.to_device(msg))
            g.check(isinstance(r, nio.ToDeviceResponse), "to-device refused: %s" % r)

        def lines(local, since, n):
            """The bot's lines in local's direct room since, once n came and
            the outbox is empty (more may follow: the caller counts)."""
            deadline = time.monotonic() + TIMEOUT
            while len(bot_lines(w, dms[local], since)) < n or w.db.outbox():
                g.check(time.monotonic() < deadline, "%d lines to %s, not %d" % (
                    len(bot_lines(w, dms[local], since)), local, n))
                time.sleep(0.05)
            time.sleep(0.5)
            return bot_lines(w, dms[local], since)

        mark = w.hs.mark()
        withhold("ann", "m.unverified")
        text = w.run(read_lines(w, "ann", dms["ann"], lines("ann", mark, 1)))[0]
        text = text["content"]["body"]
        g.check("unverified sessions" in text and "Verify my session" in text,
                "Ann was not told what to change: %r" % text)
        # the same code again: nothing; another code: its own line (after the
        # repeat, which the bot read first: to-device messages keep their order)
        withhold("ann", "m.unverified")
        withhold("ann", "m.blacklisted")
        got = lines("ann", mark, 2)
        g.check(len(got) == 2, "%d lines to Ann for m.unverified twice and m.blacklisted" %
                len(got))
        blocked = w.run(read_lines(w, "ann", dms["ann"], got[1:]))[0]["content"]["body"]
        g.check("blocked my session" in blocked, "not told of the block: %r" % blocked)
        mark = w.hs.mark()
        withhold("bea", "m.unverified")
        got = lines("bea", mark, 1)
        g.check(len(got) == 1, "%d lines to Bea" % len(got))
        es = w.run(read_lines(w, "bea", dms["bea"], got))[0]["content"]["body"]
        g.check(es.startswith("No puedo leer"), "Bea was not told in Spanish: %r" % es)
        log = w.bot.log()
        for who, code in (("@ann:test", "m.unverified"), ("@ann:test", "m.blacklisted"),
                          ("@bea:test", "m.unverified")):
            g.check(re.search(r"%s's device NIO[A-Z]+ withholds its room keys from the bot "
                              r"\(%s\)" % (re.escape(who), re.escape(code)), log),
                    "the log does not say that %s withheld (%s)" % (who, code))
        g.check("withheld by the test" not in log, "the log holds the client's free text")
        print("withheld: told once per code, privately, in English and in Spanish: %r" % text)
    finally:
        w.close()


def replay(bot_exe, tmp, commands):
    w = World(bot_exe, tmp, ["ann", "bea"], "replay")
    try:
        room = w.run(w.table("ann", "bea", "Mesa"))
        w.run(w.wait_seen(w.run(w.send("ann", room, "!help new"))))
        before, sessions_before = w.kv_rows(), w.kv_rows("mgi:")
        t0 = time.monotonic()

        async def many():
            sent = []
            for i in range(commands):
                sent.append(await w.send("ann", room, "!help new"))
                if i % 100 == 99:
                    await w.sync(w.clients["ann"])
            await w.wait_seen(sent[-1])
            return sent

        sent = w.run(many())
        secs = time.monotonic() - t0
        sessions = {e["content"]["session_id"] for e in w.hs.events(room)
                    if e["type"] == "m.room.encrypted" and e["sender"] != g.BOT}
        after, inbound = w.kv_rows(), w.kv_rows("mgi:")
        g.check(w.kv_rows("mgx:") == 0, "rows per decrypted message are still written")
        g.check(inbound - sessions_before <= len(sessions),
                "%d inbound session rows for %d sessions" % (inbound, len(sessions)))
        g.check(after - before <= (inbound - sessions_before) + 4,
                "%d commands added %d kv rows (%d sessions)" % (commands, after - before,
                                                               len(sessions)))
        unread = [eid for eid in sent if not w.db.seen(eid)]
        g.check(not unread, "%d of %d commands were not handled: %s" % (
            len(unread), commands, unread[:3]))
        # the window still refuses replays: a recent index again, as a new event
        ann = w.clients["ann"]

        def post_again(eid):
            content = [e for e in w.hs.events(room) if e["event_id"] == eid][0]["content"]
            again = w.hs.send_event(room, "ann", "m.room.encrypted", content)
            w.run(w.wait_seen(w.run(w.send("ann", room, "!help new"))))  # read after it
            g.check(not w.db.seen(again), "a replayed command was handled")
            return again

        again = post_again(sent[-2])
        g.check(re.search(r"%s in \S+ replays message \d+ of a room key" % re.escape(again),
                          w.bot.log()), "the log does not say %s is a replay" % again)
        # and an index older than a full window: one session used past the window
        ann.olm.rotate_outbound_group_session(room)
        first = w.run(w.send("ann", room, "!help new"))
        ann.olm.outbound_group_sessions[room].max_messages = 10 ** 6
        more = [w.run(w.send("ann", room, "!help new")) for _ in range(WINDOW + 2)]
        w.run(w.wait_seen(more[-1]))
        again = post_again(first)
        g.check(re.search(r"%s in \S+ is older than the replay window, at message 0 " %
                          re.escape(again), w.bot.log()),
                "the log does not say %s is older than the window" % again)
        print("replay: %d encrypted commands in %.0f s: kv rows %d -> %d (%d inbound sessions, "
              "%d of them new), none per message" % (commands, secs, before, after, inbound,
                                                     inbound - sessions_before))
    finally:
        w.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bot")
    ap.add_argument("--commands", type=int, default=300)
    ap.add_argument("--only", choices=("late", "joined", "withheld", "replay"))
    a = ap.parse_args()
    exit_on_sigterm()
    for name, fn in (("late", lambda tmp: late_dm(a.bot, tmp)),
                     ("joined", lambda tmp: joined_history(a.bot, tmp)),
                     ("withheld", lambda tmp: withheld(a.bot, tmp)),
                     ("replay", lambda tmp: replay(a.bot, tmp, a.commands))):
        if a.only in (None, name):
            with g.workdir("pz-mx-e2ee-keys-") as tmp:
                fn(tmp)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
