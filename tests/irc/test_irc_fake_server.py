#!/usr/bin/env python3
"""test_irc_fake_server.py -- porrazo-bot's IRC adapter against a scripted
fake server: the ctest irc_fake_server.

The test plays the server. Each scenario opens a listening socket on
127.0.0.1, writes an [irc fake] configuration pointing at it, starts
`porrazo-bot --config FILE --db DB --seed N` and answers the bot's lines by
hand, asserting on the exact lines the bot sends (and when they arrive):
registration (CAP LS 302, CAP REQ, SASL PLAIN, NickServ, servers without
CAP, nicks in use and the reconnect back-off), the paced send queue (burst
and line_ms, private lines ahead of room chatter, 707 ERR_TARGCHANGE),
IRCv3 message tags and PING, a PING storm from a server that reads nothing
(one warning in the log and its count), and hostile lines. Python standard library
only; client.Message parses the bot's lines.

usage: test_irc_fake_server.py PATH/TO/porrazo-bot [-v] [unittest options]
       (or $PZ_BOT, or build/bin/porrazo-bot by default)

Set PZ_IRC_DEBUG=1 to print every line both ways on stderr, PZ_IRC_TIMEOUT
to scale the waits (seconds, default 30).
"""
import atexit
import base64
import math
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from client import DEBUG, TIMEOUT, Message  # noqa: E402
from ircd import exit_on_sigterm  # noqa: E402

BOT = None  # the porrazo-bot binary, from argv[1], $PZ_BOT or the default build

SERVER = "irc.fake"
ANN = "ann!ann@ann.fake"
BOB = "bob!bob@bob.fake"
CAROL = "carol!carol@carol.fake"
# adapters/irc_int.h IRC_REQUEUE_MS: a target answered with 707 is paused this long.
REQUEUE_S = 10.0
# adapters/irc/irc_proto.h IRCP_BACKOFF_MIN_MS with at most a quarter of jitter off.
BACKOFF_MIN_S = 1.5
# adapters/irc/irc_proto.h IRCP_NICK_TRIES_MAX
NICK_TRIES_MAX = 32

# Every bot process not yet stopped: killed at exit, even when the test is
# interrupted (exit_on_sigterm turns ctest's SIGTERM into KeyboardInterrupt).
_LIVE_BOTS = set()


@atexit.register
def _kill_live_bots():
    for bot in list(_LIVE_BOTS):
        bot.kill()


def _debug(text):
    if DEBUG:
        sys.stderr.write("%8.3f %s\n" % (time.monotonic() % 10000, text))


