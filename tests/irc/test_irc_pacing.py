#!/usr/bin/env python3
"""test_irc_pacing.py -- the bot's default pacing (pace = auto) on a real
ngircd with its STOCK flood limits (MaxPenaltyTime -1, nobody exempt: no
+F, no operator), measured on the burst of a deal to eight players.

Eight clients (ann..hal) and a kibitzer sit in #porrazo; ann says "!new",
the seven others "!join" (and ann "!start" when a full table waits for
it). The trigger (the command that deals) is stamped when the bot logs
that it received it; the deal lasts until the last line the bot sends for
it (channel and private hands) reaches its client. Checks:
  * the bot took the ngircd model from the server's 004 ("pacing as
    ngircd" in its log);
  * every player but the dealer (whose hand waits for the tendido, R4.2)
    got a private line, and the channel was told;
  * the deal took at most 10 s;
  * nothing was penalty-delayed: every line the bot sent reached its
    client within LAG_MAX of the bot writing it (ngircd's penalty leaves
    the connection unread until a later second of its clock, so a penalized
    line arrives up to 1-2 s late), and the sending times keep ngircd's own
    rules replayed on the wall clock (256 bytes a second but the first
    read, 3 lines a read: src/ngircd/conn.c, see adapters/irc/PACING.md);
  * the bot never disconnected: one registration in ngircd's log, no QUIT,
    no "Excess Flood", no reconnection in its log.
Then, for the record, the same deal with the old fixed bucket (pace =
custom, burst 4, line_ms 1500), measured and printed but not held to the
penalty checks (it does incur ngircd's penalties).

usage: test_irc_pacing.py BOT REPLAY
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, TIMEOUT,  # noqa: E402
                     wait_bot_in_channel, check, ngircd_registrations, bot_lines, run_main,
                     same_name, scaled, CHANNEL, BOT_NICK)

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
SEED = 4242
DEAL_MAX = 10.0  # seconds from the trigger to the deal's last line
LAG_MAX = 0.35   # seconds from the bot's write to the client; a penalty is 1-2 s
QUIET = 3.0      # the bot's queue is drained when it said nothing this long
NGIRCD_BPS = 256     # conn.c: maxbps = COMMAND_LEN / 2; penalty when reached
NGIRCD_COMMANDS = 3  # conn.c: MAX_COMMANDS handled per read


def wait_quiet(clients, seconds, timeout):
    """Waits until no client received anything from the bot for seconds."""
    deadline = time.monotonic() + timeout
    while True:
        last = max((m.time for c in clients for m in c.find(("PRIVMSG", "NOTICE"),
                                                                  sender=BOT_NICK)),
                   default=0.0)
        if time.monotonic() - last >= seconds:
            return
        check(time.monotonic() < deadline, "the bot kept talking for %.0f s" % timeout)
        time.sleep(0.1)


def say_and_wait_reply(c, kib, text):
    """c says text in the channel; waits for the bot's next channel line."""
    mark = kib.mark()
    c.privmsg(CHANNEL, text)
    kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark,
                 timeout=scaled(20))


def received_stamp(bot, since, nick, text):
    """When the bot logged receiving nick's text in the channel."""
    rx = r"<< :%s!\S* PRIVMSG %s :%s$" % (re.escape(nick), re.escape(CHANNEL), re.escape(text))
    return bot.wait_log(rx, since=since, timeout=scaled(20)).time


def arrivals(clients, kib, since):
    """(time, target, text) of every bot line our clients received after
    since: channel lines as the kibitzer saw them, private ones by player."""
    out = [(m.time, CHANNEL, m.text) for m in bot_lines(kib, channel=CHANNEL) if m.time > since]
    for nick, c in clients.items():
        out += [(m.time, nick, m.text) for m in bot_lines(c, private=True) if m.time > since]
    return sorted(out)


def sent_lines(bot, since_mark):
    """(stamp, target, text, bytes) of the PRIVMSG/NOTICE lines the bot
    wrote since its log mark; bytes with CR LF, as ngircd counts them."""
    out = []
    for l, line in bot.sent(since_mark, commands=("PRIVMSG", "NOTICE")):
        _, target, rest = line.split(" ", 2)
        out.append((l.time, target, rest[1:] if rest.startswith(":") else rest,
                    len(line.encode("utf-8", "surrogateescape")) + 2))
    return out


def match_lags(sent, got):
    """For each line received, the delay since the bot wrote it (matched on
    target and text, in order)."""
    pending = {}
    for stamp, target, text, _ in sent:
        pending.setdefault((target.lower(), text), []).append(stamp)
    lags = []
    for t, target, text in got:
        # The bot's log shows control bytes (colours) as '?'.
        stamps = pending.get((target.lower(), re.sub(r"[\x00-\x1f\x7f]", "?", text)))
        check(stamps, "a line reached %s that the bot did not log as sent: %r" % (target, text))
        lags.append(t - stamps.pop(0))
    return lags


