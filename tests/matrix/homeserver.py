#!/usr/bin/env python3
"""homeserver.py -- a Matrix homeserver double for the Matrix tests: the
client-server API the bot uses, answered the way Synapse answers it (errors,
rate limits and all), on loopback, in memory, Python standard library only.
No real homeserver can be installed on the test machines; README.md in this
directory lists what is implemented and where it deliberately differs.

    from homeserver import HomeServer
    with HomeServer() as hs:                        # 127.0.0.1, a free port
        hs.url                                      # http://127.0.0.1:PORT
        hs.register("porrazo", "secret")            # the bot's account
        hs.register("alice", "pw", displayname="Alice")
        token = hs.token_for("porrazo")             # a ready access token
        room = hs.create_room("alice", name="Mesa", invite=["@porrazo:test"],
                              is_direct=True, encrypted=False)
        ...start the bot against hs.url...
        hs.wait_for_event(room, body="^Welcome", sender="porrazo")
        hs.send_text(room, "alice", "!new 2")       # a scripted user speaks
        hs.fail(r"/sync$", status=502, count=2)     # fault injection
        hs.restart()                                # connections dropped, state kept
        hs.requests(path="/send/")                  # the request log

Scripted users act through the Python API (ServerState in mxstate.py):
register, token_for, create_room, invite, join, leave, kick, send_text,
send_notice, send_event, send_encrypted, set_state, set_displayname,
set_account_data, upgrade_room; they read with events(room, since=mark(),
as_user=...), wait_for_event, state, members, rooms_of, direct_rooms and
sync(user, ...), and get MatrixError exactly where an HTTP client would get
the error answer. Rate limits apply to HTTP requests only.

Fault injection (thread-safe; each returns a Fault with .hits and .cancel()):
  fail(path, status, count=1, method=None, body="json"|"html"|"empty"|dict|bytes,
       retry_after=None)          answer status instead (429: M_LIMIT_EXCEEDED
                                  with retry_after_ms and Retry-After)
  delay(path, seconds, count=None, after=False)
                                  hold the request (before, or after processing)
  drop(path, count=1, when="before"|"after"|"reset"|"mid-request"|"partial")
                                  close the connection without an answer: before
                                  processing, after processing (the request took
                                  effect), with a TCP reset, with the request's
                                  body unread, or in the middle of the answer
  duplicate_next_sync(user=None)  the next non-empty sync's next_batch points
                                  back, so its events are delivered twice
  restart(down_for=0)             every connection and long poll dropped, the
                                  port closed for down_for seconds, state kept
  stop() / start()                the same in two steps
path is a regular expression searched in the decoded request path.

Every request is logged (requests(), wait_for_request()): method, path,
query, headers with the Authorization value redacted, how it authenticated
("header" or "query" -- the bot must never use the query -- and which token
id), the JSON body (passwords redacted), status and errcode, the fault
applied. Counters in hs.counters.

Standalone, for manual play (runs until killed):
    python3 tests/matrix/homeserver.py --port 8008 --user @porrazo:test --password secret

A test script using it starts like test_homeserver.py: sys.dont_write_bytecode
= True, this directory on sys.path, `from homeserver import HomeServer`, and
exit_on_sigterm() in its __main__. TIMEOUT (seconds, $PZ_MATRIX_TIMEOUT,
default 30) is the default of every wait.
"""
import argparse
import atexit
import http.server
import json
import math
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
import traceback
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from mxclient import TIMEOUT, HTTPClient  # noqa: E402
from mxmodel import (MAX_REQUEST_SIZE, SYNAPSE_RATE_LIMITS, Aborted,  # noqa: E402,F401
                     HomeserverTimeout, MatrixError, bad_request, http_context)
from mxroutes import RoutesMixin  # noqa: E402
from mxstate import ServerState  # noqa: E402

HOST = "127.0.0.1"


# Every HomeServer not shut down yet; stopped at interpreter exit.
_LIVE = set()


