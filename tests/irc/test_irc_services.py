#!/usr/bin/env python3
"""test_irc_services.py -- porrazo-bot on a network with real services:
InspIRCd 3 and Atheme (what Libera runs), started on loopback by
../shared/irc-services/ircsvc.sh. A client registers the account "pzbot"
with NickServ; a watcher with account-notify and extended-join sits in
#porrazo. Then three runs of the bot:

  1. SASL PLAIN with the right password and require_sasl = yes: the bot
     logs in (900, "logged in as pzbot" in its log) and its JOIN carries
     the account (extended-join). Then the whole-game test of
     test_irc_game.py on this network: two scripted players (ann, bob)
     play a game to 11 with the bot at its default pacing (pace = auto
     picks InspIRCd's model from 004); the final scores equal
     porrazo-replay's on the exported game.
  2. A wrong SASL password and require_sasl = yes: the server answers 904,
     the bot logs "[irc test]: SASL log-in failed (904): stopping this
     network, as require_sasl says", never joins, and keeps running.
  3. No SASL, nickserv_password and nickserv_target = NickServ@services.test:
     IDENTIFY goes to that address only, and services log the bot in
     (ACCOUNT pzbot seen by the watcher).

The password never appears in the bot's log. When the services cannot be
started here (the packages inspircd and atheme-services missing, or the
start script failing), the test says why and exits 77, which ctest counts
as skipped.

usage: test_irc_services.py BOT REPLAY
       (PZ_IRC_SERVICES: the folder of ircsvc.sh; default ../shared/irc-services
       next to the repository)
"""
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bot_irc import (BotProcess, IRCGame, Workdir, write_config, check,  # noqa: E402
                     check_scores_equal_replay, run_main, wait_bot_in_channel, scaled, CHANNEL)
import client as irc_client  # noqa: E402

SKIP = 77
NICK = "pzbot"
PASSWORD = "pz-Services-Secret-77"
SERVICES = os.environ.get("PZ_IRC_SERVICES") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "shared", "irc-services")


def skip(why):
    print("SKIP: %s" % why)
    sys.exit(SKIP)


