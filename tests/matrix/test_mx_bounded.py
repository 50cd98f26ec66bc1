#!/usr/bin/env python3
"""test_mx_bounded.py -- what must stay bounded when a homeserver or its users
misbehave (issue 25), porrazo-bot against the homeserver double, each case
seconds long:

  stale token   the bot synced once, is stopped, and its stored sync token is
                replaced by one this server never issued (a server restored
                from a backup, a bot moved to another server); started again,
                the double answers 400 M_UNKNOWN "Invalid stream token" as
                Synapse does: the bot makes its filter again once, then drops
                the token and starts afresh, within a handful of requests; a
                !turn said meanwhile is answered, the commands answered before
                are not answered again, and the log says it once
  500 storm     every /sync answered 500 for a while: the retries back off (a
                few requests, not hundreds), and the bot answers once it ends
  cut JSON      /sync answered 200 with a body cut short: asked again after a
                growing pause, then the bot goes on
  invitations   under Synapse's default join limiter (rc_joins.local: 0.1/s,
                burst 10) one account invites the bot to 300 rooms, then a
                person invites it: the person's room is joined within 25 s
                (the inviters are served in turn), and the joins tried stay
                within a bounded count per minute
  long name     a 548-byte display name (combining marks, emoji, an RTL
                override, zero-width and tag characters, HTML): its score board
                row shows a visible name and a bar, in the body and in the HTML
                table

usage: test_mx_bounded.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import re
import sqlite3
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402

STALE = "s_from_the_old_server_1234"
WINDOW = 30  # seconds after the restart whose requests are counted
USERS = [("ann", "Ann"), ("bob", "Bob"), ("spam", "Spammer"), ("pat", "Pat")]
HIDDEN = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def bot_events(hs, room, since=None):
    return [e for e in hs.events(room, since=since)
            if e["sender"] == g.BOT and e["type"] == "m.room.message"]


def say(hs, room, who, text, body="", timeout=None):
    mark = hs.mark()
    hs.send_text(room, who, text)
    return hs.wait_for_event(room, sender=g.BOT, since=mark, body=body,
                             timeout=timeout or TIMEOUT)


def joined(hs, room, timeout=None):
    deadline = time.monotonic() + (timeout or TIMEOUT)
    while hs.membership(room, g.BOT) != "join":
        g.check(time.monotonic() < deadline, "the bot did not join %s" % room)
        time.sleep(0.02)
    return time.monotonic()


def syncing(hs, since_mark=None):
    """Waits for a long poll of the bot (a sync with a since)."""
    hs.wait_for_request("GET", "/sync$", since=since_mark,
                        predicate=lambda e: "since" in e["query"], timeout=TIMEOUT)


def per_minute(reqs, seconds):
    return len(reqs) * 60.0 / max(seconds, 1.0)


def check_stale_token(hs, bot, db, room):
    """The stored since replaced by one the server never issued."""
    g.check(bot.stop() == 0, "the bot did not stop cleanly")
    con = sqlite3.connect(db)
    with con:
        n = con.execute("UPDATE kv SET value = ? WHERE scope = ? AND key = 'since'",
                        (STALE, "matrix:" + g.NETWORK)).rowcount
    con.close()
    g.check(n == 1, "no stored since to replace")
    log_at = len(bot.log())
    mark = hs.log_mark()
    t0 = time.monotonic()
    bot.start()
    ev = say(hs, room, "ann", "!turn", body="^Ann: table", timeout=40)
    took = time.monotonic() - t0
    time.sleep(max(0.0, WINDOW - took))  # what the bot does once it has answered counts too
    spent = time.monotonic() - t0
    reqs = hs.requests(since=mark)
    refused = [e for e in reqs if e["path"].endswith("/sync") and e["status"] == 400]
    filters = [e for e in reqs if e["path"].endswith("/filter") and e["method"] == "POST"]
    syncs = [e for e in reqs if e["path"].endswith("/sync")]
    g.check(refused and all(e["errcode"] == "M_UNKNOWN" for e in refused),
            "the double did not refuse the stale token: %s" % [
                (e["status"], e["query"].get("since")) for e in syncs[:3]])
    g.check(len(refused) <= 2 and len(filters) <= 1,
            "%d refused syncs and %d new filters in %.0f s" % (len(refused), len(filters), spent))
    g.check(len(reqs) <= 20, "%d requests in the %.0f s after the start" % (len(reqs), spent))
    log = bot.log()[log_at:]
    g.check(log.count("starting afresh") == 1, "the log says 'starting afresh' %d times" %
            log.count("starting afresh"))
    g.check(log.count("sync refused") <= 1, "the log says 'sync refused' %d times" %
            log.count("sync refused"))
    opened = [e for e in bot_events(hs, room) if "opens a Porrazo table" in e["content"]["body"]]
    g.check(len(opened) == 1, "!new answered %d times" % len(opened))
    return took, len(reqs), len(refused), len(filters), per_minute(reqs, spent), ev


def check_sync_storm(hs, room, seconds=12):
    """Every /sync answered 500 for `seconds`: a few requests, then answers."""
    fault = hs.fail(r"/sync$", 500, count=10000)
    mark = hs.log_mark()
    hs.send_text(room, "bob", "hello")  # ends the long poll under way: the next ones fail
    t0 = time.monotonic()
    time.sleep(seconds)
    fault.cancel()
    syncs = hs.requests("GET", r"/sync$", since=mark)
    failed = [e for e in syncs if e["status"] == 500]
    g.check(2 <= len(failed) <= 6, "%d syncs answered 500 in %d s" % (len(failed), seconds))
    say(hs, room, "ann", "!turn", body="^Ann: table", timeout=40)
    return len(failed), per_minute(failed, time.monotonic() - t0)


def check_cut_json(hs, room, count=3):
    """/sync answered 200 with a body cut short, count times: each asked
    again after a longer pause, then the bot goes on."""
    fault = hs.fail(r"/sync$", 200, count=count, body=b'{"next_batch": "s9_1", "rooms": {"jo')
    mark = hs.log_mark()
    hs.send_text(room, "bob", "hello again")
    deadline = time.monotonic() + 30
    while fault.hits < count:
        g.check(time.monotonic() < deadline, "the bot asked %d times in 30 s" % fault.hits)
        time.sleep(0.05)
    ev = say(hs, room, "ann", "!turn", body="^Ann: table", timeout=40)
    syncs = hs.requests("GET", r"/sync$", since=mark)
    g.check(fault.hits == count, "the cut answers were not all given: %d" % fault.hits)
    cut = [i for i, e in enumerate(syncs) if e["fault"] == "fail"]
    waits = [syncs[i + 1]["time"] - (syncs[i]["time"] + (syncs[i]["duration"] or 0))
             for i in cut if i + 1 < len(syncs)]
    g.check(len(waits) == count and all(w >= 0.45 for w in waits) and waits[-1] > waits[0],
            "no growing pause after a cut answer: %s" % ["%.2f" % w for w in waits])
    return waits, ev


def check_invitations(hs, bot, spam=300):
    """One account's 300 invitations, then a person's, under Synapse's
    default join limiter: the person waits for one turn, not for the spam."""
    hs.delete_ratelimit_override(g.BOT)  # the default limits, for the bot too
    hs.set_rate_limit("join", 0.1, 10)  # rc_joins.local, Synapse's default
    mark = hs.log_mark()
    rooms = [hs.create_room("spam", name="Spam %d" % i, invite=[g.BOT]) for i in range(spam)]
    t_spam = time.monotonic()
    deadline = t_spam + TIMEOUT
    while sum(hs.membership(r, g.BOT) == "join" for r in rooms[:40]) < 10:
        g.check(time.monotonic() < deadline, "the bot joined none of the spammer's rooms")
        time.sleep(0.1)
    t_pat = time.monotonic()
    mine = hs.create_room("pat", name="A real person", invite=[g.BOT])
    done = joined(hs, mine, timeout=60)
    waited = done - t_pat
    g.check(waited <= 25, "the person's invitation was joined after %.1f s" % waited)
    time.sleep(max(0.0, 60 - (time.monotonic() - t_spam)))  # one minute of the spam in all
    spent = time.monotonic() - t_spam
    joins = hs.requests("POST", r"/join$", since=mark)
    ok = [e for e in joins if e["status"] == 200]
    limited = [e for e in joins if e["status"] == 429]
    g.check(per_minute(joins, spent) <= 60, "%d joins tried in %.0f s" % (len(joins), spent))
    g.check(bot.alive(), "porrazo-bot died")
    return waited, len(ok), len(limited), len(joins), spent


def long_name():
    """A 548-byte display name (Synapse takes up to 256 characters):
    combining marks (a whole run of them), emoji
    with ZWJ and tag sequences, an RTL override, zero-width characters, HTML."""
    zalgo = "Z" + "\u0336\u0337\u0338\u0301\u0302" * 6 + "o" + "\u0308" * 10 + "\u00eb"
    name = ("\u202e" + zalgo + "\u200b\u200d" +
            "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F" +
            "<b>bold</b><script>x</script>" +
            "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466" * 6 +
            "\u0645\u0631\u062d\u0628\u0627" + "\u2066\u2069\ufeff" + "e\u0301" * 20)
    while len(name.encode()) <= 544:
        name += "\U0001F0CF"
    return name + "!" * (548 - len(name.encode()))


def check_long_name(hs):
    name = long_name()
    g.check(len(name.encode()) == 548, "the name is %d bytes" % len(name.encode()))
    hs.set_displayname("pat", name)
    room = hs.create_room("pat", name="Long", invite=[g.BOT, "@bob:test"])
    joined(hs, room)
    hs.join(room, "bob")
    say(hs, room, "pat", "!new 2", body="opens a Porrazo table")
    say(hs, room, "bob", "!join", body="deals and chooses")
    ev = say(hs, room, "bob", "!score", body="^Score")
    body, html = ev["content"]["body"], ev["content"]["formatted_body"]
    rows = body.split("\n")[1:]
    g.check(len(rows) == 2 and all(re.search(r"\S.*  \[[█░]{20}\] \d+$", r) for r in rows),
            "a board row without a name or a bar: %r" % body)
    pat = next((r for r in rows if not r.startswith("Bob ")), "")
    shown = pat[:pat.index("  [")].strip() if "  [" in pat else ""
    g.check(shown.startswith("Z") and "bold" in shown and not HIDDEN.search(shown) and
            len(shown.encode()) < 128, "the long name is shown as %r" % shown)
    cells = re.findall(r"<tr><td>(.*?)</td><td><code>\[[█░]{20}\]</code></td>", html)
    g.check(len(cells) == 2 and all(c.strip() for c in cells),
            "the HTML board has %d rows with a name: %s" % (len(cells), html))
    return shown


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe = sys.argv[1]
    exit_on_sigterm()
    t0 = time.monotonic()
    done = []
    with g.workdir("pz-mx-bounded-") as tmp:
        hs = g.new_world(tmp, players=USERS)
        bot = None
        try:
            db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
            g.write_config(conf, hs.url, db)
            bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
            syncing(hs)
            room = hs.create_room("ann", name="Mesa", invite=[g.BOT, "@bob:test"])
            joined(hs, room)
            hs.join(room, "bob")
            say(hs, room, "ann", "!new 2", body="opens a Porrazo table")
            say(hs, room, "bob", "!join", body="deals and chooses")
            took, nreq, nref, nfil, rate, _ = check_stale_token(hs, bot, db, room)
            done.append("stale token: !turn answered %.1f s after the start; %d requests in "
                        "%d s (%.0f a minute), %d refused syncs, %d new filter" % (
                            took, nreq, WINDOW, rate, nref, nfil))
            nfail, rate = check_sync_storm(hs, room)
            done.append("500 storm: %d syncs in 12 s (%.0f a minute)" % (nfail, rate))
            waits, _ = check_cut_json(hs, room)
            done.append("cut JSON: pauses %s s" % ", ".join("%.1f" % w for w in waits))
            shown = check_long_name(hs)
            done.append("long name: shown as %d bytes" % len(shown.encode()))
            waited, nok, nlim, njoins, spent = check_invitations(hs, bot)
            done.append("invitations: the person's joined after %.1f s; %d joins tried in "
                        "%.0f s (%d joined, %d refused 429)" % (waited, njoins, spent, nok,
                                                                nlim))
            g.check(not hs.errors, "internal errors in the double")
            g.check(bot.stop() == 0, "the bot did not stop cleanly")
            bot = None
        finally:
            if bot is not None and bot.alive():
                bot.stop()
            hs.shutdown()
    print("matrix bounded: %s; %.0f s" % ("; ".join(done), time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
