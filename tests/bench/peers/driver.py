#!/usr/bin/env python3
"""Load driver for IRC bots (Python 3 standard library only).

Copied from the shared peer benchmark (shared/bench/peers, 2026-11-21) for tests/bench/peers/run.sh;
the latency record also keeps each client's first command apart (first_ms, later).

Connects N plain IRC clients to an IRC server on loopback, joins a channel
where the bot under test sits, sends it a command and times the bot's reply.

  latency    : one command in flight at a time, clients take turns;
               per-sample latency = send -> matching "<nick>: ..." reply.
  throughput : a stepped sweep of offered load; in each step C clients send
               commands at R cmd/s each for D seconds, then drain for T s.
               Reports achieved replies/s (whole step and peak 1-s bucket),
               lost replies, latency of the step.

Replies are matched FIFO per client nick: the bot's reply line is
"PRIVMSG #chan :<nick>: <text>" (Limnoria withNickPrefix / our Eggdrop Tcl).

Everything is bounded: connect/join timeouts, per-reply timeouts, step
durations; the driver exits by itself.  Only loopback addresses are allowed.

Usage:
  driver.py run  --port 16667 --bot limbot --bot-pid 1234 [options] --out results.jsonl
  driver.py table results.jsonl [...]
"""
import argparse
import asyncio
import ipaddress
import json
import os
import statistics
import sys
import time

CLK = time.perf_counter


