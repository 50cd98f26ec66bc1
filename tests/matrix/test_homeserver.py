#!/usr/bin/env python3
"""test_homeserver.py -- self-tests of the Matrix homeserver double
(homeserver.py): every check goes through real HTTP on loopback (urllib or
http.client), the way the bot talks to a homeserver, and asserts the answers
Synapse gives -- login, tokens, filters, sync and long polls, rooms, invites,
direct rooms, transaction ids, size and rate limits, every fault injection,
restarts and room upgrades. The ctest matrix_homeserver_selftest.

Each test gets a fresh server (it starts in milliseconds). Waits are
generous (PZ_MATRIX_TIMEOUT, default 30 s) and timing checks only bound
from one side, so a loaded 2-core machine does not make them flaky.

usage: test_homeserver.py [-v] [unittest options, e.g. a test name]
"""
import http.client
import json
import math
import os
import re
import socket
import sys
import threading
import time
import unittest
import urllib.error

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from homeserver import HomeServer, exit_on_sigterm  # noqa: E402
from mxclient import TIMEOUT, HTTPClient, q  # noqa: E402
from mxmodel import PERMISSIVE_RATE_LIMITS, SYNAPSE_RATE_LIMITS, MatrixError  # noqa: E402

BOT = "@porrazo:test"
ALICE = "@alice:test"
BOB = "@bob:test"
EVENT_ID = re.compile(r"^\$[A-Za-z0-9_-]{43}$")
ROOM_ID = re.compile(r"^![A-Za-z]{18}:test$")
SYNC_TOKEN = re.compile(r"^s\d+_[0-9a-f]{8}$")
# Connection-level failures urllib/http.client report when the server drops us.
DROPPED = (ConnectionError, http.client.HTTPException, urllib.error.URLError, OSError)


class Background(threading.Thread):
    """Runs fn() in a thread; result() re-raises its exception."""

    def __init__(self, fn):
        super().__init__(daemon=True)
        self.fn = fn
        self.value = self.error = None
        self.started_at = time.monotonic()
        self.ended_at = None
        self.start()

    def run(self):
        try:
            self.value = self.fn()
        except BaseException as e:  # noqa: B902 (reported by result())
            self.error = e
        self.ended_at = time.monotonic()

    def result(self, timeout=None):
        self.join(TIMEOUT if timeout is None else timeout)
        if self.is_alive():
            raise AssertionError("background call still running")
        if self.error is not None:
            raise self.error
        return self.value

    @property
    def elapsed(self):
        return self.ended_at - self.started_at


class HSTestCase(unittest.TestCase):
    """A fresh homeserver with three accounts; self.bot is logged in over
    HTTP as the bot, device BOTDEVICE."""

    def setUp(self):
        # the double's protocol, many requests quickly: Synapse's default
        # limits (the double's own default) are tested in TestRateLimits
        self.hs = HomeServer(rate_limits=PERMISSIVE_RATE_LIMITS).start()
        self.hs.register("porrazo", "secret", displayname="Porrazo")
        self.hs.register("alice", "alicepw", displayname="Alice")
        self.hs.register("bob", "bobpw")
        self.bot = self.hs.client()
        r = self.bot.login("porrazo", "secret", device_id="BOTDEVICE")
        self.assertEqual(r.status, 200, r)
        self.query_tokens_expected = False

    def tearDown(self):
        self.hs.shutdown()
        self.assertEqual(self.hs.errors, [], "internal errors in the double")
        if not self.query_tokens_expected:
            self.assertEqual(self.hs.counters["access_token_in_query"], 0)

    # helpers ---------------------------------------------------------------

    def assertError(self, r, status, errcode, pattern=None):
        self.assertEqual((r.status, r.errcode), (status, errcode), r)
        self.assertEqual(r.headers.get("Content-Type"), "application/json")
        if pattern:
            self.assertRegex(r.json["error"], pattern)

    def room_with_bot(self, **kw):
        """A room alice created, the bot invited and joined over HTTP."""
        room = self.hs.create_room("alice", invite=[BOT], **kw)
        self.assertEqual(self.bot.post("/rooms/%s/join" % q(room)).status, 200)
        return room

    def initial_sync(self, client=None, **kw):
        r = (client or self.bot).sync(**kw)
        self.assertEqual(r.status, 200, r)
        self.assertRegex(r.json["next_batch"], SYNC_TOKEN)
        return r.json

    def timeline(self, body, room):
        return body["rooms"]["join"][room]["timeline"]

    def bodies(self, events):
        return [e["content"].get("body") for e in events if e["type"] == "m.room.message"]

    def send(self, room, text, txn, client=None):
        r = (client or self.bot).send(room, {"msgtype": "m.text", "body": text}, txn)
        return r


class TestVersionsAndLogin(HSTestCase):

    def test_versions_lists_the_spec_versions_without_a_token(self):
        r = self.bot.get("/_matrix/client/versions", token=None)
        self.assertEqual(r.status, 200)
        for v in ("r0.6.1", "v1.1", "v1.6", "v1.11"):
            self.assertIn(v, r.json["versions"])
        self.assertIsInstance(r.json["unstable_features"], dict)

    def test_password_login_by_localpart_full_id_and_legacy_user_field(self):
        r = self.bot.get("/login", token=None)
        self.assertIn({"type": "m.login.password"}, r.json["flows"])
        c = self.hs.client()
        r = c.login("porrazo", "secret", device_id="KEEPME")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.json["user_id"], BOT)
        self.assertEqual(r.json["device_id"], "KEEPME")
        self.assertEqual(r.json["home_server"], "test")
        self.assertTrue(r.json["access_token"].startswith("syt_"))
        r = c.login(BOT, "secret")
        self.assertEqual(r.status, 200)
        self.assertRegex(r.json["device_id"], r"^[A-Z]{10}$")
        r = c.post("/login", {"type": "m.login.password", "user": "porrazo",
                              "password": "secret"}, token=None)
        self.assertEqual((r.status, r.json["user_id"]), (200, BOT))
        self.assertEqual(c.get("/account/whoami").json["user_id"], BOT)
        self.assertIn("KEEPME", self.hs.devices_of("porrazo"))

    def test_wrong_password_or_unknown_user_is_403_forbidden(self):
        c = self.hs.client()
        self.assertError(c.login("porrazo", "nope"), 403, "M_FORBIDDEN",
                         "^Invalid username or password$")
        self.assertError(c.login("nobody", "secret"), 403, "M_FORBIDDEN")
        self.assertIsNone(c.token)
        self.assertEqual(self.hs.counters["login_failed"], 2)

    def test_malformed_and_unsupported_logins(self):
        c = self.hs.client()
        self.assertError(c.post("/login", {"type": "m.login.magic"}, token=None),
                         400, "M_UNKNOWN", "^Unknown login type m.login.magic$")
        self.assertError(c.post("/login", data=b"{not json", token=None), 400, "M_NOT_JSON")
        self.assertError(c.post("/login", {"type": "m.login.password", "password": "x",
                                           "identifier": {"type": "m.id.thirdparty"}},
                                token=None), 400, "M_UNKNOWN")
        self.hs.password_login = False
        flows = c.get("/login", token=None).json["flows"]
        self.assertNotIn({"type": "m.login.password"}, flows)
        self.assertError(c.login("porrazo", "secret"), 400, "M_UNKNOWN",
                         "^Password login has been disabled.$")
        # The ways left: a ready access token, or an m.login.token.
        self.assertEqual(HTTPClient(self.hs.url, self.hs.token_for("porrazo"))
                         .get("/account/whoami").json["user_id"], BOT)
        r = c.post("/login", {"type": "m.login.token",
                              "token": self.hs.login_token_for("porrazo")}, token=None)
        self.assertEqual((r.status, r.json["user_id"]), (200, BOT))
        r = c.post("/login", {"type": "m.login.token", "token": "syl_used"}, token=None)
        self.assertError(r, 403, "M_FORBIDDEN")

    def test_login_is_rate_limited_with_retry_after(self):
        self.hs.set_rate_limit("login", 0.5, 2)
        c = self.hs.client()
        self.assertEqual(c.login("porrazo", "secret").status, 200)
        self.assertEqual(c.login("porrazo", "wrong").status, 403)
        r = c.login("porrazo", "secret")
        self.assertError(r, 429, "M_LIMIT_EXCEEDED", "^Too Many Requests$")
        ms = r.json["retry_after_ms"]
        self.assertTrue(0 < ms <= 2000, ms)
        self.assertEqual(r.headers["Retry-After"], str(math.ceil(ms / 1000)))
        # Another account has its own bucket.
        self.assertEqual(c.login("alice", "alicepw").status, 200)

    def test_login_again_on_the_same_device_replaces_its_token(self):
        old = self.bot.token
        r = self.hs.client().login("porrazo", "secret", device_id="BOTDEVICE")
        self.assertEqual(r.status, 200)
        self.assertError(self.bot.get("/account/whoami"), 401, "M_UNKNOWN_TOKEN")
        self.bot.token = r.json["access_token"]
        self.assertNotEqual(self.bot.token, old)
        self.assertEqual(self.bot.get("/account/whoami").json["device_id"], "BOTDEVICE")


