"""client.py -- a scripted IRC client for the tests (Python standard library).

    c = IRCClient("127.0.0.1", port, "alice")     # tls=True, cafile=... for TLS
    c.connect(); c.register()                     # NICK/USER, waits for 001..MOTD
    c.join("#porrazo")
    c.privmsg("#porrazo", "hello")
    m = bob.wait_for("PRIVMSG", sender="alice", target="#porrazo", pattern=r"hel+o")
    m = bob.wait_privmsg(sender="porrazo", pattern=r"Your hand")
    c.send_raw(b"PRIVMSG #porrazo :\\xff\\xfe\\r\\n")    # exact bytes
    c.ping()                                      # round trip; the server is alive
    c.quit(); c.close()

One background thread per client owns the socket (plain or TLS): it reads
everything the server sends as soon as it arrives (so the server never drops
the client for not reading), splits lines on CR LF (or a bare LF or CR) across
partial reads, answers PING at once, tracks the client's own nick (001, NICK)
and records every line as a Message. Sending appends bytes to a queue that the
same thread writes, so TLS is never used from two threads at once.

Waiting: wait_for() returns the first not yet consumed message that matches
and marks it consumed (other messages stay available to later waits, in
order); it raises IRCTimeout after `timeout` seconds (default TIMEOUT, from
$PZ_IRC_TIMEOUT, 30 s) with the recent lines in the error, and Disconnected
early when the connection closed and nothing matching came before.
mark()/since= restrict a wait to what arrived after a point; history holds
everything. expect_nothing() is the one deliberate sleep, for negative checks.

Set PZ_IRC_DEBUG=1 to print every line sent and received on stderr.
"""
import os
import re
import selectors
import socket
import ssl
import sys
import threading
import time

TIMEOUT = float(os.environ.get("PZ_IRC_TIMEOUT", "30"))
DEBUG = bool(os.environ.get("PZ_IRC_DEBUG"))


class IRCError(Exception):
    """The server answered a command with an error (the Message is .msg)."""

    def __init__(self, text, msg=None):
        super().__init__(text)
        self.msg = msg


class NickInUse(IRCError):
    """433 ERR_NICKNAMEINUSE."""


class IRCTimeout(IRCError, TimeoutError):
    """Nothing matching arrived in time."""


class Disconnected(IRCError, ConnectionError):
    """The connection is closed and nothing matching arrived before."""


def irc_lower(s):
    """Case folding for nicks and channels (rfc1459, a superset of ngircd's
    'ascii' CASEMAPPING for the names the tests use)."""
    return s.lower().translate(str.maketrans("[]\\~", "{}|^"))


def same_name(a, b):
    return a is not None and b is not None and irc_lower(a) == irc_lower(b)


class Message:
    """One line from the server.

    raw      the bytes of the line, without CR LF
    line     raw decoded as UTF-8 (invalid bytes replaced by U+FFFD)
    tags     {key: value} from IRCv3 @tags (empty if none)
    prefix   'nick!user@host' or a server name, or None
    nick     the nick (or server name) part of the prefix, or None
    command  upper-case command or three-digit numeric
    params   list of parameters, the trailing one included
    target   params[0] or None
    text     the last parameter ('' if none)
    to_me    a PRIVMSG/NOTICE addressed to this client's nick at the time
    index    position in the client's history
    time     time.monotonic() when it arrived
    """

    __slots__ = ("raw", "line", "tags", "prefix", "nick", "command", "params",
                 "to_me", "index", "time")

    def __init__(self, raw, index=0, my_nick=None):
        self.raw = raw
        self.line = raw.decode("utf-8", "replace")
        self.index = index
        self.time = time.monotonic()
        self.tags = {}
        self.prefix = self.nick = None
        rest = self.line
        if rest.startswith("@"):
            tags, _, rest = rest[1:].partition(" ")
            for tag in tags.split(";"):
                k, _, v = tag.partition("=")
                self.tags[k] = v
            rest = rest.lstrip(" ")
        if rest.startswith(":"):
            self.prefix, _, rest = rest[1:].partition(" ")
            self.nick = self.prefix.split("!", 1)[0].split("@", 1)[0]
            rest = rest.lstrip(" ")
        trailing = None
        if " :" in rest:
            rest, trailing = rest.split(" :", 1)
        elif rest.startswith(":"):
            rest, trailing = "", rest[1:]
        words = rest.split()
        self.command = words[0].upper() if words else ""
        self.params = words[1:] + ([trailing] if trailing is not None else [])
        self.to_me = (self.command in ("PRIVMSG", "NOTICE") and bool(self.params)
                      and same_name(self.params[0], my_nick))

    @property
    def target(self):
        return self.params[0] if self.params else None

    @property
    def text(self):
        return self.params[-1] if self.params else ""

    def __repr__(self):
        return "<Message %d %r>" % (self.index, self.line)


