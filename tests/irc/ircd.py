"""ircd.py -- a real ngircd for the IRC tests, started on loopback by the test.

    from ircd import IRCd
    with IRCd(tls=True) as server:          # writes a config, starts ngircd
        server.port, server.tls_port        # free 127.0.0.1 ports
        server.ca_file, server.wrong_ca_file
        alice = server.client("alice")      # a registered client.IRCClient
        server.restart()                    # SIGTERM, then start on the same ports
        server.kill()                       # SIGKILL, no goodbye to the clients
        server.start()

Everything lives in a temporary directory (config, ngircd's log, pid file, the
test certificate authority and server certificate), removed by cleanup() or at
the end of the `with` block unless PZ_IRC_KEEP=1 is set (then the directory is
printed and kept for inspection).

How ngircd is run: `ngircd --nodaemon --config FILE` (Debian's 26.1, built with
GnuTLS), listening on 127.0.0.1 only, no PAM, no DNS or IDENT look-ups, MOTD
from MotdPhrase, MaxConnectionsIP unlimited (every test client comes from
127.0.0.1). ngircd refuses to keep root: as root it is told to switch to
`nobody` (ServerUID/ServerGID) and the temporary directory is handed to that
user; as any other user it keeps that user's ids. Its log (stdout and stderr)
goes to ngircd.log in the directory; log() returns it and failures quote its
tail.

ngircd's limits worth knowing when writing tests (26.1, src/ngircd/conn.c):
  * a line longer than 512 bytes including CR LF closes the connection
    ("ERROR :Closing connection: ... (Request too long)"); a message that the
    sender's prefix makes longer than 512 bytes is relayed cut, ending in
    "[CUT]"; bytes are relayed as they are (invalid UTF-8, control
    characters);
  * a NUL in a line wedges the sender: ngircd never finds the end of that
    line and ignores the connection's input from then on (until PINGed out);
  * errors (unknown command 421, 411/412/461...) are answered, never fatal;
  * no flood disconnection, but "penalties": the connection's further input
    is left unread for a while -- 1 s after registering, after more than 3
    commands in one read or more than 256 bytes in a second; 2 s after a NICK
    change, an error reply or an unknown command; 1-3 s after MODE, WHO,
    NAMES, MOTD...; 10 s after a failed OPER. MaxPenaltyTime caps those under
    10 s: IRCd's default max_penalty_time=0 turns them off (fast, timing-free
    tests); max_penalty_time=None keeps ngircd's own behaviour (-1);
  * a client that doesn't read is dropped when 32 KiB are queued for it;
  * idle clients are PINGed after PingTimeout s and dropped PongTimeout s
    later (our client.IRCClient answers PINGs by itself).

Nothing here needs more than the Python standard library, ngircd and, for TLS,
the openssl command. A test script using it starts like test_harness.py:
sys.dont_write_bytecode = True (no __pycache__ in the source tree), this
directory on sys.path, `from ircd import IRCd`, and exit_on_sigterm() in its
__main__.
"""
import atexit
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import client as irc_client  # noqa: E402  (tests/irc/client.py)

HOST = "127.0.0.1"
# Generous by default: the tests run on loaded 2-core machines. Scale every
# wait with PZ_IRC_TIMEOUT (seconds), default 30.
TIMEOUT = irc_client.TIMEOUT


# Every IRCd not yet cleaned up; at interpreter exit they are stopped, so a
# test that forgets cleanup() leaves no ngircd behind. (A test killed by a
# signal exits through here only if the signal raises an exception: see
# exit_on_sigterm.)
_LIVE = set()


@atexit.register
def _stop_all():
    for server in list(_LIVE):
        server.cleanup()


def _interrupt(signum, frame):
    raise KeyboardInterrupt("signal %d" % signum)


def exit_on_sigterm():
    """Makes SIGTERM behave like Ctrl-C (KeyboardInterrupt, which unittest
    doesn't swallow), so that `with` blocks, finally clauses and the exit hook
    stop ngircd when the test is killed. Call it from a test's __main__."""
    signal.signal(signal.SIGTERM, _interrupt)


