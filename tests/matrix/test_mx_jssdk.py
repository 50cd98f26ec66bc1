#!/usr/bin/env python3
"""test_mx_jssdk.py -- porrazo-bot in end-to-end encrypted rooms, its players
matrix-js-sdk clients with the Rust crypto (the stack Element runs), against
the homeserver double: the second end-to-end client beside matrix-nio
(test_mx_e2ee.py).

The clients are tests/matrix/js/players.mjs (Node, the js-sdk pinned by
tests/matrix/js/package-lock.json, installed by tests/check with npm ci), a
thin client this test drives over stdin/stdout JSON lines; the game is
console_game's, as in the other Matrix tests. Each player logs in, starts
Rust crypto with the "only signed devices" isolation mode (Element's
"exclude insecure devices"), sets up cross-signing, and syncs on its own;
it joins the invitations that come (its direct room with the bot).

  game  three players in an encrypted room one of them made: a whole game,
        every move sent encrypted by a js-sdk client, every bot event in the
        room and the direct rooms read by decrypting it in every client
        that holds it (0 undecryptable, every hand read), the scores equal
        porrazo-replay's; the bot's device is signedByOwner in every
        player's client; no plaintext m.room.message from anyone in those
        rooms; the js-sdk's requests the double does not know are only the
        unstable ones Synapse does not know either

Prints the figures: events decrypted, undecryptable, and the time from a
player's send to the bot's answers read in the clients (median, 95th
percentile, max).

usage: test_mx_jssdk.py PORRAZO_BOT PORRAZO_REPLAY
exit status 77 (skipped) when node is not installed.
"""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402  (puts tests/bot on the path too)
import console_game as cg  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402

JS_DIR = os.path.join(HERE, "js")
SCRIPT = os.path.join(JS_DIR, "players.mjs")
# What the js-sdk asks for at start that Synapse does not serve either with
# its default configuration (404 M_UNRECOGNIZED there too): MSC4143's RTC
# transports, an experimental endpoint (experimental_features.msc4143_enabled).
UNSTABLE_UNKNOWN = ("/_matrix/client/unstable/org.matrix.msc4143/rtc/transports",)


