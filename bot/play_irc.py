#!/usr/bin/env python3
"""bot/play_irc.py -- the Quick start on IRC (run by bot/play): starts a local
ngircd on 127.0.0.1 (port 6667, or a free one when 6667 is taken) and
porrazo-bot joined to #porrazo, prints how to connect with any IRC client,
and stops both on Ctrl-C. The server runs with ngircd's own flood penalties,
as a real network would; games are kept in the database given (they survive
a restart of this script).

usage: bot/play_irc.py BOT_EXE DATABASE [porrazo-bot options...]
"""
import os
import signal
import socket
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "irc"))
from ircd import IRCd, exit_on_sigterm  # noqa: E402


def port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, db, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    port = 6667 if port_free(6667) else None
    server = IRCd(port=port, max_penalty_time=None, max_nick_length=30,
                  network="PorrazoLocal", name="irc.porrazo.local",
                  motd="Porrazo on this machine: /join #porrazo")
    server.start()
    conf_dir = tempfile.mkdtemp(prefix="pz-play-")
    conf = os.path.join(conf_dir, "porrazo.conf")
    with open(conf, "w") as f:
        f.write("[bot]\nname = porrazo\ndatabase = %s\nlog_level = warn\n\n"
                "[irc local]\nhost = 127.0.0.1\nport = %d\ntls = false\n"
                "nick = porrazo\nalt_nicks = porrazo_\nchannels = #porrazo\n"
                "join_on_invite = true\n" % (db, server.port))
    bot = subprocess.Popen([bot_exe, "--config", conf] + extra)
    print("""
Porrazo is on IRC at 127.0.0.1 port %d (plain text, no TLS, no password).
Connect any IRC client, for example:
    irssi -c 127.0.0.1 -p %d -n ann        weechat: /server add local 127.0.0.1/%d
then /join #porrazo and say:
    !new 2      open a table for two       (!new 4 partners, !new 3 target=31 ...)
    !join       a second player sits; a full table deals at once
    !play 7     play a card (7h, 7♥, king, 10 ... all work); your hand comes privately
    !help       every command; !rules for the rules
Ctrl-C stops the bot and the server; games are kept in %s.
""" % (server.port, server.port, server.port, db), file=sys.stderr)
    try:
        rc = bot.wait()
    except KeyboardInterrupt:
        bot.send_signal(signal.SIGTERM)
        rc = bot.wait()
    finally:
        server.cleanup()
    return rc


if __name__ == "__main__":
    exit_on_sigterm()
    sys.exit(main())