class TestAccessTokens(HSTestCase):

    def test_whoami_with_the_header_and_a_log_without_the_token(self):
        mark = self.hs.log_mark()
        r = self.bot.get("/account/whoami")
        self.assertEqual(r.json, {"user_id": BOT, "device_id": "BOTDEVICE", "is_guest": False})
        (entry,) = self.hs.requests(path="/account/whoami$", since=mark)
        self.assertEqual(entry["auth"], "header")
        self.assertRegex(entry["token_id"], r"^tok\d+$")
        self.assertEqual(entry["user"], BOT)
        self.assertEqual(entry["headers"]["Authorization"], "<redacted>")
        self.assertEqual(entry["status"], 200)
        log = json.dumps(self.hs.request_log)
        self.assertNotIn(self.bot.token, log)
        self.assertNotIn("secret", log)  # the login's password is redacted too

    def test_missing_unknown_and_revoked_tokens_are_401(self):
        self.assertError(self.bot.get("/account/whoami", token=None), 401, "M_MISSING_TOKEN",
                         "^Missing access token$")
        r = self.bot.get("/account/whoami", token="syt_made_up")
        self.assertError(r, 401, "M_UNKNOWN_TOKEN")
        self.assertIs(r.json["soft_logout"], False)
        self.hs.revoke_token(self.bot.token)
        r = self.bot.get("/account/whoami")
        self.assertError(r, 401, "M_UNKNOWN_TOKEN", "^Unrecognised access token$")
        self.assertIs(r.json["soft_logout"], False)
        self.assertError(self.bot.sync(), 401, "M_UNKNOWN_TOKEN")
        # A ready token issued by the test works at once.
        ready = HTTPClient(self.hs.url, self.hs.token_for("porrazo", device_id="READY"))
        self.assertEqual(ready.get("/account/whoami").json["device_id"], "READY")
        self.assertEqual(ready.post("/logout").status, 200)
        self.assertError(ready.get("/account/whoami"), 401, "M_UNKNOWN_TOKEN")

    def test_query_string_token_is_accepted_but_recorded(self):
        self.query_tokens_expected = True
        r = self.bot.get("/account/whoami", query={"access_token": self.bot.token}, token=None)
        self.assertEqual((r.status, r.json["user_id"]), (200, BOT))
        (entry,) = self.hs.requests(path="/account/whoami$")
        self.assertTrue(entry["access_token_in_query"])
        self.assertEqual(entry["auth"], "query")
        self.assertEqual(entry["query"]["access_token"], "<redacted>")
        self.assertEqual(self.hs.counters["access_token_in_query"], 1)
        r = self.bot.get("/account/whoami", query={"access_token": self.bot.token})
        self.assertError(r, 401, "M_MISSING_TOKEN", "^Mixing Authorization headers")
        r = self.bot.get("/account/whoami", token=None,
                         headers={"Authorization": "Basic abc"})
        self.assertError(r, 401, "M_MISSING_TOKEN", "^Invalid Authorization header.$")

    def test_unknown_endpoints_and_methods(self):
        self.assertError(self.bot.get("/no/such/thing"), 404, "M_UNRECOGNIZED")
        self.assertError(self.bot.put("/account/whoami", {}), 405, "M_UNRECOGNIZED")
        self.assertError(self.bot.get("/_matrix/media/v3/upload"), 404, "M_UNRECOGNIZED")

    def test_media_config_and_presence_are_answered_as_synapse_does(self):
        for path in ("/_matrix/media/v3/config", "/_matrix/media/r0/config"):
            r = self.bot.get(path)
            self.assertEqual((r.status, r.json), (200, {"m.upload.size": 50 * 1024 * 1024}), r)
            self.assertError(self.bot.get(path, token=None), 401, "M_MISSING_TOKEN")
        r = self.bot.get("/presence/%s/status" % q(BOT))
        self.assertEqual((r.status, r.json["presence"]), (200, "online"), r)
        self.assertEqual(self.bot.get("/presence/%s/status" % q(ALICE)).json["presence"],
                         "offline")
        r = self.bot.put("/presence/%s/status" % q(BOT), {"presence": "unavailable",
                                                          "status_msg": "dealing"})
        self.assertEqual((r.status, r.json), (200, {}), r)
        self.assertEqual(self.bot.get("/presence/%s/status" % q(BOT)).json["presence"],
                         "unavailable")
        self.assertError(self.bot.put("/presence/%s/status" % q(ALICE), {"presence": "online"}),
                         403, "M_FORBIDDEN")
        self.assertError(self.bot.put("/presence/%s/status" % q(BOT), {"presence": "away"}),
                         400, "M_INVALID_PARAM")
        self.assertError(self.bot.get("/presence/%s/status" % q("@nobody:test")), 404,
                         "M_NOT_FOUND")

    def test_redact_prunes_the_event_and_is_idempotent_per_transaction(self):
        room = self.room_with_bot()
        mine = self.hs.send_text(room, BOT, "oops")
        theirs = self.hs.send_text(room, "alice", "hers")
        path = "/rooms/%s/redact/%s/t1" % (q(room), q(mine))
        r = self.bot.put(path, {"reason": "typo"})
        self.assertEqual(r.status, 200, r)
        again = self.bot.put(path, {"reason": "typo"})
        self.assertEqual(again.json["event_id"], r.json["event_id"])
        evs = {e["event_id"]: e for e in self.hs.events(room)}
        self.assertEqual(evs[mine]["content"], {})
        self.assertEqual(evs[mine]["unsigned"]["redacted_because"]["event_id"], r.json["event_id"])
        red = evs[r.json["event_id"]]
        self.assertEqual((red["type"], red["redacts"], red["content"]),
                         ("m.room.redaction", mine, {"reason": "typo"}))  # room version 10
        self.assertEqual(len([e for e in evs.values() if e["type"] == "m.room.redaction"]), 1)
        self.assertError(self.bot.put("/rooms/%s/redact/%s/t2" % (q(room), q(theirs)), {}),
                         403, "M_FORBIDDEN")
        self.assertError(self.bot.put("/rooms/%s/redact/%s/t3" % (q(room), q("$nope")), {}),
                         404, "M_NOT_FOUND")


