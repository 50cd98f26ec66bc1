#!/usr/bin/env python3
"""test_mx_users.py -- the Matrix adapter as its users meet it, one behaviour
after another, against the homeserver double with one bot process, under
Synapse's default rate limits (rc_message 0.2/s burst 10, rc_joins...):

  names       two members both named "Ann": each is "Ann (@user:test)" in the
              bot's lines, and the pill and m.mentions of "... to play" point
              at the user whose turn it is, never at the other Ann
  bidi        a display name full of bidi controls and zero-width characters
              is written without them
  one event   the lines one command makes for a room come in one event
  prompt      the private "your turn" prompt is an m.text (it notifies); room
              announcements stay m.notice
  moderator   a member at the room's moderator power level stops a game they
              do not play in; a member below it cannot; power levels the bot
              never saw are read from the homeserver
  403         a room where the bot may not speak: the players of its game are
              told once privately (the room by its name), a warning is logged,
              nothing more is tried there until its power levels change
  edits       a refused command edited into a good one is taken, once; an
              edit of a move is answered that edits don't change moves
  threads     a command said in a thread is answered in the thread; the game's
              announcements stay in the main timeline
  invites     300 invitations at once are all joined without a restart (the join
              limiter off: under Synapse's default, test_mx_bounded.py)
  e2e server  a server that encrypts every private room: no hand is sent into
              an encrypted room, the game's room is told once, plainly, and a
              player whose hands cannot be delivered is not seated

usage: test_mx_users.py PORRAZO_BOT PORRAZO_REPLAY
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
from mxmodel import SYNAPSE_RATE_LIMITS  # noqa: E402

RLO, ZWSP, LRI, PDI = "\u202e", "\u200b", "\u2066", "\u2069"
USERS = [("ann", "Ann"), ("ann2", "Ann"), ("eve", RLO + "Eve" + ZWSP + LRI + PDI),
         ("bob", "Bob"), ("mod", "Mo")]
WAIT = TIMEOUT * 6  # Synapse's limiter lets the bot post one event every 5 s once its burst is spent
HIDDEN = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")


def bot_events(hs, room, since=None):
    return [e for e in hs.events(room, since=since)
            if e["sender"] == g.BOT and e["type"] == "m.room.message"]


def say(hs, room, who, text, since=None, body=None, **extra):
    """who says text in room; waits for the bot's first answer matching body
    (a regular expression) after it; returns that event."""
    mark = hs.mark() if since is None else since
    hs.send_text(room, who, text, **extra)
    return hs.wait_for_event(room, sender=g.BOT, since=mark, body=body, timeout=WAIT)


def joined(hs, room, user=g.BOT):
    deadline = time.monotonic() + WAIT
    while hs.membership(room, user) != "join":
        g.check(time.monotonic() < deadline, "%s did not join %s" % (user, room))
        time.sleep(0.02)


def to_play(ev):
    """(name, mentioned user ids, pill user ids) of an event's "NAME to play"."""
    c = ev["content"]
    m = None
    for m in re.finditer(r"· ([^·]+?) (?:to play|deals and chooses|arranges the tendido)",
                         c.get("body", "")):
        pass  # the last one: the state ends a line
    pills = re.findall(r'href="https://matrix.to/#/([^"]+)"', c.get("formatted_body", ""))
    return (m.group(1) if m else None, (c.get("m.mentions") or {}).get("user_ids", []), pills)


def check_names(hs, bot):
    """Two Anns at one table: names and pills map to one user each."""
    room = hs.create_room("ann", name="Twins", invite=[g.BOT, "@ann2:test"])
    joined(hs, room)
    hs.join(room, "ann2")
    say(hs, room, "ann", "!new 2", body="opens a Porrazo table")
    ev = say(hs, room, "ann2", "!join", body="deals and chooses")
    seen = 0
    for step in range(4):
        name, mentions, pills = to_play(ev)
        g.check(name in ("Ann (@ann:test)", "Ann (@ann2:test)"),
                "the player to move is not told apart: %r" % ev["content"]["body"])
        uid = name[5:-1]
        g.check(mentions == [uid] and pills[-1:] == [uid],
                "%r mentions %s, pill %s" % (name, mentions, pills))
        g.check(not re.search(r"(^|[^(])Ann(?! \()", ev["content"]["body"]),
                "a bare 'Ann' in %r" % ev["content"]["body"])
        seen += 1
        who = uid[1:].split(":")[0]
        if step == 0:
            ev = say(hs, room, who, "!tendido later", body="to play")
            continue
        # the one to play asks for the table: the answer names them again
        ev = say(hs, room, who, "!turn", body="to play")
    # a seat named by its player id: the other Ann is the one kicked
    say(hs, room, "ann", "!stop", body="stop|abandon")
    say(hs, room, "ann", "!new 3", body="opens a Porrazo table")
    say(hs, room, "ann2", "!join", body="sits down")
    ev = say(hs, room, "ann", "!kick @ann2:test", body="Ann")
    g.check(ev["content"]["body"].startswith("Ann (@ann2:test) leaves the table"),
            "the kick did not name the other Ann: %r" % ev["content"]["body"])
    say(hs, room, "ann", "!stop", body="stop|abandon")
    return seen


