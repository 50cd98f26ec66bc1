#!/usr/bin/env python3
"""bench_host_smoke: `porrazo-bench --host` runs and prints what it promises.

Runs porrazo-bench --host --sizes 1,100 --samples 50 in a fresh temporary
database directory (so both databases are built, then measured and
restarted) and checks that for each size the host, pages, gcache, clock
and restart lines are there, once each, with every field a number, and that
the warm-up, which reads every room, left every game in the store's memory.
It checks the output's shape, never the figures (a loaded machine must not
fail it).

usage: host_smoke.py PATH/TO/porrazo-bench
"""
import re
import subprocess
import sys
import tempfile

SIZES = (1, 100)
FIELDS = {
    "host": ("median_us", "p99_us", "cpu_us", "rss_kib"),
    "pages": ("hit_per_cmd", "miss_per_cmd", "cache_kib"),
    "gcache": ("cached", "mib", "of", "hits", "misses"),
    "clock": ("next_tick_us",),
    "restart": ("ready_ms", "drained_ms"),
}


def parse(line):
    """'host games=1 a=2.5 ...' -> ('host', {'games': 1.0, 'a': 2.5, ...})."""
    words = line.split()
    fields = {}
    for w in words[1:]:
        key, eq, value = w.partition("=")
        if not eq or not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", value):
            raise ValueError(f"not key=number: {w!r} in {line!r}")
        fields[key] = float(value)
    return words[0], fields


def main():
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="pz-host-bench-") as tmp:
        cmd = [bench, "--host", "--sizes", ",".join(map(str, SIZES)), "--samples", "50",
               "--db-dir", tmp]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=50)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {run.returncode}")
    seen = {}
    for line in run.stdout.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, fields = parse(line)
        if kind not in FIELDS:
            sys.exit(f"FAIL: unexpected line {line!r}")
        for f in ("games",) + FIELDS[kind]:
            if f not in fields:
                sys.exit(f"FAIL: {kind} line without {f}: {line!r}")
        key = (kind, int(fields["games"]))
        if key in seen:
            sys.exit(f"FAIL: two {kind} lines for games={key[1]}")
        seen[key] = fields
    for n in SIZES:
        for kind in FIELDS:
            if (kind, n) not in seen:
                sys.exit(f"FAIL: no {kind} line for games={n}")
        if seen[("host", n)]["median_us"] <= 0 or seen[("host", n)]["rss_kib"] <= 0:
            sys.exit(f"FAIL: games={n}: a reply took no time or the process no memory")
        g = seen[("gcache", n)]
        if g["cached"] < n or g["hits"] <= 0:
            sys.exit(f"FAIL: games={n}: the warm-up left {g['cached']:.0f} games in memory")
        r = seen[("restart", n)]
        if r["ready_ms"] <= 0 or r["drained_ms"] <= 0:
            sys.exit(f"FAIL: games={n}: a restart took no time")
    if not any(line.startswith("# build games=100 took_s=") for line in run.stdout.splitlines()):
        sys.exit("FAIL: the build of 100 games did not say how long it took")
    print("OK: host, pages, gcache, clock and restart lines for sizes", ", ".join(map(str, SIZES)))


if __name__ == "__main__":
    main()