class IRCClient:
    """A scripted IRC client; see the module docstring."""

    def __init__(self, host, port, nick, *, user=None, realname=None,
                 password=None, tls=False, cafile=None, server_hostname=None,
                 ssl_context=None, timeout=None, auto_pong=True, name=None):
        self.host = host
        self.port = port
        self.nick = nick                  # updated on 001 and our own NICK
        self.wanted_nick = nick
        self.user = user or "pz" + nick[:8]
        self.realname = realname or "porrazo test client " + nick
        self.password = password
        self.tls = tls
        self.cafile = cafile
        self.server_hostname = server_hostname or host
        self.ssl_context = ssl_context
        self.timeout = TIMEOUT if timeout is None else timeout
        self.auto_pong = auto_pong
        self.name = name or nick          # for debug output only
        self.history = []                 # every Message received, all connections
        self.isupport = {}                # from 005 RPL_ISUPPORT
        self.registered = False
        self.closed = True
        self.close_reason = None
        self.tls_version = None
        self.peer_cert = None
        self._consumed = set()
        self._floor = 0                   # waits ignore history before this
        self._conn_start = 0              # first message of this connection
        self._cond = threading.Condition()
        self._out = bytearray()
        self._sock = None
        self._thread = None
        self._wake_r = self._wake_w = None
        self._stopping = False

    # -- connection ----------------------------------------------------------

    def connect(self, timeout=None):
        """Opens the TCP connection (and the TLS session, verifying the server's
        certificate against cafile and server_hostname: ssl.SSLCertVerificationError
        when that fails). Waits made later ignore lines from earlier connections."""
        if self._thread is not None:
            self.close()
        timeout = self.timeout if timeout is None else timeout
        sock = socket.create_connection((self.host, self.port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.tls:
                ctx = self.ssl_context or ssl.create_default_context(cafile=self.cafile)
                sock = ctx.wrap_socket(sock, server_hostname=self.server_hostname)
                self.tls_version = sock.version()
                self.peer_cert = sock.getpeercert()
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        with self._cond:
            self._sock = sock
            self._out.clear()
            self.closed = False
            self.close_reason = None
            self.registered = False
            self._stopping = False
            self._floor = self._conn_start = len(self.history)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread = threading.Thread(target=self._io_loop, daemon=True,
                                        name="irc-" + self.name)
        self._thread.start()
        return self

    def register(self, nick=None, timeout=None):
        """Sends [PASS], NICK and USER and waits for 001 and the end of the MOTD
        (376 or 422), consuming the welcome burst. Raises NickInUse on 433,
        IRCError on other refusals. Returns the 001 Message."""
        if nick:
            self.wanted_nick = nick
        with self._cond:
            self.nick = self.wanted_nick
        if self.password:
            self.send("PASS " + self.password)
        self.send("NICK " + self.wanted_nick)
        self.send("USER %s 0 * :%s" % (self.user, self.realname))
        deadline = self._deadline(timeout)
        welcome = self.wait_for(command=("001", "431", "432", "433", "436", "437",
                                         "464", "465", "ERROR"),
                                timeout=self._left(deadline))
        if welcome.command == "433":
            raise NickInUse("nick %s is in use" % self.wanted_nick, welcome)
        if welcome.command != "001":
            raise IRCError("registration refused: " + welcome.line, welcome)
        end = self.wait_for(command=("376", "422"), timeout=self._left(deadline))
        with self._cond:  # the burst up to the end of the MOTD is consumed
            self._floor = max(self._floor, end.index + 1)
        with self._cond:
            self.registered = True
        return welcome

    def reconnect(self, nick=None, timeout=None):
        """A new connection and registration (after the server restarted)."""
        self.close()
        self.connect(timeout)
        return self.register(nick or self.wanted_nick, timeout)

    def close(self):
        """Closes the socket at once (no QUIT) and stops the I/O thread."""
        thread = self._thread
        if thread is not None:
            with self._cond:
                self._stopping = True
            self._wake()
            thread.join(self.timeout)
            self._thread = None
        with self._cond:
            if self._sock is not None:
                try:
                    self._sock.close()
                except OSError:
                    pass
                self._sock = None
            if not self.closed:
                self.closed = True
                self.close_reason = self.close_reason or "closed by the client"
            self._cond.notify_all()
        for fd in (self._wake_r, self._wake_w):
            if fd is not None:
                os.close(fd)
        self._wake_r = self._wake_w = None

    def quit(self, message="bye", timeout=None):
        """QUIT, then waits (timeout) for the server to close, then close()."""
        if not self.closed:
            self.send("QUIT :" + message)
            try:
                self.wait_closed(timeout)
            except IRCTimeout:
                pass
        self.close()

    def wait_closed(self, timeout=None):
        """Waits until the server closed the connection; returns the reason."""
        deadline = self._deadline(timeout)
        with self._cond:
            while not self.closed:
                left = self._left(deadline)
                if left <= 0:
                    raise IRCTimeout("%s: connection still open after %.0f s"
                                     % (self.name, self._span(timeout)))
                self._cond.wait(left)
            return self.close_reason

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # -- sending -------------------------------------------------------------

    def send_raw(self, data):
        """Queues exactly these bytes (no CR LF added)."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        with self._cond:
            if self.closed:
                raise Disconnected("%s: not connected (%s)" % (self.name, self.close_reason))
            self._out += data
        if DEBUG:
            print("%s -> %r" % (self.name, bytes(data)), file=sys.stderr)
        self._wake()

    def send(self, line):
        """Sends one line (str or bytes) followed by CR LF. CR, LF and NUL
        inside the line are refused here: use send_raw for those."""
        data = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        if any(b in data for b in (b"\r", b"\n", b"\0")):
            raise ValueError("CR, LF or NUL in a line; use send_raw: %r" % data)
        self.send_raw(data + b"\r\n")

    def flush(self, timeout=None):
        """Waits until everything queued has been written to the socket."""
        deadline = self._deadline(timeout)
        with self._cond:
            while self._out and not self.closed:
                left = self._left(deadline)
                if left <= 0:
                    raise IRCTimeout("%s: %d bytes still unsent" % (self.name, len(self._out)))
                self._cond.wait(left)

    def privmsg(self, target, text):
        self.send("PRIVMSG %s :%s" % (target, text))

    def notice(self, target, text):
        self.send("NOTICE %s :%s" % (target, text))

    def ctcp(self, target, command, arg=None):
        self.privmsg(target, "\x01%s%s\x01" % (command, " " + arg if arg else ""))

    def join(self, channel, key=None, timeout=None):
        """JOIN, waiting for our own JOIN and the end of NAMES (366); raises
        IRCError on a refusal (403, 405, 471, 473, 474, 475, 476, 477)."""
        self.send("JOIN %s%s" % (channel, " " + key if key else ""))
        deadline = self._deadline(timeout)
        m = self.wait_for(
            lambda m: (m.command == "JOIN" and same_name(m.nick, self.nick)
                       and same_name(m.target, channel))
            or (m.command in ("403", "405", "471", "473", "474", "475", "476", "477")
                and len(m.params) > 1 and same_name(m.params[1], channel)),
            timeout=self._left(deadline))
        if m.command != "JOIN":
            raise IRCError("%s could not join %s: %s" % (self.nick, channel, m.line), m)
        self.wait_for(command="366", params={1: channel}, timeout=self._left(deadline))
        return m

    def part(self, channel, message="", timeout=None):
        self.send("PART %s :%s" % (channel, message))
        return self.wait_for(command="PART", sender=self.nick, target=channel,
                             timeout=timeout)

    def change_nick(self, new, timeout=None):
        """NICK new, waiting for the server's confirmation; raises NickInUse
        on 433, IRCError on 432/436/437. Returns the NICK Message."""
        old = self.nick
        self.send("NICK " + new)
        m = self.wait_for(
            lambda m: (m.command == "NICK" and same_name(m.nick, old))
            or m.command in ("431", "432", "433", "436", "437", "438"),
            timeout=timeout)
        if m.command == "433":
            raise NickInUse("nick %s is in use" % new, m)
        if m.command != "NICK":
            raise IRCError("nick change to %s refused: %s" % (new, m.line), m)
        self.wanted_nick = m.text
        return m

    def ping(self, token=None, timeout=None):
        """PING the server and wait for its PONG: proves it is alive and has
        handled everything this client sent before. Returns the round trip (s)."""
        token = token or "pz%d" % int(time.monotonic() * 1e6)
        start = time.monotonic()
        self.send("PING :" + token)
        self.wait_for(command="PONG", pattern="^" + re.escape(token) + "$",
                      timeout=timeout)
        return time.monotonic() - start

    def sync(self, timeout=None):
        """Same as ping(): after it, every reply to what was sent before is in."""
        return self.ping(timeout=timeout)

    # -- receiving -----------------------------------------------------------

    def mark(self):
        """An index for since=: only messages arriving after this point."""
        with self._cond:
            return len(self.history)

    def skip_all(self):
        """Marks everything received so far as consumed."""
        with self._cond:
            self._floor = len(self.history)

    def wait_for(self, *args, timeout=None, since=None, consume=True, **filters):
        """Waits for the first unconsumed message (from since=, default the
        current connection) that matches, returns it and marks it consumed.

        Positional: a command (str) or tuple of commands, or a predicate
        function(Message) -> bool. Keyword filters (all must hold):
          command   str or tuple of str
          sender    nick or server name of the prefix (case-insensitive)
          target    params[0] (case-insensitive)
          to_me     True: a PRIVMSG/NOTICE addressed to our nick
          pattern   regex searched in text (the last parameter)
          raw       regex (bytes) searched in the raw line
          line      regex searched in the whole decoded line
          params    {index: value} (case-insensitive equality)
          where     predicate function(Message) -> bool
        Raises IRCTimeout, or Disconnected once the connection closed."""
        pred = self._predicate(args, filters)
        deadline = self._deadline(timeout)
        with self._cond:
            start = self._floor if since is None else since
            while True:
                for i in range(start, len(self.history)):
                    if i in self._consumed:
                        continue
                    m = self.history[i]
                    if pred(m):
                        if consume:
                            self._consumed.add(i)
                        return m
                if self.closed:
                    raise Disconnected("%s: connection closed (%s) while waiting for %s%s"
                                       % (self.name, self.close_reason,
                                          self._describe(args, filters), self._recent()))
                left = self._left(deadline)
                if left <= 0:
                    raise IRCTimeout("%s: nothing matched %s within %.0f s%s"
                                     % (self.name, self._describe(args, filters),
                                        self._span(timeout), self._recent()))
                self._cond.wait(left)

    def wait_privmsg(self, sender=None, pattern=None, notice=False, timeout=None, **kw):
        """Waits for a private message to us (PRIVMSG, or NOTICE with
        notice=True, or either with notice=None)."""
        commands = {False: "PRIVMSG", True: "NOTICE", None: ("PRIVMSG", "NOTICE")}[notice]
        return self.wait_for(command=commands, to_me=True, sender=sender,
                             pattern=pattern, timeout=timeout, **kw)

    def find(self, *args, since=None, consume=False, **filters):
        """The messages received so far that match (no waiting)."""
        pred = self._predicate(args, filters)
        with self._cond:
            start = self._floor if since is None else since
            found = [m for m in self.history[start:] if pred(m)]
            if consume:
                self._consumed.update(m.index for m in found)
            return found

    def private_messages(self, sender=None, notice=None, since=None, consume=False):
        """Private messages (PRIVMSG/NOTICE to our nick) received so far."""
        commands = {False: "PRIVMSG", True: "NOTICE", None: ("PRIVMSG", "NOTICE")}[notice]
        return self.find(command=commands, to_me=True, sender=sender, since=since,
                         consume=consume)

    def expect_nothing(self, duration, *args, since=None, **filters):
        """Asserts that no message matching arrives for duration seconds
        (a deliberate wait: use it only for negative checks)."""
        since = self.mark() if since is None else since
        try:
            m = self.wait_for(*args, timeout=duration, since=since, consume=False,
                              **filters)
        except IRCTimeout:
            return
        except Disconnected:
            return
        raise AssertionError("%s: unexpected %r" % (self.name, m))

    @property
    def lines(self):
        """Every line received (decoded), all connections."""
        with self._cond:
            return [m.line for m in self.history]

    # -- internals -------------------------------------------------------------

    def _deadline(self, timeout):
        return time.monotonic() + self._span(timeout)

    def _span(self, timeout):
        return self.timeout if timeout is None else timeout

    @staticmethod
    def _left(deadline):
        return deadline - time.monotonic()

    def _recent(self, n=15):
        tail = self.history[-n:]
        return "\n  last lines received:\n    " + "\n    ".join(m.line for m in tail) \
            if tail else "\n  (nothing received)"

    @staticmethod
    def _describe(args, filters):
        parts = [a.__name__ if callable(a) else repr(a) for a in args]
        parts += ["%s=%r" % kv for kv in filters.items() if kv[1] is not None]
        return "(" + ", ".join(parts) + ")"

    def _predicate(self, args, filters):
        filters = dict(filters)
        checks = []
        for a in args:
            if callable(a):
                checks.append(a)
            else:
                filters.setdefault("command", a)
        command = filters.pop("command", None)
        if command is not None:
            commands = {command.upper()} if isinstance(command, str) \
                else {c.upper() for c in command}
            checks.append(lambda m: m.command in commands)
        sender = filters.pop("sender", None)
        if sender is not None:
            checks.append(lambda m: same_name(m.nick, sender))
        target = filters.pop("target", None)
        if target is not None:
            checks.append(lambda m: same_name(m.target, target))
        to_me = filters.pop("to_me", None)
        if to_me is not None:
            checks.append(lambda m: m.to_me == to_me)
        pattern = filters.pop("pattern", None)
        if pattern is not None:
            rx = re.compile(pattern)
            checks.append(lambda m: rx.search(m.text) is not None)
        raw = filters.pop("raw", None)
        if raw is not None:
            rxb = re.compile(raw if isinstance(raw, bytes) else raw.encode())
            checks.append(lambda m: rxb.search(m.raw) is not None)
        line = filters.pop("line", None)
        if line is not None:
            rxl = re.compile(line)
            checks.append(lambda m: rxl.search(m.line) is not None)
        params = filters.pop("params", None)
        if params:
            checks.append(lambda m: all(len(m.params) > i and same_name(m.params[i], v)
                                        for i, v in params.items()))
        where = filters.pop("where", None)
        if where is not None:
            checks.append(where)
        unknown = [k for k, v in filters.items() if v is not None]
        if unknown:
            raise TypeError("unknown filters: %s" % ", ".join(unknown))
        return lambda m: all(c(m) for c in checks)

    def _wake(self):
        fd = self._wake_w
        if fd is not None:
            try:
                os.write(fd, b"x")
            except (BlockingIOError, OSError):
                pass

    def _io_loop(self):
        sock = self._sock
        sel = selectors.DefaultSelector()
        sel.register(self._wake_r, selectors.EVENT_READ)
        sel.register(sock, selectors.EVENT_READ)
        inbuf = bytearray()
        reason = None
        want_write = False
        try:
            while reason is None:
                with self._cond:
                    if self._stopping:
                        break
                    want_write = want_write or bool(self._out)
                sel.modify(sock, selectors.EVENT_READ
                           | (selectors.EVENT_WRITE if want_write else 0))
                # TLS may hold decrypted bytes that select() cannot see.
                pending = self.tls and sock.pending() > 0
                events = sel.select(0 if pending else None)
                readable = pending
                writable = False
                for key, mask in events:
                    if key.fileobj == self._wake_r:
                        try:
                            while os.read(self._wake_r, 4096):
                                pass
                        except BlockingIOError:
                            pass
                    else:
                        readable = readable or bool(mask & selectors.EVENT_READ)
                        writable = writable or bool(mask & selectors.EVENT_WRITE)
                if readable:
                    reason = self._read(sock, inbuf)
                if reason is None and (writable or want_write):
                    want_write, reason = self._write(sock)
        except Exception as e:  # noqa: BLE001 -- recorded as the close reason
            reason = "I/O error: %r" % e
        finally:
            sel.close()
            with self._cond:
                if inbuf:  # a last line without CR LF
                    self._received(bytes(inbuf))
                self.closed = True
                last = self.history[-1] if len(self.history) > self._conn_start else None
                if reason == "closed by the server" and last is not None \
                        and last.command == "ERROR":
                    reason = "closed by the server: ERROR :" + last.text
                if self.close_reason is None:
                    self.close_reason = reason or "closed by the client"
                self._cond.notify_all()

    def _read(self, sock, inbuf):
        """Reads what is there; returns a close reason or None."""
        while True:
            try:
                data = sock.recv(65536)
            except (ssl.SSLWantReadError, BlockingIOError, InterruptedError):
                return None
            except ssl.SSLWantWriteError:
                return None
            except (ConnectionError, ssl.SSLError, OSError) as e:
                self._split(inbuf)
                return "read error: %r" % e
            if not data:
                self._split(inbuf)
                return "closed by the server"
            inbuf += data
            self._split(inbuf)

    def _split(self, inbuf):
        lines = []
        while True:
            m = re.search(rb"\r\n|\n|\r", inbuf)
            if not m:
                break
            # A CR at the very end may be the first half of CR LF: wait.
            if m.group() == b"\r" and m.end() == len(inbuf):
                break
            lines.append(bytes(inbuf[:m.start()]))
            del inbuf[:m.end()]
        if not lines:
            return
        with self._cond:
            for raw in lines:
                if raw:
                    self._received(raw)
            self._cond.notify_all()

    def _received(self, raw):
        """Records one line (self._cond held)."""
        m = Message(raw, len(self.history), self.nick)
        self.history.append(m)
        if DEBUG:
            print("%s <- %s" % (self.name, m.line), file=sys.stderr)
        if m.command == "PING" and self.auto_pong:
            # Answer with the exact bytes of the token.
            token = m.raw.split(b" :", 1)[1] if b" :" in m.raw else m.raw.split()[-1]
            self._out += b"PONG :" + token + b"\r\n"
        elif m.command == "001" and m.params:
            self.nick = m.params[0]
        elif m.command == "NICK" and same_name(m.nick, self.nick) and m.params:
            self.nick = m.text
        elif m.command == "005":
            for token in m.params[1:-1]:
                k, _, v = token.partition("=")
                self.isupport[k.upper()] = v

    def _write(self, sock):
        """Writes what it can; returns (still want to write, close reason)."""
        with self._cond:
            while self._out:
                try:
                    n = sock.send(self._out[:16384])
                except (ssl.SSLWantWriteError, BlockingIOError, InterruptedError):
                    return True, None
                except ssl.SSLWantReadError:
                    return False, None
                except (ConnectionError, ssl.SSLError, OSError) as e:
                    return False, "write error: %r" % e
                del self._out[:n]
            self._cond.notify_all()
            return False, None
