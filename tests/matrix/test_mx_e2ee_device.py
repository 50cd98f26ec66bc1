#!/usr/bin/python3
"""test_mx_e2ee_device.py -- porrazo-bot as an end-to-end encryption device
against the homeserver double, its signatures checked with python3-olm
(Debian's, for the system's /usr/bin/python3):

  device       signed device keys uploaded; one-time keys kept at 50 as the
               sync's count falls; a fallback key, and a new one once it was
               claimed; cross-signing on first start through the password's
               user-interactive auth (redacted in the request log), the
               chain master -> self-signing -> device and master -> user-signing
               verified; a restart keeps the same keys and does not cross-sign
               again; no key, pickle or crypto_key in the log
  wrong key    another crypto_key: the saved keys are not replaced, and the
               log says why encryption is off
  token only   an account whose server asks for the password to cross-sign,
               with only an access token configured: no encryption, told why

usage: test_mx_e2ee_device.py PORRAZO_BOT PORRAZO_REPLAY
exit status 77 (skipped) without python3-olm.
"""
import json
import os
import sqlite3
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

try:
    import olm
except ImportError:
    print("SKIP: python3-olm is not installed (apt-get install python3-olm)")
    sys.exit(77)

import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from mxclient import HTTPClient  # noqa: E402

KEY = "test crypto key 7f3a"


def write_config(path, hs, db, key=KEY, password="secret", token=None):
    g.write_config(path, hs.url, db, password=password, token=token)
    with open(path, "a") as f:
        f.write("crypto_key = %s\n" % key)


def verify(obj, user, key_id, public):
    """python3-olm's ed25519 check of obj's signature by key_id."""
    sig = obj.get("signatures", {}).get(user, {}).get(key_id)
    g.check(sig is not None, "no signature %s by %s on %s" % (key_id, user, obj))
    body = {k: v for k, v in obj.items() if k not in ("signatures", "unsigned")}
    try:
        olm.ed25519_verify(public, g.canonical(body), sig)
    except olm.OlmVerifyError as e:
        raise AssertionError("signature %s does not verify: %s" % (key_id, e))


def wait_until(what, fn, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)


def wait_log(bot, text, timeout=TIMEOUT):
    return wait_until("%r in the log:\n%s" % (text, bot.log()[-3000:]),
                      lambda: text in bot.log(), timeout)


def device_of(hs):
    return wait_until("the bot's device", lambda: next(iter(hs.devices_of("porrazo")), None))


def kv(db, key):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=5)
    try:
        row = con.execute("SELECT value FROM kv WHERE scope = ? AND key = ?",
                          ("matrix:" + g.NETWORK, key)).fetchone()
        return row[0] if row else None
    finally:
        con.close()


def pub(key_obj):
    return next(iter(key_obj["keys"].values()))


def nudge(client, device, n=[0]):
    """A to-device m.dummy to the bot's device: its long poll answers (as
    Synapse's does), with the one-time key count a claim changed (a count
    alone does not wake a sync on Synapse either)."""
    n[0] += 1
    client.put("/sendToDevice/m.dummy/nudge%d" % n[0], {"messages": {g.BOT: {device: {}}}})


def check_chain(hs, device):
    """The device's and cross-signing keys' signatures, as another user's
    client reads them from /keys/query."""
    alice = HTTPClient(hs.url)
    alice.login("ann", "pw", device_id="ANNCHECK")
    r = alice.post("/keys/query", {"device_keys": {g.BOT: []}}).json
    dk = r["device_keys"][g.BOT][device]
    ed = dk["keys"]["ed25519:" + device]
    verify(dk, g.BOT, "ed25519:" + device, ed)
    master, selfk = r["master_keys"][g.BOT], r["self_signing_keys"][g.BOT]
    g.check(master["usage"] == ["master"] and selfk["usage"] == ["self_signing"], "usages")
    verify(master, g.BOT, "ed25519:" + device, ed)          # the device vouches for its master
    verify(selfk, g.BOT, "ed25519:" + pub(master), pub(master))
    verify(dk, g.BOT, "ed25519:" + pub(selfk), pub(selfk))  # cross-signed by its owner
    userk = hs.cross_signing_of(g.BOT)["user_signing"]
    verify(userk, g.BOT, "ed25519:" + pub(master), pub(master))
    g.check(g.BOT not in r["user_signing_keys"], "others see the bot's user-signing key")
    return ed, pub(master)


class Bots:
    """The bots a test starts, each stopped at the end even when it fails."""

    def __init__(self):
        self.all = []

    def start(self, *args):
        b = g.Bot(*args)
        self.all.append(b)
        return b

    def stop_all(self):
        for b in self.all:
            if b.alive():
                b.stop()