def check_bidi(hs):
    room = hs.create_room("eve", name="Bidi", invite=[g.BOT])
    joined(hs, room)
    ev = say(hs, room, "eve", "!new 2", body="opens a Porrazo table")
    body = ev["content"]["body"]
    g.check("Eve" in body and not HIDDEN.search(body) and
            not HIDDEN.search(ev["content"]["formatted_body"]),
            "a name with bidi controls: %r" % body)
    say(hs, room, "eve", "!stop", body="stop|abandon")


def dm_events(hs, uid, predicate, timeout=None):
    """Waits for an event of the bot in uid's direct room (m.direct) that
    satisfies predicate; returns it."""
    deadline = time.monotonic() + (timeout or WAIT)
    while True:
        for room in hs.direct_rooms(g.BOT).get(uid, []):
            for ev in bot_events(hs, room):
                if predicate(ev):
                    return ev
        g.check(time.monotonic() < deadline, "nothing of the kind came to %s's direct room: %s" % (
            uid, [e["content"] for r in hs.direct_rooms(g.BOT).get(uid, [])
                  for e in bot_events(hs, r)][-3:]))
        time.sleep(0.05)


def check_prompt(hs):
    """The private turn prompt is an m.text; the room's lines are notices;
    the lines of one command for the room are one event."""
    room = hs.create_room("bob", name="Prompts", invite=[g.BOT, "@mod:test"])
    joined(hs, room)
    hs.join(room, "mod")
    say(hs, room, "bob", "!prompts on", body="")
    say(hs, room, "mod", "!prompts on", body="")
    say(hs, room, "bob", "!new 2", body="opens a Porrazo table")
    mark = hs.mark()
    seat = say(hs, room, "mod", "!join", body="sits down", since=mark)
    ev = hs.wait_for_event(room, sender=g.BOT, since=mark, body="deals and chooses", timeout=WAIT)
    body = ev["content"]["body"]
    # The seat that fills the table is told ahead of the hands it deals (an
    # event of its own, sent with the hands' priority); the deal's lines for
    # the room come after it, together in one event.
    events = bot_events(hs, room, mark)
    g.check(len(events) == 2 and events[0] is not None and "sits down" in seat["content"]["body"]
            and events[1]["event_id"] == ev["event_id"],
            "the join's lines for the room are not the seat, then the deal in one event: %r"
            % [e["content"]["body"] for e in events])
    g.check("\n" not in body or "<br>" in ev["content"]["formatted_body"],
            "no line breaks in the HTML")
    dealer = "bob" if to_play(ev)[0] == "Bob" else "mod"
    ev = say(hs, room, dealer, "!tendido later", body="to play")
    name, mentions, _ = to_play(ev)
    g.check(all(e["content"]["msgtype"] == "m.notice" for e in bot_events(hs, room)),
            "a room line that is not a notice")
    uid = mentions[0]
    prompt = dm_events(hs, uid, lambda e: "your turn" in e["content"]["body"].lower() and
                       e["content"]["msgtype"] == "m.text")
    hands = [e for r in hs.direct_rooms(g.BOT).get(uid, []) for e in bot_events(hs, r)
             if e["content"]["body"].startswith("Your hand") and
             "your turn" not in e["content"]["body"].lower()]
    g.check(all(e["content"]["msgtype"] == "m.notice" for e in hands),
            "a hand that is not a notice")
    # a second table for bob: his private answers name the room, by its name
    other = hs.create_room("bob", name="Second", invite=[g.BOT])
    joined(hs, other)
    say(hs, other, "bob", "!new 2", body="opens a Porrazo table")
    dm = hs.direct_rooms(g.BOT)["@bob:test"][0]
    if hs.membership(dm, "@bob:test") != "join":
        hs.join(dm, "bob")
    # bob's earlier private lines first: his hand goes ahead of the answer to
    # his !prompts (hands have the first priority), so under the homeserver's
    # rate limit that answer may still be on its way; the next event must be
    # the answer to what he asks now
    dm_events(hs, "@bob:test", lambda e: "each of your turns" in e["content"]["body"])
    dm_events(hs, "@bob:test", lambda e: e["content"]["body"].startswith("Your hand"))
    mark = hs.mark()
    hs.send_text(dm, "bob", "hand %s" % room)
    ev = hs.wait_for_event(dm, sender=g.BOT, since=mark, timeout=WAIT)
    g.check("Your hand in Prompts" in ev["content"]["body"] and room not in ev["content"]["body"],
            "the private answer does not name the room by its name: %r" % ev["content"]["body"])
    say(hs, other, "bob", "!stop", body="stop|abandon")
    say(hs, room, "bob", "!stop", body="stop|abandon")
    return prompt


