#!/usr/bin/env python3
"""test_irc_channels.py -- porrazo-bot's channels on IRC: invitations kept
across restarts and forgotten after an owner's !part, join_on_invite off,
and the mIRC colours of red cards (no_colour channels, channel mode +c).

Parts 1-3 run the bot on a real ngircd (tests/irc/ircd.py); part 4 on a
fake server the test plays (test_irc_fake_server.py's FakeServer), since
ngircd has no channel mode c. The bot runs with --seed 7: its first deal of
a 2-player game lays the tendido A♣ 9♠ | 6♦ 4♠, so the tendido line, the
status line after "!arrange best" and every "!table" reply show a red card.

  1. join_on_invite = true: boss creates #newroom (he is op there) and
     invites the bot: it joins and answers "!help" (privately) and "!table"
     (in #newroom). SIGTERM and a restart on the same database: it joins
     #newroom again by itself, without an invitation. boss (an owner) says
     "!part" there: the bot leaves #newroom only; after another restart it
     joins #porrazo and not #newroom; a new invitation brings it back, boss's
     private "part #newroom" makes it leave, and a restart leaves it out.
  2. join_on_invite = false: carol invites the bot to #quiet: its log says
     it was invited with join_on_invite off, it sends no JOIN, and a few
     seconds later it is not in #quiet (NAMES).
  3. Colours: the same deal in #porrazo and in #plain (listed in
     no_colour): in #porrazo each line showing a red card carries it in
     red (\\x0304 before the card); in #plain no line of the bot holds \\x03.
  4. Mode +c (fake server): the bot asks MODE #porrazo after joining, the
     server answers 324 +nc: the tendido, status and !table lines carry no
     colour code; ":op MODE #porrazo -c" brings the red back on the next
     !table; "+c" again turns it off; after "-c" once more, a 404 "Cannot
     send to channel (no colours allowed)" turns it off too.

usage: test_irc_channels.py BOT REPLAY
"""
import os
import re
import sys
import time
import types

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, strip_formatting, run_main, same_name, scaled, TIMEOUT,
                     CHANNEL, BOT_NICK, NETWORK)
from test_irc_fake_server import FakeServer  # noqa: E402

SEED = 7
NEWROOM = "#newroom"
QUIET = "#quiet"
PLAIN = "#plain"
RED_CARD = re.compile(r"(?:10|[A2-9JQK])[♥♦]")
# A red card in red: \x03 04 (optionally ",NN"), then the rank and the suit.
RED_IN_RED = re.compile(r"\x0304(?:,\d{1,2})?(?:10|[A2-9JQK])[♥♦]")


def subdir(work, name):
    path = work.path(name)
    os.makedirs(path, exist_ok=True)
    return path


def close_clients(*clients):
    for c in clients:
        try:
            c.quit()
        except Exception:  # noqa: BLE001 -- best effort at the end
            c.close()


def bot_in_names(c, channel):
    """Whether the bot is in channel according to NAMES as client c sees it."""
    mark = c.mark()
    c.send("NAMES " + channel)
    c.wait_for("366", since=mark, params={1: channel})
    for m in c.find("353", since=mark):
        if len(m.params) >= 2 and same_name(m.params[-2], channel) and any(
                same_name(n.lstrip("@+%~&"), BOT_NICK) for n in m.text.split()):
            return True
    return False


def sent_joins(bot, since):
    """The channels named in the JOIN lines the bot sent (its debug log)."""
    chans = []
    for _, line in bot.sent(since, commands=("JOIN",)):
        parts = line.split(" ")
        if len(parts) > 1:
            chans += [c.lower() for c in parts[1].split(",")]
    return chans


def joins_with(bot, since, channel):
    """sent_joins once it names channel (or when the wait is over): the log
    is read from the bot's pipe by a thread of this test, which may come a
    moment after the server has relayed the JOIN."""
    deadline = time.monotonic() + scaled(10)
    joins = sent_joins(bot, since)
    while channel.lower() not in joins and time.monotonic() < deadline:
        time.sleep(0.05)
        joins = sent_joins(bot, since)
    return joins


