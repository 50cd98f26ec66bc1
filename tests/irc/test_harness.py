#!/usr/bin/env python3
"""test_harness.py -- self-tests of the IRC test harness (ircd.py, client.py)
against a real ngircd started on loopback, plus the client's line handling
against a scripted fake server. The ctest irc_harness_selftest.

usage: test_harness.py [-v] [unittest options, e.g. a test name]
"""
import os
import socket
import ssl
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from client import Disconnected, IRCClient, IRCError, NickInUse  # noqa: E402
from ircd import IRCd, TIMEOUT, exit_on_sigterm  # noqa: E402

SERVER = None  # one ngircd, with TLS, shared by most tests


def setUpModule():
    global SERVER
    SERVER = IRCd(tls=True).start()


def tearDownModule():
    if SERVER is not None:
        SERVER.cleanup()


class ServerTestCase(unittest.TestCase):
    """Clients made with self.client() are closed after the test; a failing
    test prints the tail of ngircd's log."""

    server = None

    def setUp(self):
        self.server = self.server or SERVER
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        if self._failed():
            sys.stderr.write("\n--- ngircd log (tail) ---\n%s\n" % self.server.log()[-3000:])

    def _failed(self):
        outcome = getattr(self, "_outcome", None)
        result = getattr(outcome, "result", None)
        if result is None:
            return False
        return any(t is self for t, _ in result.errors + result.failures)

    def client(self, nick, **kw):
        c = self.server.client(nick, **kw)
        self.clients.append(c)
        return c


class TestChannelAndPrivateMessages(ServerTestCase):

    def test_two_clients_join_and_talk(self):
        alice = self.client("alice")
        bob = self.client("bob")
        self.assertTrue(alice.registered)
        self.assertEqual(alice.isupport.get("NICKLEN"), "9")
        alice.join("#porrazo")
        bob.join("#porrazo")
        alice.wait_for("JOIN", sender="bob", target="#porrazo")

        alice.privmsg("#porrazo", "hola a todos")
        m = bob.wait_for("PRIVMSG", sender="alice", target="#porrazo", pattern=r"^hola")
        self.assertEqual(m.text, "hola a todos")
        self.assertFalse(m.to_me)

        bob.privmsg("alice", "psst, only for you")
        m = alice.wait_privmsg(sender="bob")
        self.assertEqual(m.text, "psst, only for you")
        self.assertTrue(m.to_me)
        bob.notice("alice", "a notice")
        alice.wait_privmsg(sender="bob", notice=True, pattern="notice")
        self.assertEqual([x.text for x in alice.private_messages(sender="bob")],
                         ["psst, only for you", "a notice"])
        self.assertEqual(len(alice.private_messages(notice=False)), 1)
        # ngircd doesn't echo our own messages; the channel line isn't private.
        alice.sync()
        self.assertEqual(alice.find("PRIVMSG", target="#porrazo"), [])

        # A consumed message is not found twice; since= reaches past it.
        mark = bob.mark()
        alice.privmsg("#porrazo", "one")
        alice.privmsg("#porrazo", "two")
        self.assertEqual(bob.wait_for("PRIVMSG", pattern="two").text, "two")
        self.assertEqual(bob.wait_for("PRIVMSG", sender="alice").text, "one")
        self.assertRaises(IRCError, bob.wait_for, "PRIVMSG", pattern="one", timeout=0.2)
        self.assertEqual([x.text for x in bob.find("PRIVMSG", since=mark)], ["one", "two"])
        bob.expect_nothing(0.3, "PRIVMSG", sender="alice")

    def test_join_refused_and_part(self):
        carol = self.client("carol")
        with self.assertRaises(IRCError):
            carol.join("nochannel")  # 403: not a channel name
        carol.join("#p1")
        carol.part("#p1", "bye")

    def test_quit_is_seen(self):
        dora = self.client("dora")
        ed = self.client("ed")
        dora.join("#q")
        ed.join("#q")
        ed.quit("leaving")
        self.assertTrue(ed.closed)
        dora.wait_for("QUIT", sender="ed", pattern="leaving")


