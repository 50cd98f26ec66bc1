#!/usr/bin/env python3
"""test_homeserver_keys.py -- self-tests of the homeserver double's keys API
(mxkeys.py) through real HTTP, as Synapse answers it: /keys/upload and the
counts /sync gives back, /keys/claim taking one-time keys then the fallback
key, /keys/query with cross-signing keys (user_signing only for oneself)
and uploaded signatures, /keys/device_signing/upload behind user-interactive
auth by password, PUT /sendToDevice idempotent per transaction id and
delivered to one device's /sync, device_lists.changed/left; and what an
end-to-end client (the js-sdk) asks for as it starts: the default push
rules, the key backup's version. The ctest matrix_homeserver_keys.
"""
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from homeserver import exit_on_sigterm  # noqa: E402
from mxclient import q  # noqa: E402
from test_homeserver import ALICE, BOT, HSTestCase  # noqa: E402


def device_keys(user, device, curve="C" * 43, ed="E" * 43):
    return {"user_id": user, "device_id": device,
            "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
            "keys": {"curve25519:" + device: curve, "ed25519:" + device: ed},
            "signatures": {user: {"ed25519:" + device: "sig"}}}


def otk(i):
    return {"key": "K%042d" % i, "signatures": {BOT: {"ed25519:BOTDEVICE": "s"}}}


