#!/bin/bash
# tests/bench/host_misses.sh — what a command of the host bench costs in
# instructions and cache misses, counted by valgrind's cachegrind rather
# than timed: the same figures on a loaded machine as on a quiet one, so a
# change can be judged by them where the medians of porrazo-bench --host
# move by more than the change (issue 34).
#
# For each size it runs `porrazo-bench --host --sizes N --warmup 0
# --no-restart --seed 7` under cachegrind twice, with S and 3*S samples,
# and prints the difference per command (so the build, the open and the
# rooms' walk at the start cancel out): instructions, first-level data
# misses and last-level misses (cachegrind's model of this machine's
# caches: a last-level miss is a read from memory), then the functions
# with most last-level misses over those 2*S commands (cg_diff). No
# warm-up: every sampled room is one no earlier command read. It models
# neither the TLB nor the hardware prefetchers, nor the kernel: it counts,
# it does not time.
#
#   tests/bench/host_misses.sh                  # sizes 1 and 100000, S 1000: ~2 min
#   SIZES="1 10000" SAMPLES=500 tests/bench/host_misses.sh
#
# Environment: BUILD (default <repo>/build), SIZES, SAMPLES, DB_DIR (the
# bench's cached databases, default $BUILD/bench-db), TOP (functions
# listed, 8).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SIZES=${SIZES:-"1 100000"}
SAMPLES=${SAMPLES:-1000}
DB_DIR=${DB_DIR:-$BUILD/bench-db}
TOP=${TOP:-8}
BENCH=$BUILD/bin/porrazo-bench
command -v valgrind >/dev/null || { echo "host_misses: valgrind is not installed" >&2; exit 2; }
[ -x "$BENCH" ] || { echo "host_misses: no $BENCH: build first" >&2; exit 2; }
work=$(mktemp -d /tmp/pz-misses.XXXXXX)
trap 'rm -rf "$work"' EXIT

# run SIZE N: cachegrind's output of the measuring process (the child with
# the most instructions) into $work/SIZE-N.out
run() {
    local out="$work/$1-$2"
    valgrind --tool=cachegrind --cache-sim=yes --trace-children=yes \
        --cachegrind-out-file="$out.%p" "$BENCH" --host --sizes "$1" --samples "$2" \
        --warmup 0 --no-restart --seed 7 --db-dir "$DB_DIR" >"$out.log" 2>&1 ||
        { echo "host_misses: the bench failed at $1 games:" >&2; tail -5 "$out.log" >&2; exit 1; }
    grep -q "^host games=$1 " "$out.log" ||
        { echo "host_misses: no host line at $1 games" >&2; exit 1; }
    mv "$(ls -S "$out".[0-9]* | head -1)" "$out.out"
}

# totals FILE: "Ir D1mr+D1mw DLmr+DLmw" of a cachegrind output
totals() {
    awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
         /^summary:/ { print $(col["Ir"] + 1), $(col["D1mr"] + 1) + $(col["D1mw"] + 1),
                       $(col["DLmr"] + 1) + $(col["DLmw"] + 1) }' "$1"
}

echo "# cachegrind, per command: the difference of $SAMPLES and $((3 * SAMPLES)) samples"
for n in $SIZES; do
    run "$n" "$SAMPLES"
    run "$n" "$((3 * SAMPLES))"
    read -r i1 d1 l1 < <(totals "$work/$n-$SAMPLES.out")
    read -r i3 d3 l3 < <(totals "$work/$n-$((3 * SAMPLES)).out")
    awk -v n="$n" -v k="$((2 * SAMPLES))" -v i="$((i3 - i1))" -v d="$((d3 - d1))" \
        -v l="$((l3 - l1))" 'BEGIN { printf "misses games=%s instr_per_cmd=%.0f d1_miss_per_cmd=%.1f ll_miss_per_cmd=%.2f commands=%d\n", n, i / k, d / k, l / k, k }'
    cg_diff "$work/$n-$SAMPLES.out" "$work/$n-$((3 * SAMPLES)).out" >"$work/$n.diff" 2>/dev/null
    cg_annotate --sort=DLmr,DLmw --show=DLmr,DLmw,Ir "$work/$n.diff" 2>/dev/null |
        awk -v top="$TOP" -v n="$n" '
            /file:function/ { on = 1; next }
            on && /^-+$/ { if (seen) exit; next }
            on && NF == 0 { if (seen) exit; next }
            on { line = $0; gsub(/\([^)]*\)/, "", line); split(line, f, " ");
                 if (f[1] == "0" && f[2] == "0") exit;
                 if (++seen <= top) printf "#   games=%s ll_read=%s ll_write=%s instr=%s %s\n", n, f[1], f[2], f[3], f[4] }'
done