class JsPlayers:
    """The Node process holding every player's client; request() sends one
    request and waits for its answer."""

    def __init__(self, log_path):
        self.log = open(log_path, "w")
        self.log_path = log_path
        self.proc = subprocess.Popen(["node", SCRIPT], cwd=JS_DIR, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.answers = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put(None)

    def request(self, op, **args):
        """The answer to op (args as its JSON); an error or no answer in
        args["wait"] (or 2 * TIMEOUT) + 10 seconds fails the test."""
        timeout = args.get("wait", TIMEOUT * 2) + 10
        self.proc.stdin.write(json.dumps(dict(args, id=self.next_id, op=op)) + "\n")
        self.proc.stdin.flush()
        try:
            line = self.answers.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("the js-sdk players did not answer %s in %d s; their log:\n%s" % (
                op, timeout, self.tail()))
        if line is None:
            raise AssertionError("the js-sdk players exited (%s) during %s; their log:\n%s" % (
                self.proc.wait(), op, self.tail()))
        r = json.loads(line)
        g.check(r.get("id") == self.next_id, "answer %s to request %d" % (r, self.next_id))
        if "error" in r:
            raise AssertionError("js-sdk %s %s: %s\nlog:\n%s" % (op, args.get("name", ""),
                                                                 r["error"], self.tail()))
        return r

    def tail(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()[-3000:]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"op": "stop"}) + "\n")
                self.proc.stdin.close()
                self.proc.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class JsGame(g.MatrixGame):
    """MatrixGame whose players are js-sdk clients: they speak with
    sendMessage and read only what their own clients decrypted."""

    def __init__(self, hs, db_path, bot, js, players=g.PLAYERS):
        super().__init__(hs, db_path, bot, players)
        self.js = js
        self.read_events = 0    # bot events read, summed over the clients holding them
        self.latencies = []     # seconds from a send to the bot's answers read
        self.bot_events = {}    # room -> how many bot events were read in it
        for local, name in players:
            js.request("login", name=name, url=hs.url, user=local, password="pw",
                       device="JS" + local.upper())

    def open_room(self):
        """Ann's client makes an encrypted room inviting the bot and the others."""
        first, *rest = list(self.users.values())
        ann = self.names[first]
        self.room = self.js.request("create_room", name=ann, room_name="Mesa",
                                    invite=[g.BOT] + rest, encrypted=True)["room"]
        self.hs.wait_for_event(self.room, type="m.room.member", timeout=TIMEOUT * 2,
                               predicate=lambda e: e.get("state_key") == g.BOT and
                               e["content"].get("membership") == "join")
        for uid in rest:
            self.js.request("joined", name=self.names[uid], room=self.room, wait=TIMEOUT)
        self.done[self.room] = len(self.hs.events(self.room))

    def join_invites(self):
        """The clients join their invitations themselves: wait until they did."""
        deadline = time.monotonic() + TIMEOUT
        while any(self.hs.rooms_of(uid, membership="invite") for uid in self.users.values()):
            g.check(time.monotonic() < deadline, "a js-sdk player did not join its invitation: %s"
                    % {u: self.hs.rooms_of(u, membership="invite") for u in self.users.values()})
            time.sleep(0.02)

    def say(self, line):
        name, where, text = re.match(r"(\S+)([:>]) (.*)$", line).groups()
        uid = self.users[name]
        room = self.room
        if where == ">":
            self.join_invites()
            room = self.dm_of(uid)
            g.check(room is not None, "%s has no direct room with the bot" % name)
        g.check(self.hs.state(room, "m.room.encryption") is not None,
                "%s's room %s is not encrypted" % (name, room))
        self.lines_sent += 1
        if g.ACTION.match(line):
            self.actions_sent += 1
        self.sent_at = time.monotonic()
        return self.js.request("send", name=name, room=room, body=text)["event"]

    def _read(self, name, room, ids, where):
        """The events ids of room as name's client decrypted them; where
        names the room and how many bot events it had before."""
        got = self.js.request("read", name=name, room=room, events=ids, wait=TIMEOUT)["events"]
        for i, ev in enumerate(got):
            g.check(ev["failure"] is None, "%s cannot decrypt the bot's event %s, number %d in "
                    "%s (sent when %s's membership was %s): %s" % (
                        name, ev["event"], where[1] + i + 1, where[0], name,
                        self.membership_at(room, name, ev["event"]), ev["failure"]))
            g.check(ev["encrypted"] and ev["type"] == "m.room.message",
                    "%s read the bot's %s as %s (encrypted %s)" % (name, ev["event"], ev["type"],
                                                                  ev["encrypted"]))
        self.read_events += len(got)
        return got

    def membership_at(self, room, name, event_id):
        """name's membership of room when the server took event_id."""
        membership = None
        for e in self.hs.events(room):
            if e["event_id"] == event_id:
                break
            if e["type"] == "m.room.member" and e.get("state_key") == self.users[name]:
                membership = e["content"].get("membership")
        return membership

    def collect(self):
        """The bot's new events as console lines, their bodies as the
        players' clients decrypted them: the room's in every client (all must
        read the same), each direct room's in its player's; in the order the
        homeserver took them."""
        lines = []
        rooms = [(self.room, None)] + [(self.dm_of(uid), name) for name, uid in
                                       self.users.items()]
        for room, name in rooms:
            if room is None:
                continue
            evs = self.hs.events(room)
            start = self.done.get(room, 0)
            self.done[room] = len(evs)
            mine = [e for e in evs[start:] if e["sender"] == g.BOT and
                    e["type"] in ("m.room.encrypted", "m.room.message")]
            if not mine:
                continue
            ids = [e["event_id"] for e in mine]
            readers = [name] if name else list(self.users)
            where = ("%s's direct room" % name if name else "the game's room",
                     self.bot_events.get(room, 0))
            self.bot_events[room] = where[1] + len(ids)
            reads = {r: self._read(r, room, ids, where) for r in readers}
            first = reads[readers[0]]
            for r in readers[1:]:
                g.check([e["content"] for e in reads[r]] == [e["content"] for e in first],
                        "%s and %s read the room's events differently" % (readers[0], r))
            for server_ev, ev in zip(mine, first):
                self.events.append((room, {"content": ev["content"]}))
                for body in ev["content"].get("body", "").split("\n"):
                    lines.append((server_ev.get("origin_server_ts", 0), len(lines),
                                  "-> %s: %s" % (name, body) if name else
                                  "#console <porrazo> %s" % body))
        if lines:
            self.latencies.append(time.monotonic() - self.sent_at)
        return [text for _, _, text in sorted(lines)]