def check_moderator(hs, bot, db):
    """A member at the room's moderator level stops a game they do not play
    in; a member below it cannot."""
    pl = {"users": {"@bob:test": 100, "@mod:test": 50, g.BOT: 50}}
    room = hs.create_room("bob", name="Moderated", invite=[g.BOT, "@ann:test", "@mod:test",
                                                           "@eve:test", "@ann2:test"],
                          power_level_content_override=pl)
    joined(hs, room)
    for who in ("ann", "mod", "eve", "ann2"):
        hs.join(room, who)
    say(hs, room, "ann", "!new 2", body="opens a Porrazo table")
    say(hs, room, "eve", "!join", body="sits down")
    mark = hs.mark()
    say(hs, room, "ann2", "!stop", body="")
    g.check(not any(re.search(r"stopped|abandoned", e["content"]["body"])
                    for e in bot_events(hs, room, since=mark)),
            "a member who is not a moderator stopped the game")
    ev = say(hs, room, "mod", "!stop", body=r"stopped|abandoned")
    # power levels the bot never saw (a room joined by an older bot, whose
    # sync filter left them out): read from the homeserver at the first command
    say(hs, room, "ann", "!new 2", body="opens a Porrazo table")
    g.check(bot.stop() == 0, "the bot did not stop cleanly")
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM kv WHERE key LIKE 'mods:%'")
    con.close()
    mark = hs.log_mark()
    bot.start()
    say(hs, room, "mod", "!players", body="")
    hs.wait_for_request("GET", r"/state/m.room.power_levels", since=mark, timeout=WAIT,
                        done=True)
    say(hs, room, "mod", "!stop", body=r"stopped|abandoned")
    return ev["content"]["body"]


def check_forbidden(hs, bot):
    """A room where the bot may not speak (403): told once, privately, to the
    players of its game, logged at warning, no send tried again until the
    power levels change; then the bot speaks there again."""
    pl = {"events_default": 50, "users": {"@ann:test": 100, "@bob:test": 50}}
    room = hs.create_room("ann", name="Muted", invite=[g.BOT, "@bob:test"],
                          power_level_content_override=pl)
    joined(hs, room)
    hs.join(room, "bob")
    path = r"/rooms/%s/send/" % re.escape(room)
    mark = hs.log_mark()
    hs.send_text(room, "ann", "!new 2")
    hs.wait_for_request("PUT", path, predicate=lambda e: e["status"] == 403,
                        timeout=WAIT)
    told = dm_events(hs, "@ann:test", lambda e: "can no longer speak in Muted" in
                     e["content"]["body"])
    hs.send_text(room, "bob", "!join")
    hs.send_text(room, "bob", "!players")
    dm_events(hs, "@bob:test", lambda e: "Muted" in e["content"]["body"])
    time.sleep(1)
    tried = hs.requests("PUT", path, since=mark)
    first = next(i for i, e in enumerate(tried) if e["status"] == 403)
    g.check(len(tried) == first + 1, "%d sends tried after the room refused one" % (
        len(tried) - first - 1))  # (those before it: 429s of the limiter, sent again)
    g.check(re.search(r"warn: local: %s refuses the bot's messages" % re.escape(room),
                      bot.log()), "no warning in the log")
    pl["users"][g.BOT] = 50
    hs.set_state(room, "ann", "m.room.power_levels", pl)
    say(hs, room, "ann", "!players", body="")
    say(hs, room, "ann", "!stop", body="stop|abandon")
    return told


