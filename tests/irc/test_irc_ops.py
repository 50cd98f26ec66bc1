#!/usr/bin/env python3
"""test_irc_ops.py -- a channel's operators are the room's moderators
(porrazo-bot on a real ngircd, which makes a channel's first member its
operator).

  1. boss joins #porrazo first (ngircd gives him +o), then the bot joins
     and learns its operators from WHO. cat, not an operator, says
     "!set level expert": refused; boss says it: the room's settings
     change.
  2. ann and bob open and start a 2-player game. cat's "!stop" is a
     stranger's (only the players can vote); boss gives cat +o (MODE), and
     cat's "!stop" now stops it: "stopped by a moderator of the room".
  3. Another game; boss takes cat's +o away (-o): cat's "!stop" is a
     stranger's again; boss changes nick to chief and "!stop"s it as
     an operator still.
  4. A player's own choice: ann says "notices on" privately; her next
     private answer comes as a NOTICE; "notices off": a PRIVMSG again.
  5. The room's own prefix and colours: boss says "!set prefix ." and
     ".set colours off"; a game opened with ".new 2" is announced with
     ".join", its deal shows red cards with no colour code, and "!table"
     is chat there now while ".table" answers; ".set prefix off" and
     "!set colours on" undo both; cat's ".part" is the adapter's operator
     command (refused: cat is not an owner).

usage: test_irc_ops.py BOT REPLAY
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, run_main, strip_formatting, make_player, CHANNEL, BOT_NICK)


def said(client, text, since):
    """The bot's first channel line after since that holds text."""
    m = client.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=since,
                        pattern=r".*" + text.replace("(", r"\(").replace(")", r"\)"))
    return strip_formatting(m.text)


def new_game(ann, bob, watch):
    mark = watch.mark()
    ann.privmsg(CHANNEL, "!new 2")
    said(watch, "ann opens a Porrazo table", mark)  # two connections: no order between them
    bob.privmsg(CHANNEL, "!join")
    said(watch, "deals", mark)


RED_CARD = re.compile(r"(?:10|[A2-9JQK])[♥♦]")


def own_prefix_and_no_colours(boss, ann, bob, cat):
    """Step 5: returns how many of the bot's lines showed a red card."""
    mark = boss.mark()
    boss.privmsg(CHANNEL, "!set prefix .")
    said(boss, "#porrazo: commands start with . here · .settings lists them all", mark)
    boss.privmsg(CHANNEL, ".set colours off")
    said(boss, "#porrazo: colours off ·", mark)
    boss.privmsg(CHANNEL, ".settings")
    said(boss, "prefix . (the room's) · colours off", mark)
    mark = boss.mark()
    ann.privmsg(CHANNEL, ".new 2")
    said(boss, "ann opens a Porrazo table .* Say .join to sit; ann says .start", mark)
    bob.privmsg(CHANNEL, ".join")
    dealer = re.search(r"(\S+) deals and chooses: ", said(boss, "deals and chooses: ", mark))
    by_nick = {"ann": ann, "bob": bob}
    check(dealer is not None and dealer.group(1) in by_nick, "the dealer: %r" % dealer)
    by_nick[dealer.group(1)].privmsg(CHANNEL, ".tendido now")
    line = said(boss, "lays the tendido", mark)  # its state is rendered when sent (live.c)
    check(": .arrange best" in line, "the state line's hint: %r" % line)
    by_nick[dealer.group(1)].privmsg(CHANNEL, ".arrange best")
    said(boss, r"· \S+ to play\s*$", mark)
    ann.privmsg(CHANNEL, "!table")  # chat now: only ".table" is answered
    ann.privmsg(CHANNEL, ".table")
    said(boss, "ann: table ", mark)
    lines = boss.find(("PRIVMSG", "NOTICE"), sender=BOT_NICK, target=CHANNEL, since=mark)
    tables = [m for m in lines if strip_formatting(m.text).startswith("ann: table ")]
    check(len(tables) == 1, "the bot answered !table too: %r" % [m.text for m in tables])
    red = [m for m in lines if RED_CARD.search(m.text)]
    check(len(red) >= 1, "no line with a red card: %r" % [m.text for m in lines])
    for m in lines:
        check("\x03" not in m.text, "a colour code after set colours off: %r" % m.raw)
    mark = boss.mark()
    cat.privmsg(CHANNEL, ".part")  # the adapter's own command takes the room's prefix too
    said(boss, "cat: Only an operator of the bot can make it leave", mark)
    boss.privmsg(CHANNEL, ".set prefix off")
    said(boss, "commands start with ! here (the bot's)", mark)
    boss.privmsg(CHANNEL, "!set colours on")
    said(boss, "#porrazo: colours on ·", mark)
    return len(red)