class TestKeys(HSTestCase):
    def alice(self, device="ALICEDEV"):
        c = self.hs.client()
        self.assertEqual(c.login("alice", "alicepw", device_id=device).status, 200)
        return c

    def test_upload_counts_and_sync_reports_them(self):
        r = self.bot.post("/keys/upload", {
            "device_keys": device_keys(BOT, "BOTDEVICE"),
            "one_time_keys": {"signed_curve25519:A%d" % i: otk(i) for i in range(3)},
            "fallback_keys": {"signed_curve25519:F": dict(otk(9), fallback=True)}})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json, {"one_time_key_counts": {"signed_curve25519": 3}})
        body = self.initial_sync()
        self.assertEqual(body["device_one_time_keys_count"], {"signed_curve25519": 3})
        self.assertEqual(body["device_unused_fallback_key_types"], ["signed_curve25519"])
        # another key under a used id: refused, as Synapse refuses it
        r = self.bot.post("/keys/upload", {"one_time_keys": {"signed_curve25519:A0": otk(7)}})
        self.assertError(r, 400, "M_UNKNOWN", "already exists")
        # device keys of another device: refused
        r = self.bot.post("/keys/upload", {"device_keys": device_keys(BOT, "OTHER")})
        self.assertError(r, 400, "M_INVALID_PARAM")

    def test_claim_takes_one_time_keys_then_the_fallback_key(self):
        self.bot.post("/keys/upload", {
            "device_keys": device_keys(BOT, "BOTDEVICE"),
            "one_time_keys": {"signed_curve25519:A0": otk(0)},
            "fallback_keys": {"signed_curve25519:F": dict(otk(9), fallback=True)}})
        a = self.alice()
        want = {"one_time_keys": {BOT: {"BOTDEVICE": "signed_curve25519"}}}
        r = a.post("/keys/claim", want)
        self.assertEqual(r.json["one_time_keys"][BOT]["BOTDEVICE"],
                         {"signed_curve25519:A0": otk(0)})
        for _ in range(2):  # then the fallback key, as often as asked
            r = a.post("/keys/claim", want)
            got = r.json["one_time_keys"][BOT]["BOTDEVICE"]
            self.assertEqual(list(got), ["signed_curve25519:F"])
            self.assertTrue(got["signed_curve25519:F"]["fallback"])
        body = self.initial_sync()
        self.assertEqual(body["device_one_time_keys_count"], {"signed_curve25519": 0})
        self.assertEqual(body["device_unused_fallback_key_types"], [])
        self.assertEqual(self.hs.counters["fallback_claimed"], 2)
        # a new fallback key is unused again
        self.bot.post("/keys/upload", {
            "fallback_keys": {"signed_curve25519:G": dict(otk(8), fallback=True)}})
        self.assertEqual(self.initial_sync()["device_unused_fallback_key_types"],
                         ["signed_curve25519"])

    def test_cross_signing_needs_the_password_and_shows_in_query(self):
        keys = {name + "_key": {"user_id": BOT, "usage": [name],
                                "keys": {"ed25519:P" + name: "P" + name}}
                for name in ("master", "self_signing", "user_signing")}
        r = self.bot.post("/keys/device_signing/upload", keys)
        self.assertEqual(r.status, 401, r)
        self.assertNotIn("errcode", r.json)
        self.assertEqual(r.json["flows"], [{"stages": ["m.login.password"]}])
        session = r.json["session"]
        auth = {"type": "m.login.password", "session": session,
                "identifier": {"type": "m.id.user", "user": BOT}, "password": "wrong"}
        r = self.bot.post("/keys/device_signing/upload", dict(keys, auth=auth))
        self.assertError(r, 401, "M_FORBIDDEN")
        auth["password"] = "secret"
        r = self.bot.post("/keys/device_signing/upload", dict(keys, auth=auth))
        self.assertEqual((r.status, r.json), (200, {}))
        logged = self.hs.requests(path="/keys/device_signing/upload")[-1]["body"]
        self.assertEqual(logged["auth"]["password"], "<redacted>")
        self.bot.post("/keys/upload", {"device_keys": device_keys(BOT, "BOTDEVICE")})
        r = self.bot.post("/keys/signatures/upload", {BOT: {"BOTDEVICE": dict(
            device_keys(BOT, "BOTDEVICE"),
            signatures={BOT: {"ed25519:Pself_signing": "xsig"}})}})
        self.assertEqual(r.json, {"failures": {}})
        mine = self.bot.post("/keys/query", {"device_keys": {BOT: []}}).json
        self.assertEqual(mine["master_keys"][BOT]["keys"], {"ed25519:Pmaster": "Pmaster"})
        self.assertIn(BOT, mine["user_signing_keys"])
        sigs = mine["device_keys"][BOT]["BOTDEVICE"]["signatures"][BOT]
        self.assertEqual(sigs, {"ed25519:BOTDEVICE": "sig", "ed25519:Pself_signing": "xsig"})
        theirs = self.alice().post("/keys/query", {"device_keys": {BOT: []}}).json
        self.assertIn(BOT, theirs["self_signing_keys"])
        self.assertNotIn(BOT, theirs["user_signing_keys"])
        r = self.bot.post("/keys/signatures/upload", {BOT: {"NOSUCH": {"signatures": {}}}})
        self.assertEqual(r.json["failures"][BOT]["NOSUCH"]["errcode"], "M_INVALID_SIGNATURE")

    def test_cross_signing_password_without_a_session(self):
        # Synapse's check_ui_auth: an auth dict without a session starts one
        # and is checked at once (the js-sdk's bootstrapCrossSigning sends it
        # so); a session it never issued is 400 "Unknown session ID"
        keys = {name + "_key": {"user_id": BOT, "usage": [name],
                                "keys": {"ed25519:Q" + name: "Q" + name}}
                for name in ("master", "self_signing", "user_signing")}
        auth = {"type": "m.login.password",
                "identifier": {"type": "m.id.user", "user": BOT}, "password": "wrong"}
        r = self.bot.post("/keys/device_signing/upload", dict(keys, auth=auth))
        self.assertError(r, 401, "M_FORBIDDEN")
        self.assertIn("session", r.json)
        r = self.bot.post("/keys/device_signing/upload",
                          dict(keys, auth=dict(auth, password="secret", session="nosuch")))
        self.assertError(r, 400, "M_UNKNOWN")
        self.assertEqual(r.json["error"], "Unknown session ID: nosuch")
        r = self.bot.post("/keys/device_signing/upload",
                          dict(keys, auth=dict(auth, password="secret")))
        self.assertEqual((r.status, r.json), (200, {}))
        mine = self.bot.post("/keys/query", {"device_keys": {BOT: []}}).json
        self.assertEqual(mine["master_keys"][BOT]["keys"], {"ed25519:Qmaster": "Qmaster"})

    def test_to_device_goes_to_one_device_once_per_transaction(self):
        a = self.alice()
        a2 = self.alice("ALICEPHONE")
        since = self.initial_sync(a)["next_batch"]
        since2 = self.initial_sync(a2)["next_batch"]
        path = "/sendToDevice/%s/%s" % (q("m.room.encrypted"), "t1")
        msg = {"messages": {ALICE: {"ALICEDEV": {"ciphertext": "x"}}}}
        self.assertEqual(self.bot.put(path, msg).status, 200)
        self.assertEqual(self.bot.put(path, msg).status, 200)  # a retry: not again
        body = a.sync(since=since, timeout=1000).json
        events = body["to_device"]["events"]
        self.assertEqual(events, [{"sender": BOT, "type": "m.room.encrypted",
                                   "content": {"ciphertext": "x"}}])
        self.assertEqual(self.hs.counters["to_device_repeats"], 1)
        body2 = a2.sync(since=since2, timeout=0).json
        self.assertNotIn("to_device", body2)
        # delivered once: the next sync from the new token has nothing
        again = a.sync(since=body["next_batch"], timeout=0).json
        self.assertNotIn("to_device", again)

    def test_device_lists_say_who_changed_and_who_left(self):
        room = self.room_with_bot()
        since = self.initial_sync()["next_batch"]
        a = self.alice()
        a.post("/keys/upload", {"device_keys": device_keys(ALICE, "ALICEDEV")})
        body = self.bot.sync(since=since, timeout=1000).json
        self.assertEqual(body["device_lists"]["changed"], [ALICE])
        self.hs.leave(room, "alice")
        body = self.bot.sync(since=body["next_batch"], timeout=1000).json
        self.assertEqual(body["device_lists"]["left"], [ALICE])
        # strangers' keys are nobody's business
        b = self.hs.client()
        b.login("bob", "bobpw", device_id="BOBDEV")
        mark = body["next_batch"]
        b.post("/keys/upload", {"device_keys": device_keys("@bob:test", "BOBDEV")})
        body = self.bot.sync(since=mark, timeout=0).json
        self.assertNotIn("device_lists", body)


