#!/bin/bash
# tests/bench/peers/run.sh — porrazo-bot side by side with Eggdrop (and
# Limnoria) on one local ngircd: the same load driver (driver.py), the same
# settings, one bot at a time alone in #bench. Eggdrop answers "!dice 2d6"
# (a Tcl command, eggdrop.conf.in); porrazo-bot answers "!turn" in a room
# whose game is under way, with 1 and 10,000 games in progress in its
# database (built by `porrazo-bench --host --make-db`, through the host's
# own entry point). Prints the driver's table: reply latency with one
# command in flight, a throughput sweep, the bot's CPU per command and
# memory. Everything runs on 127.0.0.1 and stops by itself; it stops only
# the processes it started, by their PIDs.
#
# Adapted from the shared peer benchmark (shared/bench/peers: run.sh and
# porrazo/run-porrazo.sh, 2026-11-21/25), "tuned" profile only: ngircd
# without flood penalties, every bot without output throttling or flood
# ignores (porrazo.conf.in says how porrazo-bot is set).
#
# Usage (as root: it installs what is missing with apt-get and runs the
# peers as nobody, Eggdrop refusing root):
#   tests/bench/peers/run.sh                      # eggdrop, porrazo 1 and 10k: ~4 min
#   BOTS="eggdrop limnoria porrazo" tests/bench/peers/run.sh
#   GAMES=1 TP_RATES= tests/bench/peers/run.sh    # porrazo at 1 game, latency only
#
# Environment:
#   BOTS      "eggdrop porrazo"   (limnoria too, if you want it)
#   GAMES     "1 10000"           games in porrazo-bot's database, one run each
#   BUILD     <repo>/build        porrazo's build directory (built here, RelWithDebInfo)
#   SAMPLES   200, GAP 0.12       latency samples and the pause between them (s)
#   TP_RATES  "5,10,20,50"        throughput sweep, offered commands/s (empty: none)
#   BURST 1000, LINE_MS 0         porrazo-bot's send pacing ("tuned")
#   PORT      16667               RUN_DIR /tmp/porrazo-peers.<pid> (configs, logs, results)
#   BOT_WRAP  ""                  a command porrazo-bot runs under, in its own process
#                                 (valgrind, as peers_instr.sh; not strace, with or without -f: stopped, it
#                                 detaches and leaves the bot connected to the next run)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BOTS=${BOTS:-"eggdrop porrazo"}
GAMES=${GAMES:-"1 10000"}
BUILD=${BUILD:-$ROOT/build}
SAMPLES=${SAMPLES:-200}
GAP=${GAP:-0.12}
TP_RATES=${TP_RATES-5,10,20,50}
BURST=${BURST:-1000}
LINE_MS=${LINE_MS:-0}
PORT=${PORT:-16667}
RUN=${RUN_DIR:-/tmp/porrazo-peers.$$}
RESULTS=$RUN/results.jsonl
PY=python3
STARTED=() # PIDs this script started

log() { echo "[peers $(date +%T)] $*" >&2; }
die() { log "$*"; exit 1; }

stop_pid() { # stop_pid PID: TERM, then KILL after 10 s
    local pid=$1 i
    [ -n "$pid" ] || return 0
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
        sleep 0.1
    done
    log "PID $pid ignored SIGTERM for 10 s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}
cleanup() { local p; for p in "${STARTED[@]}"; do stop_pid "$p"; done; }
trap cleanup EXIT
trap 'log interrupted; exit 130' INT TERM

[ "$(id -u)" = 0 ] || die "run me as root: I install packages and start the bots as nobody"

# ---- What is needed (apt-get, only what is missing) -------------------------------------------
. "$ROOT/tests/deps.sh"
want=(ngircd util-linux iproute2 python3)
for b in $BOTS; do
    case $b in
        eggdrop) want+=(eggdrop) ;;
        limnoria) want+=(limnoria) ;;
        porrazo) want+=("${PZ_BUILD_PACKAGES[@]}" libcmocka-dev) ;; # porrazo-bench is under tests/
        *) die "unknown bot '$b' (eggdrop, limnoria, porrazo)" ;;
    esac
done
pz_install_packages "${want[@]}" || die "apt-get install failed"

mkdir -p "$RUN"
: > "$RESULTS"
chown nobody:nogroup "$RUN"

if [[ " $BOTS " == *" porrazo "* ]]; then
    log "building porrazo-bot and porrazo-bench in $BUILD"
    { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
      cmake --build "$BUILD" -j"$(nproc)" --target porrazo-bot porrazo_bench; } \
        > "$RUN/build.log" 2>&1 || die "the build failed: see $RUN/build.log"
fi

# ---- ngircd, flood penalties off ------------------------------------------------------------
port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q LISTEN; }
port_busy "$PORT" && die "port $PORT is in use (PORT=...)"
sed -e "s/^\([[:space:]]*Ports = \).*/\1$PORT/" "$HERE/ngircd.conf" > "$RUN/ngircd.conf"
ngircd -n -f "$RUN/ngircd.conf" > "$RUN/ngircd.log" 2>&1 < /dev/null &
NGIRCD=$!
STARTED+=("$NGIRCD")
for ((i = 0; i < 50; i++)); do port_busy "$PORT" && break; sleep 0.1; done
port_busy "$PORT" || die "ngircd did not start: see $RUN/ngircd.log"
if ss -Hltn "sport = :$PORT" | awk '{print $4}' | grep -qv '^127\.0\.0\.1:'; then
    die "ngircd listens beyond loopback: stopping"
fi
log "ngircd pid $NGIRCD on 127.0.0.1:$PORT"