def replay_ngircd(sent, wall_offset):
    """ngircd's counts (conn.c Read_Request / Handle_Buffer) replayed over
    the bot's sending times on the wall clock, each write of the bot one
    read (lines written within 2 ms: one read): in each second, the bytes of
    every read but the first must stay under NGIRCD_BPS, and no read may
    hold more than NGIRCD_COMMANDS lines. Returns the problems found."""
    reads = []
    for stamp, _, _, size in sent:
        if reads and stamp - reads[-1][0] <= 0.002:
            reads[-1][1] += size
            reads[-1][2] += 1
        else:
            reads.append([stamp, size, 1])
    problems, second, counted = [], None, 0
    for stamp, size, lines in reads:
        s = int(stamp + wall_offset)
        if s != second:
            second, counted = s, 0  # the first read of a second is not counted
        else:
            counted += size
        if counted >= NGIRCD_BPS:
            problems.append("%d bytes counted in second %d" % (counted, s))
        if lines > NGIRCD_COMMANDS:
            problems.append("%d lines in one write at %.3f" % (lines, stamp))
    return problems


def deal(server, bot, clients, kib):
    """Opens an 8-player table and deals; returns (seconds, lines, bytes,
    lags, sent, the players told)."""
    ann = clients["ann"]
    say_and_wait_reply(ann, kib, "!new")
    for nick in PLAYERS[1:-1]:
        say_and_wait_reply(clients[nick], kib, "!join")
    wait_quiet(list(clients.values()) + [kib], 1.0, scaled(30))
    mark_log, t_mark = bot.mark(), time.monotonic()
    clients[PLAYERS[-1]].privmsg(CHANNEL, "!join")
    trigger = received_stamp(bot, mark_log, PLAYERS[-1], "!join")
    wait_quiet(list(clients.values()) + [kib], QUIET, scaled(60))
    told = {n for n, c in clients.items()
            if any(m.time > t_mark for m in bot_lines(c, private=True))}
    if not told:  # a full table that waits for its creator
        mark_log, t_mark = bot.mark(), time.monotonic()
        ann.privmsg(CHANNEL, "!start")
        trigger = received_stamp(bot, mark_log, "ann", "!start")
        wait_quiet(list(clients.values()) + [kib], QUIET, scaled(60))
        told = {n for n, c in clients.items()
                if any(m.time > t_mark for m in bot_lines(c, private=True))}
    got = arrivals(clients, kib, t_mark)
    sent = sent_lines(bot, mark_log)
    check(got, "the bot sent nothing for the deal")
    lags = match_lags(sent, got)
    return (got[-1][0] - trigger, len(got), sum(s[3] for s in sent), lags, sent, told,
            sum(1 for g in got if g[1] == CHANNEL))


def run_bot(exe, server, work, name, irc_extra, burst=None, line_ms=None):
    conf = write_config(work.path(name + ".conf"), server, burst=burst, line_ms=line_ms,
                        irc_extra=irc_extra)
    return BotProcess(exe, conf, work.path(name + ".db"), seed=SEED).start()


def main(bot_exe, replay_exe):
    # max_penalty_time=None: ngircd's own MaxPenaltyTime (-1), its stock limits.
    with IRCd(max_penalty_time=None) as server, Workdir() as work:
        wall_offset = time.time() - time.monotonic()
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        clients = {}
        for nick in PLAYERS:
            clients[nick] = server.client(nick)
            clients[nick].join(CHANNEL)

        bot = run_bot(bot_exe, server, work, "auto", None)
        try:
            wait_bot_in_channel(kib, timeout=2 * TIMEOUT)
            bot.wait_log(r"pacing as ngircd", timeout=scaled(10))
            secs, n, nbytes, lags, sent, told, nroom = deal(server, bot, clients, kib)
            check(len(told) >= len(PLAYERS) - 1,
                  "only %s got a private line at the deal" % sorted(told))
            check(nroom >= 1, "the channel was not told of the deal")
            check(secs <= DEAL_MAX, "the deal took %.1f s (at most %.0f s)" % (secs, DEAL_MAX))
            late = [x for x in lags if x > LAG_MAX]
            check(not late, "%d of %d lines were delayed by the server (worst %.2f s): a "
                  "penalty" % (len(late), len(lags), max(lags)))
            problems = replay_ngircd(sent, wall_offset)
            check(not problems, "ngircd's counts replayed on the bot's writes: %s"
                  % "; ".join(problems))
            check(ngircd_registrations(server) == 1,
                  "the bot registered %d times" % ngircd_registrations(server))
            check(not kib.find("QUIT", sender=BOT_NICK), "the bot quit")
            check("Excess Flood" not in server.log(), "ngircd said Excess Flood")
            check(not bot.find(r"connecting again|disconnected|closing the link"),
                  "the bot lost its link")
            check(bot.running, "the bot is not running")
        finally:
            bot.cleanup()

        # The old fixed bucket on the same server, for the record.
        joined = kib.mark()
        old = run_bot(bot_exe, server, work, "custom", None, burst=4, line_ms=1500)
        try:
            wait_bot_in_channel(kib, since=joined, timeout=2 * TIMEOUT)
            osecs, on, obytes, olags, _, _, _ = deal(server, old, clients, kib)
        finally:
            old.cleanup()
    print("irc pacing: 8-player deal on ngircd 26.1 with its stock limits: pace auto "
          "(ngircd model) %d lines, %d bytes in %.2f s, relayed %.3f s late at worst "
          "(median %.3f s), no penalty, 1 registration; the old 4 + 1/1.5 s bucket: %d lines "
          "in %.2f s (worst relay %.2f s)"
          % (n, nbytes, secs, max(lags), sorted(lags)[len(lags) // 2], on, osecs, max(olags)))


if __name__ == "__main__":
    run_main(main)