def check_js_requests(requests):
    """The js-sdk's requests the double answered 404 M_UNRECOGNIZED (as the
    clients saw them): only the unstable ones Synapse does not serve either.
    Returns their paths."""
    unknown = sorted({r["path"] for r in requests if r.get("errcode") == "M_UNRECOGNIZED"})
    g.check(all(p in UNSTABLE_UNKNOWN for p in unknown),
            "the js-sdk asked for what the double does not serve: %s" % unknown)
    return unknown


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))]


def whole_game(bot_exe, replay_exe, tmp):
    hs = g.new_world(tmp)
    g.exempt_from_rate_limits(hs, *[hs.user_id(local) for local, _ in g.PLAYERS])
    db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
    g.write_e2ee_config(conf, hs, db)
    bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
    js = game = None
    try:
        hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
        js = JsPlayers(os.path.join(tmp, "js.log"))
        game = JsGame(hs, db, bot, js)
        game.open_room()
        t0 = time.monotonic()
        game.play()
        secs = time.monotonic() - t0
        g.check(bot.stop() == 0, "porrazo-bot did not stop cleanly")
        board, scores, nactions = g.check_outcome(game, bot_exe, replay_exe, db)
        g.check_events(game)
        rooms = [game.room] + [game.dm_of(u) for u in game.users.values()]
        g.check(all(rooms), "a player has no direct room")
        for r in rooms:
            g.check(hs.state(r, "m.room.encryption") is not None, "%s is not encrypted" % r)
        nenc = g.check_no_plaintext(hs, rooms)
        for uid in game.users.values():
            plain = [e for e in hs.requests(path="/send/m.room.message/", user=uid)]
            g.check(not plain, "%s sent plaintext: %s" % (uid, [e["path"] for e in plain[:3]]))
        hands = [ev for r, ev in game.events if r != game.room and
                 ev["content"]["body"].startswith("Your hand")]
        g.check(len(hands) >= 3, "%d hands read in the direct rooms" % len(hands))
        bot_devices = hs.devices_of("porrazo")
        g.check(len(bot_devices) == 1, "the bot has devices %s" % bot_devices)
        decrypted, failures, requests = 0, [], []
        for name in game.users:
            st = js.request("device", name=name, user=g.BOT, device=bot_devices[0])["status"]
            g.check(st is not None and st["signedByOwner"],
                    "%s's client: the bot's device %s is %s" % (name, bot_devices[0], st))
            s = js.request("stats", name=name)
            decrypted += s["decrypted"]
            failures += [(name, f) for f in s["failures"]]
            requests += s["requests"]
        g.check(not failures, "%d undecryptable events in the js-sdk clients: %s" % (
            len(failures), failures[:3]))
        g.check(len(requests) > 100, "%d requests of the js-sdk recorded" % len(requests))
        unknown = check_js_requests(requests)
        g.check(not hs.errors, "the double had internal errors:\n%s" % "\n".join(hs.errors))
        lat = game.latencies
        print("js-sdk e2ee game: %d actions in %.0f s, final %s = replay %s; %d bot events sent "
              "encrypted, %d read by the clients holding them (%d hands), %d decryptions, 0 "
              "undecryptable; the bot's device signedByOwner for all 3 (only signed devices); "
              "send to answers read: median %.0f ms, p95 %.0f ms, max %.0f ms over %d lines; "
              "unknown to the double as to Synapse: %s" % (
                  nactions, secs, board, scores, nenc, game.read_events, len(hands), decrypted,
                  percentile(lat, 0.5) * 1000, percentile(lat, 0.95) * 1000, max(lat) * 1000,
                  len(lat), unknown or "none"))
    finally:
        if js is not None:
            js.close()
        if bot.alive():
            bot.stop()
        hs.shutdown()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    if shutil.which("node") is None:
        print("SKIP: node is not installed (apt-get install nodejs)")
        return 77
    version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    m = re.match(r"v(\d+)\.", version)
    if m is None or int(m.group(1)) < 20:
        print("FAIL: the js-sdk players need Node 20 or later, node is %r" % version.strip())
        return 1
    if not os.path.isdir(os.path.join(JS_DIR, "node_modules", "matrix-js-sdk")):
        print("FAIL: matrix-js-sdk is not installed: cd tests/matrix/js && npm ci")
        return 1
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    with g.workdir("pz-mx-jssdk-") as tmp:
        whole_game(bot_exe, replay_exe, tmp)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