# --------------------------------------------------------------------------- /proc helpers
def proc_mem(pid):
    """VmRSS / VmHWM in KiB from /proc/PID/status (None if gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0])
    except (OSError, ValueError):
        return None
    return out


def proc_cpu(pid):
    """utime+stime of PID in seconds (None if gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            data = f.read()
        fields = data[data.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def pct(sorted_vals, p):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_vals:
        return None
    k = max(0, min(len(sorted_vals) - 1, int(round(p / 100.0 * len(sorted_vals) + 0.5)) - 1))
    return sorted_vals[k]


def summarize(lat_s):
    v = sorted(x * 1000.0 for x in lat_s)
    if not v:
        return {"n": 0, "median_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None, "mean_ms": None}
    return {
        "n": len(v),
        "median_ms": round(statistics.median(v), 3),
        "p95_ms": round(pct(v, 95), 3),
        "p99_ms": round(pct(v, 99), 3),
        "max_ms": round(v[-1], 3),
        "mean_ms": round(statistics.fmean(v), 3),
    }


# --------------------------------------------------------------------------- IRC client
class Shared:
    """State shared by all clients: what they saw of the bot."""

    def __init__(self, bot):
        self.bot = bot.lower()
        self.bot_lines = []          # arrival times of bot PRIVMSG lines (seen by observer client 0)
        self.bot_events = []         # KICK/QUIT/PART/KILL/ERROR involving the bot, ignore notices
        self.client_events = []      # our own clients being closed/kicked
        self.bot_present = asyncio.Event()


class Client:
    def __init__(self, idx, nick, args, shared):
        self.idx = idx
        self.nick = nick
        self.args = args
        self.sh = shared
        self.reader = None
        self.writer = None
        self.registered = asyncio.Event()
        self.joined = asyncio.Event()
        self.got = asyncio.Event()
        self.pending = []            # FIFO of [t_send, phase_tag, timed_out]
        self.lat = {}                # phase_tag -> [latency seconds]
        self.replies = {}            # phase_tag -> count
        self.late = 0
        self.unmatched = 0
        self.sent = {}               # phase_tag -> count
        self.closed = False
        self.task = None

    async def connect(self):
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(self.args.host, self.args.port, limit=1 << 20), 10)
        self.task = asyncio.create_task(self.read_loop())
        self.raw(f"NICK {self.nick}")
        self.raw(f"USER {self.nick} 0 * :bench driver {self.idx}")
        await asyncio.wait_for(self.registered.wait(), 15)
        self.raw(f"JOIN {self.args.channel}")
        await asyncio.wait_for(self.joined.wait(), 15)

    def raw(self, line):
        if not self.closed:
            self.writer.write(line.encode() + b"\r\n")

    def send_cmd(self, tag):
        self.pending.append([CLK(), tag, False])
        self.sent[tag] = self.sent.get(tag, 0) + 1
        self.raw(f"PRIVMSG {self.args.channel} :{self.args.command}")

    async def read_loop(self):
        bot = self.sh.bot
        chan = self.args.channel.lower()
        mynick = self.nick.lower()
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                now = CLK()
                line = line.rstrip(b"\r\n").decode("utf-8", "replace")
                if line.startswith("PING"):
                    self.raw("PONG" + line[4:])
                    continue
                if line.startswith("ERROR"):
                    self.sh.client_events.append((self.nick, line))
                    continue
                if not line.startswith(":"):
                    continue
                parts = line.split(" ", 3)
                if len(parts) < 2:
                    continue
                src = parts[0][1:]
                snick = src.split("!", 1)[0].lower()
                cmd = parts[1]
                if cmd == "001":
                    self.registered.set()
                elif cmd == "433":
                    self.sh.client_events.append((self.nick, "nick in use: " + line))
                elif cmd == "353" and self.idx == 0:
                    names = line.rsplit(":", 1)[-1].split()
                    if any(n.lstrip("~&@%+").lower() == bot for n in names):
                        self.sh.bot_present.set()
                elif cmd == "366":
                    self.joined.set()
                elif snick == bot:
                    if cmd == "PRIVMSG" and len(parts) == 4:
                        target = parts[2].lower()
                        text = parts[3][1:] if parts[3].startswith(":") else parts[3]
                        if target == chan:
                            if self.idx == 0:
                                self.sh.bot_lines.append(now)
                            if text.lower().startswith(mynick + ":"):
                                self.on_reply(now)
                        if "ignoring you" in text.lower() and (self.idx == 0 or target == mynick):
                            self.sh.bot_events.append((round(now, 3), "ignore", text[:120]))
                    elif cmd == "NOTICE" and len(parts) == 4:
                        if "ignoring you" in parts[3].lower():
                            self.sh.bot_events.append((round(now, 3), "ignore-notice", parts[3][:120]))
                    elif cmd == "JOIN" and self.idx == 0:
                        self.sh.bot_present.set()
                    elif cmd in ("QUIT", "PART", "KICK") and self.idx == 0:
                        self.sh.bot_events.append((round(now, 3), cmd, line[:200]))
                elif cmd == "KICK" and self.idx == 0 and len(parts) == 4:
                    victim = parts[3].split(" ", 1)[0].lower()
                    if victim == bot:
                        self.sh.bot_events.append((round(now, 3), "KICKED", line[:200]))
                    else:
                        self.sh.client_events.append((victim, line[:200]))
                elif cmd == "KILL":
                    self.sh.client_events.append((self.nick, line[:200]))
        except (ConnectionError, asyncio.IncompleteReadError, OSError) as e:
            self.sh.client_events.append((self.nick, f"read error {e!r}"))
        finally:
            self.closed = True

    def on_reply(self, now):
        if not self.pending:
            self.unmatched += 1
            return
        t_send, tag, timed_out = self.pending.pop(0)
        if timed_out:
            self.late += 1
        else:
            self.lat.setdefault(tag, []).append(now - t_send)
            self.replies[tag] = self.replies.get(tag, 0) + 1
        self.got.set()

    def expire(self, tag):
        """Mark outstanding commands of a phase as lost (late replies are then not counted)."""
        n = 0
        for p in self.pending:
            if p[1] == tag and not p[2]:
                p[2] = True
                n += 1
        return n

    async def close(self):
        if not self.closed:
            try:
                self.raw("QUIT :bench done")
                await asyncio.wait_for(self.writer.drain(), 2)
            except Exception:
                pass
        try:
            self.writer.close()
        except Exception:
            pass
        if self.task:
            self.task.cancel()


# --------------------------------------------------------------------------- phases
async def phase_latency(clients, args, sh, emit, base):
    tag = "latency"
    lost = 0
    n = args.lat_samples
    cpu0 = proc_cpu(args.bot_pid) if args.bot_pid else None
    t_start = CLK()
    deadline = t_start + args.lat_max_seconds
    done = 0
    for i in range(n):
        if CLK() > deadline:
            break
        c = clients[i % len(clients)]
        if c.closed:
            continue
        c.got.clear()
        c.send_cmd(tag)
        try:
            await asyncio.wait_for(c.got.wait(), args.reply_timeout)
        except asyncio.TimeoutError:
            lost += c.expire(tag)
        done += 1
        if args.lat_gap > 0:
            await asyncio.sleep(args.lat_gap)
    await asyncio.sleep(0.2)
    lat = [x for c in clients for x in c.lat.get(tag, [])]
    cpu1 = proc_cpu(args.bot_pid) if args.bot_pid else None
    rec = dict(base, phase="latency", sent=done, replies=len(lat), lost=lost,
               gap_s=args.lat_gap, seconds=round(CLK() - t_start, 2), **summarize(lat))
    if cpu0 is not None and cpu1 is not None and len(lat):
        rec["bot_cpu_ms_per_cmd"] = round((cpu1 - cpu0) * 1000.0 / max(1, done), 3)
    rec["bot_mem_kib"] = proc_mem(args.bot_pid) if args.bot_pid else None
    # Each client's first command apart: a bot may do something once per
    # person it has not seen before (porrazo-bot binds an IRC nick to its
    # user@host in its database), which with 10 clients is 5% of the
    # samples, right at the p95. "later" summarizes every other sample.
    firsts = [c.lat[tag][0] for c in clients if c.lat.get(tag)]
    later = [x for c in clients for x in c.lat.get(tag, [])[1:]]
    rec["first_ms"] = sorted(round(x * 1000.0, 3) for x in firsts)
    rec["later"] = summarize(later)
    emit(rec)


async def phase_throughput_step(clients, args, sh, emit, base, rate_total, step_no):
    tag = f"tp{step_no}"
    senders = clients[: max(1, min(args.tp_clients, len(clients)))]
    per_client = rate_total / len(senders)
    interval = 1.0 / per_client if per_client > 0 else 0.0
    window = args.tp_window
    ev0 = len(sh.bot_events)
    cev0 = len(sh.client_events)
    lines0 = len(sh.bot_lines)
    cpu0 = proc_cpu(args.bot_pid) if args.bot_pid else None
    t_start = CLK()
    t_end = t_start + args.tp_seconds
    max_cmds = args.tp_max_cmds

    async def sender(c, offset):
        await asyncio.sleep(offset)
        nxt = CLK()
        while True:
            now = CLK()
            if now >= t_end or c.closed or c.sent.get(tag, 0) >= max_cmds:
                return
            outstanding = sum(1 for p in c.pending if p[1] == tag and not p[2])
            if window and outstanding >= window:
                await asyncio.sleep(0.002)
                continue
            if now < nxt:
                await asyncio.sleep(min(nxt - now, t_end - now))
                continue
            c.send_cmd(tag)
            nxt += interval
            if nxt < now - 1.0:      # do not build a huge backlog of "owed" sends
                nxt = now

    await asyncio.gather(*(sender(c, i * interval / len(senders)) for i, c in enumerate(senders)))
    t_send_done = CLK()
    # drain: wait until every sender's outstanding replies arrived, or drain timeout
    drain_deadline = CLK() + args.tp_drain
    while CLK() < drain_deadline:
        if all(not any(p[1] == tag and not p[2] for p in c.pending) for c in senders):
            break
        await asyncio.sleep(0.02)
    lost = sum(c.expire(tag) for c in senders)
    sent = sum(c.sent.get(tag, 0) for c in senders)
    lat = [x for c in senders for x in c.lat.get(tag, [])]
    got = len(lat)
    cpu1 = proc_cpu(args.bot_pid) if args.bot_pid else None
    # reply timeline from observer client 0 (every bot line in the channel)
    times = sh.bot_lines[lines0:]
    times = [t for t in times if t >= t_start]
    if times:
        span = max(1e-9, times[-1] - t_start)
        buckets = {}
        for t in times:
            b = int(t - t_start)
            buckets[b] = buckets.get(b, 0) + 1
        peak = max(buckets.values())
    else:
        span, peak = 0.0, 0
    rec = dict(base, phase="throughput", step=step_no, offered_cmd_s=round(rate_total, 2),
               senders=len(senders), window=window, send_seconds=round(t_send_done - t_start, 2),
               sent=sent, replies=got, lost=lost,
               offered_actual_cmd_s=round(sent / max(1e-9, t_send_done - t_start), 2),
               replies_per_s=round(got / span, 2) if span else 0.0,
               peak_1s_bot_lines=peak,
               drain_seconds=round(CLK() - t_send_done, 2), **summarize(lat))
    if cpu0 is not None and cpu1 is not None and sent:
        rec["bot_cpu_s"] = round(cpu1 - cpu0, 3)
        rec["bot_cpu_ms_per_cmd"] = round((cpu1 - cpu0) * 1000.0 / sent, 3)
    rec["bot_events"] = sh.bot_events[ev0:][:10]
    rec["client_events"] = sh.client_events[cev0:][:10]
    rec["bot_mem_kib"] = proc_mem(args.bot_pid) if args.bot_pid else None
    emit(rec)
    return rec


async def run(args):
    host = ipaddress.ip_address(args.host)
    if not host.is_loopback:
        sys.exit("refusing: --host must be a loopback address")
    sh = Shared(args.bot)
    out = open(args.out, "a") if args.out else None
    base = {"label": args.label, "bot": args.bot, "clients": args.clients, "command": args.command}

    def emit(rec):
        line = json.dumps(rec, sort_keys=False)
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()

    t_all = CLK()
    clients = [Client(i, f"{args.nick_prefix}{i:03d}", args, sh) for i in range(args.clients)]
    # connect gradually (ngircd listen backlog is 10)
    for i in range(0, len(clients), 5):
        await asyncio.gather(*(c.connect() for c in clients[i:i + 5]))
    try:
        await asyncio.wait_for(sh.bot_present.wait(), args.bot_wait)
    except asyncio.TimeoutError:
        emit(dict(base, phase="error", error=f"bot {args.bot} not seen in {args.channel} within {args.bot_wait}s"))
        for c in clients:
            await c.close()
        return 2
    await asyncio.sleep(args.settle)
    emit(dict(base, phase="idle", bot_mem_kib=proc_mem(args.bot_pid) if args.bot_pid else None,
              bot_cpu_s=proc_cpu(args.bot_pid) if args.bot_pid else None))

    if args.mode in ("latency", "both"):
        await phase_latency(clients, args, sh, emit, base)
    if args.mode in ("throughput", "both"):
        rates = [float(r) for r in args.tp_rates.split(",") if r.strip()]
        for k, r in enumerate(rates):
            if CLK() - t_all > args.max_seconds:
                emit(dict(base, phase="note", note="max-seconds reached, sweep cut short"))
                break
            rec = await phase_throughput_step(clients, args, sh, emit, base, r, k)
            if any(e[1] in ("QUIT", "KICKED", "PART") for e in rec["bot_events"]):
                emit(dict(base, phase="note", note="bot left/kicked/quit; sweep stopped"))
                break
            if args.tp_stop_loss >= 0 and rec["lost"] > args.tp_stop_loss * max(1, rec["sent"]):
                emit(dict(base, phase="note",
                          note=f"step {k} ({r:g} cmd/s) lost {rec['lost']}/{rec['sent']} replies; "
                               f"sweep stopped (later steps would inherit the backlog)"))
                break
            if args.tp_pause > 0:
                await asyncio.sleep(args.tp_pause)

    await asyncio.sleep(0.5)
    emit(dict(base, phase="after", bot_mem_kib=proc_mem(args.bot_pid) if args.bot_pid else None,
              bot_cpu_s=proc_cpu(args.bot_pid) if args.bot_pid else None,
              late_replies=sum(c.late for c in clients),
              unmatched_replies=sum(c.unmatched for c in clients),
              bot_events=sh.bot_events[:20], client_events=sh.client_events[:20],
              driver_cpu_s=round(time.process_time(), 2), wall_s=round(CLK() - t_all, 1)))
    for c in clients:
        await c.close()
    if out:
        out.close()
    return 0


# --------------------------------------------------------------------------- table
def fmt(v, nd=1):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def table(paths):
    recs = []
    for p in paths:
        with open(p) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    recs.append(json.loads(line))
    labels = []
    for r in recs:
        if r["label"] not in labels:
            labels.append(r["label"])
    print("LATENCY (one command in flight; ms)")
    print(f"{'profile':<28} {'n':>5} {'lost':>5} {'median':>8} {'p95':>8} {'p99':>8} {'max':>8} {'cpu ms/cmd':>10}")
    for r in recs:
        if r["phase"] == "latency":
            print(f"{r['label']:<28} {r['replies']:>5} {r['lost']:>5} {fmt(r['median_ms'],2):>8} {fmt(r['p95_ms'],2):>8}"
                  f" {fmt(r['p99_ms'],2):>8} {fmt(r['max_ms'],2):>8} {fmt(r.get('bot_cpu_ms_per_cmd'),2):>10}")
    for r in recs:
        if r["phase"] == "latency" and r.get("later", {}).get("n"):
            lt, first = r["later"], r.get("first_ms") or [None]
            print(f"  {r['label']:<26} without each client's first: {lt['n']:>5} {'':>5} {fmt(lt['median_ms'],2):>8}"
                  f" {fmt(lt['p95_ms'],2):>8} {fmt(lt['p99_ms'],2):>8} {fmt(lt['max_ms'],2):>8};"
                  f" the firsts' median {fmt(statistics.median(first) if first[0] is not None else None,2)}")
    print()
    print("THROUGHPUT SWEEP (offered cmd/s -> replies/s; latency ms)")
    print(f"{'profile':<28} {'offer':>6} {'sent':>6} {'repl':>6} {'lost':>5} {'repl/s':>7} {'peak1s':>6}"
          f" {'median':>8} {'p95':>8} {'p99':>8} {'max':>8} {'cpu ms/cmd':>10}  events")
    for r in recs:
        if r["phase"] == "throughput":
            ev = ",".join(sorted({e[1] for e in r.get("bot_events", [])}))
            if r.get("client_events"):
                ev += (";" if ev else "") + f"client_evts={len(r['client_events'])}"
            print(f"{r['label']:<28} {fmt(r['offered_actual_cmd_s']):>6} {r['sent']:>6} {r['replies']:>6} {r['lost']:>5}"
                  f" {fmt(r['replies_per_s']):>7} {r['peak_1s_bot_lines']:>6} {fmt(r['median_ms'],1):>8}"
                  f" {fmt(r['p95_ms'],1):>8} {fmt(r['p99_ms'],1):>8} {fmt(r['max_ms'],1):>8}"
                  f" {fmt(r.get('bot_cpu_ms_per_cmd'),2):>10}  {ev}")
    print()
    print("BOT MEMORY (KiB; VmRSS idle -> after load, VmHWM = peak RSS)")
    print(f"{'profile':<28} {'rss idle':>9} {'rss after':>9} {'hwm':>9} {'late':>5} {'driver cpu s':>12} {'wall s':>7}  bot events")
    idle = {r["label"]: r for r in recs if r["phase"] == "idle"}
    for r in recs:
        if r["phase"] == "after":
            i = idle.get(r["label"], {})
            mi = (i.get("bot_mem_kib") or {}).get("VmRSS")
            ma = (r.get("bot_mem_kib") or {}).get("VmRSS")
            hw = (r.get("bot_mem_kib") or {}).get("VmHWM")
            ev = ",".join(sorted({e[1] for e in r.get("bot_events", [])})) or "none"
            print(f"{r['label']:<28} {fmt(mi):>9} {fmt(ma):>9} {fmt(hw):>9} {r.get('late_replies',0):>5}"
                  f" {fmt(r.get('driver_cpu_s')):>12} {fmt(r.get('wall_s')):>7}  {ev}")
    for r in recs:
        if r["phase"] in ("error", "note"):
            print(f"{r['label']}: {r.get('error') or r.get('note')}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="sub", required=True)
    r = sub.add_parser("run")
    r.add_argument("--host", default="127.0.0.1")
    r.add_argument("--port", type=int, default=16667)
    r.add_argument("--channel", default="#bench")
    r.add_argument("--bot", required=True, help="bot nick")
    r.add_argument("--bot-pid", type=int, default=0, help="bot PID for /proc RSS/CPU")
    r.add_argument("--command", default="!dice 2d6")
    r.add_argument("--clients", type=int, default=10)
    r.add_argument("--nick-prefix", default="u")
    r.add_argument("--label", default="bot")
    r.add_argument("--mode", choices=["latency", "throughput", "both"], default="both")
    r.add_argument("--lat-samples", type=int, default=200)
    r.add_argument("--lat-gap", type=float, default=0.05, help="pause between latency samples (s)")
    r.add_argument("--lat-max-seconds", type=float, default=120)
    r.add_argument("--reply-timeout", type=float, default=5.0)
    r.add_argument("--tp-rates", default="5,20,50,100,200", help="offered total cmd/s per sweep step")
    r.add_argument("--tp-clients", type=int, default=10, help="clients that send in throughput mode")
    r.add_argument("--tp-window", type=int, default=0, help="max outstanding per client (0 = open loop)")
    r.add_argument("--tp-seconds", type=float, default=8.0)
    r.add_argument("--tp-max-cmds", type=int, default=5000, help="per client per step")
    r.add_argument("--tp-drain", type=float, default=10.0)
    r.add_argument("--tp-pause", type=float, default=1.0)
    r.add_argument("--tp-stop-loss", type=float, default=0.1,
                   help="stop the sweep after a step losing more than this fraction (-1: never)")
    r.add_argument("--bot-wait", type=float, default=30.0)
    r.add_argument("--settle", type=float, default=5.0, help="wait after bot seen (join sync)")
    r.add_argument("--max-seconds", type=float, default=400.0, help="overall cap (checked between steps)")
    r.add_argument("--out", default="")
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.sub == "table":
        table(a.files)
        return 0
    return asyncio.run(run(a))


if __name__ == "__main__":
    sys.exit(main())