class Conn:
    """One connection from the bot: a reader thread records every line the
    bot sends (client.Message, .time = when it was read) and when the bot
    closed the connection; send() writes lines as the server."""

    def __init__(self, sock, accepted_at, number):
        self.sock = sock
        self.accepted_at = accepted_at
        self.number = number
        self.lines = []           # Messages from the bot, in order
        self.sent = []            # (time, bytes) written to the bot
        self.bad = []             # bot lines breaking the protocol's framing
        self.closed_at = None     # when the bot closed (EOF or error)
        self._consumed = set()
        self._cond = threading.Condition()
        self._reading = threading.Event()  # cleared: the server reads nothing (pause)
        self._reading.set()
        self._thread = threading.Thread(target=self._read, daemon=True,
                                        name="fake-irc-conn-%d" % number)
        self._thread.start()

    def _read(self):
        buf = b""
        while True:
            self._reading.wait()
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            now = time.monotonic()
            if not data:
                with self._cond:
                    self.closed_at = now
                    self._cond.notify_all()
                _debug("conn %d: closed by the bot" % self.number)
                return
            buf += data
            while b"\r\n" in buf:
                raw, buf = buf.split(b"\r\n", 1)
                with self._cond:
                    m = Message(raw, index=len(self.lines))
                    m.time = now
                    # RFC 1459: 512 bytes with CR LF; no NUL, CR or LF inside.
                    if len(raw) > 510 or any(b in raw for b in (b"\0", b"\r", b"\n")):
                        self.bad.append(raw)
                    self.lines.append(m)
                    self._cond.notify_all()
                _debug("conn %d: bot >> %r" % (self.number, raw))
                if m.command == "QUIT":  # as servers do: ERROR, then close
                    try:
                        self.send("ERROR :Closing Link: porrazo (Quit: %s)" % m.text)
                        self.sock.shutdown(socket.SHUT_WR)
                    except OSError:
                        pass

    def pause(self):
        """Stops reading what the bot sends (after the read under way): its
        lines wait in the sockets' buffers, then in the bot's."""
        self._reading.clear()

    def resume(self):
        self._reading.set()

    # -- sending -----------------------------------------------------------

    def send(self, *lines, raw=False):
        """Writes each line (str or bytes) with CR LF after it, or exactly the
        bytes given with raw=True. Returns the time just before writing."""
        data = b""
        for line in lines:
            b = line if isinstance(line, bytes) else line.encode("utf-8")
            data += b if raw else b + b"\r\n"
        now = time.monotonic()
        self.sent.append((now, data))
        _debug("conn %d: server << %r" % (self.number, data))
        self.sock.sendall(data)
        return now

    # -- waiting -----------------------------------------------------------

    def _recent(self):
        return "\n".join("  %s" % m.line for m in self.lines[-25:])

    def _wait(self, find, what, timeout):
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        with self._cond:
            while True:
                m = find()
                if m is not None:
                    self._consumed.add(m.index)
                    return m
                left = deadline - time.monotonic()
                if self.closed_at is not None:
                    raise AssertionError("the bot closed the connection before %s; its last "
                                         "lines:\n%s" % (what, self._recent()))
                if left <= 0:
                    raise AssertionError("timed out waiting for %s; the bot's last lines:\n%s"
                                         % (what, self._recent()))
                self._cond.wait(left)

    def next_line(self, timeout=None):
        """The oldest line not yet consumed (waiting for one)."""
        def find():
            for m in self.lines:
                if m.index not in self._consumed:
                    return m
            return None
        return self._wait(find, "the bot's next line", timeout)

    def wait_for(self, pattern, timeout=None, since=0):
        """The first line not yet consumed, from index since on, whose text
        matches the regular expression pattern; it is consumed."""
        rx = re.compile(pattern)

        def find():
            for m in self.lines[since:]:
                if m.index not in self._consumed and rx.search(m.line):
                    return m
            return None
        return self._wait(find, "a line matching %r" % pattern, timeout)

    def find(self, pattern, since=0):
        """Every line from index since on matching pattern, consumed or not."""
        rx = re.compile(pattern)
        with self._cond:
            return [m for m in self.lines[since:] if rx.search(m.line)]

    def mark(self):
        with self._cond:
            return len(self.lines)

    def until(self, pattern, timeout=None):
        """Consumes lines in order up to the first that matches pattern;
        returns (the lines before it, that line)."""
        rx = re.compile(pattern)
        before = []
        while True:
            m = self.next_line(timeout)
            if rx.search(m.line):
                return before, m
            before.append(m)

    def wait_quiet(self, pattern, quiet, timeout=None):
        """Waits until no new line matching pattern has come for quiet
        seconds; returns every such line seen so far."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        with self._cond:
            while True:
                matching = [m for m in self.lines if rx.search(m.line)]
                last = matching[-1].time if matching else 0.0
                now = time.monotonic()
                if now - last >= quiet:
                    return matching
                if now >= deadline:
                    raise AssertionError("the bot never went quiet (%r)" % pattern)
                self._cond.wait(min(quiet - (now - last), deadline - now) + 0.01)

    def sync(self, token, timeout=None):
        """A PING round trip: everything the bot does in answer to the
        lines sent before is done once it answers (it handles lines in
        order). Returns the PONG."""
        self.send("PING :%s" % token)
        return self.wait_for(r"^PONG :%s$" % re.escape(token), timeout)

    def wait_closed(self, timeout=None):
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        with self._cond:
            while self.closed_at is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("the bot kept the connection open; its last lines:\n%s"
                                         % self._recent())
                self._cond.wait(left)
            return self.closed_at

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self._thread.join(5)

    def transcript(self):
        events = [(m.time, "bot >> %s" % m.line) for m in self.lines]
        events += [(t, "srv << %r" % d) for t, d in self.sent]
        events.sort(key=lambda e: e[0])
        t0 = self.accepted_at
        return "\n".join("  %7.3f %s" % (t - t0, e) for t, e in events)


class FakeServer:
    """A listening socket on 127.0.0.1 whose accept thread stamps each
    connection as it comes (so reconnect delays are measured exactly)."""

    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.conns = []
        self._new = queue.Queue()
        self._thread = threading.Thread(target=self._accept, daemon=True, name="fake-irc-accept")
        self._thread.start()

    def _accept(self):
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            now = time.monotonic()
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Conn(sock, now, len(self.conns) + 1)
            self.conns.append(conn)
            _debug("conn %d: accepted" % conn.number)
            self._new.put(conn)

    def accept(self, timeout=None, alive=None):
        """The next connection; fails early when alive() says the bot is gone
        (alive returns True, or the bot's exit status)."""
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        while True:
            try:
                return self._new.get(timeout=0.2)
            except queue.Empty:
                pass
            status = alive() if alive is not None else True
            if status is not True:
                raise AssertionError("porrazo-bot exited (status %s) instead of connecting"
                                     % status)
            if time.monotonic() >= deadline:
                raise AssertionError("the bot did not connect to the fake server")

    def close(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept thread
        except OSError:
            pass
        self.listener.close()
        self._thread.join(5)
        for c in self.conns:
            c.close()


class Bot:
    """porrazo-bot on an [irc fake] network at 127.0.0.1:port."""

    def __init__(self, workdir, port, irc, secrets, log_level="debug"):
        self.workdir = workdir
        self.conf = os.path.join(workdir, "porrazo.conf")
        self.db = os.path.join(workdir, "porrazo.db")
        self.err_path = os.path.join(workdir, "bot.stderr")
        self.out_path = os.path.join(workdir, "bot.stdout")
        options = {
            "host": "127.0.0.1", "port": str(port), "tls": "false", "nick": "porrazo",
            "alt_nicks": "porrazo_, porrazo__", "channels": "#porrazo",
            "burst": "3", "line_ms": "400",
        }
        options.update(irc)
        with open(self.conf, "w", encoding="utf-8") as f:
            f.write("[bot]\nname = porrazo\nprefix = !\nlog_level = %s\nreminder = off\n"
                    "flood_commands = 0\n\n"
                    "[irc fake]\n" % log_level)
            for key, value in options.items():
                f.write("%s = %s\n" % (key, value))
        env = os.environb.copy()
        for key, value in (secrets or {}).items():
            env[key.encode()] = value.encode("utf-8")
        self.err = open(self.err_path, "wb")
        self.out = open(self.out_path, "wb")
        self.proc = subprocess.Popen([BOT, "--config", self.conf, "--db", self.db, "--seed", "7"],
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=self.err,
                                     env=env)
        _LIVE_BOTS.add(self)

    def alive(self):
        return self.proc.poll() is None

    def status(self):
        """True while running, else the exit status (-N: killed by signal N)."""
        rc = self.proc.poll()
        return True if rc is None else rc

    def log(self):
        """What the bot wrote (stderr, then stdout), as text."""
        text = ""
        for path in (self.err_path, self.out_path):
            with open(path, "rb") as f:
                text += f.read().decode("utf-8", "replace")
        return text

    def stop(self, timeout=10):
        """SIGTERM (the bot says QUIT and exits); SIGKILL after timeout."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._done()

    def kill(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait()
        self._done()

    def _done(self):
        _LIVE_BOTS.discard(self)
        for f in (self.err, self.out):
            if not f.closed:
                f.close()


def check_pacing(testcase, lines, burst, line_ms):
    """Asserts the token bucket on the arrival times of lines: in any span
    from line i to line j, at most burst + (t_j - t_i) / line_ms lines
    (so at most burst back to back, then one per line_ms), with 30% of
    line_ms of slack for scheduling on a loaded machine."""
    period = line_ms / 1000.0
    slack = 0.3 * period
    times = [m.time for m in lines]
    for i in range(len(times)):
        for j in range(i + 1, len(times)):
            count = j - i + 1
            allowed = burst + math.floor((times[j] - times[i] + slack) / period)
            if count > allowed:
                t0 = times[0]
                detail = "\n".join("  %7.3f %s" % (m.time - t0, m.line[:90]) for m in lines)
                testcase.fail("%d lines in %.3f s (lines %d..%d): more than burst %d + one "
                              "per %d ms allows; the lines:\n%s"
                              % (count, times[j] - times[i], i, j, burst, line_ms, detail))


class FakeServerTestCase(unittest.TestCase):
    """A fake server per test; start_bot() starts the bot on it. A failing
    test prints the bot's log and the transcript of every connection."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pz-irc-fake-")
        self.server = FakeServer()
        self.bot = None

    def tearDown(self):
        failed = self._failed()
        if self.bot is not None:
            self.bot.stop()
        self.server.close()
        if failed:
            if self.bot is not None:
                sys.stderr.write("\n--- bot log (tail) ---\n%s\n" % self.bot.log()[-6000:])
            for c in self.server.conns:
                sys.stderr.write("--- connection %d (tail) ---\n%s\n"
                                 % (c.number, c.transcript()[-6000:]))
        log = self.bot.log() if self.bot is not None else ""
        shutil.rmtree(self.dir, ignore_errors=True)
        if not failed:
            bad = [line for c in self.server.conns for line in c.bad]
            self.assertEqual(bad, [], "lines over 510 bytes or with NUL/CR/LF inside")
            # SIGTERM is a clean stop (QUIT, exit 0); with -DPZ_SANITIZE=ON
            # a report of ASan, LSan or UBSan fails the test too.
            reports = re.findall(r".*(?:Sanitizer|runtime error).*", log)
            self.assertEqual(reports, [], "sanitizer reports in the bot's log")
            if self.bot is not None:
                self.assertEqual(self.bot.proc.returncode, 0, "the bot's exit status")

    def _failed(self):
        outcome = getattr(self, "_outcome", None)
        result = getattr(outcome, "result", None)
        if result is None:
            return False
        return any(t is self for t, _ in result.errors + result.failures)

    def start_bot(self, secrets=None, log_level="debug", **irc):
        self.bot = Bot(self.dir, self.server.port, irc, secrets, log_level)
        return self.bot

    def accept(self, timeout=None):
        return self.server.accept(timeout, alive=self.bot.status)

    def assert_alive(self):
        if not self.bot.alive():
            self.fail("porrazo-bot exited with status %s" % self.bot.proc.returncode)

    # -- registration ------------------------------------------------------

    def expect_connect_lines(self, conn):
        """CAP LS 302 first, then NICK and USER at once (no server answer
        needed before them: a CAP server holds registration until CAP END)."""
        first = conn.next_line()
        self.assertEqual(first.line, "CAP LS 302", "the bot's first line")
        self.assertEqual(conn.next_line().line, "NICK porrazo")
        self.assertRegex(conn.next_line().line, r"^USER porrazo 0 \* :\S")

    def welcome(self, conn, nick="porrazo"):
        """Sends 001..376; returns the lines the bot sent before its JOIN,
        echoes the JOIN, answers the MODE query and syncs."""
        conn.send(":%s 001 %s :Welcome to the fake network, %s" % (SERVER, nick, nick),
                  ":%s 002 %s :Your host is %s" % (SERVER, nick, SERVER),
                  ":%s 005 %s CHANTYPES=# NICKLEN=30 CASEMAPPING=rfc1459 "
                  ":are supported by this server" % (SERVER, nick),
                  ":%s 376 %s :End of MOTD command" % (SERVER, nick))
        before, _ = conn.until(r"^JOIN ")
        conn.send(":%s!porrazo@bot.fake JOIN #porrazo" % nick,
                  ":%s 353 %s = #porrazo :%s" % (SERVER, nick, nick),
                  ":%s 366 %s #porrazo :End of NAMES list" % (SERVER, nick))
        conn.wait_for(r"^MODE #porrazo$")
        conn.send(":%s 324 %s #porrazo +nt" % (SERVER, nick))
        conn.sync("joined")
        return before

    def register(self, conn):
        """A plain registration: CAP offers nothing the bot wants, CAP END,
        welcome, JOIN #porrazo."""
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :multi-prefix" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP END")
        before = self.welcome(conn)
        self.assertEqual([m.line for m in before], [])

    def sasl_payload(self, conn):
        """Answers AUTHENTICATE PLAIN with '+'; returns the decoded payload
        and its base64 lines."""
        self.assertEqual(conn.next_line().line, "AUTHENTICATE PLAIN")
        conn.send("AUTHENTICATE +")
        chunks = []
        while True:
            m = conn.next_line()
            self.assertEqual(m.command, "AUTHENTICATE", m.line)
            if m.params[0] == "+":
                break
            chunks.append(m.params[0])
            if len(m.params[0]) < 400:
                break
        return base64.b64decode("".join(chunks), validate=True), chunks

    def assert_plain_payload(self, payload, user, password):
        # RFC 4616: authzid NUL authcid NUL passwd; the bot may leave the
        # authzid empty or repeat the account there.
        parts = payload.split(b"\0")
        self.assertEqual(len(parts), 3, "SASL PLAIN payload %r" % payload)
        self.assertIn(parts[0], (b"", user.encode()), "authzid")
        self.assertEqual(parts[1], user.encode(), "authcid")
        self.assertEqual(parts[2], password.encode("utf-8"), "passwd")


class TestRegistration(FakeServerTestCase):
    """Scenarios 1-4: CAP, SASL, NickServ, servers without CAP, nicks in use."""

    def test_cap_ls_302_and_sasl_plain_log_in_and_the_password_stays_out_of_the_log(self):
        password = "hunter2 ñandú:;@!x"  # a space, UTF-8, punctuation
        ns_password = "nickserv-Secret-77"
        bot = self.start_bot(secrets={"PZ_FAKE_SASL": password, "PZ_FAKE_NS": ns_password},
                             sasl_user="porrazo", sasl_password="${PZ_FAKE_SASL}",
                             nickserv_password="${PZ_FAKE_NS}")
        conn = self.accept()
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :sasl account-notify extended-join multi-prefix server-time "
                  "message-tags" % SERVER)
        # Only the account capabilities: none that adds tags to lines.
        self.assertEqual(conn.next_line().line, "CAP REQ :sasl account-notify extended-join")
        conn.send(":%s CAP * ACK :sasl account-notify extended-join" % SERVER)
        payload, chunks = self.sasl_payload(conn)
        self.assert_plain_payload(payload, "porrazo", password)
        conn.send(":%s 900 porrazo porrazo!porrazo@bot.fake porrazo :You are now logged in as "
                  "porrazo" % SERVER,
                  ":%s 903 porrazo :SASL authentication successful" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP END")
        before_join = self.welcome(conn)
        # Logged in by SASL: no NickServ IDENTIFY although a password is set.
        self.assertEqual([m.line for m in before_join], [])
        self.assertEqual(conn.find(r"(?i)nickserv|IDENTIFY"), [])
        self.assertEqual(len(self.server.conns), 1)
        self.assert_alive()

        log = bot.log()
        for secret in [password, "hunter2", ns_password] + chunks:
            self.assertFalse(secret in log, "%r is in the bot's log" % secret)
        self.assertIn(">> CAP LS 302", log)           # debug logging is on
        self.assertIn(">> AUTHENTICATE ***", log)      # the payload, masked
        self.assertIn("logged in as porrazo", log)

    def test_a_sasl_payload_of_exactly_400_bytes_is_followed_by_an_empty_chunk(self):
        user = "porrazo-account-name-long"           # 25 bytes
        password = "p" * (300 - 2 * len(user) - 2)    # 300 raw bytes: 400 of base64
        self.start_bot(secrets={"PZ_FAKE_SASL": password}, sasl_user=user,
                       sasl_password="${PZ_FAKE_SASL}")
        conn = self.accept()
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :sasl=EXTERNAL,PLAIN" % SERVER)  # CAP 302 mechanism list
        self.assertEqual(conn.next_line().line, "CAP REQ :sasl")
        conn.send(":%s CAP * ACK :sasl" % SERVER)
        payload, chunks = self.sasl_payload(conn)
        self.assertEqual([len(c) for c in chunks], [400])
        self.assert_plain_payload(payload, user, password)
        conn.send(":%s 903 porrazo :SASL authentication successful" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP END")
        self.welcome(conn)

    def sasl_fails(self, conn, password):
        self.expect_connect_lines(conn)
        # A CAP 302 list over two lines: the REQ waits for the last one.
        conn.send(":%s CAP * LS * :sasl=PLAIN,EXTERNAL account-notify" % SERVER)
        conn.sync("ls-half")
        self.assertEqual(conn.find(r"^CAP REQ"), [], "CAP REQ before the last CAP LS line")
        conn.send(":%s CAP * LS :extended-join server-time" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP REQ :sasl account-notify extended-join")
        conn.send(":%s CAP * ACK :sasl account-notify extended-join" % SERVER)
        payload, _ = self.sasl_payload(conn)
        self.assert_plain_payload(payload, "porrazo", password)
        conn.send(":%s 904 * :SASL authentication failed" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP END")
        return self.welcome(conn)

    def test_sasl_failure_ends_cap_registers_and_falls_back_to_nickserv(self):
        # (irc_proto refuses a NickServ password with spaces: IDENTIFY would split it)
        password, ns_password = "wrong-sasl-pass", "ns-Pass-ñ-42"
        bot = self.start_bot(secrets={"PZ_FAKE_SASL": password, "PZ_FAKE_NS": ns_password},
                             sasl_user="porrazo", sasl_password="${PZ_FAKE_SASL}",
                             nickserv_password="${PZ_FAKE_NS}",
                             nickserv_target="NickServ@services.fake")
        conn = self.accept()
        before_join = self.sasl_fails(conn, password)
        self.assertEqual([m.line for m in before_join],
                         ["PRIVMSG NickServ@services.fake :IDENTIFY %s" % ns_password])
        log = bot.log()
        self.assertIn("[irc fake]: SASL log-in failed (904): IDENTIFY to nickserv_target "
                      "follows after registration", log)
        self.assertIn("[irc fake]: not logged in by SASL: identifying by IDENTIFY to "
                      "NickServ@services.fake", log)
        self.assertIn(">> PRIVMSG NickServ@services.fake :IDENTIFY ***", log)
        for secret in (password, ns_password, "ns-Pass"):
            self.assertFalse(secret in log, "%r is in the bot's log" % secret)
        self.assert_alive()

    def test_sasl_failure_without_nickserv_password_just_registers(self):
        password = "wrong-sasl-pass"
        self.start_bot(secrets={"PZ_FAKE_SASL": password}, sasl_user="porrazo",
                       sasl_password="${PZ_FAKE_SASL}")
        conn = self.accept()
        before_join = self.sasl_fails(conn, password)
        self.assertEqual([m.line for m in before_join], [])
        self.assertEqual(conn.find(r"(?i)nickserv|IDENTIFY"), [])
        self.assertEqual(len(self.server.conns), 1)
        self.assert_alive()

    def test_identify_goes_only_to_the_configured_services_target(self):
        ns_password = "ns-Secret-5150"
        bot = self.start_bot(secrets={"PZ_FAKE_NS": ns_password},
                             nickserv_password="${PZ_FAKE_NS}",
                             nickserv_target="NickServ@services.fake")
        conn = self.accept()
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :multi-prefix" % SERVER)  # no SASL on this server
        self.assertEqual(conn.next_line().line, "CAP END")
        before_join = self.welcome(conn)
        self.assertEqual([m.line for m in before_join],
                         ["PRIVMSG NickServ@services.fake :IDENTIFY %s" % ns_password])
        # Whoever holds the nick NickServ speaks to the bot: it gets nothing.
        conn.send(":NickServ!evil@evil.fake PRIVMSG porrazo :Please IDENTIFY again")
        conn.sync("after-impostor")
        # (the bot may answer it as anyone else, never with the password)
        self.assertEqual(len(conn.find(r"(?i)IDENTIFY")), 1)
        self.assertEqual(conn.find(r"(?i)^(PRIVMSG|NOTICE) NickServ .*IDENTIFY"), [])
        log = bot.log()
        self.assertIn("identifying by IDENTIFY to NickServ@services.fake", log)
        self.assertNotIn(ns_password, log)
        self.assertNotIn(ns_password, "".join(m.line for m in conn.lines[1:]
                                              if "services.fake" not in m.line))
        self.assert_alive()

    def test_without_nickserv_target_no_identify_is_sent_and_the_log_says_why(self):
        ns_password = "ns-Secret-5150"
        bot = self.start_bot(secrets={"PZ_FAKE_NS": ns_password},
                             nickserv_password="${PZ_FAKE_NS}")
        conn = self.accept()
        self.register(conn)  # asserts no line before the JOIN
        conn.send(":NickServ!evil@evil.fake PRIVMSG porrazo :This nickname is registered")
        conn.sync("after-impostor")
        # (the bot may answer it as anyone else, never with the password)
        self.assertEqual(conn.find(r"(?i)IDENTIFY"), [])
        self.assertEqual([m.line for m in conn.lines if ns_password in m.line], [])
        log = bot.log()
        self.assertIn("[irc fake]: nickserv_password is set but nickserv_target is not, so the "
                      "bot never sends IDENTIFY", log)
        self.assertNotIn(ns_password, log)
        self.assert_alive()

    def test_require_sasl_and_a_904_stop_the_network_and_the_process_stays_up(self):
        password = "wrong-sasl-pass"
        bot = self.start_bot(secrets={"PZ_FAKE_SASL": password}, sasl_user="porrazo",
                             sasl_password="${PZ_FAKE_SASL}", require_sasl="yes")
        conn = self.accept()
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :sasl" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP REQ :sasl")
        conn.send(":%s CAP * ACK :sasl" % SERVER)
        payload, _ = self.sasl_payload(conn)
        self.assert_plain_payload(payload, "porrazo", password)
        conn.send(":%s 904 * :SASL authentication failed" % SERVER)
        # No CAP END: the bot does not register unidentified; it says QUIT and closes.
        self.assertEqual(conn.next_line().command, "QUIT")
        conn.wait_closed()
        self.assertEqual(conn.find(r"^(CAP END|JOIN|PRIVMSG)"), [])
        # It does not come back (the first back-off would be 1.5-2 s), and stays up.
        time.sleep(2 * BACKOFF_MIN_S + 1)
        self.assertEqual(len(self.server.conns), 1, "the bot connected again")
        self.assert_alive()
        log = bot.log()
        lines = [l for l in log.splitlines() if "[irc fake]: SASL" in l]
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].endswith("[irc fake]: SASL log-in failed (904): stopping this "
                                          "network, as require_sasl says"), lines[0])
        self.assertNotIn(password, log)

    def test_require_sasl_on_a_server_without_sasl_stops_the_network(self):
        bot = self.start_bot(secrets={"PZ_FAKE_SASL": "unused-pass"}, sasl_user="porrazo",
                             sasl_password="${PZ_FAKE_SASL}", require_sasl="yes")
        conn = self.accept()
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :multi-prefix" % SERVER)
        self.assertEqual(conn.next_line().command, "QUIT")
        conn.wait_closed()
        self.assertEqual(conn.find(r"^(CAP REQ|CAP END|AUTHENTICATE|JOIN)"), [])
        self.assert_alive()
        self.assertIn("[irc fake]: SASL log-in failed (the server offers no SASL PLAIN): "
                      "stopping this network, as require_sasl says", bot.log())

    def test_a_server_without_cap_answers_421_and_the_bot_still_registers(self):
        self.start_bot(secrets={"PZ_FAKE_SASL": "unused-pass"}, sasl_user="porrazo",
                       sasl_password="${PZ_FAKE_SASL}")
        conn = self.accept()
        self.expect_connect_lines(conn)
        # An old server: CAP is an unknown command, NICK/USER register at
        # once, and it checks the client with a PING cookie before 001.
        conn.send(":%s 421 * CAP :Unknown command" % SERVER, "PING :cookie-5150")
        self.assertEqual(conn.next_line().line, "PONG :cookie-5150")
        before_join = self.welcome(conn)
        self.assertEqual([m.line for m in before_join], [])
        # No CAP END to a server that knows no CAP, no SASL attempt.
        self.assertEqual(conn.find(r"^(CAP|AUTHENTICATE)", since=1), [])
        self.assertEqual(len(self.server.conns), 1)
        self.assert_alive()

    def test_nicks_in_use_then_give_up_and_reconnect_after_a_back_off(self):
        self.start_bot()
        conn = self.accept()
        self.expect_connect_lines(conn)
        conn.send(":%s CAP * LS :multi-prefix" % SERVER)
        self.assertEqual(conn.next_line().line, "CAP END")
        # Every nick is taken: 433 to the first NICK and to each retry.
        tried, last_433 = [], None
        nick = "porrazo"
        while True:
            tried.append(nick)
            last_433 = conn.send(":%s 433 * %s :Nickname is already in use" % (SERVER, nick))
            self.assertLessEqual(len(tried), NICK_TRIES_MAX, "tries: %s" % tried)
            try:
                m = conn.next_line(timeout=TIMEOUT)
            except AssertionError:
                if conn.closed_at is not None:
                    break  # the bot gave up and closed the link
                raise
            self.assertEqual(m.command, "NICK", m.line)
            nick = m.params[0]
            self.assertLessEqual(len(nick), 9, "NICKLEN defaults to 9: %s" % nick)
        self.assertEqual(tried[:3], ["porrazo", "porrazo_", "porrazo__"])
        self.assertFalse(conn.find(r"^(JOIN|QUIT|PRIVMSG)"))

        # The bot comes back by itself after the first back-off (2 s less up
        # to a quarter of jitter), from the start: CAP LS 302, its first nick.
        again = self.accept(timeout=TIMEOUT)
        delay = again.accepted_at - last_433
        # (10 ms for the loop's millisecond clock)
        self.assertGreaterEqual(delay, BACKOFF_MIN_S - 0.01, "reconnected too soon")
        self.assertLess(delay, 2.0 + 5.0, "reconnected too late")
        self.register(again)
        self.assert_alive()
        log = self.bot.log()
        self.assertRegex(log, r"every configured nick is taken or refused; connecting again "
                              r"in [12] s")
        self.assertIn("registered as porrazo", log)


class TestSendQueue(FakeServerTestCase):
    """Scenarios 5 and 6: the paced queue and 707 ERR_TARGCHANGE."""

    def test_lines_are_paced_by_burst_and_line_ms_and_private_lines_pass_room_chatter(self):
        burst, line_ms = 3, 400
        self.start_bot(burst=str(burst), line_ms=str(line_ms))
        conn = self.accept()
        self.register(conn)
        out = r"^(PRIVMSG|NOTICE) "

        # A: a table for two, dealt, and two long private replies, all at once.
        mark_a = conn.mark()
        conn.send(":%s PRIVMSG #porrazo :!new 2" % ANN,
                  ":%s PRIVMSG #porrazo :!join" % BOB,
                  ":%s PRIVMSG porrazo :help" % ANN,
                  ":%s PRIVMSG porrazo :rules" % ANN)
        conn.wait_for(r"^PRIVMSG #porrazo :.*bob", since=mark_a)  # bob sat down
        lines_a = [m for m in conn.wait_quiet(out, quiet=2.5 * line_ms / 1000 + 1.0)
                   if m.index >= mark_a]
        self.assertGreaterEqual(len(lines_a), 12, "help, rules, the deal: many lines")
        for target in ("#porrazo", "ann"):
            self.assertTrue([m for m in lines_a if m.target == target], "nothing to " + target)
        # a hand to the player who does not deal (the dealer's waits for the
        # tendido choice, R4.2, and the room says so)
        self.assertTrue([m for m in lines_a if m.target in ("ann", "bob")
                         and "Your hand" in m.text], "no hand dealt")
        # Private hands: ann's in her own message, never in the room.
        self.assertFalse([m for m in lines_a if m.target == "#porrazo" and "Your hand" in m.text])
        # The bucket was full: the first burst lines went at once, not paced.
        self.assertLess(lines_a[burst - 1].time - lines_a[0].time, 0.6 * line_ms * 2 / 1000,
                        "the first %d lines were not sent as a burst" % burst)
        # Not slower than the pacing needs (generously: a loaded machine).
        span = lines_a[-1].time - lines_a[0].time
        self.assertLess(span, (len(lines_a) - burst) * line_ms / 1000 * 1.5 + 2.0)

        # B: room chatter queued first, then bob asks for his hand privately.
        mark_b = conn.mark()
        conn.send(":%s PRIVMSG #porrazo :!players" % ANN,
                  ":%s PRIVMSG #porrazo :!options" % ANN,
                  ":%s PRIVMSG #porrazo :!score" % ANN,
                  ":%s PRIVMSG #porrazo :!table" % BOB,
                  ":%s PRIVMSG #porrazo :!score" % BOB,
                  ":%s PRIVMSG #porrazo :!players" % BOB,
                  ":%s PRIVMSG porrazo :hand" % BOB)
        hand = conn.wait_for(r"^PRIVMSG bob :.*#porrazo", since=mark_b)
        lines_b = [m for m in conn.wait_quiet(out, quiet=2.5 * line_ms / 1000 + 1.0)
                   if m.index >= mark_b]
        room_b = [m for m in lines_b if m.target == "#porrazo"]
        self.assertGreaterEqual(len(room_b), 8, "the room chatter")
        after = [m for m in room_b if m.index > hand.index]
        self.assertGreaterEqual(len(after), len(room_b) // 2,
                                "bob's hand waited behind the room chatter: %d room lines "
                                "before it, %d after" % (len(room_b) - len(after), len(after)))

        check_pacing(self, lines_a + lines_b, burst, line_ms)
        self.assertEqual(len(self.server.conns), 1)
        self.assert_alive()

    def test_707_targchange_resends_the_line_later_and_other_targets_go_on(self):
        self.start_bot(burst="3", line_ms="200")
        conn = self.accept()
        self.register(conn)
        conn.send(":%s PRIVMSG porrazo :probe707" % ANN)
        first = conn.wait_for(r"^PRIVMSG ann :.*probe707")
        # The server refuses it: too many targets too fast. Meanwhile more
        # for ann (held behind the refused line) and for others.
        mark = conn.mark()
        t707 = conn.send(":%s 707 porrazo ann :Targets changing too fast, message dropped"
                         % SERVER,
                         ":%s PRIVMSG porrazo :probeafter" % ANN,
                         ":%s PRIVMSG porrazo :probebob1" % BOB,
                         ":%s PRIVMSG #porrazo :!probechan" % CAROL,
                         ":%s PRIVMSG porrazo :probebob2" % BOB)
        others = [conn.wait_for(r"^PRIVMSG bob :.*probebob1", since=mark),
                  conn.wait_for(r"^PRIVMSG #porrazo :.*probechan", since=mark),
                  conn.wait_for(r"^PRIVMSG bob :.*probebob2", since=mark)]
        again = conn.wait_for(r"^PRIVMSG ann :", since=mark, timeout=REQUEUE_S + TIMEOUT)
        self.assertEqual(again.raw, first.raw, "the refused line, resent as it was")
        waited = again.time - t707
        self.assertGreaterEqual(waited, REQUEUE_S * 0.95, "resent before the requeue delay")
        self.assertLess(waited, REQUEUE_S + 10.0, "resent far after the requeue delay")
        for m in others:
            self.assertLess(m.time - t707, 5.0, "other targets waited: %s" % m.line)
            self.assertLess(m.index, again.index)
        after = conn.wait_for(r"^PRIVMSG ann :.*probeafter", since=mark)
        self.assertGreater(after.index, again.index, "ann's next message passed the resend")
        self.assertEqual(len(conn.find(r"^PRIVMSG ann :.*probe707")), 2)
        self.assertEqual(len(self.server.conns), 1)
        self.assert_alive()


class TestServerLines(FakeServerTestCase):
    """Scenarios 7 and 8: message tags, PING, and lines no server should send."""

    def test_tagged_lines_are_understood_and_pings_are_answered(self):
        self.start_bot(burst="5", line_ms="100")
        conn = self.accept()
        self.register(conn)
        # The same !help with and without tags gives the same reply.
        replies = []
        for line in (":%s PRIVMSG #porrazo :!help" % ANN,
                     "@time=2026-11-22T10:00:00.000Z;account=x :%s PRIVMSG #porrazo :!help"
                     % ANN):
            mark = conn.mark()
            conn.send(line)
            conn.wait_for(r"^PRIVMSG ann :", since=mark)
            replies.append([m.text for m in conn.wait_quiet(r"^PRIVMSG ann :", quiet=1.0)
                            if m.index >= mark])
        plain, tagged = replies
        self.assertTrue(plain)
        self.assertEqual(tagged, plain)
        # Escaped values, client-only tags, tags without values, in private.
        conn.send(r"@msgid=a\:b\sc\\d;+draft/reply=x;flag :%s PRIVMSG porrazo :probetags" % BOB)
        conn.wait_for(r"^PRIVMSG bob :.*probetags")

        self.assertEqual(conn.sync("tok-1").line, "PONG :tok-1")
        conn.send("PING tok2")
        self.assertEqual(conn.wait_for(r"^PONG ").line, "PONG :tok2")
        conn.send(":%s PING :tok3" % SERVER)
        self.assertEqual(conn.wait_for(r"^PONG ").line, "PONG :tok3")
        conn.send("@time=2026-11-22T10:00:01.000Z PING :tok4")
        self.assertEqual(conn.wait_for(r"^PONG ").line, "PONG :tok4")
        self.assertEqual(len(self.server.conns), 1)
        self.assert_alive()

    def test_a_kick_of_the_bot_is_logged_with_its_reason_formatting_shown(self):
        # libircclient's irc_color_convert_from_mirc writes the op's bold and
        # colour as markup; the log would show raw codes as '?'.
        self.start_bot()
        conn = self.accept()
        self.register(conn)
        conn.send(":op!op@op.fake KICK #porrazo porrazo "
                  ":\x02no bots\x02 here, \x0304red\x0f card")
        conn.sync("after-kick")
        self.assertRegex(self.bot.log(), r"(?m)fake: kicked from #porrazo by op: "
                         r"\[B\]no bots\[/B\] here, \[COLOR=RED\]red\[/COLOR\] card$")
        conn.send(":op!op@op.fake KICK #porrazo porrazo")  # no reason: none shown
        conn.sync("after-second-kick")
        self.assertRegex(self.bot.log(), r"(?m)fake: kicked from #porrazo by op$")
        self.assert_alive()

    def test_a_ping_storm_the_bot_cannot_answer_logs_one_warning_and_a_count(self):
        # A server that sends PINGs and reads nothing: the PONGs fill the
        # sockets' buffers, then the bot's, and each one more cannot be
        # sent. The log (info, as the bot runs) says so once, then counts:
        # before, one identical warning per PING (12,719 lines, 1.3 MB).
        self.start_bot(log_level="info")
        conn = self.accept()
        self.register(conn)
        conn.pause()
        storm = 40000
        for _ in range(storm // 1000):
            conn.send(*["PING :storm"] * 1000)
        time.sleep(1.0)  # the bot reads the last of them
        conn.resume()
        conn.sync("after-storm", timeout=60)
        self.assert_alive()
        self.bot.stop()
        log = self.bot.log()
        pongs = len(conn.find(r"^PONG :storm$"))
        warnings = re.findall(r"(?m)^\S+ warn: fake: cannot send \"PONG :storm\": .*$", log)
        counts = [int(n) for n in re.findall(
            r"(?m)^\S+ warn: \(last message repeated (\d+) times\)$", log)]
        counts += [1] * len(re.findall(r"(?m)^\S+ warn: \(last message repeated once\)$", log))
        sys.stderr.write("PING storm: %d PINGs, %d PONGs sent, %d warning lines, counts %s, "
                         "log %d lines (%d bytes)\n" % (storm, pongs, len(warnings), counts,
                                                        log.count("\n"), len(log)))
        self.assertGreater(storm - pongs, 1000, "the storm never filled the bot's buffer")
        self.assertEqual(len(warnings), 1, "the same warning written again and again")
        self.assertEqual(1 + sum(counts), storm - pongs,
                         "the warning and its counts do not tell every PONG that was not sent")
        self.assertLess(log.count("\n"), 40, "the log grew with the storm")

    def test_a_server_that_stops_answering_our_ping_is_dropped(self):
        # ircp_config has ping_idle_ms / ping_timeout_ms, but [irc NAME]
        # has no key for them and adapters/irc/irc.c leaves them at the
        # defaults (120 s idle, then 60 s): too slow for this test.
        self.skipTest("the PING idle time and timeout are not configurable "
                      "(IRCP_PING_IDLE_MS 120 s + IRCP_PING_TIMEOUT_MS 60 s)")

    def test_long_nul_bare_lf_and_prefix_only_lines_leave_the_bot_answering(self):
        self.start_bot(burst="5", line_ms="100")
        conn = self.accept()
        self.register(conn)

        def probe(word):
            conn.send(":%s PRIVMSG porrazo :%s" % (ANN, word))
            return conn.wait_for(r"^PRIVMSG ann :.*%s" % word)

        # 600 bytes without CR LF: chat, then a command (cut to 510 for the
        # library, still understood).
        head = ":%s PRIVMSG #porrazo :" % ANN
        long_chat = head + "x" * (600 - len(head))
        self.assertEqual(len(long_chat), 600)
        conn.send(long_chat)
        conn.sync("after-600")
        head = ":%s PRIVMSG porrazo :probelong " % ANN
        conn.send(head + "y" * (600 - len(head)))
        conn.wait_for(r"^PRIVMSG ann :.*probelong")
        probe("probe600")

        # A NUL inside a line: that line is dropped whole.
        conn.send(b":" + ANN.encode() + b" PRIVMSG porrazo :probenul\0hidden\r\n", raw=True)
        probe("probeafternul")
        self.assertEqual(conn.find(r"probenul|hidden"), [])

        # A bare LF ends a line too.
        conn.send((":%s PRIVMSG porrazo :probelfone\n:%s PRIVMSG porrazo :probelftwo\r\n"
                   % (ANN, ANN)).encode(), raw=True)
        conn.wait_for(r"^PRIVMSG ann :.*probelfone")
        conn.wait_for(r"^PRIVMSG ann :.*probelftwo")

        # A prefix and nothing else; a lone colon; blanks; an empty line.
        conn.send(":%s" % SERVER, ":%s " % ANN, ":", "   ", "")
        conn.sync("after-prefix")
        probe("probeprefix")

        # Over 8 KiB: dropped whole (IRC_WIRE_LINE_MAX), the next line is fine.
        conn.send(":%s PRIVMSG porrazo :probehuge %s" % (ANN, "z" * 9000))
        probe("probeafterhuge")
        self.assertEqual(conn.find(r"probehuge"), [])

        self.assertEqual(len(self.server.conns), 1, "the bot reconnected")
        self.assertIsNone(conn.closed_at)
        self.assert_alive()


def main():
    global BOT
    argv = sys.argv[:]
    if len(argv) > 1 and not argv[1].startswith("-") and os.path.isfile(argv[1]):
        BOT = os.path.abspath(argv.pop(1))
    else:
        BOT = os.environ.get("PZ_BOT") or os.path.join(HERE, "..", "..", "build", "bin",
                                                       "porrazo-bot")
    if not os.access(BOT, os.X_OK):
        sys.stderr.write("test_irc_fake_server.py: no porrazo-bot at %s\n" % BOT)
        return 1
    exit_on_sigterm()
    started = time.monotonic()
    program = unittest.main(argv=argv, verbosity=2, exit=False)
    print("irc fake server tests: %.1f s" % (time.monotonic() - started), file=sys.stderr)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