@atexit.register
def _stop_all():
    for hs in list(_LIVE):
        hs.shutdown()


def _interrupt(signum, frame):
    raise KeyboardInterrupt("signal %d" % signum)


def exit_on_sigterm():
    """Makes SIGTERM behave like Ctrl-C (KeyboardInterrupt), so `with`
    blocks and the exit hook stop the server when a test is killed."""
    signal.signal(signal.SIGTERM, _interrupt)


class Fault:
    """One injected fault; matches requests whose decoded path the regular
    expression `path` finds something in (and whose method is `method`, if
    given). count=None: until cancelled."""

    def __init__(self, kind, path, method, count, **params):
        self.kind = kind
        self.path = re.compile(path)
        self.method = method.upper() if method else None
        self.remaining = count
        self.params = params
        self.hits = 0

    @property
    def active(self):
        return self.remaining is None or self.remaining > 0

    def matches(self, method, path):
        return (self.active and (self.method is None or self.method == method)
                and self.path.search(path) is not None)

    def take(self):
        self.hits += 1
        if self.remaining is not None:
            self.remaining -= 1

    def cancel(self):
        self.remaining = 0

    def __repr__(self):
        return "<Fault %s %s %s hits=%d left=%s>" % (self.kind, self.method or "*",
                                                     self.path.pattern, self.hits,
                                                     self.remaining)


class _Dropped(Exception):
    """The connection is to be closed without an answer."""


_SECRET_FIELDS = ("password", "token", "new_password")