def check_invite_burst(hs, bot, count=300):
    """count invitations at once: all joined without a restart (at most
    MX_JOINS_MAX at a time, the others as those are over)."""
    hs.set_rate_limit("join", None)
    rooms = [hs.create_room("bob", name="Burst %d" % i, invite=[g.BOT]) for i in range(count)]
    t = time.monotonic()
    deadline = t + TIMEOUT * 4
    while True:
        left = [r for r in rooms if hs.membership(r, g.BOT) != "join"]
        if not left:
            break
        g.check(bot.alive(), "porrazo-bot died")
        g.check(time.monotonic() < deadline, "%d of %d invitations not joined" % (
            len(left), count))
        time.sleep(0.1)
    g.check("again (not confirmed before a restart)" not in bot.log(), "the bot restarted?")
    return time.monotonic() - t


def check_encrypting_server(bot_exe, tmp):
    """A server that encrypts every private room (Synapse's
    encryption_enabled_by_default_for_room_type: invite): the direct rooms
    the bot makes come out encrypted; no hand is ever sent into one; the
    game's room is told once, plainly; a player who would need a direct
    room is not seated and is told why."""
    hs = g.new_world(tmp, players=USERS, encrypt_by_default="invite")
    bot = None
    try:
        db, conf = os.path.join(tmp, "e2e.db"), os.path.join(tmp, "e2e.conf")
        g.write_config(conf, hs.url, db)
        bot = g.Bot(bot_exe, conf, os.path.join(tmp, "e2e.log"))
        hs.wait_for_request("GET", "/sync$", predicate=lambda e: "since" in e["query"],
                            timeout=WAIT)
        room = hs.create_room("ann", name="Open", preset="public_chat",
                              invite=[g.BOT, "@bob:test", "@eve:test"])
        joined(hs, room)
        hs.join(room, "bob")
        hs.join(room, "eve")
        say(hs, room, "ann", "!new 2", body="opens a Porrazo table")
        mark = hs.mark()
        hs.send_text(room, "bob", "!join")
        told = hs.wait_for_event(room, sender=g.BOT, since=mark, timeout=WAIT,
                                 body="(?m)^Private hands cannot be delivered on this server")
        g.check("encrypt" in told["content"]["body"], "not plain: %r" % told["content"]["body"])
        other = hs.create_room("eve", name="Open too", preset="public_chat", invite=[g.BOT])
        joined(hs, other)
        ev = say(hs, other, "eve", "!new 2", body="")
        g.check("cannot" in ev["content"]["body"] and "sits" not in ev["content"]["body"],
                "a player whose hands cannot be delivered was seated: %r" % ev["content"]["body"])
        time.sleep(1)
        for uid in ("@ann:test", "@bob:test"):
            for r in hs.rooms_of(uid, membership="invite") + hs.rooms_of(uid):
                if r == room:
                    continue
                g.check(hs.state(r, "m.room.encryption") is not None, "an unencrypted room?")
                hands = [e for e in bot_events(hs, r) if "hand" in e["content"]["body"].lower()]
                g.check(not hands, "a hand was sent into the encrypted room %s: %s" % (
                    r, hands[0]["content"]["body"] if hands else ""))
        g.check(not hs.direct_rooms(g.BOT), "m.direct names an encrypted room: %s" %
                hs.direct_rooms(g.BOT))
        said = [e for e in bot_events(hs, room)
                if e["content"]["body"].count("Private hands cannot be delivered")]
        g.check(len(said) == 1, "the room was told %d times" % len(said))
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        bot = None
    finally:
        if bot is not None and bot.alive():
            bot.stop()
        hs.shutdown()


def edit(hs, room, who, original, text):
    """who edits their message original to say text (as Element sends it)."""
    return hs.send_event(room, who, "m.room.message", {
        "msgtype": "m.text", "body": "* " + text,
        "m.new_content": {"msgtype": "m.text", "body": text},
        "m.relates_to": {"rel_type": "m.replace", "event_id": original}})


