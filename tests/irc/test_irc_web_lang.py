#!/usr/bin/env python3
"""test_irc_web_lang.py -- the game pages and the bot's lines take the rooms'
languages from the configuration, at start and at a reload (porrazo-bot on a
real ngircd).

  1. The bot starts with #porrazo in Spanish (lang_es) and #english not
     listed, and a [web] section. !web in each channel answers its room's
     page: #porrazo's is Spanish (html lang="es", "Clasificación", none of
     the page's English headings), #english's English; !turn is answered
     in Spanish in #porrazo, in English in #english.
  2. The file is rewritten with lang_es = #english. SIGHUP: once the log
     says the configuration is reloaded, #porrazo's page is English and
     #english's Spanish, served by the same pages (no restart), and so is
     the host's answer to !turn in each (the rules made again from the
     file reach the host, not only the pages).

usage: test_irc_web_lang.py BOT REPLAY
"""
import os
import re
import signal
import socket
import sys
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     make_player, check, strip_formatting, run_main, CHANNEL, BOT_NICK)

OTHER = "#english"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def configure(path, server, port, spanish):
    write_config(path, server, channels=(CHANNEL, OTHER), irc_extra={"lang_es": spanish})
    with open(path, "a") as f:
        f.write("\n[web]\nlisten = 127.0.0.1:%d\nbase_url = http://127.0.0.1:%d/\n"
                % (port, port))


def room_page(c, channel):
    """The room's page that !web answers in channel."""
    mark = c.mark()
    c.privmsg(channel, "!web")
    m = c.wait_for("PRIVMSG", sender=BOT_NICK, target=channel, since=mark,
                   pattern=r"http://127\.0\.0\.1:\d+/r/[0-9a-f]+")
    return re.search(r"http://127\.0\.0\.1:\d+/r/[0-9a-f]+", strip_formatting(m.text)).group(0)


def turn_answer(c, channel, lang, where):
    """!turn in channel, where no game is, is answered in lang."""
    mark = c.mark()
    c.privmsg(channel, "!turn")
    m = c.wait_for("PRIVMSG", sender=BOT_NICK, target=channel, since=mark, pattern=r"kibitz: ")
    text = strip_formatting(m.text)
    want = {"es": "kibitz: no hay partida en ", "en": "kibitz: there is no game in "}[lang]
    check(text.startswith(want), "%s: !turn answered %r, not %r..." % (where, text, want))
    return text


def page(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        check(r.status == 200, "%s answered %d" % (url, r.status))
        return r.read().decode("utf-8")


def is_spanish(url, where):
    body = page(url)
    check('<html lang="es">' in body and ">Clasificación<" in body and ">Partidas<" in body,
          "%s: the room's page is not Spanish" % where)
    check(">Standings<" not in body and ">Games<" not in body,
          "%s: the Spanish room's page has English headings" % where)


def is_english(url, where):
    body = page(url)
    check('<html lang="en">' in body and ">Standings<" in body and ">Games<" in body,
          "%s: the room's page is not English" % where)
    check("Clasificación" not in body, "%s: the English room's page has Spanish" % where)


def main(bot_exe, _replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = make_player(server, "kibitz")
        kib.join(OTHER)
        conf = work.path("bot.conf")
        port = free_port()
        configure(conf, server, port, CHANNEL)
        bot = BotProcess(bot_exe, conf, work.path("game.db"), seed=7).start()
        try:
            wait_bot_in_channel(kib)
            wait_bot_in_channel(kib, channel=OTHER)
            es, en = room_page(kib, CHANNEL), room_page(kib, OTHER)
            is_spanish(es, "at start, %s (lang_es)" % CHANNEL)
            is_english(en, "at start, %s (not listed)" % OTHER)
            turn_answer(kib, CHANNEL, "es", "at start, %s (lang_es)" % CHANNEL)
            turn_answer(kib, OTHER, "en", "at start, %s (not listed)" % OTHER)
            configure(conf, server, port, OTHER)
            mark = bot.mark()
            os.kill(bot.pid, signal.SIGHUP)
            bot.wait_log(r"configuration reloaded from", since=mark)
            is_english(es, "after the reload, %s (no longer listed)" % CHANNEL)
            is_spanish(en, "after the reload, %s (lang_es)" % OTHER)
            turn_answer(kib, CHANNEL, "en", "after the reload, %s (no longer listed)" % CHANNEL)
            turn_answer(kib, OTHER, "es", "after the reload, %s (lang_es)" % OTHER)
        finally:
            bot.cleanup()
        print("irc web lang: the rooms' pages and the host's lines in the configuration's "
              "languages at start and after a reload that swapped them")


if __name__ == "__main__":
    run_main(main)