def _redacted(value):
    """value with every secret field, at any depth (a user-interactive
    auth's "auth": {"password"}), replaced by "<redacted>"."""
    if isinstance(value, dict):
        return {k: ("<redacted>" if k in _SECRET_FIELDS else _redacted(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    return value


class _Request:
    def __init__(self, h, gen):
        self.h = h
        self.gen = gen
        self.method = h.command
        raw = h.path
        self.raw_path, _, self.raw_query = raw.partition("?")
        self.path = urllib.parse.unquote(self.raw_path)
        self.segments = [urllib.parse.unquote(s) for s in self.raw_path.split("/")[1:]]
        self.query_lists = urllib.parse.parse_qs(self.raw_query, keep_blank_values=True)
        self.query = {k: v[0] for k, v in self.query_lists.items()}
        self.headers = h.headers
        self.body = b""
        self.json = None
        self.entry = None


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, addr, hs):
        self.hs = hs
        super().__init__(addr, _Handler)

    def process_request(self, request, client_address):
        # In the accepting thread: the connection belongs to this
        # generation, and stop() will find it even if its thread has not
        # started yet.
        self.hs._track(request, True)
        super().process_request(request, client_address)

    def handle_error(self, request, client_address):
        # A client that resets or goes away (a killed bot, curl closing a
        # kept-alive connection) is normal here, not worth a traceback.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "Synapse-double/1.0"
    sys_version = ""

    def setup(self):
        super().setup()
        self.pz_gen = self.server.hs._conn_generation(self.connection)

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.server.hs._track(self.connection, False)

    def _serve(self):
        self.server.hs._serve(self)

    do_GET = do_POST = do_PUT = do_DELETE = do_OPTIONS = _serve

    def log_message(self, fmt, *args):
        if self.server.hs.verbose:
            sys.stderr.write("homeserver: %s\n" % (fmt % args))


class HomeServer(RoutesMixin, ServerState):
    """The double: ServerState (mxstate.py) behind an HTTP server on
    host:port (a free port unless given; kept across restarts).

    Keyword arguments: server_name ("test"), port, host (127.0.0.1),
    timeline_limit (10: Synapse's default per-room timeline limit),
    password_login (True; False answers m.login.password like Synapse with
    password_config.enabled false: 400 M_UNKNOWN), rate_limits ({name:
    (per_second, burst_count) or None}, see mxmodel.DEFAULT_RATE_LIMITS),
    verbose (log every request to stderr), encrypt_by_default (Synapse's
    encryption_enabled_by_default_for_room_type: "invite" encrypts the rooms
    made with a private preset, "all" every room; None: none).
    """

    def __init__(self, server_name="test", port=None, host=HOST, timeline_limit=10,
                 password_login=True, rate_limits=None, verbose=False, encrypt_by_default=None,
                 xsign_uia="always"):
        super().__init__(server_name=server_name, timeline_limit=timeline_limit,
                         password_login=password_login, rate_limits=rate_limits,
                         encrypt_by_default=encrypt_by_default, xsign_uia=xsign_uia)
        self.host = host
        self.port = port
        self.verbose = verbose
        self.request_log = []
        self.errors = []            # tracebacks of internal errors (500s we didn't mean)
        self._logged = threading.Condition(self.lock)
        self._faults = []
        self._generation = 0
        self._conns = {}            # open connection -> generation it was accepted in
        self._httpd = None
        self._thread = None
        self._closing = False
        self._started = False
        self._io_lock = threading.Lock()

    # -- life cycle -----------------------------------------------------------

    @property
    def url(self):
        return "http://%s:%d" % (self.host, self.port)

    @property
    def running(self):
        return self._httpd is not None

    def start(self):
        """Listens (again) on host:port and serves in a background thread."""
        with self._io_lock:
            if self._httpd is not None:
                return self
            self._closing = False
            deadline = time.monotonic() + TIMEOUT
            while True:
                try:
                    httpd = _Server((self.host, self.port or 0), self)
                    break
                except OSError:
                    # Only our own port, after a stop, may take a moment to
                    # be free again; anything else is an error at once.
                    if not self._started or time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            self.port = httpd.server_address[1]
            self._started = True
            self._httpd = httpd
            self._thread = threading.Thread(target=httpd.serve_forever,
                                            kwargs={"poll_interval": 0.05},
                                            name="homeserver-%d" % self.port, daemon=True)
            self._thread.start()
            _LIVE.add(self)
        return self

    def stop(self):
        """Stops listening, drops every connection (a long poll in progress
        ends without an answer) and keeps all state."""
        with self._io_lock:
            httpd, self._httpd = self._httpd, None
            if httpd is not None:
                httpd.shutdown()
                httpd.server_close()
                self._thread.join(TIMEOUT)
            with self.lock:
                self._generation += 1
                self.changed.notify_all()
                self._logged.notify_all()
                conns = list(self._conns)
            for conn in conns:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def restart(self, down_for=0.0):
        """A homeserver restart: every connection and long poll dropped,
        nothing listening for down_for seconds, then the same port again.
        Accounts, tokens, rooms, sync tokens and filters survive."""
        self.stop()
        with self.lock:
            self.counters["restarts"] += 1
        if down_for:
            time.sleep(down_for)
        self.start()

    def shutdown(self):
        """Stops everything, promptly (long polls included)."""
        self._closing = True
        self.stop()
        _LIVE.discard(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.shutdown()

    def _track(self, conn, opened):
        with self.lock:
            if opened:
                self._conns[conn] = self._generation
            else:
                self._conns.pop(conn, None)

    def _conn_generation(self, conn):
        with self.lock:
            return self._conns.get(conn, -1)

    def client(self, token=None):
        """An mxclient.HTTPClient for this server."""
        return HTTPClient(self.url, token=token)

    # -- fault injection --------------------------------------------------------

    def _add_fault(self, fault):
        with self.lock:
            self._faults.append(fault)
        return fault

    def fail(self, path=".*", status=500, count=1, method=None, body="json",
             retry_after=None, errcode=None, error=None):
        """The next `count` matching requests are answered `status` without
        being processed. body: "json" (Matrix error: M_LIMIT_EXCEEDED for
        429, else M_UNKNOWN), "html" (a reverse proxy's page), "empty", a
        dict sent as JSON, or bytes sent as they are. retry_after (seconds): Retry-After header, and
        retry_after_ms in a JSON 429 body."""
        return self._add_fault(Fault("fail", path, method, count, status=status, body=body,
                                     retry_after=retry_after, errcode=errcode, error=error))

    def delay(self, path=".*", seconds=1.0, count=None, method=None, after=False):
        """Matching requests wait `seconds` before being processed (after=True:
        processed at once, answered `seconds` later). Other requests are not
        held. count=None: until cancelled."""
        return self._add_fault(Fault("delay", path, method, count, seconds=seconds,
                                     after=after))

    def drop(self, path=".*", count=1, method=None, when="before"):
        """The next `count` matching requests get no answer: the connection is
        closed once the request is read ("before": not processed), once it is
        processed ("after": it took effect), with a TCP RST instead of a close
        ("reset": not processed), after the request's headers with its body
        unread ("mid-request": not processed), or in the middle of the
        answer's body ("partial": processed)."""
        if when not in ("before", "after", "reset", "mid-request", "partial"):
            raise ValueError("when must be before, after, reset, mid-request or partial")
        return self._add_fault(Fault("drop", path, method, count, when=when))

    def clear_faults(self):
        with self.lock:
            self._faults = []
            self._duplicate = []

    def _take_faults(self, req):
        delays, terminal = [], None
        with self.lock:
            for f in self._faults:
                if not f.matches(req.method, req.path):
                    continue
                if f.kind == "delay":
                    f.take()
                    delays.append(f)
                elif terminal is None:
                    f.take()
                    terminal = f
            self._faults = [f for f in self._faults if f.active]
        return delays, terminal

    def _sleep(self, seconds, gen):
        """Sleeps unless the server stops meanwhile (then _Dropped)."""
        deadline = time.monotonic() + seconds
        with self.lock:
            while self._generation == gen and not self._closing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self.changed.wait(left)
        raise _Dropped()

    # -- the request log ---------------------------------------------------------

    def _log(self, req):
        headers = {}
        for k, v in req.headers.items():
            headers[k] = "<redacted>" if k.lower() == "authorization" else v
        query = {k: ("<redacted>" if k == "access_token" else (v[0] if len(v) == 1 else v))
                 for k, v in req.query_lists.items()}
        entry = {"seq": None, "time": time.time(), "method": req.method, "path": req.path,
                 "raw_path": req.raw_path, "query": query, "headers": headers,
                 "body": None, "auth": None, "token_id": None, "user": None,
                 "device": None, "access_token_in_query": "access_token" in query,
                 "status": None, "errcode": None, "fault": None, "done": False}
        with self.lock:
            entry["seq"] = len(self.request_log)
            self.request_log.append(entry)
            self.counters["requests"] += 1
            if entry["access_token_in_query"]:
                self.counters["access_token_in_query"] += 1
            self._logged.notify_all()
        req.entry = entry
        return entry

    def _log_done(self, req, status, body=None):
        with self.lock:
            e = req.entry
            e["status"] = status
            if isinstance(body, dict) and status >= 400:
                e["errcode"] = body.get("errcode")
            e["done"] = True
            e["duration"] = time.time() - e["time"]
            self._logged.notify_all()

    def requests(self, method=None, path=None, status=None, user=None, since=None):
        """Copies of the logged requests (method, path regex searched in the
        decoded path, status, user, seq >= since), oldest first."""
        with self.lock:
            rx = re.compile(path) if path else None
            return [dict(e) for e in self.request_log
                    if (method is None or e["method"] == method)
                    and (rx is None or rx.search(e["path"]))
                    and (status is None or e["status"] == status)
                    and (user is None or e["user"] == self.user_id(user))
                    and (since is None or e["seq"] >= since)]

    def log_mark(self):
        """The seq the next request will get (for requests(since=...))."""
        with self.lock:
            return len(self.request_log)

    def wait_for_request(self, method=None, path=None, predicate=None, timeout=None,
                         since=None, done=False):
        """Waits for a logged request (filters as requests(); done: only once
        answered or dropped) and returns a copy of it."""
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        with self.lock:
            while True:
                for e in self.requests(method, path, since=since):
                    if (not done or e["done"]) and (predicate is None or predicate(e)):
                        return e
                left = deadline - time.monotonic()
                if left <= 0:
                    tail = ["%s %s -> %s" % (e["method"], e["path"], e["status"])
                            for e in self.request_log[-10:]]
                    raise HomeserverTimeout("no %s %s request within %.1f s; last:\n%s" % (
                        method or "*", path or "*", TIMEOUT if timeout is None else timeout,
                        "\n".join(tail)))
                self._logged.wait(left)

    # -- serving -------------------------------------------------------------------

    def _serve(self, h):
        gen = h.pz_gen
        req = _Request(h, gen)
        entry = self._log(req)
        try:
            if gen != self._generation:
                raise _Dropped()
            delays, terminal = self._take_faults(req)
            if terminal is not None and terminal.kind == "drop" \
                    and terminal.params["when"] == "mid-request":
                entry["fault"] = "drop-mid-request"
                return self._drop(req)  # the body, if any, is left unread
            self._read_body(req)
            for f in delays:
                entry["fault"] = "delay"
                if not f.params["after"]:
                    self._sleep(f.params["seconds"], gen)
            if terminal is not None and terminal.kind == "fail":
                entry["fault"] = "fail"
                with self.lock:
                    self.counters["faults_failed"] += 1
                return self._answer_fault(req, terminal)
            if terminal is not None and terminal.params["when"] in ("before", "reset"):
                entry["fault"] = "drop-" + terminal.params["when"]
                return self._drop(req, reset=terminal.params["when"] == "reset")
            status, body, headers = self._dispatch(req)
            for f in delays:
                if f.params["after"]:
                    self._sleep(f.params["seconds"], gen)
            if terminal is not None:
                entry["fault"] = "drop-" + terminal.params["when"]
                if terminal.params["when"] == "after":
                    return self._drop(req)
                return self._respond(req, status, body, headers, partial=True)
            return self._respond(req, status, body, headers)
        except _Dropped:
            return self._drop(req)
        except MatrixError as e:
            return self._respond(req, e.status, e.body(), e.headers)

    def _read_body(self, req):
        h = req.h
        length = h.headers.get("Content-Length")
        if "chunked" in (h.headers.get("Transfer-Encoding") or "").lower():
            chunks, total = [], 0
            while True:
                size = int(h.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while h.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                total += size
                if total > MAX_REQUEST_SIZE:
                    h.close_connection = True
                    raise MatrixError(413, "M_TOO_LARGE", "Request content is too large")
                chunks.append(h.rfile.read(size))
                h.rfile.readline()
            req.body = b"".join(chunks)
        elif length:
            try:
                n = int(length)
            except ValueError:
                h.close_connection = True
                raise bad_request("Invalid Content-Length") from None
            if n > MAX_REQUEST_SIZE:
                h.close_connection = True
                raise MatrixError(413, "M_TOO_LARGE", "Request content is too large")
            req.body = h.rfile.read(n)
        if req.body:
            try:
                body = json.loads(req.body.decode("utf-8"))
                req.entry["body"] = _redacted(body)
            except ValueError:
                req.entry["body"] = "<%d bytes, not JSON>" % len(req.body)

    def _answer_fault(self, req, fault):
        p = fault.params
        status, body, headers = p["status"], p["body"], {}
        if p["retry_after"] is not None:
            headers["Retry-After"] = str(int(math.ceil(p["retry_after"])))
        if body == "json":
            if status == 429:
                body = {"errcode": p["errcode"] or "M_LIMIT_EXCEEDED",
                        "error": p["error"] or "Too Many Requests"}
                if p["retry_after"] is not None:
                    body["retry_after_ms"] = int(p["retry_after"] * 1000)
            else:
                body = {"errcode": p["errcode"] or "M_UNKNOWN",
                        "error": p["error"] or "Internal server error"}
        elif body == "html":
            reason = http.server.BaseHTTPRequestHandler.responses.get(status, ("Error",))[0]
            body = ("<html>\r\n<head><title>%d %s</title></head>\r\n<body>\r\n"
                    "<center><h1>%d %s</h1></center>\r\n<hr><center>nginx</center>\r\n"
                    "</body>\r\n</html>\r\n" % (status, reason, status, reason)).encode()
            headers["Content-Type"] = "text/html"
        elif body == "empty":
            body = b""
        return self._respond(req, status, body, headers)

    def _drop(self, req, reset=False):
        h = req.h
        h.close_connection = True
        with self.lock:
            self.counters["dropped"] += 1
        self._log_done(req, None)
        try:
            if reset:
                h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                        struct.pack("ii", 1, 0))
                os.close(h.connection.detach())
            else:
                h.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _respond(self, req, status, body, headers=None, partial=False):
        h = req.h
        headers = dict(headers or {})
        if isinstance(body, (dict, list)):
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        else:
            data = body or b""
        self._log_done(req, status, body)
        try:
            h.send_response(status)
            for k, v in headers.items():
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(data)))
            h.send_header("Cache-Control", "no-cache, no-store, must-revalidate")
            h.send_header("Access-Control-Allow-Origin", "*")
            if h.close_connection:
                h.send_header("Connection", "close")
            h.end_headers()
            if partial:
                with self.lock:
                    self.counters["dropped"] += 1
                h.wfile.write(data[:len(data) // 2])
                h.wfile.flush()
                h.close_connection = True
                h.connection.shutdown(socket.SHUT_RDWR)
            else:
                h.wfile.write(data)
                h.wfile.flush()
        except OSError:
            h.close_connection = True

    def _dispatch(self, req):
        """(status, body, headers) for a request; MatrixError becomes the
        error answer, anything else a 500 recorded in self.errors."""
        http_context(True)
        try:
            return self._route(req)
        except MatrixError as e:
            return e.status, e.body(), e.headers
        except (_Dropped, Aborted):
            raise _Dropped() from None
        except Exception:
            tb = traceback.format_exc()
            with self.lock:
                self.errors.append(tb)
                self.counters["internal_errors"] += 1
            if self.verbose:
                sys.stderr.write(tb)
            return 500, {"errcode": "M_UNKNOWN", "error": "Internal server error"}, {}
        finally:
            http_context(False)


def main(argv=None):
    ap = argparse.ArgumentParser(description="The Matrix homeserver double, for manual "
                                 "play: serves until killed.")
    ap.add_argument("--port", type=int, default=8008)
    ap.add_argument("--host", default=HOST)
    ap.add_argument("--server-name", default="test")
    ap.add_argument("--user", action="append", default=[],
                    help="an account to register (repeatable)")
    ap.add_argument("--password", action="append", default=[],
                    help="its password (repeatable, in --user order; the last one is reused)")
    ap.add_argument("--timeline-limit", type=int, default=10)
    ap.add_argument("--no-password-login", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = ap.parse_args(argv)
    exit_on_sigterm()
    hs = HomeServer(server_name=args.server_name, port=args.port, host=args.host,
                    timeline_limit=args.timeline_limit,
                    password_login=not args.no_password_login, verbose=args.verbose)
    with hs:
        print("homeserver double listening on %s (server name %s)" % (hs.url, hs.server_name))
        for i, user in enumerate(args.user):
            password = args.password[min(i, len(args.password) - 1)] if args.password else None
            uid = hs.register(user, password)
            print("user %s password %s access token %s" % (uid, password, hs.token_for(uid)))
        sys.stdout.flush()
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