class TestFilters(HSTestCase):

    FILTER = {"room": {"timeline": {"limit": 5, "types": ["m.room.message"]},
                       "state": {"types": ["m.room.*"]}},
              "presence": {"not_types": ["*"]}, "account_data": {"not_types": ["*"]}}

    def test_create_get_and_reuse(self):
        path = "/user/%s/filter" % q(BOT)
        r = self.bot.post(path, self.FILTER)
        self.assertEqual(r.json, {"filter_id": "0"})
        self.assertEqual(self.bot.post(path, self.FILTER).json, {"filter_id": "0"})
        self.assertEqual(self.bot.post(path, {"room": {"rooms": []}}).json, {"filter_id": "1"})
        self.assertEqual([(p["filter_id"], p["new"]) for p in self.hs.filter_posts],
                         [("0", True), ("0", False), ("1", True)])
        self.assertEqual(self.bot.get(path + "/0").json, self.FILTER)
        self.assertError(self.bot.get(path + "/9"), 404, "M_NOT_FOUND")
        self.assertError(self.bot.get("/user/%s/filter/0" % q(ALICE)), 403, "M_FORBIDDEN")
        self.assertError(self.bot.post("/user/%s/filter" % q(ALICE), {}), 403, "M_FORBIDDEN")
        self.assertError(self.bot.post(path, {"room": {"timeline": {"types": "x"}}}),
                         400, "M_BAD_JSON")
        self.assertEqual(self.hs.filters_of("porrazo")[0], self.FILTER)

    def test_sync_applies_a_stored_or_inline_filter(self):
        room = self.room_with_bot()
        self.hs.set_account_data("porrazo", "m.direct", {ALICE: [room]})
        for i in range(8):
            self.hs.send_text(room, "alice", "m%d" % i)
        fid = self.bot.post("/user/%s/filter" % q(BOT), self.FILTER).json["filter_id"]
        for filt in (fid, json.dumps(self.FILTER)):
            body = self.initial_sync(filter=filt)
            tl = self.timeline(body, room)
            self.assertEqual(self.bodies(tl["events"]), ["m3", "m4", "m5", "m6", "m7"])
            self.assertEqual({e["type"] for e in tl["events"]}, {"m.room.message"})
            self.assertTrue(tl["limited"])
            state_types = {e["type"] for e in body["rooms"]["join"][room]["state"]["events"]}
            self.assertIn("m.room.member", state_types)
            self.assertNotIn("account_data", body)
        body = self.initial_sync()
        self.assertEqual(body["account_data"]["events"],
                         [{"type": "m.direct", "content": {ALICE: [room]}}])
        self.assertError(self.bot.sync(filter="7"), 400, "M_INVALID_PARAM", "^No such filter$")
        self.assertError(self.bot.sync(filter="{nope"), 400, "M_NOT_JSON")