class TestNicks(ServerTestCase):

    def test_nick_change_seen_by_the_other(self):
        ann = self.client("ann")
        ben = self.client("ben")
        ann.join("#nicks")
        ben.join("#nicks")
        m = ben.change_nick("benny")
        self.assertEqual(m.text, "benny")
        self.assertEqual(ben.nick, "benny")
        seen = ann.wait_for("NICK", sender="ben")
        self.assertEqual(seen.text, "benny")
        # Private messages follow the new nick.
        ann.privmsg("benny", "still you?")
        self.assertTrue(ben.wait_privmsg(sender="ann").to_me)
        ben.privmsg("#nicks", "yes")
        ann.wait_for("PRIVMSG", sender="benny", target="#nicks")

    def test_nick_in_use_and_too_long(self):
        self.client("taken")
        with self.assertRaises(NickInUse):
            self.client("taken")
        with self.assertRaisesRegex(IRCError, "432"):
            self.client("waytoolongnick")  # MaxNickLength = 9
        other = self.client("other")
        with self.assertRaises(NickInUse):
            other.change_nick("TAKEN")     # case-insensitive
        self.assertEqual(other.nick, "other")
        other.ping()


class TestTLS(ServerTestCase):

    def test_verifies_with_the_test_ca(self):
        for hostname in (None, "localhost"):  # IP and DNS subjectAltNames
            c = self.client("tls%s" % ("ip" if hostname is None else "dns"), tls=True,
                            server_hostname=hostname)
            self.assertIn(c.tls_version, ("TLSv1.2", "TLSv1.3"))
            sans = c.peer_cert["subjectAltName"]
            self.assertIn(("IP Address", "127.0.0.1"), sans)
            self.assertIn(("DNS", "localhost"), sans)
            c.join("#tls")
            c.ping()
        plain = self.client("plain")
        plain.join("#tls")
        c.privmsg("#tls", "over TLS")
        plain.wait_for("PRIVMSG", sender=c.nick, pattern="over TLS")

    def test_wrong_ca_fails_verification(self):
        c = IRCClient(self.server.host, self.server.tls_port, "wrongca", tls=True,
                      cafile=self.server.wrong_ca_file)
        with self.assertRaises(ssl.SSLCertVerificationError) as cm:
            c.connect()
        self.assertIn("certificate verify failed", str(cm.exception))
        self.assertTrue(c.closed)

    def test_wrong_hostname_fails_verification(self):
        c = IRCClient(self.server.host, self.server.tls_port, "wronghost", tls=True,
                      cafile=self.server.ca_file, server_hostname="irc.example.org")
        with self.assertRaises(ssl.SSLCertVerificationError):
            c.connect()
        # The server is unharmed.
        self.client("afterbad", tls=True).ping()

    def test_plain_client_on_tls_port_is_not_registered(self):
        c = IRCClient(self.server.host, self.server.tls_port, "confused")
        self.clients.append(c)
        c.connect()
        with self.assertRaises(IRCError):  # closed, or nothing readable
            c.send("NICK confused")
            c.send("USER x 0 * :x")
            c.wait_for("001", timeout=2)
        self.client("sane", tls=True).ping()


