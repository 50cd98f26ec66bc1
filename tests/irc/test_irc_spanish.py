#!/usr/bin/env python3
"""test_irc_spanish.py -- a Spanish channel on a real ngircd where one
player chose English privately (issue 20): each reads their own language.

The configuration makes #porrazo Spanish (lang_es) on an English network.
cat says "lang en" to the bot privately; ann opens a table for two and cat
sits. Checks:
  * the channel reads the deal, the state and each play in Spanish ("Mano
    nueva: reparto 1 de", "· juega", "se lleva"/"mesa") and never the
    English of those lines;
  * ann's private hand is Spanish ("Tu mano en #porrazo (reparto 1 de"),
    cat's English ("Your hand in #porrazo (deal 1 of"), through their
    turns in the first deal, and neither gets a line in the other language;
  * "!rules" asked in English in the channel is answered in Spanish (the
    channel's language), to ann privately;
  * a second channel not listed stays English (the network's language).
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     make_player, check, strip_formatting, run_main, CHANNEL, BOT_NICK)

OTHER = "#english"
CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]"


def private_lines(c):
    return [strip_formatting(m.text) for m in c.private_messages(sender=BOT_NICK)]


def room_lines(c, channel=CHANNEL):
    return [strip_formatting(m.text) for m in c.find("PRIVMSG", sender=BOT_NICK, target=channel)]


def latest_hand(c, state, timeout=20.0):
    """The cards of c's newest hand or turn line showing the table of the
    channel's state line (the bot sends the player to act their hand after
    every action), in either language."""
    table = re.search(r"(?:mesa|table) ((?:%s ?)+|vacía|empty)" % CARD, state)
    want = re.findall(CARD, table.group(1)) if table else None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for t in reversed(private_lines(c)):
            if not t.startswith(("Tu mano", "Your hand", "Te toca", "Your turn")):
                continue
            m = re.search(r"(?: —|\)) (?:mano|hand) (.*)$", t) or re.search(r"\): (.*)$", t)
            parts = m.group(1).split(" · ") if m else []
            cards = re.findall(CARD, parts[0]) if parts else []
            if cards:
                table = [re.findall(CARD, p) for p in parts if p.startswith(("mesa", "table"))]
                if want is None or (table and table[0] == want):
                    return cards
                break
        time.sleep(0.05)
    raise AssertionError("no hand of %s with the table of %r: %r" % (c.name, state,
                                                                    private_lines(c)[-3:]))


def main(bot_exe, _replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = make_player(server, "kibitz")
        conf = write_config(work.path("bot.conf"), server, channels=(CHANNEL, OTHER),
                            irc_extra={"lang_es": CHANNEL})
        bot = BotProcess(bot_exe, conf, work.path("game.db"), seed=7).start()
        try:
            wait_bot_in_channel(kib)
            ann = make_player(server, "ann")
            cat = make_player(server, "cat")
            cat.privmsg(BOT_NICK, "lang en")
            cat.wait_privmsg(BOT_NICK, pattern=r"your private lines are in English from now on")
            ann.privmsg(CHANNEL, "!new 2")
            kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, pattern=r"abre una mesa de Porrazo")
            cat.privmsg(CHANNEL, "!join")
            kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                         pattern=r"Mano nueva: reparto 1 de \d+")
            ann.wait_privmsg(BOT_NICK, pattern=r"^Tu mano en #porrazo \(reparto 1 de \d+\)")
            # Play out the first deal: the tendido later, then each plays
            # the first card of the hand the bot last told them.
            plays = 0
            for _ in range(40):
                last = room_lines(kib)[-1]
                m = re.search(r"· (\S+) reparte y elige: ", last)
                if m:
                    who = {"ann": ann, "cat": cat}[m.group(1)]
                    who.privmsg(CHANNEL, "!tendido later")
                    kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                                 pattern=r"· juega (ann|cat)$")
                    continue
                m = re.search(r"· juega (ann|cat)$", last)
                check(m is not None, "no Spanish state in the channel's last line: %r" % last)
                who = {"ann": ann, "cat": cat}[m.group(1)]
                hand = latest_hand(who, last)
                played = set(re.findall(r"%s (%s)" % (m.group(1), CARD),
                                        " · ".join(room_lines(kib))))
                left = [c for c in hand if c not in played]
                if not left:
                    break
                # the Spanish suit letters of a Spanish room: tréboles,
                # diamantes, corazones, picas (c is hearts here, not clubs)
                card = left[0].replace("♣", "t").replace("♦", "d").replace("♥", "c") \
                    .replace("♠", "p")
                mark = kib.mark()
                who.privmsg(CHANNEL, "!play %s" % card)
                e = kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark,
                                 where=lambda m: re.match(r"^(ann|cat)(:| %s)" % re.escape(
                                     left[0]), strip_formatting(m.text)) is not None)
                who_nick = m.group(1)
                if strip_formatting(e.text).startswith(who_nick + ":"):  # capture or place?
                    mark = kib.mark()
                    who.privmsg(CHANNEL, "!play %s capture" % card)
                    kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark,
                                 where=lambda m: strip_formatting(m.text).startswith(
                                     "%s %s" % (who_nick, left[0])))
                plays += 1
                if plays >= 6:
                    break
            check(plays >= 4, "only %d plays were made" % plays)
            ann.privmsg(CHANNEL, "!rules")
            ann.wait_privmsg(BOT_NICK, pattern=r"^Porrazo: de 2 a 8 jugadores")
            ann.join(OTHER)
            ann.privmsg(OTHER, "!rules")  # a channel not listed: the network's English
            ann.wait_privmsg(BOT_NICK, pattern=r"^Porrazo: 2–8 players")

            room = room_lines(kib)
            # the game's lines (render/) and the host's, the table's opening
            # line among them
            game = [t for t in room if " · " in t]
            check(game, "no game line in the channel")
            for t in room:
                check(not re.search(r"\b(table|to play|takes|New hand|deals and chooses|opens|"
                                    r"sits down|score|pack sealed|Say)\b", t),
                      "an English line in the Spanish channel: %r" % t)
            check(any("juega" in t for t in game), "no '· juega' state line")
            a, c = private_lines(ann), private_lines(cat)
            check(sum(t.startswith("Tu mano") for t in a) >= 1, "ann got no Spanish hand")
            check(not any(t.startswith(("Your hand", "Your turn")) for t in a),
                  "ann got an English hand")
            check(sum(t.startswith("Your hand") for t in c) >= 1, "cat got no English hand")
            # what the room saw since cat's last play is Spanish: left out of
            # cat's English prompts rather than mixed into them
            check(not any(t.startswith(("Tu mano", "Te toca")) or " · mesa " in t or
                          re.search(r"\b(se lleva|juega)\b", t) for t in c),
                  "cat got a Spanish hand: %r" % [t for t in c if "mesa" in t][:1])
            print("#porrazo in Spanish, cat in English: %d channel lines (%d of the game), "
                  "%d plays; ann %d private lines in Spanish, cat %d in English"
                  % (len(room), len(game), plays, len(a), len(c)))
        finally:
            bot.stop()


if __name__ == "__main__":
    run_main(main)