# ---------------------------------------------------------------------------
# 1. Invitations


def an_invited_channel_is_joined_kept_across_restarts_and_forgotten_after_part(server, work,
                                                                               bot_exe):
    d = subdir(work, "invite")
    kib = server.client("kibitz")
    boss = server.client("boss")
    bot = None
    try:
        kib.join(CHANNEL)
        boss.join(NEWROOM)
        op = boss.find("353", params={2: NEWROOM})
        check(any("@boss" in m.text.split() for m in op), "boss is not op in %s: %r"
              % (NEWROOM, [m.line for m in op]))
        conf = write_config(os.path.join(d, "bot.conf"), server, channels=(CHANNEL,),
                            owners=("%s:n:boss" % NETWORK,),
                            irc_extra={"join_on_invite": "true"})
        bot = BotProcess(bot_exe, conf, os.path.join(d, "game.db"), seed=SEED).start()
        wait_bot_in_channel(kib)

        # Invited: joins, and serves the channel.
        mark_b, mark_log = boss.mark(), bot.mark()
        boss.send("INVITE %s %s" % (BOT_NICK, NEWROOM))
        boss.wait_for("JOIN", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        bot.wait_log(r"invited to %s by boss$" % NEWROOM, since=mark_log)
        boss.privmsg(NEWROOM, "!help")
        helps = [boss.wait_privmsg(sender=BOT_NICK, since=mark_b).text for _ in range(4)]
        check(strip_formatting(helps[0]).startswith("Lobby: !new"),
              "!help in %s answered %r" % (NEWROOM, helps))
        boss.privmsg(NEWROOM, "!table")
        r = boss.wait_for("PRIVMSG", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        check(re.match(r"^boss: there is no game in %s" % NEWROOM, strip_formatting(r.text)),
              "!table in %s answered %r" % (NEWROOM, r.text))

        # Restart on the same database: back in #newroom without an invitation.
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        mark_b, mark_k, mark_log = boss.mark(), kib.mark(), bot.mark()
        bot.start()
        boss.wait_for("JOIN", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        wait_bot_in_channel(kib, since=mark_k)
        joins = joins_with(bot, mark_log, NEWROOM)
        check(NEWROOM in joins, "the JOIN lines after the restart: %r" % joins)
        check(not bot.find(r"invited to", since=mark_log), "an invitation after the restart?")
        mark_b = boss.mark()
        boss.privmsg(NEWROOM, "!table")
        boss.wait_for("PRIVMSG", sender=BOT_NICK, target=NEWROOM, since=mark_b,
                      pattern=r"there is no game in %s" % NEWROOM)

        # An owner's !part: leaves #newroom (only).
        mark_b, mark_k, mark_log = boss.mark(), kib.mark(), bot.mark()
        boss.privmsg(NEWROOM, "!part")
        p = boss.wait_for("PART", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        check("boss" in p.text, "the PART does not say who asked: %r" % p.line)
        bot.wait_log(r"leaving %s, asked by boss" % NEWROOM, since=mark_log)
        kib.privmsg(CHANNEL, "!table")
        kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark_k,
                     pattern=r"there is no game in %s" % CHANNEL)
        check(not kib.find(("PART", "QUIT"), sender=BOT_NICK, since=mark_k),
              "the bot left %s too" % CHANNEL)
        check(not bot_in_names(boss, NEWROOM), "NAMES %s still lists the bot" % NEWROOM)

        # Another restart: #porrazo only.
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        mark_b, mark_k, mark_log = boss.mark(), kib.mark(), bot.mark()
        bot.start()
        wait_bot_in_channel(kib, since=mark_k)
        joins = joins_with(bot, mark_log, CHANNEL)
        check(joins == [CHANNEL], "the bot's JOIN lines after !part and a restart: %r" % joins)
        boss.expect_nothing(scaled(2), "JOIN", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        check(not bot_in_names(boss, NEWROOM), "NAMES %s lists the bot after !part and a "
              "restart" % NEWROOM)

        # Forgotten until invited again; then boss's private "part #newroom".
        mark_b, mark_log = boss.mark(), bot.mark()
        boss.send("INVITE %s %s" % (BOT_NICK, NEWROOM))
        boss.wait_for("JOIN", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        bot.wait_log(r"invited to %s by boss$" % NEWROOM, since=mark_log)
        boss.privmsg(BOT_NICK, "part " + NEWROOM)
        boss.wait_for("PART", sender=BOT_NICK, target=NEWROOM, since=mark_b)
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        mark_k, mark_log = kib.mark(), bot.mark()
        bot.start()
        wait_bot_in_channel(kib, since=mark_k)
        joins = joins_with(bot, mark_log, CHANNEL)
        check(joins == [CHANNEL], "the bot's JOIN lines after a private part and a restart: "
              "%r" % joins)
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        return "invite: joined #newroom, answered !help (%d lines) and !table there; " \
               "rejoined it after a restart; left on boss's !part (%r), not back after a " \
               "restart; invited again, left on a private part, not back" % (len(helps), p.text)
    finally:
        if bot is not None:
            bot.cleanup()
        close_clients(kib, boss)


# ---------------------------------------------------------------------------
# 2. join_on_invite = false


def an_invitation_is_declined_when_join_on_invite_is_off(server, work, bot_exe):
    d = subdir(work, "no-invite")
    kib = server.client("kibitz")
    carol = server.client("carol")
    bot = None
    try:
        kib.join(CHANNEL)
        carol.join(QUIET)
        conf = write_config(os.path.join(d, "bot.conf"), server, channels=(CHANNEL,),
                            irc_extra={"join_on_invite": "false"})
        bot = BotProcess(bot_exe, conf, os.path.join(d, "game.db"), seed=SEED).start()
        wait_bot_in_channel(kib)
        mark_c, mark_log = carol.mark(), bot.mark()
        carol.send("INVITE %s %s" % (BOT_NICK, QUIET))
        carol.wait_for("341", since=mark_c)  # RPL_INVITING: ngircd passed it on
        line = bot.wait_log(r"invited to %s by carol" % QUIET, since=mark_log)
        check("join_on_invite is off" in line.text, "the bot's log: %r" % line.text)
        # The bot handles lines in order: once it answers this, the INVITE is done.
        carol.privmsg(BOT_NICK, "stats")
        carol.wait_privmsg(sender=BOT_NICK, pattern=r"no finished games", since=mark_c)
        waited = scaled(3)
        carol.expect_nothing(waited, "JOIN", sender=BOT_NICK, target=QUIET, since=mark_c)
        check(QUIET not in sent_joins(bot, mark_log), "the bot sent JOIN %s" % QUIET)
        check(not bot_in_names(carol, QUIET), "NAMES %s lists the bot" % QUIET)
        check(not bot.find(r"joined %s" % QUIET), "the bot's log says it joined %s" % QUIET)
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        return "join_on_invite off: invitation logged (%r), no JOIN in %.0f s" \
               % (line.text.split(": ", 2)[-1], waited)
    finally:
        if bot is not None:
            bot.cleanup()
        close_clients(kib, carol)


# ---------------------------------------------------------------------------
# 3. Colours and no_colour


def deal_on_ngircd(p1, p2, channel):
    """!new 2, !join, the dealer's !tendido now and !arrange best, p1's
    !table; returns the bot's lines in channel meanwhile (as p1 saw them)."""
    mark = p1.mark()

    def said(rx):
        return p1.wait_for("PRIVMSG", sender=BOT_NICK, target=channel, since=mark,
                           where=lambda m: re.search(rx, strip_formatting(m.text)))

    p1.privmsg(channel, "!new 2")
    said(r"%s opens a Porrazo table" % p1.nick)
    p2.privmsg(channel, "!join")
    dealer = re.search(r"(\S+) deals and chooses: ",
                       strip_formatting(said(r"deals and chooses: ").text)).group(1)
    by_nick = {p1.nick: p1, p2.nick: p2}
    check(dealer in by_nick, "the dealer is %r" % dealer)
    by_nick[dealer].privmsg(channel, "!tendido now")
    said(r"lays the tendido")
    by_nick[dealer].privmsg(channel, "!arrange best")
    said(r"· \S+ to play\s*$")
    p1.privmsg(channel, "!table")
    said(r"^%s: table " % p1.nick)
    return p1.find(("PRIVMSG", "NOTICE"), sender=BOT_NICK, target=channel, since=mark)


def red_cards_are_coloured_except_in_a_no_colour_channel(server, work, bot_exe):
    d = subdir(work, "colour")
    ann, bob = server.client("ann"), server.client("bob")
    cat, dan = server.client("cat"), server.client("dan")
    bot = None
    try:
        for c in (ann, bob):
            c.join(CHANNEL)
        for c in (cat, dan):
            c.join(PLAIN)
        conf = write_config(os.path.join(d, "bot.conf"), server, channels=(CHANNEL, PLAIN),
                            no_colour=(PLAIN,))
        bot = BotProcess(bot_exe, conf, os.path.join(d, "game.db"), seed=SEED).start()
        wait_bot_in_channel(ann)
        wait_bot_in_channel(cat, channel=PLAIN)

        coloured = deal_on_ngircd(ann, bob, CHANNEL)
        red = [m for m in coloured if RED_CARD.search(strip_formatting(m.text))]
        check(len(red) >= 3, "seed %d: fewer than 3 lines with a red card in %s: %r"
              % (SEED, CHANNEL, [m.text for m in coloured]))
        for m in red:
            cards = RED_CARD.findall(strip_formatting(m.text))
            check(len(RED_IN_RED.findall(m.text)) == len(cards),
                  "%s: red cards %r not all in red (\\x0304) in %r" % (CHANNEL, cards, m.raw))

        plain = deal_on_ngircd(cat, dan, PLAIN)
        red_plain = [m for m in plain if RED_CARD.search(m.text)]
        check(len(red_plain) >= 3, "seed %d: fewer than 3 lines with a red card in %s: %r"
              % (SEED, PLAIN, [m.text for m in plain]))
        for m in plain:
            check("\x03" not in m.text, "a colour code in %s (no_colour): %r" % (PLAIN, m.raw))
        seen = [RED_CARD.findall(strip_formatting(m.text)) for m in red]
        seen_plain = [RED_CARD.findall(m.text) for m in red_plain]
        check(seen == seen_plain, "the same deal showed other red cards: %r in %s, %r in %s"
              % (seen, CHANNEL, seen_plain, PLAIN))
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        return "colours: %d red-card lines in %s all in red (e.g. %r), %d in %s " \
               "(no_colour) without \\x03" % (len(red), CHANNEL, red[0].text, len(red_plain),
                                             PLAIN)
    finally:
        if bot is not None:
            bot.cleanup()
        close_clients(ann, bob, cat, dan)


# ---------------------------------------------------------------------------
# 4. Channel mode +c, on a fake server

FAKE = "irc.fake"
USERS = {"ann": "ann!ann@ann.fake", "bob": "bob!bob@bob.fake"}


def channel_lines(conn, since):
    """(raw text, stripped text) of every PRIVMSG the bot sent to #porrazo."""
    out = []
    for m in conn.find(r"^PRIVMSG #porrazo :", since=since):
        out.append((m.text, strip_formatting(m.text)))
    return out


def wait_channel_line(conn, rx, since, bot):
    """The first PRIVMSG #porrazo from index since whose text, formatting
    stripped, matches rx; returns (its index, raw text)."""
    crx = re.compile(rx)
    deadline = time.monotonic() + TIMEOUT
    while True:
        for m in conn.find(r"^PRIVMSG #porrazo :", since=since):
            if crx.search(strip_formatting(m.text)):
                return m.index, m.text
        check(bot.running, "porrazo-bot exited (%s):\n%s" % (bot.proc.returncode, bot.tail()))
        check(conn.closed_at is None, "the bot closed the connection:\n%s" % bot.tail())
        check(time.monotonic() < deadline, "the bot said nothing matching /%s/ in #porrazo "
              "within %.0f s; its lines:\n%s" % (rx, TIMEOUT, "\n".join(
                  "  " + m.line for m in conn.lines[since:])))
        time.sleep(0.05)


def say(conn, nick, text):
    conn.send(":%s PRIVMSG #porrazo :%s" % (USERS[nick], text))


def register_on_fake(conn):
    m = conn.wait_for(r"^CAP LS")
    check(m.line == "CAP LS 302", "the bot's first line: %r" % m.line)
    conn.wait_for(r"^USER ")
    conn.send(":%s CAP * LS :multi-prefix" % FAKE)
    conn.wait_for(r"^CAP END$")
    conn.send(":%s 001 porrazo :Welcome to the fake network, porrazo" % FAKE,
              ":%s 005 porrazo CHANTYPES=# NICKLEN=30 CASEMAPPING=rfc1459 :are supported"
              % FAKE,
              ":%s 376 porrazo :End of MOTD command" % FAKE)
    conn.wait_for(r"^JOIN #porrazo$")
    conn.send(":porrazo!porrazo@bot.fake JOIN #porrazo",
              ":%s 353 porrazo = #porrazo :porrazo ann bob @op" % FAKE,
              ":%s 366 porrazo #porrazo :End of NAMES list" % FAKE)
    conn.wait_for(r"^MODE #porrazo$")


_syncs = [0]


def server_says(conn, bot, line):
    """Sends line as the server, then a PING, and returns once the bot
    answered it (so it has handled line); returns the bot's log mark from
    before."""
    _syncs[0] += 1
    mark_log = bot.mark()
    conn.send(line)
    conn.sync("sync%d" % _syncs[0])
    return mark_log


def table_line(conn, since, bot):
    """ann's !table; the raw text of the bot's reply."""
    say(conn, "ann", "!table")
    return wait_channel_line(conn, r"^ann: table ", since, bot)[1]


def channel_mode_c_turns_colours_off_and_minus_c_back_on(work, bot_exe):
    d = subdir(work, "mode-c")
    fake = FakeServer()
    bot = None
    try:
        conf = write_config(os.path.join(d, "bot.conf"),
                            types.SimpleNamespace(host="127.0.0.1", port=fake.port, tls_port=None),
                            network="fake", port=fake.port, channels=(CHANNEL,))
        bot = BotProcess(bot_exe, conf, os.path.join(d, "game.db"), seed=SEED).start()
        conn = fake.accept(alive=lambda: True if bot.running else bot.proc.returncode)
        register_on_fake(conn)
        # The bot handles the server's lines in order (each is parsed and
        # dispatched at once): once it answers a PING sent after a line, that
        # line is handled. The outcome is checked first, the bot's log after.
        mark_log = server_says(conn, bot, ":%s 324 porrazo #porrazo +nc" % FAKE)

        # +c from 324: a deal whose lines show red cards, none coloured.
        mark = conn.mark()
        say(conn, "ann", "!new 2")
        wait_channel_line(conn, r"ann opens a Porrazo table", mark, bot)
        say(conn, "bob", "!join")
        _, text = wait_channel_line(conn, r"deals and chooses: ", mark, bot)
        dealer = re.search(r"(\S+) deals and chooses: ", strip_formatting(text)).group(1)
        check(dealer in USERS, "the dealer is %r" % dealer)
        say(conn, dealer, "!tendido now")
        wait_channel_line(conn, r"lays the tendido", mark, bot)
        say(conn, dealer, "!arrange best")
        wait_channel_line(conn, r"· \S+ to play\s*$", mark, bot)
        off1 = table_line(conn, mark, bot)
        lines = channel_lines(conn, mark)
        red = [raw for raw, plain in lines if RED_CARD.search(plain)]
        check(len(red) >= 3, "seed %d: fewer than 3 lines with a red card: %r" % (SEED, lines))
        for raw, _ in lines:
            check("\x03" not in raw, "a colour code in #porrazo after 324 +nc: %r" % raw)
        check(RED_CARD.search(off1), "the table shows no red card: %r" % off1)
        bot.wait_log(r"colours off in #porrazo \(mode \+c\)", since=mark_log, timeout=scaled(5))
        cards = RED_CARD.findall(off1)

        # -c: colours back.
        mark_log = server_says(conn, bot, ":op!op@op.fake MODE #porrazo -c")
        on = table_line(conn, conn.mark(), bot)
        check(strip_formatting(on) == off1, "the table changed: %r vs %r" % (on, off1))
        check(len(RED_IN_RED.findall(on)) == len(cards),
              "after MODE -c the red cards %r are not all in red: %r" % (cards, on))
        bot.wait_log(r"colours back on in #porrazo \(mode -c\)", since=mark_log,
                     timeout=scaled(5))

        # +c again: off.
        mark_log = server_says(conn, bot, ":op!op@op.fake MODE #porrazo +c")
        off2 = table_line(conn, conn.mark(), bot)
        check(off2 == off1, "after MODE +c again the table line is %r, not %r" % (off2, off1))
        bot.wait_log(r"colours off in #porrazo \(mode \+c\)", since=mark_log, timeout=scaled(5))

        # -c once more, then a 404 that names colours: off again.
        server_says(conn, bot, ":op!op@op.fake MODE #porrazo -c")
        on2 = table_line(conn, conn.mark(), bot)
        check(on2 == on, "after MODE -c again the table line is %r, not %r" % (on2, on))
        mark_log = server_says(conn, bot, ":%s 404 porrazo #porrazo :Cannot send to channel "
                               "(no colours allowed)" % FAKE)
        off3 = table_line(conn, conn.mark(), bot)
        check(off3 == off1, "after 404 (colours) the table line is %r, not %r" % (off3, off1))
        bot.wait_log(r"cannot send to #porrazo", since=mark_log, timeout=scaled(5))

        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        bad = [line for c in fake.conns for line in c.bad]
        check(not bad, "lines over 510 bytes or with NUL/CR/LF inside: %r" % bad)
        return "mode c: 324 +nc -> %d red-card lines uncoloured; MODE -c -> %r; MODE +c -> " \
               "uncoloured again; -c, then a 404 naming colours -> uncoloured" % (len(red), on)
    finally:
        if bot is not None:
            bot.cleanup()
        fake.close()


def main(bot_exe, replay_exe):
    del replay_exe  # no game is replayed here
    summary = []
    with IRCd() as server, Workdir(prefix="pz-bot-irc-chan-") as work:
        summary.append(an_invited_channel_is_joined_kept_across_restarts_and_forgotten_after_part(
            server, work, bot_exe))
        summary.append(an_invitation_is_declined_when_join_on_invite_is_off(
            server, work, bot_exe))
        summary.append(red_cards_are_coloured_except_in_a_no_colour_channel(
            server, work, bot_exe))
        summary.append(channel_mode_c_turns_colours_off_and_minus_c_back_on(work, bot_exe))
    print("irc channels: " + "; ".join(summary))


if __name__ == "__main__":
    run_main(main)