class TestClientStart(HSTestCase):
    def test_default_push_rules_as_synapse_formats_them(self):
        self.assertError(self.bot.get("/pushrules"), 404, "M_UNRECOGNIZED")
        r = self.bot.get("/pushrules/")
        self.assertEqual(r.status, 200, r)
        rules = r.json["global"]
        self.assertEqual(list(r.json), ["global"])
        self.assertEqual(sorted(rules), ["content", "override", "postcontent", "room", "sender",
                                         "underride"])
        ids = [x["rule_id"] for x in rules["override"]]
        self.assertEqual(ids[:4], [".m.rule.master", ".m.rule.suppress_notices",
                                   ".m.rule.invite_for_me", ".m.rule.member_event"])
        self.assertFalse(rules["override"][0]["enabled"])
        self.assertTrue(all(x["default"] and x["enabled"] for x in rules["override"][1:]))
        self.assertEqual(rules["content"][0]["pattern"], "porrazo")
        invite = rules["override"][2]["conditions"][2]
        self.assertEqual(invite, {"kind": "event_match", "key": "state_key", "pattern": BOT})
        self.assertEqual([x["rule_id"] for x in rules["underride"]][-3:],
                         [".m.rule.message", ".m.rule.encrypted", ".im.vector.jitsi"])
        self.assertFalse([x for k in rules.values() for x in k if "msc" in x["rule_id"]])
        self.assertEqual(self.bot.get("/pushrules/global/").json, rules)
        self.assertError(self.bot.get("/pushrules/", token=None), 401, "M_MISSING_TOKEN")

    def test_no_key_backup_is_404_not_found(self):
        r = self.bot.get("/room_keys/version")
        self.assertError(r, 404, "M_NOT_FOUND")
        self.assertEqual(r.json["error"], "No backup found")


if __name__ == "__main__":
    exit_on_sigterm()
    unittest.main()