class TestSync(HSTestCase):

    def test_initial_sync_has_the_last_events_limited_and_the_state(self):
        room = self.room_with_bot(name="Mesa 1")
        for i in range(15):
            self.hs.send_text(room, "alice", "m%d" % i)
        body = self.initial_sync()
        entry = body["rooms"]["join"][room]
        tl = entry["timeline"]
        self.assertEqual(len(tl["events"]), 10)
        self.assertEqual(self.bodies(tl["events"]), ["m%d" % i for i in range(5, 15)])
        self.assertIs(tl["limited"], True)
        self.assertRegex(tl["prev_batch"], SYNC_TOKEN)
        for e in tl["events"]:
            self.assertRegex(e["event_id"], EVENT_ID)
            self.assertEqual(e["sender"], ALICE)
            self.assertIsInstance(e["origin_server_ts"], int)
            self.assertGreaterEqual(e["unsigned"]["age"], 0)
            self.assertNotIn("room_id", e)
            self.assertNotIn("transaction_id", e["unsigned"])
        state = {(e["type"], e["state_key"]): e for e in entry["state"]["events"]}
        self.assertEqual(state[("m.room.name", "")]["content"], {"name": "Mesa 1"})
        self.assertEqual(state[("m.room.member", BOT)]["content"]["membership"], "join")
        self.assertEqual(state[("m.room.create", "")]["content"]["room_version"], "10")
        self.assertEqual(entry["ephemeral"], {"events": []})
        # prev_batch pages back through the history the timeline left out.
        r = self.bot.get("/rooms/%s/messages" % q(room),
                         query={"from": tl["prev_batch"], "dir": "b", "limit": 5})
        self.assertEqual(r.status, 200)
        self.assertEqual(self.bodies(r.json["chunk"]), ["m4", "m3", "m2", "m1", "m0"])
        self.assertIn("end", r.json)

    def test_messages_pages_both_ways_with_a_filter(self):
        room = self.room_with_bot()
        for i in range(5):
            self.hs.send_text(room, "alice", "p%d" % i)
        path = "/rooms/%s/messages" % q(room)
        r = self.bot.get(path, query={"dir": "b", "limit": 3})
        self.assertEqual(self.bodies(r.json["chunk"]), ["p4", "p3", "p2"])
        self.assertEqual(r.json["chunk"][0]["room_id"], room)
        r = self.bot.get(path, query={"dir": "b", "from": r.json["end"], "limit": 50,
                                      "filter": json.dumps({"types": ["m.room.message"]})})
        self.assertEqual(self.bodies(r.json["chunk"]), ["p1", "p0"])
        self.assertEqual({e["type"] for e in r.json["chunk"]}, {"m.room.message"})
        self.assertNotIn("end", r.json)
        r = self.bot.get(path, query={"limit": 1})  # Synapse's default: forwards
        self.assertEqual(r.json["chunk"][0]["type"], "m.room.create")
        self.assertError(self.bot.get(path, query={"dir": "sideways"}), 400, "M_INVALID_PARAM")
        outsider = HTTPClient(self.hs.url, self.hs.token_for("bob"))
        self.assertError(outsider.get(path), 403, "M_FORBIDDEN")

    def test_incremental_sync_is_limited_when_more_than_the_limit_arrived(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        for i in range(2):
            self.hs.send_text(room, "alice", "a%d" % i)
        body = self.bot.sync(since=since).json
        tl = self.timeline(body, room)
        self.assertEqual((self.bodies(tl["events"]), tl["limited"]), (["a0", "a1"], False))
        self.assertEqual(body["rooms"]["join"][room]["state"]["events"], [])
        self.hs.set_state(room, "alice", "m.room.topic", {"topic": "gap"})
        for i in range(12):
            self.hs.send_text(room, "alice", "b%d" % i)
        body = self.bot.sync(since=body["next_batch"]).json
        tl = self.timeline(body, room)
        self.assertEqual(self.bodies(tl["events"]), ["b%d" % i for i in range(2, 12)])
        self.assertIs(tl["limited"], True)
        gap = body["rooms"]["join"][room]["state"]["events"]
        self.assertEqual([(e["type"], e["content"]) for e in gap],
                         [("m.room.topic", {"topic": "gap"})])

    def test_a_room_joined_since_the_token_comes_whole(self):
        # Synapse's SyncHandler drops the since token for a newly joined
        # room: its recent history (before the join, as history visibility
        # allows), limited, and its full state; an initial sync left it out
        room = self.hs.create_room("alice", name="DM", preset="trusted_private_chat",
                                   invite=[BOT], is_direct=True)
        since = self.initial_sync()["next_batch"]
        for i in range(3):
            self.hs.send_text(room, "alice", "early%d" % i)
        since = self.bot.sync(since=since).json["next_batch"]  # invited: no timeline
        self.assertEqual(self.bot.post("/rooms/%s/join" % q(room)).status, 200)
        body = self.bot.sync(since=since).json
        entry = body["rooms"]["join"][room]
        tl = entry["timeline"]
        self.assertEqual(self.bodies(tl["events"]), ["early0", "early1", "early2"])
        self.assertEqual(tl["events"][-1]["state_key"], BOT)
        self.assertIs(tl["limited"], True)
        # the state at the timeline's start, the timeline's own state after it
        state = {(e["type"], e["state_key"]) for e in entry["state"]["events"]}
        in_timeline = {(e["type"], e.get("state_key")) for e in tl["events"]}
        self.assertIn(("m.room.name", ""), state | in_timeline)
        self.assertIn(("m.room.create", ""), state)
        self.assertIn(("m.room.member", ALICE), state)
        # then an ordinary incremental sync: only what is new, not limited
        self.hs.send_text(room, "alice", "later")
        tl = self.timeline(self.bot.sync(since=body["next_batch"]).json, room)
        self.assertEqual((self.bodies(tl["events"]), tl["limited"]), (["later"], False))

    def test_a_newly_joined_room_keeps_to_the_limit_and_history_visibility(self):
        room = self.hs.create_room("alice", invite=[BOT])
        self.hs.set_state(room, "alice", "m.room.history_visibility",
                          {"history_visibility": "joined"})
        since = self.initial_sync()["next_batch"]
        self.hs.send_text(room, "alice", "hidden")
        self.assertEqual(self.bot.post("/rooms/%s/join" % q(room)).status, 200)
        for i in range(12):
            self.hs.send_text(room, "alice", "after%d" % i)
        tl = self.timeline(self.bot.sync(since=since).json, room)
        self.assertEqual(self.bodies(tl["events"]), ["after%d" % i for i in range(2, 12)])
        self.assertIs(tl["limited"], True)
        room2 = self.hs.create_room("alice", invite=[BOT])
        self.hs.set_state(room2, "alice", "m.room.history_visibility",
                          {"history_visibility": "joined"})
        self.hs.send_text(room2, "alice", "hidden too")
        self.assertEqual(self.bot.post("/rooms/%s/join" % q(room2)).status, 200)
        tl = self.timeline(self.bot.sync(since=since).json, room2)
        self.assertEqual(self.bodies(tl["events"]), [])
        self.assertEqual(tl["events"][-1]["state_key"], BOT)

    def test_members_lists_invited_members_and_filters_as_synapse(self):
        # Synapse's RoomMemberListRestServlet: every member event, then
        # membership= keeps one membership and not_membership= drops one
        room = self.room_with_bot()
        self.hs.invite(room, "alice", "bob")
        path = "/rooms/%s/members" % q(room)

        def members(**query):
            r = self.bot.get(path, query=query)
            self.assertEqual(r.status, 200, r)
            return sorted((e["state_key"], e["content"]["membership"]) for e in r.json["chunk"])

        everyone = [(ALICE, "join"), (BOB, "invite"), (BOT, "join")]
        self.assertEqual(members(), everyone)
        self.assertEqual(members(membership="invite"), [(BOB, "invite")])
        self.assertEqual(members(not_membership="leave"), everyone)
        self.assertEqual(members(not_membership="invite"), [(ALICE, "join"), (BOT, "join")])
        self.assertEqual(members(membership="join", not_membership="join"), [])
        self.hs.leave(room, "bob")
        self.assertEqual(members(not_membership="leave"), [(ALICE, "join"), (BOT, "join")])
        self.assertEqual(members(membership="leave"), [(BOB, "leave")])
        self.assertEqual(members(membership=""), [(ALICE, "join"), (BOB, "leave"), (BOT, "join")])
        joined = self.bot.get("/rooms/%s/joined_members" % q(room)).json["joined"]
        self.assertEqual(sorted(joined), [ALICE, BOT])

    def test_long_poll_is_woken_by_a_new_message(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        poll = Background(lambda: self.bot.sync(since=since, timeout=20000))
        self.hs.wait_for_request("GET", "/sync$", lambda e: e["query"].get("since") == since)
        time.sleep(0.2)
        self.assertIsNone(poll.ended_at, "the long poll answered before anything happened")
        self.hs.send_text(room, "alice", "wake up")
        r = poll.result()
        self.assertEqual(r.status, 200)
        self.assertEqual(self.bodies(self.timeline(r.json, room)["events"]), ["wake up"])
        self.assertLess(poll.elapsed, 15.0)

    def test_long_poll_returns_empty_after_its_timeout(self):
        self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        started = time.monotonic()
        r = self.bot.sync(since=since, timeout=400)
        self.assertGreaterEqual(time.monotonic() - started, 0.35)
        self.assertEqual(r.status, 200)
        self.assertNotIn("rooms", r.json)
        self.assertNotIn("account_data", r.json)
        self.assertRegex(r.json["next_batch"], SYNC_TOKEN)
        self.assertEqual(self.bot.sync(since=r.json["next_batch"]).status, 200)

    def test_since_tokens_are_opaque_and_foreign_ones_are_refused(self):
        self.room_with_bot()
        token = self.initial_sync()["next_batch"]
        with self.assertRaises(ValueError):
            int(token)
        pos = token.split("_")[0][1:]
        for bad in (pos, "garbage", "", "s%s_deadbeef" % pos, token + "x"):
            self.assertError(self.bot.sync(since=bad), 400, "M_UNKNOWN",
                             "^Invalid stream token$")
        self.assertError(self.bot.sync(since=token, timeout="soon"), 400, "M_INVALID_PARAM")
        self.assertError(self.bot.sync(since=token, full_state="yes"), 400, "M_INVALID_PARAM")
        self.assertError(self.bot.get("/sync", query={"from": token}), 400, "M_UNKNOWN")

    def test_long_poll_does_not_hold_other_requests(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        poll = Background(lambda: self.bot.sync(since=since, timeout=20000))
        self.hs.wait_for_request("GET", "/sync$", lambda e: e["query"].get("since") == since)
        self.assertEqual(self.bot.get("/account/whoami").status, 200)
        self.assertEqual(self.hs.client().login("alice", "alicepw").status, 200)
        self.assertEqual(self.send(room, "meanwhile", "t-meanwhile").status, 200)
        r = poll.result()
        self.assertEqual(self.bodies(self.timeline(r.json, room)["events"]), ["meanwhile"])

    def test_own_events_return_with_transaction_id_only_to_the_sending_device(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        other = HTTPClient(self.hs.url, self.hs.token_for("porrazo"))
        other_since = self.initial_sync(other)["next_batch"]
        alice = HTTPClient(self.hs.url, self.hs.token_for("alice"))
        alice_since = self.initial_sync(alice)["next_batch"]
        event_id = self.send(room, "mine", "txn-1").json["event_id"]
        (ev,) = self.timeline(self.bot.sync(since=since).json, room)["events"]
        self.assertEqual((ev["event_id"], ev["sender"]), (event_id, BOT))
        self.assertEqual(ev["unsigned"]["transaction_id"], "txn-1")
        for client, tok in ((other, other_since), (alice, alice_since)):
            (ev,) = self.timeline(client.sync(since=tok).json, room)["events"]
            self.assertEqual(ev["event_id"], event_id)
            self.assertNotIn("transaction_id", ev["unsigned"])

    def test_full_state_and_left_rooms(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        body = self.bot.sync(since=since, full_state=True).json
        entry = body["rooms"]["join"][room]
        self.assertEqual(entry["timeline"]["events"], [])
        self.assertIn("m.room.create", {e["type"] for e in entry["state"]["events"]})
        self.hs.kick(room, "alice", BOT, reason="bye")
        body = self.bot.sync(since=body["next_batch"]).json
        (ev,) = body["rooms"]["leave"][room]["timeline"]["events"]
        self.assertEqual((ev["type"], ev["content"]["membership"], ev["sender"]),
                         ("m.room.member", "leave", ALICE))
        self.assertNotIn("join", body["rooms"])
        self.assertError(self.send(room, "still here?", "t-after-kick"), 403, "M_FORBIDDEN")


class TestRooms(HSTestCase):

    def test_invite_state_then_join_then_messages(self):
        since = self.initial_sync()["next_batch"]
        room = self.hs.create_room("alice", name="Mesa 2")
        self.hs.invite(room, "alice", BOT)
        body = self.bot.sync(since=since, timeout=5000).json
        events = body["rooms"]["invite"][room]["invite_state"]["events"]
        by_type = {e["type"]: e for e in events if e["type"] != "m.room.member"}
        self.assertEqual(by_type["m.room.name"]["content"], {"name": "Mesa 2"})
        self.assertEqual(by_type["m.room.create"]["sender"], ALICE)
        self.assertEqual(by_type["m.room.join_rules"]["content"], {"join_rule": "invite"})
        invite = events[-1]
        self.assertEqual((invite["type"], invite["state_key"], invite["sender"]),
                         ("m.room.member", BOT, ALICE))
        self.assertEqual(invite["content"]["membership"], "invite")
        self.assertEqual(invite["content"]["displayname"], "Porrazo")
        self.assertRegex(invite["event_id"], EVENT_ID)
        self.assertIn(("m.room.member", ALICE), [(e["type"], e["state_key"]) for e in events])
        self.assertError(self.send(room, "too early", "t0"), 403, "M_FORBIDDEN",
                         "not in room")
        r = self.bot.post("/rooms/%s/join" % q(room))
        self.assertEqual(r.json, {"room_id": room})
        body = self.bot.sync(since=body["next_batch"]).json
        entry = body["rooms"]["join"][room]
        self.assertEqual(entry["timeline"]["events"][-1]["content"]["membership"], "join")
        self.assertNotIn("invite", body["rooms"])
        self.hs.send_text(room, "alice", "hola")
        body = self.bot.sync(since=body["next_batch"], timeout=5000).json
        self.assertEqual(self.bodies(self.timeline(body, room)["events"]), ["hola"])
        mark = self.hs.mark()
        self.assertEqual(self.send(room, "hi Alice", "t1").status, 200)
        ev = self.hs.wait_for_event(room, sender="porrazo", body="^hi", since=mark)
        self.assertEqual(ev["content"], {"msgtype": "m.text", "body": "hi Alice"})
        seen_by_alice = self.hs.events(room, as_user="alice")
        self.assertIn(ev["event_id"], [e["event_id"] for e in seen_by_alice])
        members = self.bot.get("/rooms/%s/joined_members" % q(room)).json["joined"]
        self.assertEqual(members, {ALICE: {"display_name": "Alice", "avatar_url": None},
                                   BOT: {"display_name": "Porrazo", "avatar_url": None}})
        self.assertEqual(self.bot.get("/joined_rooms").json, {"joined_rooms": [room]})

    def test_join_needs_an_invite_or_a_public_room(self):
        private = self.hs.create_room("bob")
        r = self.bot.post("/rooms/%s/join" % q(private))
        self.assertError(r, 403, "M_FORBIDDEN", "^You are not invited to this room.$")
        public = self.hs.create_room("bob", preset="public_chat", alias="porrazo")
        self.assertEqual(self.bot.post("/join/%s" % q("#porrazo:test")).json,
                         {"room_id": public})
        self.assertEqual(self.hs.membership(public, "porrazo"), "join")
        self.assertError(self.bot.post("/join/%s" % q("#nope:test")), 404, "M_NOT_FOUND")
        self.assertEqual(self.bot.post("/join/%s" % q("!nowhere:test")).status, 404)
        # A scripted user gets the same refusal over the Python API.
        with self.assertRaises(MatrixError) as cm:
            self.hs.join(private, "alice")
        self.assertEqual((cm.exception.status, cm.exception.errcode), (403, "M_FORBIDDEN"))

    def test_create_direct_room_and_m_direct_round_trip(self):
        r = self.bot.post("/createRoom", {"preset": "trusted_private_chat", "is_direct": True,
                                          "invite": [ALICE], "name": "Porrazo"})
        self.assertEqual(r.status, 200, r)
        room = r.json["room_id"]
        self.assertRegex(room, ROOM_ID)
        types = [e["type"] for e in self.hs.events(room)]
        self.assertEqual(types[:3], ["m.room.create", "m.room.member", "m.room.power_levels"])
        (invite,) = self.hs.events(room, type="m.room.member", sender="porrazo")[1:]
        self.assertEqual(invite["state_key"], ALICE)
        self.assertEqual(invite["content"], {"membership": "invite", "displayname": "Alice",
                                             "is_direct": True})
        self.assertEqual(self.hs.state(room, "m.room.power_levels")["users"],
                         {BOT: 100, ALICE: 100})
        self.assertEqual(self.hs.rooms_of("alice", "invite"), [room])
        alice_sync = self.hs.sync("alice")
        self.assertIn(room, alice_sync["rooms"]["invite"])
        path = "/user/%s/account_data/m.direct" % q(BOT)
        self.assertError(self.bot.get(path), 404, "M_NOT_FOUND")
        self.assertEqual(self.bot.put(path, {ALICE: [room]}).json, {})
        self.assertEqual(self.bot.get(path).json, {ALICE: [room]})
        self.assertEqual(self.hs.direct_rooms("porrazo"), {ALICE: [room]})
        body = self.initial_sync()
        self.assertIn({"type": "m.direct", "content": {ALICE: [room]}},
                      body["account_data"]["events"])
        self.assertError(self.bot.put("/user/%s/account_data/m.direct" % q(ALICE), {}),
                         403, "M_FORBIDDEN")
        self.hs.join(room, "alice")
        self.assertEqual(sorted(self.bot.get("/rooms/%s/joined_members" % q(room))
                                .json["joined"]), [ALICE, BOT])

    def test_send_is_idempotent_per_device_and_txn_id(self):
        room = self.room_with_bot()
        first = self.send(room, "once", "abc")
        again = self.send(room, "once (retry)", "abc")
        self.assertEqual(first.status, 200)
        self.assertEqual(again.json["event_id"], first.json["event_id"])
        self.assertRegex(first.json["event_id"], EVENT_ID)
        self.assertEqual(self.bodies(self.hs.events(room, sender="porrazo")), ["once"])
        self.assertEqual([(t["txn_id"], t["repeat"]) for t in self.hs.transactions],
                         [("abc", False), ("abc", True)])
        other = HTTPClient(self.hs.url, self.hs.token_for("porrazo"))
        self.assertNotEqual(self.send(room, "other device", "abc", other).json["event_id"],
                            first.json["event_id"])
        room2 = self.room_with_bot()
        self.assertNotEqual(self.send(room2, "other room", "abc").json["event_id"],
                            first.json["event_id"])
        self.assertEqual(self.hs.counters["txn_repeats"], 1)

    def test_events_over_65536_bytes_are_413_too_large(self):
        room = self.room_with_bot()
        r = self.send(room, "x" * 70000, "big")
        self.assertError(r, 413, "M_TOO_LARGE", "^event too large$")
        # The whole event counts, not just the body: content alone under the
        # limit is still too large once the PDU's fields are added.
        self.assertError(self.send(room, "y" * 65400, "big2"), 413, "M_TOO_LARGE")
        self.assertEqual(self.send(room, "z" * 64000, "fits").status, 200)
        self.assertEqual([len(b) for b in self.bodies(self.hs.events(room, sender="porrazo"))],
                         [64000])
        r = self.bot.send(room, {"msgtype": "m.text", "body": "x", "n": 1.5}, "float")
        self.assertError(r, 400, "M_BAD_JSON")

    def test_encryption_state_is_visible(self):
        r = self.bot.post("/createRoom", {"invite": [ALICE], "initial_state": [
            {"type": "m.room.encryption", "state_key": "",
             "content": {"algorithm": "m.megolm.v1.aes-sha2"}}]})
        room = r.json["room_id"]
        r = self.bot.get("/rooms/%s/state/m.room.encryption/" % q(room))
        self.assertEqual(r.json, {"algorithm": "m.megolm.v1.aes-sha2"})
        self.assertError(self.bot.get("/rooms/%s/state/m.room.topic" % q(room)),
                         404, "M_NOT_FOUND")
        since = self.initial_sync()["next_batch"]
        room2 = self.hs.create_room("alice", invite=[BOT], encrypted=True)
        body = self.bot.sync(since=since).json
        events = body["rooms"]["invite"][room2]["invite_state"]["events"]
        self.assertIn(("m.room.encryption", {"algorithm": "m.megolm.v1.aes-sha2"}),
                      [(e["type"], e["content"]) for e in events])
        self.bot.post("/rooms/%s/join" % q(room2))
        self.hs.send_encrypted(room2, "alice")
        body = self.bot.sync(since=body["next_batch"]).json
        entry = body["rooms"]["join"][room2]
        # newly joined: the room's whole recent history, its encryption in
        # the timeline or (when older than the timeline) in the state
        self.assertIn("m.room.encryption", [e["type"] for e in entry["state"]["events"] +
                                            entry["timeline"]["events"]])
        self.assertEqual(entry["timeline"]["events"][-1]["type"], "m.room.encrypted")
        self.assertEqual(entry["timeline"]["events"][-1]["content"]["algorithm"],
                         "m.megolm.v1.aes-sha2")

    def test_state_put_power_levels_and_profiles(self):
        room = self.room_with_bot()
        r = self.bot.put("/rooms/%s/state/m.room.topic" % q(room), {"topic": "t"})
        self.assertError(r, 403, "M_FORBIDDEN", r"user_level \(0\) < send_level \(50\)")
        r = self.bot.put("/rooms/%s/state/org.porrazo.game/%s" % (q(room), q("g1")), {"n": 1})
        self.assertError(r, 403, "M_FORBIDDEN")
        own = self.bot.post("/createRoom", {"name": "mine"}).json["room_id"]
        r = self.bot.put("/rooms/%s/state/m.room.topic" % q(own), {"topic": "t"})
        self.assertRegex(r.json["event_id"], EVENT_ID)
        self.assertEqual(self.hs.state(own, "m.room.topic"), {"topic": "t"})
        r = self.bot.get("/profile/%s/displayname" % q(ALICE))
        self.assertEqual(r.json, {"displayname": "Alice"})
        self.assertError(self.bot.get("/profile/%s" % q("@ghost:test")), 404, "M_NOT_FOUND")
        self.assertEqual(self.bot.put("/profile/%s/displayname" % q(BOT),
                                      {"displayname": "Porrazo Bot"}).status, 200)
        self.assertEqual(self.hs.state(room, "m.room.member", BOT)["displayname"],
                         "Porrazo Bot")
        self.assertError(self.bot.put("/profile/%s/displayname" % q(ALICE),
                                      {"displayname": "x"}), 403, "M_FORBIDDEN")

    def test_leave_and_rejecting_an_invite(self):
        room = self.room_with_bot()
        self.assertEqual(self.bot.post("/rooms/%s/leave" % q(room)).json, {})
        self.assertEqual(self.hs.membership(room, "porrazo"), "leave")
        self.assertError(self.send(room, "gone", "t"), 403, "M_FORBIDDEN")
        invited = self.hs.create_room("bob", invite=[BOT])
        self.assertEqual(self.bot.post("/rooms/%s/leave" % q(invited)).status, 200)
        self.assertEqual(self.hs.membership(invited, "porrazo"), "leave")
        self.assertError(self.bot.post("/rooms/%s/leave" % q(self.hs.create_room("bob"))),
                         404, "M_UNKNOWN")


class TestRateLimits(HSTestCase):

    def test_sends_beyond_the_burst_get_429_with_retry_after(self):
        room = self.room_with_bot()
        self.hs.set_rate_limit("message", 0.5, 3)
        ids = [self.send(room, "m%d" % i, "t%d" % i).json["event_id"] for i in range(3)]
        r = self.send(room, "m3", "t3")
        self.assertError(r, 429, "M_LIMIT_EXCEEDED", "^Too Many Requests$")
        ms = r.json["retry_after_ms"]
        self.assertTrue(0 < ms <= 2000, ms)
        self.assertEqual(r.headers["Retry-After"], str(math.ceil(ms / 1000)))
        # A repeat of a transaction that went through is answered from the
        # cache, not limited; the limited one was not remembered.
        self.assertEqual(self.send(room, "m0", "t0").json["event_id"], ids[0])
        time.sleep(ms / 1000 + 0.05)
        self.assertEqual(self.send(room, "m3", "t3").status, 200)
        self.assertEqual(self.bodies(self.hs.events(room, sender="porrazo")),
                         ["m0", "m1", "m2", "m3"])
        self.assertEqual(self.hs.counters["rate_limited_message"], 1)
        # Scripted users (the Python API) are never limited.
        for i in range(20):
            self.hs.send_text(room, "alice", "flood %d" % i)

    def test_synapse_defaults_are_the_doubles(self):
        hs = HomeServer().start()
        try:
            hs.register("porrazo", "secret")
            hs.register("alice", "alicepw")
            bot = hs.client()
            self.assertEqual(bot.login("porrazo", "secret").status, 200)
            room = hs.create_room("alice", invite=[BOT])
            self.assertEqual(bot.post("/rooms/%s/join" % q(room)).status, 200)
            statuses = [self.send(room, "m%d" % i, "t%d" % i, bot).status for i in range(11)]
            self.assertEqual(statuses, [200] * SYNAPSE_RATE_LIMITS["message"][1] + [429])
        finally:
            hs.shutdown()

    def test_an_admin_overrides_a_users_rate_limit_as_synapse_does(self):
        room = self.room_with_bot()
        self.hs.set_rate_limit("message", *SYNAPSE_RATE_LIMITS["message"])
        self.hs.register("root", "rootpw", admin=True)
        admin = self.hs.client()
        self.assertEqual(admin.login("root", "rootpw").status, 200)
        path = "/_synapse/admin/v1/users/%s/override_ratelimit" % q(BOT)
        alice = self.hs.client()
        self.assertEqual(alice.login("alice", "alicepw").status, 200)
        self.assertError(alice.post(path, {"messages_per_second": 0}), 403, "M_FORBIDDEN",
                         "not a server admin")
        self.assertEqual(admin.get(path).json, {})
        r = admin.post(path, {"messages_per_second": 0, "burst_count": 0})
        self.assertEqual((r.status, r.json), (200, {"messages_per_second": 0, "burst_count": 0}))
        # exempt: every limiter, not only the messages'
        self.assertEqual([self.send(room, "x%d" % i, "x%d" % i).status for i in range(25)],
                         [200] * 25)
        r = admin.post(path, {"messages_per_second": 1, "burst_count": 2})
        self.assertEqual(r.json, {"messages_per_second": 1, "burst_count": 2})
        self.assertEqual([self.send(room, "y%d" % i, "y%d" % i).status for i in range(3)],
                         [200, 200, 429])
        self.assertEqual(admin.request("DELETE", path).status, 200)
        self.assertEqual(admin.get(path).json, {})
        self.assertError(admin.post(path, {"messages_per_second": -1}), 400, "M_INVALID_PARAM")
        self.assertError(admin.post(path, {"burst_count": "10"}), 400, "M_INVALID_PARAM")
        self.assertError(admin.get("/_synapse/admin/v1/users/%s/override_ratelimit" %
                                   q("@nobody:test")), 404, "M_NOT_FOUND")
        self.assertError(admin.get("/_synapse/admin/v1/users/%s/override_ratelimit" %
                                   q("@ann:elsewhere")), 400, "M_UNKNOWN", "Only local users")


class TestFaults(HSTestCase):

    def test_fail_with_5xx_json_html_or_empty_then_recover(self):
        fault = self.hs.fail(r"/account/whoami$", status=503, count=2, body="html")
        for _ in range(2):
            r = self.bot.get("/account/whoami")
            self.assertEqual(r.status, 503)
            self.assertEqual(r.headers["Content-Type"], "text/html")
            self.assertIn(b"503 Service Unavailable", r.body)
        self.assertEqual(self.bot.get("/account/whoami").status, 200)
        self.assertEqual((fault.hits, fault.active), (2, False))
        self.hs.fail(r"/account/whoami$", status=500)
        self.assertError(self.bot.get("/account/whoami"), 500, "M_UNKNOWN")
        self.hs.fail(r"/account/whoami$", status=502, body="empty")
        r = self.bot.get("/account/whoami")
        self.assertEqual((r.status, r.body), (502, b""))
        # bytes are sent as they are: a 200 whose JSON is cut short
        self.hs.fail(r"/account/whoami$", status=200, body=b'{"user_id": "@porr')
        r = self.bot.get("/account/whoami")
        self.assertEqual((r.status, r.body, r.json), (200, b'{"user_id": "@porr', None))
        # A failed request was never processed.
        room = self.room_with_bot()
        self.hs.fail("/send/", status=500, method="PUT")
        self.assertEqual(self.send(room, "lost", "f1").status, 500)
        self.assertEqual(self.hs.events(room, sender="porrazo", type="m.room.message"), [])
        self.assertEqual(self.send(room, "kept", "f1").status, 200)
        self.assertEqual([e["fault"] for e in self.hs.requests(path="/send/")], ["fail", None])

    def test_fail_with_429_and_retry_after(self):
        room = self.room_with_bot()
        self.hs.fail("/send/", status=429, retry_after=1.5)
        r = self.send(room, "x", "r1")
        self.assertError(r, 429, "M_LIMIT_EXCEEDED")
        self.assertEqual(r.json["retry_after_ms"], 1500)
        self.assertEqual(r.headers["Retry-After"], "2")
        self.assertEqual(self.hs.events(room, type="m.room.message"), [])

    def test_delay_holds_only_matching_requests(self):
        self.hs.delay(r"/account/whoami$", seconds=1.5, count=1)
        slow = Background(lambda: self.bot.get("/account/whoami"))
        self.hs.wait_for_request("GET", "/account/whoami$")
        self.assertEqual(self.bot.get("/_matrix/client/versions").status, 200)
        self.assertIsNone(slow.ended_at, "the delayed request held the others")
        self.assertEqual(slow.result().status, 200)
        self.assertGreaterEqual(slow.elapsed, 1.45)
        self.assertEqual(self.bot.get("/account/whoami").status, 200)  # count=1: over
        self.hs.delay(r"/account/whoami$", seconds=0.3, count=1, after=True)
        started = time.monotonic()
        self.assertEqual(self.bot.get("/account/whoami").status, 200)
        self.assertGreaterEqual(time.monotonic() - started, 0.25)
        self.assertEqual([e["fault"] for e in self.hs.requests(path="/account/whoami$")],
                         ["delay", None, "delay"])

    def test_drop_before_processing_loses_the_request(self):
        room = self.room_with_bot()
        self.hs.drop("/send/", when="before")
        with self.assertRaises(DROPPED):
            self.send(room, "lost", "d1")
        self.assertEqual(self.hs.events(room, type="m.room.message"), [])
        self.assertEqual(self.send(room, "retried", "d1").status, 200)
        self.assertEqual(self.bodies(self.hs.events(room)), ["retried"])
        self.assertEqual(self.hs.requests(path="/send/")[0]["fault"], "drop-before")

    def test_drop_after_processing_then_the_retry_gets_the_same_event(self):
        room = self.room_with_bot()
        self.hs.drop("/send/", when="after")
        with self.assertRaises(DROPPED):
            self.send(room, "sent once", "d2")
        (posted,) = self.hs.events(room, type="m.room.message")
        r = self.send(room, "sent once", "d2")
        self.assertEqual(r.json["event_id"], posted["event_id"])
        self.assertEqual(self.bodies(self.hs.events(room)), ["sent once"])

    def test_drop_in_the_middle_of_a_big_request(self):
        room = self.room_with_bot()
        self.hs.drop("/send/", when="mid-request")
        with self.assertRaises(DROPPED):
            self.send(room, "w" * 60000, "mid1")
        self.assertEqual(self.hs.events(room, type="m.room.message"), [])
        self.assertEqual(self.hs.requests(path="/send/")[0]["fault"], "drop-mid-request")
        self.assertIsNone(self.hs.requests(path="/send/")[0]["body"])  # never read
        self.assertEqual(self.send(room, "w" * 60000, "mid1").status, 200)

    def test_drop_with_reset_or_mid_body(self):
        self.hs.drop(r"/account/whoami$", when="reset")
        with self.assertRaises(DROPPED):
            self.bot.get("/account/whoami")
        self.hs.drop(r"/account/whoami$", when="partial")
        conn = http.client.HTTPConnection(self.hs.host, self.hs.port, timeout=TIMEOUT)
        conn.request("GET", "/_matrix/client/v3/account/whoami",
                     headers={"Authorization": "Bearer " + self.bot.token})
        resp = conn.getresponse()
        self.assertEqual(resp.status, 200)
        with self.assertRaises(http.client.IncompleteRead):
            resp.read()
        conn.close()
        self.assertEqual(self.bot.get("/account/whoami").status, 200)
        self.assertEqual(self.hs.counters["dropped"], 2)

    def test_duplicate_sync_batch_delivers_the_same_events_again(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        event_id = self.hs.send_text(room, "alice", "twice")
        self.hs.duplicate_next_sync("porrazo")
        first = self.bot.sync(since=since).json
        second = self.bot.sync(since=first["next_batch"]).json
        ids = [[e["event_id"] for e in self.timeline(b, room)["events"]]
               for b in (first, second)]
        self.assertEqual(ids, [[event_id], [event_id]])
        third = self.bot.sync(since=second["next_batch"], timeout=100).json
        self.assertNotIn("rooms", third)
        self.assertEqual(self.hs.counters["sync_duplicated"], 1)

    def test_restart_drops_long_polls_and_keeps_state(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        poll = Background(lambda: self.bot.sync(since=since, timeout=20000))
        self.hs.wait_for_request("GET", "/sync$", lambda e: e["query"].get("since") == since)
        keep = http.client.HTTPConnection(self.hs.host, self.hs.port, timeout=TIMEOUT)
        keep.request("GET", "/_matrix/client/versions")
        self.assertEqual(keep.getresponse().read()[:1], b"{")  # kept alive, idle
        port = self.hs.port
        self.hs.stop()
        with self.assertRaises(DROPPED):
            poll.result()
        self.assertLess(poll.elapsed, 10.0)
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection((self.hs.host, port), timeout=TIMEOUT).close()
        self.hs.start()
        self.assertEqual(self.hs.port, port)
        with self.assertRaises(DROPPED):  # the idle keep-alive connection was closed
            keep.request("GET", "/_matrix/client/versions")
            keep.getresponse().read()
        keep.close()
        self.assertEqual(self.bot.get("/account/whoami").status, 200)
        self.hs.send_text(room, "alice", "after the restart")
        body = self.bot.sync(since=since).json
        self.assertEqual(self.bodies(self.timeline(body, room)["events"]),
                         ["after the restart"])
        self.hs.restart(down_for=0.2)
        self.assertEqual(self.hs.counters["restarts"], 1)
        self.assertEqual(self.bot.sync(since=body["next_batch"]).status, 200)

    def test_shutdown_is_prompt_even_with_a_long_poll(self):
        self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        poll = Background(lambda: self.bot.sync(since=since, timeout=30000))
        self.hs.wait_for_request("GET", "/sync$", lambda e: e["query"].get("since") == since)
        started = time.monotonic()
        self.hs.shutdown()
        self.assertLess(time.monotonic() - started, 5.0)
        with self.assertRaises(DROPPED):
            poll.result()


class TestKeepAlive(HSTestCase):

    def test_one_connection_carries_several_requests(self):
        conn = http.client.HTTPConnection(self.hs.host, self.hs.port, timeout=TIMEOUT)
        auth = {"Authorization": "Bearer " + self.bot.token}
        for _ in range(3):
            conn.request("GET", "/_matrix/client/v3/account/whoami", headers=auth)
            resp = conn.getresponse()
            self.assertEqual(json.loads(resp.read())["user_id"], BOT)
        conn.request("PUT", "/_matrix/client/v3/user/%s/account_data/x.y" % q(BOT),
                     body=b'{"a": 1}', headers={**auth, "Content-Type": "application/json"})
        self.assertEqual(conn.getresponse().read(), b"{}")
        conn.request("GET", "/_matrix/client/v3/user/%s/account_data/x.y" % q(BOT),
                     headers=auth)
        self.assertEqual(json.loads(conn.getresponse().read()), {"a": 1})
        conn.close()


class TestRoomUpgrade(HSTestCase):

    def test_tombstone_then_join_the_replacement_by_id(self):
        old = self.room_with_bot(name="Mesa vieja", encrypted=True)
        self.assertEqual(self.bot.put("/user/%s/account_data/m.direct" % q(BOT),
                                      {ALICE: [old]}).status, 200)
        since = self.initial_sync()["next_batch"]
        new = self.hs.upgrade_room(old, "alice")
        self.assertRegex(new, ROOM_ID)
        body = self.bot.sync(since=since).json
        tl = self.timeline(body, old)["events"]
        (tomb,) = [e for e in tl if e["type"] == "m.room.tombstone"]
        self.assertEqual(tomb["content"], {"body": "This room has been replaced",
                                           "replacement_room": new})
        self.assertEqual((tomb["sender"], tomb["state_key"]), (ALICE, ""))
        self.assertNotIn(new, body["rooms"].get("join", {}))
        self.assertNotIn("invite", body["rooms"])  # nobody was invited
        self.assertEqual(body["account_data"]["events"],
                         [{"type": "m.direct", "content": {ALICE: [old, new]}}])
        # The bot was in the predecessor: it may join the replacement by id.
        self.assertEqual(self.bot.post("/join/%s" % q(new)).json, {"room_id": new})
        create = self.bot.get("/rooms/%s/state/m.room.create/" % q(new)).json
        self.assertEqual(create["predecessor"], {"room_id": old, "event_id": tomb["event_id"]})
        self.assertEqual(create["room_version"], "10")
        self.assertEqual(self.hs.state(new, "m.room.member", BOT)
                         ["join_authorised_via_users_server"], ALICE)
        self.assertEqual(self.hs.state(new, "m.room.name"), {"name": "Mesa vieja"})
        self.assertEqual(self.hs.state(new, "m.room.encryption"),
                         {"algorithm": "m.megolm.v1.aes-sha2"})
        # Ordinary members can no longer speak in the old room (Synapse raises
        # its events_default to 50); the new room works.
        self.assertError(self.send(old, "old room", "u1"), 403, "M_FORBIDDEN",
                         r"user_level \(0\) < send_level \(50\)")
        self.assertEqual(self.send(new, "new room", "u2").status, 200)
        # Somebody who was not in the old room cannot.
        bob = HTTPClient(self.hs.url, self.hs.token_for("bob"))
        self.assertError(bob.post("/join/%s" % q(new)), 403, "M_FORBIDDEN")

    def test_upgrade_keeping_the_invite_rule_needs_an_invite(self):
        old = self.room_with_bot()
        new = self.hs.upgrade_room(old, "alice", join_rule="copy")
        self.assertEqual(self.hs.state(new, "m.room.join_rules"), {"join_rule": "invite"})
        self.assertError(self.bot.post("/join/%s" % q(new)), 403, "M_FORBIDDEN")
        old2 = self.room_with_bot()
        new2 = self.hs.upgrade_room(old2, "alice", join_rule="copy", invite_members=True)
        self.assertEqual(self.hs.membership(new2, "porrazo"), "invite")
        self.assertEqual(self.bot.post("/rooms/%s/join" % q(new2)).status, 200)

if __name__ == "__main__":
    exit_on_sigterm()
    started = time.monotonic()
    program = unittest.main(verbosity=2, exit=False)
    print("matrix homeserver self-test: %.1f s" % (time.monotonic() - started),
          file=sys.stderr)
    sys.exit(0 if program.result.wasSuccessful() else 1)