class IRCdError(Exception):
    """ngircd could not be configured, started or stopped."""


def find_ngircd():
    """The ngircd binary: $PZ_NGIRCD, then PATH, then /usr/sbin/ngircd."""
    for candidate in (os.environ.get("PZ_NGIRCD"), shutil.which("ngircd"),
                      "/usr/sbin/ngircd", "/usr/local/sbin/ngircd"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise IRCdError("ngircd not found (Debian: apt-get install ngircd; "
                    "tests/check installs it); or set PZ_NGIRCD")


def free_port(host=HOST):
    """A TCP port on host that is free right now (bind to port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_accepts(host, port, timeout=1.0):
    """True when a TCP connection to host:port is accepted."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _run(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False)
    if proc.returncode != 0:
        raise IRCdError("%s failed (%d):\n%s" % (" ".join(cmd), proc.returncode,
                                                  proc.stdout))
    return proc.stdout


def make_test_pki(directory, names=("localhost",), ips=(HOST,)):
    """Makes, with the openssl command, in directory:
      ca.key, ca.pem              the test certificate authority
      server.key, server.csr,
      server.pem                  ngircd's certificate, signed by that CA, for
                                  CN=localhost, subjectAltName DNS:localhost
                                  and IP:127.0.0.1 (serverAuth)
      wrong-ca.key, wrong-ca.pem  an unrelated CA that signed nothing: a client
                                  trusting only it must fail verification
      dh.pem                      Diffie-Hellman parameters (RFC 7919
                                  ffdhe2048, instant), else ngircd with GnuTLS
                                  generates some at every start (slow)
    EC P-256 keys (instant to make). Returns a dict of those paths."""
    openssl = shutil.which("openssl")
    if not openssl:
        raise IRCdError("openssl not found (Debian: apt-get install openssl)")
    p = {k: os.path.join(directory, f) for k, f in (
        ("ca_key", "ca.key"), ("ca", "ca.pem"),
        ("key", "server.key"), ("csr", "server.csr"), ("cert", "server.pem"),
        ("wrong_ca_key", "wrong-ca.key"), ("wrong_ca", "wrong-ca.pem"),
        ("dh", "dh.pem"), ("ext", "server.ext"))}
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for key, cert, cn in (("ca_key", "ca", "Porrazo Test CA"),
                          ("wrong_ca_key", "wrong_ca", "Porrazo Wrong CA")):
        _run([openssl, "req", "-x509", "-new", *ec, "-keyout", p[key],
              "-out", p[cert], "-days", "3650", "-subj", "/CN=" + cn,
              "-addext", "basicConstraints=critical,CA:TRUE",
              "-addext", "keyUsage=critical,keyCertSign,cRLSign",
              "-addext", "subjectKeyIdentifier=hash"], directory)
    _run([openssl, "req", "-new", *ec, "-keyout", p["key"], "-out", p["csr"],
          "-subj", "/CN=" + names[0]], directory)
    san = ",".join(["DNS:" + n for n in names] + ["IP:" + i for i in ips])
    with open(p["ext"], "w") as f:
        f.write("basicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                "subjectKeyIdentifier=hash\n"
                "authorityKeyIdentifier=keyid,issuer\n"
                "subjectAltName=" + san + "\n")
    _run([openssl, "x509", "-req", "-in", p["csr"], "-CA", p["ca"],
          "-CAkey", p["ca_key"], "-set_serial", str(int.from_bytes(os.urandom(8), "big")),
          "-days", "3650", "-sha256", "-extfile", p["ext"], "-out", p["cert"]],
         directory)
    _run([openssl, "genpkey", "-genparam", "-algorithm", "DH",
          "-pkeyopt", "group:ffdhe2048", "-out", p["dh"]], directory)
    return p


class IRCd:
    """One ngircd on 127.0.0.1, with a config written for the test.

    Keyword arguments (all optional):
      tls                also listen with TLS on tls_port (test CA, see
                         make_test_pki)
      name, network      server name (needs a dot) and NETWORK= name
      max_nick_length    MaxNickLength (ngircd's default and RFC: 9)
      max_penalty_time   MaxPenaltyTime: 0 (default here) = no throttling, so
                         tests run fast; None = ngircd's own default (-1:
                         realistic throttling, see above)
      ping_timeout, pong_timeout
                         PingTimeout / PongTimeout in seconds (ngircd: 120/20;
                         it raises anything under 5 to 5)
      max_joins          MaxJoins (0 = unlimited)
      max_connections_ip MaxConnectionsIP (0 = unlimited)
      motd               MotdPhrase (< 127 characters)
      channels           predefined channels: {"#name": "topic"} or a list
      operators          {"name": "password"}: [Operator] blocks
      extra              {"Section": {"Option": value}} appended verbatim
      port, tls_port     fixed ports instead of free ones
      binary             the ngircd executable (default: find_ngircd())
    """

    def __init__(self, *, tls=False, name="irc.porrazo.test",
                 network="PorrazoTest", max_nick_length=9,
                 max_penalty_time=0, ping_timeout=120, pong_timeout=20,
                 max_joins=10, max_connections_ip=0,
                 motd="Porrazo test server", channels=None, operators=None,
                 extra=None, port=None, tls_port=None, binary=None):
        self.binary = binary or find_ngircd()
        self.host = HOST
        self.tls = tls
        self.name = name
        self.network = network
        self.max_nick_length = max_nick_length
        self.max_penalty_time = max_penalty_time
        self.ping_timeout = ping_timeout
        self.pong_timeout = pong_timeout
        self.max_joins = max_joins
        self.max_connections_ip = max_connections_ip
        self.motd = motd
        self.channels = channels or {}
        if not isinstance(self.channels, dict):
            self.channels = {c: None for c in self.channels}
        self.operators = operators or {}
        self.extra = extra or {}
        self._fixed_ports = port is not None
        self.port = port
        self.tls_port = tls_port
        self.proc = None
        self._log = None
        self._probe = 0
        self.starts = 0
        self.dir = tempfile.mkdtemp(prefix="pz-ngircd-")
        self.config_file = os.path.join(self.dir, "ngircd.conf")
        self.log_file = os.path.join(self.dir, "ngircd.log")
        self.pid_file = os.path.join(self.dir, "run", "ngircd.pid")
        os.mkdir(os.path.join(self.dir, "run"))
        self.include_dir = os.path.join(self.dir, "conf.d")
        os.mkdir(self.include_dir)
        self.pki = make_test_pki(self.dir) if tls else {}
        self.ca_file = self.pki.get("ca")
        self.wrong_ca_file = self.pki.get("wrong_ca")
        self.uid, self.gid = self._server_ids()
        _LIVE.add(self)
        if os.getuid() == 0:
            # ngircd drops root for ServerUID after reading its config and
            # keys, then writes its pid file: give it the directory.
            for root, dirs, files in os.walk(self.dir):
                for n in [root] + [os.path.join(root, f) for f in files]:
                    os.chown(n, self.uid, self.gid)

    # -- configuration -----------------------------------------------------

    @staticmethod
    def _server_ids():
        if os.getuid() != 0:
            return os.getuid(), os.getgid()
        try:
            nobody = pwd.getpwnam("nobody")
        except KeyError as e:
            raise IRCdError("running as root but there is no user 'nobody' "
                            "for ngircd to switch to") from e
        return nobody.pw_uid, nobody.pw_gid

    def config_text(self):
        """The ngircd.conf this server runs with."""
        def section(title, options):
            out = ["[%s]" % title]
            for k, v in options.items():
                if v is None:
                    continue
                if isinstance(v, bool):
                    v = "yes" if v else "no"
                out.append("\t%s = %s" % (k, v))
            return "\n".join(out) + "\n"

        text = [section("Global", {
            "Name": self.name,
            "Info": "Porrazo test IRC server",
            "AdminInfo1": "porrazo-bot tests",
            "AdminEMail": "nobody@porrazo.test",
            "Network": self.network,
            "Listen": self.host,
            "Ports": self.port,
            "MotdPhrase": self.motd,
            "PidFile": self.pid_file,
            "ServerUID": self.uid,
            "ServerGID": self.gid,
        }), section("Limits", {
            "MaxConnections": 0,
            "MaxConnectionsIP": self.max_connections_ip,
            "MaxJoins": self.max_joins,
            "MaxNickLength": self.max_nick_length,
            "MaxPenaltyTime": self.max_penalty_time,
            "PingTimeout": self.ping_timeout,
            "PongTimeout": self.pong_timeout,
            "IdleTimeout": 0,
        }), section("Options", {
            "DNS": False,
            "Ident": False,
            "PAM": False,
            "RequireAuthPing": False,
            "NoticeBeforeRegistration": False,
            "SyslogFacility": "local5",
            # Not Debian's /etc/ngircd/ngircd.conf.d: nothing system-wide.
            "IncludeDir": self.include_dir,
        })]
        if self.tls:
            text.append(section("SSL", {
                "CertFile": self.pki["cert"],
                "KeyFile": self.pki["key"],
                "DHFile": self.pki["dh"],
                "Ports": self.tls_port,
            }))
        for oper, password in self.operators.items():
            text.append(section("Operator", {"Name": oper, "Password": password}))
        for chan, topic in self.channels.items():
            text.append(section("Channel", {"Name": chan, "Topic": topic}))
        for title, options in self.extra.items():
            text.append(section(title, options))
        return "\n".join(text)

    def write_config(self):
        with open(self.config_file, "w") as f:
            f.write(self.config_text())
        if os.getuid() == 0:
            os.chown(self.config_file, self.uid, self.gid)

    def _choose_ports(self, new=False):
        if self.port is None or new:
            self.port = free_port()
        if self.tls and (self.tls_port is None or new):
            self.tls_port = free_port()
            while self.tls_port == self.port:
                self.tls_port = free_port()

    def configtest(self):
        """Runs `ngircd --configtest` on the config; returns its output and
        raises IRCdError on failure."""
        self._choose_ports()
        self.write_config()
        proc = subprocess.run([self.binary, "--configtest", "--config", self.config_file],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False,
                              env=self._env(), timeout=TIMEOUT)
        if proc.returncode != 0:
            raise IRCdError("ngircd --configtest failed (%d):\n%s"
                            % (proc.returncode, proc.stdout))
        return proc.stdout

    @staticmethod
    def _env():
        env = dict(os.environ)
        # Never let ngircd think systemd passed it listening sockets.
        for k in ("LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"):
            env.pop(k, None)
        return env

    # -- life cycle ----------------------------------------------------------

    @property
    def running(self):
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def start(self, timeout=None):
        """Starts ngircd (on the same ports as before, if it ran already) and
        returns once a client can register. On the first start, free ports are
        chosen; if ngircd can't bind them (taken meanwhile), new ones are tried."""
        if self.running:
            raise IRCdError("ngircd is already running (pid %d)" % self.proc.pid)
        timeout = TIMEOUT if timeout is None else timeout
        retry_ports = self.starts == 0 and not self._fixed_ports
        attempts = 5 if retry_ports else 1
        for attempt in range(attempts):
            self._choose_ports(new=retry_ports and attempt > 0)
            self.write_config()
            try:
                self._spawn_and_wait(timeout)
                self.starts += 1
                return self
            except IRCdError:
                if attempt + 1 == attempts or "Can't bind" not in self._this_start_log():
                    raise
        raise AssertionError("unreachable")

    def _spawn_and_wait(self, timeout):
        self._log = open(self.log_file, "ab")
        self._log.write(b"==== harness: starting ngircd (%d) ====\n" % self.starts)
        self._log.flush()
        self.proc = subprocess.Popen(
            [self.binary, "--nodaemon", "--config", self.config_file],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
            env=self._env(), close_fds=True)
        deadline = time.monotonic() + timeout
        ports = [(self.port, False)] + ([(self.tls_port, True)] if self.tls else [])
        for port, tls in ports:
            while True:
                if self.proc.poll() is not None:
                    self._failed("ngircd exited with status %d while starting"
                                 % self.proc.returncode)
                if port_accepts(self.host, port):
                    break
                if "Can't bind socket" in self._this_start_log():
                    self._failed("ngircd could not bind its ports (in use?)")
                if time.monotonic() > deadline:
                    self._failed("ngircd did not accept on %s:%d within %.0f s"
                                 % (self.host, port, timeout))
                time.sleep(0.02)
            # Accepting is not enough: wait until a client can register.
            self._probe += 1
            nick = ("hp%d" % self._probe)[:self.max_nick_length]
            try:
                c = self.client(nick, tls=tls, port=port,
                                timeout=max(1.0, deadline - time.monotonic()))
                c.close()
            except (OSError, irc_client.IRCError) as e:
                self._failed("a probe client could not register on port %d: %s"
                             % (port, e))

    def _this_start_log(self):
        marker = "==== harness: starting ngircd (%d) ====" % self.starts
        return self.log().rpartition(marker)[2]

    def _failed(self, why):
        self._terminate(TIMEOUT)
        self.proc = None
        raise IRCdError("%s\n--- %s ---\n%s" % (why, self.log_file, self.log()[-4000:]))

    def _terminate(self, timeout, sig=signal.SIGTERM):
        proc = self.proc
        if proc is None:
            return None
        if proc.poll() is None:
            try:
                proc.send_signal(sig)
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout)
        if self._log:
            self._log.close()
            self._log = None
        return proc.returncode

    def stop(self, timeout=None):
        """SIGTERM (ngircd says goodbye to its clients and exits), SIGKILL if
        it is still there after timeout seconds. Returns the exit status."""
        rc = self._terminate(TIMEOUT if timeout is None else timeout)
        self.proc = None
        return rc

    def kill(self):
        """SIGKILL: the server vanishes without a word to its clients."""
        rc = self._terminate(TIMEOUT, signal.SIGKILL)
        self.proc = None
        return rc

    def restart(self, timeout=None, kill=False):
        """Stops (SIGTERM, or SIGKILL with kill=True) and starts again on the
        same ports; returns once a client can register again."""
        if kill:
            self.kill()
        else:
            self.stop()
        return self.start(timeout)

    def log(self):
        """ngircd's output so far (all starts)."""
        try:
            with open(self.log_file, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def cleanup(self):
        """Stops ngircd and removes the directory (kept with PZ_IRC_KEEP=1)."""
        self.stop()
        _LIVE.discard(self)
        if not os.path.isdir(self.dir):
            return
        if os.environ.get("PZ_IRC_KEEP"):
            print("ngircd files kept in %s" % self.dir, file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        if not self.running:
            try:
                self.start()
            except BaseException:
                self.cleanup()
                raise
        return self

    def __exit__(self, *exc):
        self.cleanup()
        return False

    # -- clients -------------------------------------------------------------

    def client(self, nick, *, tls=False, register=True, port=None, cafile=None,
               server_hostname=None, timeout=None, **kwargs):
        """A client.IRCClient connected to this server (TLS verified with the
        test CA unless cafile says otherwise) and, unless register=False,
        registered as nick."""
        if tls and not self.tls:
            raise IRCdError("this IRCd was made without tls=True")
        c = irc_client.IRCClient(
            self.host, port or (self.tls_port if tls else self.port), nick,
            tls=tls, cafile=cafile or (self.ca_file if tls else None),
            server_hostname=server_hostname, timeout=timeout, **kwargs)
        try:
            c.connect()
            if register:
                c.register()
        except BaseException:
            c.close()
            raise
        return c