class TestBadInput(ServerTestCase):
    """What ngircd does with the kinds of lines the adapter's robustness
    tests send, and that it keeps serving everybody afterwards."""

    def setUp(self):
        super().setUp()
        self.eve = self.client("eve")
        self.fred = self.client("fred")
        self.eve.join("#bad")
        self.fred.join("#bad")

    def test_500_byte_line(self):
        head = b"PRIVMSG #bad :"
        line = head + b"x" * (500 - len(head) - 2) + b"\r\n"
        self.assertEqual(len(line), 500)
        self.eve.send_raw(line)
        m = self.fred.wait_for("PRIVMSG", sender="eve", target="#bad")
        # Relayed with eve's prefix, which makes it too long: ngircd cuts it
        # to 512 bytes with CR LF and marks the cut.
        self.assertLessEqual(len(m.raw) + 2, 512)
        self.assertRegex(m.text, r"^x{400,}\[CUT\]$")
        self.eve.ping()
        self.fred.ping()

    def test_over_512_byte_line_closes_only_that_client(self):
        self.eve.send_raw(b"PRIVMSG #bad :" + b"y" * 600 + b"\r\n")
        reason = self.eve.wait_closed()
        self.assertIn("Request too long", reason)
        self.fred.wait_for("QUIT", sender="eve")
        self.fred.ping()

    def test_invalid_utf8_is_relayed_as_bytes(self):
        self.eve.send_raw(b"PRIVMSG #bad :bad \xff\xfe \xc3\x28 end\r\n")
        m = self.fred.wait_for("PRIVMSG", sender="eve", raw=rb"bad \xff\xfe \xc3\x28 end$")
        self.assertIn("\ufffd", m.text)
        self.eve.ping()
        self.fred.ping()

    def test_control_characters_and_malformed_commands(self):
        self.eve.send_raw(b"PRIVMSG #bad :ctl \x01\x02\x03\x07\x1f\x7f end\r\n")
        self.fred.wait_for("PRIVMSG", raw=rb"ctl \x01\x02\x03\x07\x1f\x7f end$")
        self.eve.send_raw(b"FOO bar\r\nPRIVMSG\r\nPRIVMSG #bad\r\n\r\n   \r\nJOIN\r\n")
        self.eve.wait_for("421")  # unknown command
        self.eve.wait_for("411")  # no recipient
        self.eve.wait_for("412")  # no text
        self.eve.wait_for("461")  # JOIN: not enough parameters
        self.eve.ping()
        # A bare LF or CR ends a line too.
        self.eve.send_raw(b"PRIVMSG #bad :lf\nPRIVMSG #bad :cr\r")
        self.fred.wait_for("PRIVMSG", pattern="^lf$")
        self.fred.wait_for("PRIVMSG", pattern="^cr$")

    def test_nul_wedges_only_the_sender(self):
        # ngircd handles lines as C strings: after a NUL it never finds the
        # end of the line, so it ignores the sender from then on (until its
        # ping timeout). Everybody else is served.
        self.eve.send_raw(b"PRIVMSG #bad :nul \x00 after\r\n")
        with self.assertRaises(IRCError):
            self.eve.ping(timeout=2)
        self.fred.ping()
        self.fred.privmsg("#bad", "still here")
        self.eve.wait_for("PRIVMSG", sender="fred", pattern="still here")


class TestRestart(ServerTestCase):
    """A server of its own: restarted, killed, started again."""

    def setUp(self):
        self.server = IRCd()
        self.server.start()
        super().setUp()

    def tearDown(self):
        super().tearDown()
        self.server.cleanup()

    def test_restart_on_the_same_port_and_reconnect(self):
        gil = self.client("gil")
        hal = self.client("hal")
        gil.join("#game")
        hal.join("#game")
        port, pid = self.server.port, self.server.pid

        self.server.restart()  # SIGTERM: ngircd says goodbye
        self.assertEqual(self.server.port, port)
        self.assertNotEqual(self.server.pid, pid)
        self.assertIn("going down", gil.wait_closed())
        hal.wait_closed()
        with self.assertRaises(Disconnected):
            gil.wait_for("PRIVMSG", timeout=1)

        for c in (gil, hal):
            c.reconnect()
            c.join("#game")
        gil.privmsg("#game", "we're back")
        hal.wait_for("PRIVMSG", sender="gil", pattern="back")

        self.server.kill()  # SIGKILL: connections just drop
        self.assertFalse(self.server.running)
        self.assertEqual(gil.wait_closed(), "closed by the server")
        self.server.start()
        self.assertEqual(self.server.port, port)
        gil.reconnect()
        gil.ping()

    def test_server_pings_are_answered(self):
        self.server.cleanup()
        self.server = IRCd(ping_timeout=5, pong_timeout=5).start()  # ngircd minimum
        ivy = self.client("ivy")
        # The server PINGs the idle client; the client answers by itself, so
        # it is PINGed again later instead of being dropped for not answering.
        first = ivy.wait_for("PING", timeout=TIMEOUT)
        second = ivy.wait_for("PING", timeout=TIMEOUT)
        self.assertGreater(second.time, first.time)
        ivy.ping()
        self.assertFalse(ivy.closed)


