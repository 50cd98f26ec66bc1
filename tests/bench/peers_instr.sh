#!/bin/bash
# tests/bench/peers_instr.sh — the instructions porrazo-bot executes per
# "!turn" as the peers harness drives it over IRC (ngircd, 10 clients, one
# command in flight), counted by valgrind's callgrind rather than timed: the
# same figure on a loaded machine as on a quiet one (issue 34). The IRC
# path's cost from the line read to the reply written, adapter included,
# where porrazo-bench --host measures the host alone.
#
# It runs peers/run.sh twice with porrazo-bot under callgrind (BOT_WRAP),
# with S and 3*S latency samples at GAMES games, and prints the difference
# per command (the start, the database's open and the join cancel out),
# then the functions with the most instructions of their own over those
# 2*S commands. As root (run.sh's rule). The harness repeats "!turn" in one
# room: the host's last restored game (game.c) is that room's every time.
#
#   sudo tests/bench/peers_instr.sh                 # 10,000 games, S 100: ~2 min
#   GAMES=1 SAMPLES=50 sudo tests/bench/peers_instr.sh
#
# Environment: BUILD (default <repo>/build), GAMES (10000), SAMPLES (100),
# TOP (functions listed, 12), OUT (kept runs, default a temporary folder).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
GAMES=${GAMES:-10000}
SAMPLES=${SAMPLES:-100}
TOP=${TOP:-12}
command -v valgrind >/dev/null || { echo "peers_instr: valgrind is not installed" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "peers_instr: run as root (peers/run.sh runs the bots as nobody)" >&2; exit 2; }
work=${OUT:-$(mktemp -d /tmp/pz-peers-instr.XXXXXX)}
mkdir -p "$work"
chmod 755 "$work" # the bot runs as nobody and writes its callgrind file below

for n in "$SAMPLES" $((3 * SAMPLES)); do
    d=$work/s$n
    rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"
    BUILD=$BUILD BOTS=porrazo GAMES=$GAMES TP_RATES= SAMPLES=$n RUN_DIR=$d \
        BOT_WRAP="valgrind --tool=callgrind --callgrind-out-file=$d/callgrind.%p" \
        "$HERE/peers/run.sh" >"$d.log" 2>&1 ||
        { echo "peers_instr: peers/run.sh failed, see $d.log" >&2; exit 1; }
    ls "$d"/callgrind.* >/dev/null 2>&1 || { echo "peers_instr: no callgrind output in $d" >&2; exit 1; }
done

python3 - "$work/s$SAMPLES" "$work/s$((3 * SAMPLES))" $((2 * SAMPLES)) "$TOP" "$GAMES" <<'PY'
import glob, re, subprocess, sys

def self_costs(folder):
    """Instructions of the bot's process: the total and each function's own."""
    path = max(glob.glob(folder + "/callgrind.*"), key=lambda p: len(open(p, "rb").read()))
    out = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    total, funcs = None, {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*?)(?: \[.*\])?$", line)
        if not m or "=>" in line:
            continue
        v = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = v
        elif "/" in m.group(2) or m.group(2).startswith("???"):
            funcs[m.group(2)] = funcs.get(m.group(2), 0) + v
    return total, funcs

(t1, f1), (t3, f3) = self_costs(sys.argv[1]), self_costs(sys.argv[2])
n, top, games = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
print("# callgrind, porrazo-bot per !turn over IRC: the difference of two runs, %d commands" % n)
print("instructions games=%s per_cmd=%.0f" % (games, (t3 - t1) / n))
rows = sorted(((f3.get(k, 0) - f1.get(k, 0)) / n, k) for k in set(f1) | set(f3))
for v, k in rows[::-1][:top]:
    print("#   %9.0f %s" % (v, k))
PY
echo "# runs kept in $work"