def main(bot_exe, replay_exe):
    del replay_exe
    with IRCd() as server, Workdir() as work:
        boss = server.client("boss")
        boss.join(CHANNEL)  # the channel's first member: its operator
        conf = write_config(work.path("bot.conf"), server)
        bot = BotProcess(bot_exe, conf, work.path("game.db"), seed=5).start()
        try:
            wait_bot_in_channel(boss)
            cat = make_player(server, "cat")
            ann = make_player(server, "ann")
            bob = make_player(server, "bob")
            bot.wait_log(r"test: >> WHO #porrazo")

            # 1. Only an operator changes the room's settings.
            mark = boss.mark()
            cat.privmsg(CHANNEL, "!set level expert")
            said(boss, "cat: only the room's moderators", mark)
            boss.privmsg(CHANNEL, "!set level expert")
            said(boss, "boss: #porrazo: computer players are expert ·", mark)

            # 2. An operator given +o stops a game they do not play in.
            new_game(ann, bob, boss)
            mark = boss.mark()
            cat.privmsg(CHANNEL, "!stop")
            said(boss, "cat: only the players can do that", mark)
            boss.send("MODE %s +o cat" % CHANNEL)
            cat.wait_for("MODE", since=0, line=r"MODE #porrazo \+o cat")
            cat.privmsg(CHANNEL, "!stop")
            line = said(boss, "abandoned", mark)
            check("stopped by a moderator of the room" in line, "cat's stop: %r" % line)

            # 3. -o takes it away; a renamed operator keeps it.
            new_game(ann, bob, boss)
            mark = boss.mark()
            boss.send("MODE %s -o cat" % CHANNEL)
            cat.wait_for("MODE", since=0, line=r"MODE #porrazo -o cat")
            cat.privmsg(CHANNEL, "!stop")
            said(boss, "cat: only the players can do that", mark)
            boss.send("NICK chief")
            boss.wait_for("NICK", since=mark)
            boss.privmsg(CHANNEL, "!stop")
            line = said(boss, "abandoned", mark)
            check("stopped by a moderator of the room" in line, "chief's stop: %r" % line)

            # 4. Private lines by NOTICE for a player who asks.
            mark = ann.mark()
            ann.privmsg(BOT_NICK, "notices on")
            ann.wait_for("NOTICE", sender=BOT_NICK, since=mark, pattern="as NOTICE from now on")
            ann.privmsg(BOT_NICK, "stats")
            ann.wait_for("NOTICE", sender=BOT_NICK, since=mark, pattern="no finished games")
            ann.privmsg(BOT_NICK, "notices off")
            ann.wait_for("PRIVMSG", sender=BOT_NICK, since=mark, pattern="come as private messages")

            # 5. The room's own prefix, and its colours off.
            red = own_prefix_and_no_colours(boss, ann, bob, cat)
        finally:
            bot.cleanup()
        print("irc ops: an operator changed the room's settings and a stranger could not; "
              "+o let cat stop a game, -o took it away, a renamed operator kept it; "
              "ann's private lines came as NOTICE while she asked; with the room's prefix "
              "'.' and colours off, '!table' was chat and %d red-card lines had no colour "
              "code" % red)


if __name__ == "__main__":
    run_main(main)
