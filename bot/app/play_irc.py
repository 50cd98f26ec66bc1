#!/usr/bin/env python3
"""bot/app/play_irc.py -- the Quick start on IRC (run by bot/play): starts a local
ngircd on 127.0.0.1 (port 6667, or a free one when 6667 is taken; --port N
for port N) and porrazo-bot joined to #porrazo, prints how to connect with
any IRC client, and stops both on Ctrl-C (or SIGTERM, or the terminal
closing), removing the temporary folders of the server and the bot's
configuration. The server runs with ngircd's own flood penalties, as a real
network would; games are kept in the database given (they survive a restart
of this script).

usage: bot/app/play_irc.py BOT_EXE DATABASE [--port N] [porrazo-bot options...]
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "irc"))
from ircd import IRCd, IRCdError, exit_on_sigterm  # noqa: E402


def port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def take_port(args):
    """Removes "--port N" from args; returns N, None when absent, or raises
    ValueError with what is wrong. N is 1024 or more: ngircd drops to an
    unprivileged user, who cannot listen below 1024."""
    if "--port" not in args:
        return None
    i = args.index("--port")
    if i + 1 >= len(args) or not args[i + 1].isdigit() or \
            not 1024 <= int(args[i + 1]) <= 65535:
        raise ValueError("--port needs a port number from 1024 to 65535")
    port = int(args[i + 1])
    del args[i:i + 2]
    return port


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, db, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        port = take_port(extra)
    except ValueError as e:
        print("bot/play: %s" % e, file=sys.stderr)
        return 2
    if port is not None and not port_free(port):
        print("bot/play: port %d on 127.0.0.1 is in use; "
              "choose another with --port N" % port, file=sys.stderr)
        return 2
    if port is None and port_free(6667):
        port = 6667
    server = IRCd(port=port, max_penalty_time=None, max_nick_length=30,
                  network="PorrazoLocal", name="irc.porrazo.local",
                  motd="Porrazo on this machine: /join #porrazo")
    conf_dir = tempfile.mkdtemp(prefix="pz-play-")
    try:
        return play(server, bot_exe, db, extra, conf_dir)
    except IRCdError as e:
        print("bot/play: the IRC server could not start: %s" % e, file=sys.stderr)
        return 1
    finally:
        server.cleanup()
        shutil.rmtree(conf_dir, ignore_errors=True)


def web_port():
    """The game pages' port: 8090, or a free one when 8090 is taken."""
    for port in (8090, 0):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            return s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()
    return 8090


def play(server, bot_exe, db, extra, conf_dir):
    """Starts the server and the bot (its configuration in conf_dir), then
    waits for the bot to end; returns its exit status."""
    server.start()
    web = web_port()
    conf = os.path.join(conf_dir, "porrazo.conf")
    with open(conf, "w") as f:
        f.write("[bot]\nname = porrazo\ndatabase = %s\nlog_level = warn\n\n"
                "[irc local]\nhost = 127.0.0.1\nport = %d\ntls = false\n"
                "nick = porrazo\nalt_nicks = porrazo_\nchannels = #porrazo\n"
                "join_on_invite = true\n\n"
                "[web]\nlisten = 127.0.0.1:%d\nbase_url = http://127.0.0.1:%d\n"
                % (db, server.port, web, web))
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
The games' pages: http://127.0.0.1:%d/ (say !web in #porrazo for the room's;
a game's first and last lines link its own).
Ctrl-C stops the bot and the server; games are kept in %s.
""" % (server.port, server.port, server.port, web, db), file=sys.stderr)
    try:
        return bot.wait()
    except KeyboardInterrupt:
        bot.send_signal(signal.SIGTERM)
        return bot.wait()


if __name__ == "__main__":
    exit_on_sigterm()
    signal.signal(signal.SIGHUP, signal.getsignal(signal.SIGTERM))  # terminal closed
    # Ctrl-C stops it even when started in the background by a shell, which
    # would have it ignore SIGINT.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())