as_nobody() { # as_nobody DIR CMD...: runs CMD in DIR as nobody, in the background
    local d=$1; shift
    (cd "$d" && exec setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$d" "$@" \
        > "$d/stdout.log" 2>&1 < /dev/null) &
    BOT_PID=$!
    STARTED+=("$BOT_PID")
}

drive() { # drive LABEL NICK COMMAND: the same driver settings for every bot
    local label=$1 nick=$2 cmd=$3 mode=both rc
    [ -n "$TP_RATES" ] || mode=latency
    timeout -k 5 600 $PY "$HERE/driver.py" run --port "$PORT" --bot "$nick" --bot-pid "$BOT_PID" \
        --clients 10 --tp-clients 10 --label "$label" --out "$RESULTS" --command "$cmd" \
        --mode "$mode" --lat-samples "$SAMPLES" --lat-gap "$GAP" --tp-rates "${TP_RATES:-5}" \
        --tp-seconds 5 --tp-drain 10 --settle 3 > "$RUN/driver-${label//\//_}.log" 2>&1
    rc=$?
    kill -0 "$BOT_PID" 2>/dev/null || log "$label: the bot exited during the run"
    log "$label: driver rc=$rc"
}

run_eggdrop() {
    local d=$RUN/eggdrop
    mkdir -p "$d"
    sed -e "s#@PORT@#$PORT#g; s#@NICK@#eggbot#g; s#@RUNDIR@#$d#g; s#@MSGRATE@#0#g;
            s#@FLOODCHAN@#0:0#g; s#@FLOODMSG@#0:0#g; s#@PUT@#putnow#g" \
        "$HERE/eggdrop.conf.in" > "$d/egg.conf"
    chown -R nobody:nogroup "$d"
    as_nobody "$d" eggdrop -n -m "$d/egg.conf"
    log "eggdrop pid $BOT_PID (msg-rate 0, putnow, flood off)"
    drive eggdrop/tuned eggbot "!dice 2d6"
    stop_pid "$BOT_PID"
}

run_limnoria() {
    local d=$RUN/limnoria
    mkdir -p "$d/conf"
    touch "$d/conf/users.conf" "$d/conf/channels.conf" "$d/conf/networks.conf" \
        "$d/conf/ignores.conf"
    sed -e "s#@PORT@#$PORT#g; s#@NICK@#limbot#g; s#@RUNDIR@#$d#g; s#@THROTTLE@#0.0#g;
            s#@FLOODCMD@#False#g; s#@POLL@#1.0#g" "$HERE/limnoria.conf.in" > "$d/bot.conf"
    chown -R nobody:nogroup "$d"
    as_nobody "$d" supybot "$d/bot.conf"
    log "limnoria pid $BOT_PID (throttleTime 0, flood ignore off)"
    drive limnoria/tuned limbot "!dice 2d6"
    stop_pid "$BOT_PID"
}

run_porrazo() { # run_porrazo GAMES
    local n=$1 d=$RUN/porrazo-$1
    mkdir -p "$d"
    # N games in progress, the last one in #bench between pl0 and pl1 (ids as
    # the IRC adapter makes them on a network without services).
    "$BUILD/bin/porrazo-bench" --host --make-db "$d/porrazo.db" --games "$n" --network bench \
        --id-prefix n: --room '#bench' --players n:pl0,n:pl1 > "$d/make-db.log" 2>&1 ||
        die "porrazo-bench --make-db failed: see $d/make-db.log"
    log "porrazo-$n: $(grep '^# build' "$d/make-db.log" | cut -c3-)"
    sed -e "s#@DB@#$d/porrazo.db#; s#@PORT@#$PORT#; s#@BURST@#$BURST#; s#@LINEMS@#$LINE_MS#;
            s#@LOGLEVEL@#info#" "$HERE/porrazo.conf.in" > "$d/porrazo.conf"
    chown -R nobody:nogroup "$d"
    # shellcheck disable=SC2086 # BOT_WRAP is words: a command and its options
    as_nobody "$d" ${BOT_WRAP:-} "$BUILD/bin/porrazo-bot" --config "$d/porrazo.conf"
    sleep 0.5
    if ! kill -0 "$BOT_PID" 2>/dev/null; then
        log "porrazo-bot refused to start:"; cat "$d/stdout.log" >&2
        return 1
    fi
    log "porrazo-bot pid $BOT_PID, $n games, burst $BURST, line_ms $LINE_MS"
    drive "porrazo-$n/tuned" porrazo "!turn"
    stop_pid "$BOT_PID"
}

for b in $BOTS; do
    case $b in
        eggdrop) run_eggdrop ;;
        limnoria) run_limnoria ;;
        porrazo) for n in $GAMES; do run_porrazo "$n"; done ;;
    esac
done
stop_pid "$NGIRCD"

{
    echo "# porrazo-bot and peers on one ngircd, $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# ngircd $(ngircd --version 2>/dev/null | head -1 | awk '{print $2}'), driver: 10 clients," \
        "$SAMPLES latency samples $GAP s apart, sweep '${TP_RATES:-none}' cmd/s;" \
        "eggdrop/limnoria '!dice 2d6', porrazo-N '!turn' with N games (burst $BURST, line_ms $LINE_MS)"
    echo
    $PY "$HERE/driver.py" table "$RESULTS"
    for f in "$RUN"/porrazo-*/stdout.log; do
        [ -f "$f" ] || continue
        echo "== $f: $(grep -c -i -E 'error|warn' "$f") error/warning lines"
        grep -i -E 'error|warn' "$f" | head -3
    done
} | tee "$RUN/report.txt"
log "done; everything is in $RUN"
