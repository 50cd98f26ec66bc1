#!/usr/bin/env python3
"""test_irc_tls.py -- porrazo-bot over TLS to a real ngircd (IRCd(tls=True):
a test certificate authority, a server certificate for 127.0.0.1 and
localhost), with secrets given as ${ENV} in its configuration (a server
password, a SASL password, a NickServ password -- ngircd has no services,
so only the server password is checked: ngircd is given it) and
log_level = debug (every line it sends and receives is logged).

  1. tls = true, ca_file = the test CA, host = 127.0.0.1: the bot connects,
     says so in its log ("(TLS)"), joins #porrazo and answers a TLS client's
     !stats and a private command.
  2. The same with host = localhost (the certificate's DNS name).
  3. ca_file = a CA that signed nothing: the bot never registers (ngircd
     never sees it), logs one clean line saying "certificate verify failed"
     per attempt, keeps trying (at least two attempts, with back-off) and
     stays alive; SIGTERM stops it with status 0.
Never, in any of them: a password in the bot's standard error, or in any
line a client received.

usage: test_irc_tls.py BOT REPLAY
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, ngircd_registrations, run_main, scaled, TestFailure, TIMEOUT,
                     CHANNEL, BOT_NICK)

SECRETS = {
    "PZ_TEST_SERVER_PASSWORD": "srvpw-Zq81-secret",
    "PZ_TEST_SASL_PASSWORD": "saslpw-Kx42-secret",
    "PZ_TEST_NICKSERV_PASSWORD": "nspw-Vb77-secret",
}
SECRET_KEYS = {
    "server_password": "${PZ_TEST_SERVER_PASSWORD}",
    "sasl_user": "porrazo",
    "sasl_password": "${PZ_TEST_SASL_PASSWORD}",
    "nickserv_password": "${PZ_TEST_NICKSERV_PASSWORD}",
}


class PasswordIRCd(IRCd):
    """An IRCd whose [Global] Password is set: every client must send PASS
    (ngircd refuses any PASS when it has none). Its own clients, the start
    probes included, send it."""

    def __init__(self, password, **kw):
        self.password = password
        super().__init__(**kw)

    def config_text(self):
        return super().config_text().replace(
            "[Global]\n", "[Global]\n\tPassword = %s\n" % self.password, 1)

    def client(self, nick, **kw):
        kw.setdefault("password", self.password)
        return super().client(nick, **kw)


def check_no_secret(text, where):
    for name, value in SECRETS.items():
        check(value not in text, "%s holds the secret of %s" % (where, name))
        # Not even a good part of it.
        check(value[:10] not in text, "%s holds the start of %s" % (where, name))


LOG_LINES = []


def serve_once(server, work, bot_exe, host, nick, tag):
    """Case 1/2: a bot on the TLS port answers a TLS client. Returns the
    seconds from start to joined."""
    conf = write_config(work.path("bot-%s.conf" % tag), server, tls=True, nick=nick,
                        ca_file=server.ca_file, irc_extra=dict(SECRET_KEYS, host=host))
    bot = BotProcess(bot_exe, conf, work.path("game-%s.db" % tag), env=SECRETS)
    tina = server.client("tina" + tag, tls=True)
    try:
        tina.join(CHANNEL)
        t0 = time.monotonic()
        bot.start()
        wait_bot_in_channel(tina, nick=nick)
        joined = time.monotonic() - t0
        # waited for: the log is read from the bot's pipe by a thread of this
        # test, which may come after the server relayed the JOIN
        check(bot.wait_log(r"connected to .* \(TLS\)") is not None,
              "the bot's log does not say TLS")
        mark = tina.mark()
        tina.privmsg(CHANNEL, "!stats")
        tina.wait_for("PRIVMSG", sender=nick, target=CHANNEL,
                      pattern=r"^tina%s: tina%s has no finished games" % (tag, tag), since=mark)
        tina.privmsg(nick, "rules")
        tina.wait_privmsg(sender=nick, since=mark)
        check(bot.wait_log(r">> PASS ") is not None,
              "the bot sent no PASS (server_password is set)")
        rc = bot.stop()
        check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
        check_no_secret(bot.text(), "the bot's log (%s)" % host)
        LOG_LINES.append(len(bot.lines))
        check_no_secret("\n".join(tina.lines), "what the client received (%s)" % host)
        return joined
    finally:
        bot.cleanup()
        tina.close()


def main(bot_exe, replay_exe):
    with PasswordIRCd(SECRETS["PZ_TEST_SERVER_PASSWORD"], tls=True) as server, \
            Workdir() as work:
        t_ip = serve_once(server, work, bot_exe, "127.0.0.1", BOT_NICK, "1")
        t_dns = serve_once(server, work, bot_exe, "localhost", "porrazo2", "2")

        # 3. The wrong CA.
        regs = ngircd_registrations(server, "porrazo3")
        conf = write_config(work.path("bot-wrong.conf"), server, tls=True, nick="porrazo3",
                            ca_file=server.wrong_ca_file, irc_extra=SECRET_KEYS)
        bot = BotProcess(bot_exe, conf, work.path("game-wrong.db"), env=SECRETS).start()
        try:
            first = bot.wait_log(r"certificate verify failed")
            second = bot.wait_log(r"certificate verify failed",
                                  since=bot.lines.index(first) + 1, timeout=2 * TIMEOUT)
            retry = second.time - first.time
            check(bot.running, "the bot died after failed verifications")
            fails = bot.find(r"certificate verify failed")
            for l in fails:
                check(re.search(r"(warn|error): .*certificate verify failed", l.text),
                      "not a clean log line: %r" % l.text)
                check(len(l.text) < 400, "a long log line: %r" % l.text)
                check(not re.search(r"error:[0-9A-F]{8}|SSL routines|\?\?", l.text),
                      "OpenSSL's raw error in the log: %r" % l.text)
            check(bot.find(r"connecting again in \d+ s"), "the bot does not say it retries")
            check(not bot.find(r"registered as|joined"), "the bot registered with a wrong CA")
            check(ngircd_registrations(server, "porrazo3") == regs,
                  "ngircd registered the bot with a wrong CA")
            try:
                rc = bot.stop(timeout=scaled(10))
                stop_problem = None if rc == 0 else \
                    "porrazo-bot exited %s after SIGTERM while retrying" % rc
            except TestFailure as e:
                stop_problem = "%s while it was waiting to connect again" % e
            check_no_secret(bot.text(), "the bot's log (wrong CA)")
            LOG_LINES.append(len(bot.lines))
        finally:
            bot.cleanup()
        check(stop_problem is None, stop_problem)
        print("irc tls: joined over TLS in %.2f s (127.0.0.1) and %.2f s (localhost), answered "
              "a TLS client; with a wrong CA: %d clean \"certificate verify failed\" lines, "
              "retried after %.1f s, never registered, exited 0; no secret in %d log lines"
              % (t_ip, t_dns, len(fails), retry, sum(LOG_LINES)))


if __name__ == "__main__":
    run_main(main)