def free_port():
    """A port below the kernel's ephemeral range, free now. InspIRCd binds
    it a second later; a port of that range may by then be another test's
    (a server bound to port 0 under ctest -j2: once the client found the
    Matrix double's HTTP server there)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.Random()
    for _ in range(500):
        port = rng.randint(max(1024, low - 12000), low - 1)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    with socket.socket() as s:  # every try taken: an ephemeral one, as before
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Services:
    """ircsvc.sh start/stop in a run folder of our own, on free ports."""

    def __init__(self, run_dir):
        self.host = "127.0.0.1"
        self.port = free_port()
        self.link_port = free_port()
        self.tls_port = None
        self.script = os.path.join(SERVICES, "ircsvc.sh")
        self.env = dict(os.environ, IRCSVC_DIR=run_dir, IRCSVC_CLIENT_PORT=str(self.port),
                        IRCSVC_LINK_PORT=str(self.link_port))
        self.started = False

    def start(self):
        if not os.access(self.script, os.X_OK):
            skip("no services start script at %s (set PZ_IRC_SERVICES)" % self.script)
        for binary in ("/usr/sbin/inspircd", "/usr/bin/atheme-services"):
            if not os.access(binary, os.X_OK):
                skip("%s is missing: apt-get install inspircd atheme-services" % binary)
        r = subprocess.run([self.script, "start"], env=self.env, capture_output=True, text=True,
                           timeout=120)
        if r.returncode != 0:
            skip("the services did not start (ircsvc.sh start exited %d):\n%s"
                 % (r.returncode, (r.stdout + r.stderr)[-3000:]))
        self.started = True

    def stop(self):
        if self.started:
            subprocess.run([self.script, "stop"], env=self.env, capture_output=True, timeout=60)
            self.started = False

    def client(self, nick, caps=(), tls=False):
        check(not tls, "the services network has no TLS port")
        c = irc_client.IRCClient(self.host, self.port, nick)
        c.connect()
        if caps:
            c.send("CAP REQ :%s" % " ".join(caps))
            c.send("CAP END")
        c.register()
        return c


def register_account(services):
    """NickServ REGISTER of NICK with PASSWORD, by a client that then leaves."""
    c = services.client(NICK)
    try:
        c.privmsg("NickServ", "REGISTER %s pzbot@example.test" % PASSWORD)
        said = c.wait_for("NOTICE", sender="NickServ", pattern="(?i)registered")
        check("is now registered" in said.text, "NickServ: %s" % said.text)
    finally:
        c.quit()


def run_bot(bot_exe, services, work, name, irc_extra, **kw):
    conf = write_config(work.path("%s.conf" % name), services, nick=NICK,
                        irc_extra=irc_extra, **kw)
    return BotProcess(bot_exe, conf, work.path("%s.db" % name),
                      env={"PZ_TEST_SVC_PASSWORD": PASSWORD,
                           "PZ_TEST_SVC_WRONG": "not-" + PASSWORD}).start()


def stop_bot(bot, name):
    rc = bot.stop()
    text = bot.text()
    bot.cleanup()
    check(rc == 0, "%s: porrazo-bot exited %s after SIGTERM" % (name, rc))
    check(PASSWORD not in text, "%s: the password is in the bot's log" % name)
    return text


def play_a_game(bot_exe, replay_exe, services, bot, watcher, db):
    """The whole-game test on this network; returns a summary."""
    game = IRCGame(services, bot, ["ann", "bob"], observer=watcher, bot_nick=NICK)
    t0 = time.monotonic()
    game.open("to 11")
    game.play_out()
    game.finish()
    board, state, n_actions = check_scores_equal_replay(game, bot_exe, replay_exe, db)
    check(game.actions == n_actions, "%d actions accepted over IRC, %d in the exported game"
          % (game.actions, n_actions))
    pace = bot.find(r"pacing as inspircd")
    check(pace, "the bot did not pace as InspIRCd (pace = auto)")
    for c in game.clients.values():
        c.quit()
    return "%d actions in %.0f s, final %s = replay %s" % (
        game.actions, time.monotonic() - t0, dict(board), state["scores"])


def main(bot_exe, replay_exe):
    with Workdir() as work:
        services = Services(tempfile.mkdtemp(prefix="pz-svc-", dir=work.path("")))
        services.start()
        try:
            register_account(services)
            watcher = services.client("watcher", caps=("account-notify", "extended-join"))
            watcher.join(CHANNEL)

            # 1. SASL with require_sasl: logged in, the JOIN carries the account.
            mark = watcher.mark()
            bot = run_bot(bot_exe, services, work, "sasl",
                          {"sasl_user": NICK, "sasl_password": "${PZ_TEST_SVC_PASSWORD}",
                           "require_sasl": "yes"}, burst=None, line_ms=None)
            try:
                bot.wait_log(r"test: logged in as %s$" % NICK)
                join = watcher.wait_for("JOIN", sender=NICK, target=CHANNEL, since=mark)
                check(len(join.params) >= 2 and join.params[1] == NICK,
                      "sasl: the bot's JOIN does not carry its account: %s" % join.line)
                played = play_a_game(bot_exe, replay_exe, services, bot, watcher,
                                     work.path("sasl.db"))
            finally:
                stop_bot(bot, "sasl")
            watcher.wait_for("QUIT", sender=NICK, since=mark)

            # 2. A wrong password with require_sasl: this network stops, the bot stays.
            mark = watcher.mark()
            bot = run_bot(bot_exe, services, work, "wrong",
                          {"sasl_user": NICK, "sasl_password": "${PZ_TEST_SVC_WRONG}",
                           "require_sasl": "yes"})
            try:
                line = bot.wait_log(r"SASL log-in failed")
                check(line.text.endswith("error: [irc test]: SASL log-in failed (904): stopping "
                                         "this network, as require_sasl says"),
                      "wrong: the log line is %r" % line.text)
                bot.wait_log(r"test: disconnected")
                time.sleep(scaled(3))
                check(bot.running, "wrong: porrazo-bot exited after its network stopped")
                joins = watcher.find("JOIN", sender=NICK, since=mark)
                check(not joins, "wrong: the bot joined unidentified: %s" % joins)
                check(len(bot.find(r"connecting to 127\.0\.0\.1")) == 1,
                      "wrong: the bot connected again after require_sasl stopped it")
                check(len(bot.find(r"\[irc test\]: SASL")) == 1,
                      "wrong: more than one SASL line: %s" % bot.find(r"\[irc test\]: SASL"))
            finally:
                stop_bot(bot, "wrong")

            # 3. No SASL: IDENTIFY to the services' full address logs the bot in.
            mark = watcher.mark()
            bot = run_bot(bot_exe, services, work, "identify",
                          {"nickserv_password": "${PZ_TEST_SVC_PASSWORD}",
                           "nickserv_target": "NickServ@services.test"})
            try:
                wait_bot_in_channel(watcher, nick=NICK, since=mark)
                watcher.wait_for("ACCOUNT", sender=NICK, pattern="^%s$" % NICK, since=mark)
                sent = [line for _, line in bot.sent(commands=("PRIVMSG", "NOTICE"))
                        if "IDENTIFY" in line.upper()]
                check(sent == ["PRIVMSG NickServ@services.test :IDENTIFY ***"],
                      "identify: the bot's IDENTIFY lines were %s" % sent)
            finally:
                stop_bot(bot, "identify")
            watcher.quit()
        finally:
            services.stop()
    print("irc services: InspIRCd 3 + Atheme: SASL log-in (account on JOIN) and a whole game "
          "(%s), a wrong password with require_sasl stopped the network with the bot up, "
          "IDENTIFY to NickServ@services.test logged it in" % played)


if __name__ == "__main__":
    run_main(main)