def check_edits(hs):
    """A refused command edited into a good one is taken, once; an edit of a
    move does not change it and says so, once."""
    room = hs.create_room("ann", name="Edits", invite=[g.BOT, "@bob:test"])
    joined(hs, room)
    hs.join(room, "bob")
    say(hs, room, "ann", "!new 2", body="opens a Porrazo table")
    ev = say(hs, room, "bob", "!join", body="deals and chooses")
    dealer = "ann" if to_play(ev)[0] == "Ann" else "bob"
    mark = hs.mark()
    typo = hs.send_text(room, dealer, "!tendido latr")
    hs.wait_for_event(room, sender=g.BOT, since=mark, timeout=WAIT)
    g.check(not any("to play" in e["content"]["body"] for e in bot_events(hs, room, mark)),
            "a mistyped command made a move")
    mark = hs.mark()
    fixed = edit(hs, room, dealer, typo, "!tendido later")
    hs.wait_for_event(room, sender=g.BOT, since=mark, body="to play", timeout=WAIT)
    mark = hs.mark()
    edit(hs, room, dealer, typo, "!tendido now")
    ev = hs.wait_for_event(room, sender=g.BOT, since=mark, timeout=WAIT)
    g.check(ev["content"]["body"].startswith("Edits don't change a move"),
            "an edit of a move was not answered so: %r" % ev["content"]["body"])
    hs.send_event(room, dealer, "m.room.message", {  # the same edit delivered again
        "msgtype": "m.text", "body": "* !tendido now",
        "m.new_content": {"msgtype": "m.text", "body": "!tendido now"},
        "m.relates_to": {"rel_type": "m.replace", "event_id": fixed}})
    say(hs, room, "ann", "!players", body="")
    said = [e for e in bot_events(hs, room, mark) if "Edits don't" in e["content"]["body"]]
    g.check(len(said) == 2, "edits answered %d times for 2 edits of moves" % len(said))
    say(hs, room, "ann", "!stop", body="stop|abandon")


def check_thread(hs):
    """A command said in a thread is answered in that thread; the game's
    announcements stay in the main timeline."""
    room = hs.create_room("ann", name="Threads", invite=[g.BOT, "@bob:test"])
    joined(hs, room)
    hs.join(room, "bob")
    root = hs.send_text(room, "ann", "let's play in here")
    rel = {"rel_type": "m.thread", "event_id": root, "is_falling_back": True,
           "m.in_reply_to": {"event_id": root}}
    mark = hs.mark()
    cmd = hs.send_text(room, "ann", "!score", **{"m.relates_to": rel})
    ev = hs.wait_for_event(room, sender=g.BOT, since=mark, timeout=WAIT)
    r = ev["content"].get("m.relates_to") or {}
    g.check(r.get("rel_type") == "m.thread" and r.get("event_id") == root and
            r.get("m.in_reply_to", {}).get("event_id") == cmd,
            "the answer is not in the thread: %s" % ev["content"])
    mark = hs.mark()
    hs.send_text(room, "ann", "!new 2", **{"m.relates_to": rel})
    ev = hs.wait_for_event(room, sender=g.BOT, since=mark, body="opens a Porrazo table",
                           timeout=WAIT)
    ev = say(hs, room, "bob", "!join", body="deals and chooses")
    g.check("m.relates_to" not in ev["content"], "an announcement went into a thread")
    mark = hs.mark()
    hs.send_text(room, "bob", "!score")  # outside the thread: answered in the timeline
    ev = hs.wait_for_event(room, sender=g.BOT, since=mark, timeout=WAIT)
    g.check("m.relates_to" not in ev["content"], "an answer outside the thread went in it")
    say(hs, room, "ann", "!stop", body="stop|abandon")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe = sys.argv[1]
    exit_on_sigterm()
    t0 = time.monotonic()
    done = []
    with g.workdir("pz-mx-users-") as tmp:
        hs = g.new_world(tmp, players=USERS, rate_limits=SYNAPSE_RATE_LIMITS,
                          exempt_bot=False)
        bot = None
        try:
            db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
            g.write_config(conf, hs.url, db, owners=("local:@ann:test",))
            bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
            hs.wait_for_request("GET", "/sync$", predicate=lambda e: "since" in e["query"],
                                timeout=WAIT)
            check_names(hs, bot)
            done.append("names")
            check_bidi(hs)
            done.append("bidi")
            check_prompt(hs)
            done.append("one event, prompt")
            check_moderator(hs, bot, db)
            done.append("moderator's stop")
            check_forbidden(hs, bot)
            done.append("403 room")
            check_edits(hs)
            done.append("edits")
            check_thread(hs)
            done.append("threads")
            took = check_invite_burst(hs, bot)
            done.append("300 invitations joined in %.1f s" % took)
            g.check_requests(hs)
            g.check(bot.stop() == 0, "the bot did not stop cleanly")
            bot = None
        finally:
            if bot is not None and bot.alive():
                bot.stop()
            hs.shutdown()
        check_encrypting_server(bot_exe, tmp)
        done.append("a server that encrypts private rooms")
    print("matrix users: %s checked in %.0f s" % (", ".join(done), time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