class FakeServer:
    """A listening socket on loopback that plays the server by hand."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.conn = None
        self.buf = b""

    def accept(self):
        self.listener.settimeout(TIMEOUT)
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(TIMEOUT)

    def send(self, data):
        self.conn.sendall(data)

    def read_line(self):
        while b"\r\n" not in self.buf:
            data = self.conn.recv(4096)
            if not data:
                raise ConnectionError("client closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def close(self):
        if self.conn:
            self.conn.close()
        self.listener.close()


class TestClientLineHandling(unittest.TestCase):
    """The client against a fake server that cuts lines anywhere."""

    def setUp(self):
        self.fake = FakeServer()
        self.c = IRCClient("127.0.0.1", self.fake.port, "zed")
        self.c.connect()
        self.fake.accept()

    def tearDown(self):
        self.c.close()
        self.fake.close()

    def test_partial_reads_crlf_and_ping(self):
        c, fake = self.c, self.fake
        reg = threading.Thread(target=c.register)
        reg.start()
        self.assertEqual(fake.read_line(), b"NICK zed")
        self.assertTrue(fake.read_line().startswith(b"USER "))
        burst = (b":srv 001 zed :Welcome\r\n:srv 376 zed :End\r\n"
                 b"PING :tok 1\r\n:a!u@h PRIVMSG zed :split\xc3\xa9\r\n"
                 b":a!u@h PRIVMSG #c :lf only\n:a!u@h NOTICE zed :cr only\r"
                 b"@time=x;k :a!u@h PRIVMSG #c :tagged\r\n")
        for i in range(len(burst)):  # one byte at a time
            fake.send(burst[i:i + 1])
            if i % 7 == 0:
                time.sleep(0.001)
        reg.join(TIMEOUT)
        self.assertTrue(c.registered)
        self.assertEqual(fake.read_line(), b"PONG :tok 1")
        m = c.wait_privmsg(sender="a")
        self.assertEqual(m.text, "split\u00e9")
        self.assertEqual(c.wait_for("PRIVMSG", target="#c", pattern="lf").text, "lf only")
        # "cr only\r" ends with CR: the client waits to see whether LF follows.
        fake.send(b":srv PONG srv :x\r\n")
        self.assertEqual(c.wait_privmsg(notice=True).text, "cr only")
        t = c.wait_for("PRIVMSG", pattern="tagged")
        self.assertEqual(t.tags, {"time": "x", "k": ""})
        self.assertEqual(t.nick, "a")

        c.send_raw(b"RAW \xff\x00 bytes\r\n")
        self.assertEqual(fake.read_line(), b"RAW \xff\x00 bytes")
        with self.assertRaises(ValueError):
            c.send("two\r\nlines")

        fake.send(b"ERROR :Closing Link: zed (bye)\r\n")
        fake.conn.close()
        fake.conn = None
        self.assertIn("Closing Link", c.wait_closed())
        with self.assertRaises(Disconnected):
            c.wait_for("PRIVMSG", pattern="never")

    def test_nick_tracking_and_to_me(self):
        c, fake = self.c, self.fake
        fake.send(b":srv 001 zed :hi\r\n:zed!u@h NICK :zoe\r\n"
                  b":a!u@h PRIVMSG zoe :for zoe\r\n:a!u@h PRIVMSG zed :old nick\r\n")
        m = c.wait_for("PRIVMSG", sender="a", pattern="old nick")
        self.assertEqual(c.nick, "zoe")
        self.assertFalse(m.to_me)
        self.assertTrue(c.wait_privmsg().text == "for zoe")


if __name__ == "__main__":
    exit_on_sigterm()
    started = time.monotonic()
    program = unittest.main(verbosity=2, exit=False)
    print("irc harness self-test: %.1f s" % (time.monotonic() - started), file=sys.stderr)
    sys.exit(0 if program.result.wasSuccessful() else 1)
