#!/usr/bin/env python3
"""test_irc_garbage.py -- porrazo-bot on a real ngircd fed with junk: eve
sends it malformed commands, control characters, invalid UTF-8, a 500-byte
line, NOTICEs, CTCPs and chatter; fred, boss and a kibitzer watch. The bot
is configured with owners = test:n:boss and the channels #porrazo, #junk.

Replies are checked without sleeping: the bot answers in order and its
queue keeps each target's lines in order, so after a final command whose
answer is known ("stats"), every answer to what came before is in.

  1. CTCP: VERSION gets exactly one NOTICE "\\x01VERSION porrazo-bot ...\\x01";
     a second VERSION at once, a CTCP PING and a NOTICE holding a CTCP get
     nothing.
  2. In the channel: each malformed "!..." command gets exactly one short
     reply "eve: ..." saying what is wrong (play without a card, play ZZ,
     an unknown command, new 99, new x y z, a card made of control
     characters or of invalid UTF-8, a 500-byte line, a card with a
     zero-width space or bidi and format characters, quoted back with '?'
     for each); chatter not
     addressed to the bot ("hello", "play 7h" without "!"), a /me and a
     NOTICE to the channel get nothing.
  3. Privately: the same kind of junk without the prefix gets one reply
     each; NOTICEs to the bot get nothing.
  4. Lone \\x01, an unterminated CTCP, escape sequences, NUL-free binary:
     whatever the answer, it is valid UTF-8 and the bot stays.
  5. Every line the bot sent anyone is valid UTF-8, fits in 512 bytes and
     holds no control character but mIRC formatting (and \\x01 for CTCP),
     and no invisible format character (U+200B..U+200F, U+202A..U+202E,
     U+2060..U+2064, U+2066..U+2069, U+FEFF).
     The bot is still connected (registered once, never QUIT) and serves a
     normal game: !help, !new 2, !join, both hands, !stop.
  6. "!part": fred (not an owner) is refused in #porrazo and the bot stays;
     boss says "!part" in #junk and the bot leaves #junk (only); boss's
     private "part #nowhere" is told to name a channel of the bot.

usage: test_irc_garbage.py BOT REPLAY
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, strip_formatting, ngircd_registrations, run_main, same_name,
                     CHANNEL, BOT_NICK, NETWORK)

JUNK = "#junk"

# Channel lines: (raw bytes after "PRIVMSG #porrazo :", expected reply regex or None)
CHANNEL_CASES = [
    (b"!play", r"^eve: play what\?"),
    (b"hello everyone", None),
    (b"!play ZZ", r"^eve: 'ZZ' is not a card"),
    (b"play 7h", None),
    (b"!xyzzy", r"^eve: unknown command 'xyzzy'"),
    (b"\x01ACTION !play 7h\x01", None),
    (b"!new 99", r"^eve: a game has 2 to 8 players, not 99"),
    (b"!new x y z", r"^eve: new takes .*not 'x'"),
    (b"!play \x01\x02\x1b[31m7h", r"^eve: '.*' is not a card"),
    (b"!play \xff\xfe\xc3\x28", r"^eve: '.*' is not a card"),
    # With "PRIVMSG #porrazo :" and CR LF: a 500-byte line.
    (b"!play " + b"x" * (500 - len(b"PRIVMSG #porrazo :!play ") - 2),
     r"^eve: 'x+.*' is not a card"),
    (b"!PLAY 7h", r"^eve: there is no game in #porrazo"),
    # A zero-width space after the card, and bidi and format characters
    # around one: quoted back as '?', never as themselves.
    (b"!play ?7h\xe2\x80\x8b", r"^eve: '\?7h\?' is not a card"),
    (b"!play \xe2\x81\xa6\xef\xbb\xbfq\xe2\x81\xa0h\xe2\x80\x8f",
     r"^eve: '\?\?q\?h\?' is not a card"),
]

# Private lines: (raw bytes after "PRIVMSG porrazo :", expected reply regex or None)
PRIVATE_CASES = [
    (b"play", r"^play what\?"),
    (b"xyzzy", r"^unknown command 'xyzzy'"),
    (b"\xff\xfe", r"^unknown command '.*'"),
    (b"play zz 99 capture", r"is not a card"),
    (b"play \xe2\x80\x8dzz", r"^'\?zz' is not a card"),
    (b"new 3", r"^say !new in the channel"),
    (b"!" * 400, r"^unknown command"),
]

# NOTICEs: never answered.
NOTICES = [b"NOTICE porrazo :hand", b"NOTICE porrazo :!help", b"NOTICE porrazo :\x01VERSION\x01",
           b"NOTICE #porrazo :!help", b"NOTICE porrazo :play 7h"]

# Anything goes, but the bot must stay.
TOLERATED = [b"PRIVMSG porrazo :\x01", b"PRIVMSG porrazo :\x01\x01",
             b"PRIVMSG porrazo :\x01VERSION",
             b"PRIVMSG porrazo :\x01TIME\x01", b"PRIVMSG #porrazo :\x01VERSION\x01",
             b"PRIVMSG porrazo :\x1b[2J\x1b]0;title\x07", b"PRIVMSG #porrazo :!",
             b"PRIVMSG #porrazo :!!!", b"PRIVMSG #porrazo :! play 7h",
             b"PRIVMSG porrazo :" + bytes(range(1, 32)).replace(b"\r", b"").replace(b"\n", b""),
             b"PRIVMSG porrazo :" + bytes(range(0x80, 0x100)),
             b"PRIVMSG porrazo :" + ("\u00e9\u2665\U0001F0A1" * 40).encode()[:470],
             b"PRIVMSG #porrazo :!rules " + b"\xe2\x99" * 100,
             b"PRIVMSG porrazo :help \xc0\xaf\xed\xa0\x80",
             b"PRIVMSG porrazo", b"PRIVMSG porrazo :", b"PRIVMSG #porrazo :   ",
             b"PRIVMSG porrazo,#porrazo :!help"]

ALLOWED_CONTROLS = "\x02\x03\x0f\x16\x1d\x1f"
# Invisible format characters (bot/text.h, text_invisible_len): never echoed.
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def sync_channel(eve, kib):
    """!stats in the channel: its answer comes after every earlier one there."""
    mark = kib.mark()
    eve.privmsg(CHANNEL, "!stats")
    return kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                        pattern=r"^eve: eve has no finished games", since=mark)


def sync_private(eve):
    mark = eve.mark()
    eve.privmsg(BOT_NICK, "stats")
    return eve.wait_privmsg(sender=BOT_NICK, pattern=r"^eve has no finished games", since=mark)


def from_bot(c, since, target=None, private=None):
    out = []
    for m in c.find(("PRIVMSG", "NOTICE"), sender=BOT_NICK, since=since):
        if target is not None and same_name(m.target, target):
            out.append(m)
        elif private and m.to_me:
            out.append(m)
    return out


def match_replies(what, cases, replies):
    expected = [rx for _, rx in cases if rx is not None]
    texts = [strip_formatting(m.text) for m in replies]
    check(len(texts) == len(expected),
          "%s: %d replies for %d commands that need one:\n  %s"
          % (what, len(texts), len(expected), "\n  ".join(map(repr, texts))))
    for rx, t in zip(expected, texts):
        check(re.search(rx, t), "%s: reply %r does not match /%s/" % (what, t, rx))
        check(len(t) < 300, "%s: a long reply (%d bytes): %r" % (what, len(t), t[:80]))
    return texts


def check_line(m):
    """A line from the bot: valid UTF-8, <= 512 bytes, no stray controls."""
    check(len(m.raw) + 2 <= 512, "a line of %d bytes from the bot" % (len(m.raw) + 2))
    try:
        text = m.raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AssertionError("the bot sent invalid UTF-8: %r" % m.raw)
    body = text.split(" :", 1)[1] if " :" in text else ""
    if m.command == "NOTICE" and body.startswith("\x01"):
        body = body.strip("\x01")
    bad = [c for c in body if (ord(c) < 0x20 or ord(c) == 0x7f) and c not in ALLOWED_CONTROLS]
    check(not bad, "control characters %r in a line from the bot: %r" % (bad, m.raw))
    check(not INVISIBLE.search(body), "an invisible format character in a line from the bot: "
          "%r" % m.raw)


def main(bot_exe, replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        eve = server.client("eve")
        eve.join(CHANNEL)
        fred = server.client("fred")
        fred.join(CHANNEL)
        boss = server.client("boss")
        boss.join(JUNK)
        conf = write_config(work.path("bot.conf"), server, channels=(CHANNEL, JUNK),
                            owners=("%s:n:boss" % NETWORK,))
        bot = BotProcess(bot_exe, conf, work.path("game.db")).start()
        try:
            wait_bot_in_channel(kib)
            wait_bot_in_channel(boss, channel=JUNK)
            start = {c.name: c.mark() for c in (kib, eve, fred, boss)}

            # 1. CTCP VERSION: one answer, then none for 10 s.
            mark = eve.mark()
            eve.ctcp(BOT_NICK, "VERSION")
            v = eve.wait_privmsg(sender=BOT_NICK, notice=True, since=mark)
            check(re.match(r"^\x01VERSION porrazo-bot \S+\x01$", v.text),
                  "CTCP VERSION answered %r" % v.text)
            eve.ctcp(BOT_NICK, "VERSION")
            eve.ctcp(BOT_NICK, "PING", "12345")
            eve.send_raw(b"NOTICE porrazo :\x01VERSION\x01\r\n")
            sync_private(eve)
            got = from_bot(eve, mark, private=True)
            check(len(got) == 2, "CTCP: expected the VERSION answer and the stats reply, got %r"
                  % [m.text for m in got])
            check(v.time - got[-1].time < 10, "the test was too slow for the 10 s rule")

            # 2. The channel.
            mark_k, mark_e = kib.mark(), eve.mark()
            for raw, _ in CHANNEL_CASES:
                eve.send_raw(b"PRIVMSG #porrazo :" + raw + b"\r\n")
            eve.send_raw(b"NOTICE #porrazo :!help\r\n")
            sync_channel(eve, kib)
            replies = from_bot(kib, mark_k, target=CHANNEL)[:-1]
            channel_texts = match_replies("channel", CHANNEL_CASES, replies)
            check(not from_bot(eve, mark_e, private=True),
                  "channel junk was answered privately: %r"
                  % [m.text for m in from_bot(eve, mark_e, private=True)])

            # 3. Privately, and NOTICEs.
            mark_e, mark_k = eve.mark(), kib.mark()
            for raw, _ in PRIVATE_CASES:
                eve.send_raw(b"PRIVMSG porrazo :" + raw + b"\r\n")
            for raw in NOTICES:
                eve.send_raw(raw + b"\r\n")
            sync_private(eve)
            replies = from_bot(eve, mark_e, private=True)[:-1]
            private_texts = match_replies("private", PRIVATE_CASES, replies)
            check(all(m.command == "PRIVMSG" for m in replies), "a private reply as NOTICE")
            check(not from_bot(kib, mark_k, target=CHANNEL),
                  "private junk or a NOTICE was answered in the channel: %r"
                  % [m.text for m in from_bot(kib, mark_k, target=CHANNEL)])

            # 4. Anything goes.
            for raw in TOLERATED:
                eve.send_raw(raw + b"\r\n")
            sync_private(eve)
            sync_channel(eve, kib)

            # 5. Every line valid; still there; a normal game.
            for c in (kib, eve, fred, boss):
                for m in from_bot(c, start[c.name], target=CHANNEL, private=True) + \
                        from_bot(c, start[c.name], target=JUNK):
                    check_line(m)
            check(not kib.find(("QUIT", "PART"), sender=BOT_NICK), "the bot left")
            check(ngircd_registrations(server) == 1, "the bot registered %d times"
                  % ngircd_registrations(server))
            check(bot.running and not bot.find(r"connecting again"), "the bot lost its link")
            mark_e = eve.mark()
            eve.privmsg(CHANNEL, "!help")
            for _ in range(4):
                eve.wait_privmsg(sender=BOT_NICK, since=mark_e)
            mark_k, mark_f = kib.mark(), fred.mark()
            eve.privmsg(CHANNEL, "!new 2")
            kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                         pattern=r"^eve opens a Porrazo table", since=mark_k)
            fred.privmsg(CHANNEL, "!join")
            kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                         pattern=r"^New hand: deal 1 of \d+", since=mark_k)
            # the players' hands; the dealer's waits for the tendido choice (R4.2)
            for p, since in ((eve, mark_e), (fred, mark_f)):
                p.wait_privmsg(sender=BOT_NICK, pattern=r"^Your (hand|turn) in #porrazo",
                               since=since)
            eve.privmsg(CHANNEL, "!stop")
            kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                         pattern=r"^The game is abandoned", since=mark_k)

            # 6. !part
            mark_k = kib.mark()
            fred.privmsg(CHANNEL, "!part")
            r = kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark_k,
                             pattern=r"[Oo]nly an operator")
            mark_b = boss.mark()
            boss.privmsg(BOT_NICK, "part #nowhere")
            boss.wait_privmsg(sender=BOT_NICK, pattern=r"[Ss]ay which channel", since=mark_b)
            boss.privmsg(JUNK, "!part")
            p = boss.wait_for("PART", sender=BOT_NICK, target=JUNK, since=mark_b)
            check("boss" in p.text, "the PART does not say who asked: %r" % p.line)
            sync_channel(eve, kib)
            check(not kib.find(("PART", "QUIT"), sender=BOT_NICK, since=mark_k),
                  "the bot left #porrazo too")
            check(bot.find(r"leaving #junk, asked by boss"), "the bot's log does not say why")
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        finally:
            bot.cleanup()
        print("irc garbage: CTCP VERSION answered once (%r), %d channel and %d private junk "
              "commands each answered once, %d chatter/NOTICE/CTCP lines unanswered, %d more "
              "tolerated; still connected; !part refused to fred (%r), obeyed for boss in #junk"
              % (v.text, len(channel_texts), len(private_texts),
                 sum(1 for _, rx in CHANNEL_CASES + PRIVATE_CASES if rx is None) + len(NOTICES) + 3,
                 len(TOLERATED), strip_formatting(r.text)))


if __name__ == "__main__":
    run_main(main)