def test_device(bot_exe, tmp):
    hs = g.new_world(tmp)
    bots = Bots()
    try:
        db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
        write_config(conf, hs, db)
        bot = bots.start(bot_exe, conf, os.path.join(tmp, "bot.log"))
        wait_log(bot, "end-to-end encryption is on")
        device = device_of(hs)
        ed, master = check_chain(hs, device)
        uia = hs.requests(path="/keys/device_signing/upload")
        g.check([e["status"] for e in uia] == [401, 200], "UIA: %s" % [e["status"] for e in uia])
        g.check(uia[1]["body"]["auth"]["password"] == "<redacted>", "the password in the log")
        # one-time keys: 50 on the server, each signed by the device
        wait_until("50 one-time keys", lambda: hs.one_time_key_count("porrazo", device) == 50)
        ann = HTTPClient(hs.url)
        ann.login("ann", "pw", device_id="ANNDEV")
        claim = {"one_time_keys": {g.BOT: {device: "signed_curve25519"}}}
        got = ann.post("/keys/claim", claim).json["one_time_keys"][g.BOT][device]
        (kid, k), = got.items()
        verify(k, g.BOT, "ed25519:" + device, ed)
        g.check("fallback" not in k, "a one-time key marked fallback")
        # the top-up: the bot keeps 50
        for _ in range(20):
            ann.post("/keys/claim", claim)
        nudge(ann, device)
        wait_until("the top-up to 50", lambda: hs.one_time_key_count("porrazo", device) == 50)
        # the fallback key once one-time keys run out (the top-up held back)
        hold = hs.delay(path="/keys/upload$", seconds=2.0, count=1)
        for _ in range(50):
            ann.post("/keys/claim", claim)
        nudge(ann, device)
        wait_until("the sync to show the count fall",
                   lambda: hs.one_time_key_count("porrazo", device) == 0 or hold.hits, 10)
        got = ann.post("/keys/claim", claim).json["one_time_keys"][g.BOT][device]
        (fid, fk), = got.items()
        if hs.counters["fallback_claimed"]:
            g.check(fk.get("fallback") is True, "the key given when none was left: %s" % fk)
            verify(fk, g.BOT, "ed25519:" + device, ed)
            wait_until("a new fallback key", lambda: nudge(ann, device) or any(
                "fallback_keys" in (e["body"] or {}) and fid not in e["body"]["fallback_keys"]
                for e in hs.requests(path="/keys/upload$")[1:]))
        wait_until("the top-up after the hold",
                   lambda: hs.one_time_key_count("porrazo", device) >= 49)
        g.check(hs.counters["fallback_claimed"] >= 1, "the fallback key was never handed out")
        log = bot.log()
        pickle = kv(db, "e2e_account")
        g.check(pickle and pickle not in log and KEY not in log, "a secret in the log")
        g.check(ed not in pickle, "the pickle holds the key in clear")
        # a restart: the same device keys, no second cross-signing
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        uploads = len(hs.requests(path="/keys/device_signing/upload"))
        bot = bots.start(bot_exe, conf, os.path.join(tmp, "bot.log"))
        wait_until("the second start's log", lambda: bot.log().count(
            "end-to-end encryption is on") == 2)
        g.check(hs.device_keys_of("porrazo", device)["keys"]["ed25519:" + device] == ed,
                "the device's keys changed across a restart")
        g.check(len(hs.requests(path="/keys/device_signing/upload")) == uploads,
                "cross-signed again after a restart")
        g.check(check_chain(hs, device) == (ed, master), "the chain changed")
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        pickle = kv(db, "e2e_account")
        # another crypto_key: refused, the saved keys kept
        write_config(conf, hs, db, key="another key")
        bot = bots.start(bot_exe, conf, os.path.join(tmp, "bot.log"))
        wait_log(bot, "crypto_key does not open the device's saved keys")
        time.sleep(0.5)
        g.check(kv(db, "e2e_account") == pickle, "the saved keys were replaced")
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        print("device: keys, one-time keys, fallback key, cross-signing chain, restart, "
              "wrong key: ok")
    finally:
        bots.stop_all()
        hs.shutdown()


def test_token_only(bot_exe, tmp):
    hs = g.new_world(tmp)
    bots = Bots()
    try:
        db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
        write_config(conf, hs, db, password=None, token=hs.token_for("porrazo"))
        bot = bots.start(bot_exe, conf, os.path.join(tmp, "bot.log"))
        wait_log(bot, "only an access_token is configured (add password)")
        g.check("end-to-end encryption is on" not in bot.log(), "encryption on uncross-signed")
        g.check(not hs.requests(path="/keys/signatures/upload"), "a signature uploaded")
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        print("token only: no cross-signing without the password, told: ok")
    finally:
        bots.stop_all()
        hs.shutdown()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe = sys.argv[1]
    with g.workdir("pz-e2ee-dev-") as tmp:
        test_device(bot_exe, tmp)
    with g.workdir("pz-e2ee-tok-") as tmp:
        test_token_only(bot_exe, tmp)
    return 0


if __name__ == "__main__":
    exit_on_sigterm()
    sys.exit(main())
