#!/usr/bin/env python3
"""irc_inbound.py -- the bot's CPU per inbound IRC line.

A fake server on 127.0.0.1 registers porrazo-bot (log level info, no
flood limit), then for each kind of line sends N of them at once followed
by a PING; the bot handles lines in order, so its PONG comes once every one
was handled. The CPU is utime + stime of /proc/PID/stat (every thread)
before the lines and after the PONG, divided by N. Kinds:

  chatter  channel PRIVMSG that are no command, from 20 nicks: parse,
           classify, the player lookup and the host's "not a command"
  notice   channel NOTICEs: parse and classify only
  mixed    JOIN, PRIVMSG, NOTICE, WHO reply (352), MODE +v, PART in turn

usage: irc_inbound.py --bot build/bin/porrazo-bot [--lines N] [KIND...]
Prints one line per kind: "KIND lines=N cpu_s= wall_s= cpu_us_per_line=".
Python standard library only.
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

SERVER = "irc.fake"
TICK = os.sysconf("SC_CLK_TCK")


def chatter(i):
    k = i % 20
    return ":n%d!u%d@h%d.fake PRIVMSG #porrazo :hello everyone, line %d" % (k, k, k, i)


def notice(i):
    k = i % 20
    return ":n%d!u%d@h%d.fake NOTICE #porrazo :a notice, line %d" % (k, k, k, i)


def mixed(i):
    k = i % 50
    return [":n%d!u@h.fake JOIN #porrazo" % k,
            ":n%d!u@h.fake PRIVMSG #porrazo :chat %d" % (k, i),
            ":n%d!u@h.fake NOTICE porrazo :notice %d" % (k, i),
            ":%s 352 porrazo #porrazo u h.fake %s n%d H :0 real" % (SERVER, SERVER, k),
            ":n%d!u@h.fake MODE #porrazo +v n%d" % (k, k),
            ":n%d!u@h.fake PART #porrazo :bye" % k][i % 6]


KINDS = {"chatter": chatter, "notice": notice, "mixed": mixed}


def cpu_seconds(pid):
    """utime + stime of every thread of pid, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Server:
    """The bot's one connection: lines out, waiting for a line in."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def send(self, *lines):
        self.sock.sendall(b"".join(line.encode() + b"\r\n" for line in lines))

    def until(self, start, timeout=120):
        """Reads the bot's lines until one starts with start (bytes)."""
        self.sock.settimeout(timeout)
        while True:
            while b"\r\n" in self.buf:
                line, self.buf = self.buf.split(b"\r\n", 1)
                if line.startswith(start):
                    return line
            data = self.sock.recv(65536)
            if not data:
                raise SystemExit("irc_inbound.py: the bot closed the connection")
            self.buf += data


def register(srv):
    srv.until(b"USER ")
    srv.send(":%s CAP * LS :multi-prefix" % SERVER)
    srv.until(b"CAP END")
    srv.send(":%s 001 porrazo :Welcome" % SERVER,
             ":%s 005 porrazo CHANTYPES=# NICKLEN=30 :are supported" % SERVER,
             ":%s 376 porrazo :End of MOTD" % SERVER)
    srv.until(b"JOIN ")
    srv.send(":porrazo!porrazo@bot.fake JOIN #porrazo")
    srv.until(b"WHO ")
    srv.send(":%s 324 porrazo #porrazo +nt" % SERVER, "PING :warm")
    srv.until(b"PONG")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", required=True)
    ap.add_argument("--lines", type=int, default=50000)
    ap.add_argument("kinds", nargs="*", default=list(KINDS))
    args = ap.parse_args()
    for kind in args.kinds:
        if kind not in KINDS:
            ap.error("unknown kind %r (%s)" % (kind, ", ".join(KINDS)))
    work = tempfile.mkdtemp(prefix="pz-irc-inbound-")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(30)
    conf = os.path.join(work, "porrazo.conf")
    with open(conf, "w", encoding="utf-8") as f:
        f.write("[bot]\nname = porrazo\nprefix = !\nlog_level = info\nreminder = off\n"
                "flood_commands = 0\n\n[irc fake]\nhost = 127.0.0.1\nport = %d\n"
                "tls = false\nnick = porrazo\nchannels = #porrazo\n"
                % listener.getsockname()[1])
    with open(os.path.join(work, "bot.stderr"), "wb") as err:
        bot = subprocess.Popen([args.bot, "--config", conf, "--db",
                                os.path.join(work, "porrazo.db"), "--seed", "7"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    try:
        sock, _ = listener.accept()
        srv = Server(sock)
        register(srv)
        for kind in args.kinds:
            data = "".join(KINDS[kind](i) + "\r\n" for i in range(args.lines)).encode()
            c0, t0 = cpu_seconds(bot.pid), time.monotonic()
            sock.sendall(data + b"PING :done-" + kind.encode() + b"\r\n")
            srv.until(b"PONG")
            c1, t1 = cpu_seconds(bot.pid), time.monotonic()
            print("%-8s lines=%d cpu_s=%.2f wall_s=%.2f cpu_us_per_line=%.2f"
                  % (kind, args.lines, c1 - c0, t1 - t0, (c1 - c0) * 1e6 / args.lines),
                  flush=True)
    finally:
        bot.terminate()
        try:
            bot.wait(10)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
