#!/usr/bin/env bash
# play_port.sh BOT SOURCE — bot/play's IRC half (bot/app/play_irc.py) on
# --port N: ngircd listens on N with the bot joined, and after Ctrl-C
# (SIGINT) or SIGTERM both are gone and no temporary folder is left (its
# TMPDIR is a scratch folder that must end empty); a busy port or a bad
# --port is refused with exit status 2.
. "$(dirname "$0")/lib.sh"
bot=$1 src=$2
need ngircd ngircd

tmp=$scratch/tmp
mkdir -p "$tmp"
pid="" holder=""
# On any exit, the players started here stop before the scratch folder goes.
trap 'for p in $pid $holder; do kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
      rm -rf "$scratch"' EXIT
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

for sig in INT TERM; do
    port=$(free_port)
    TMPDIR=$tmp python3 "$src/bot/app/play_irc.py" "$bot" "$scratch/play.db" --port "$port" \
        2> "$scratch/play.err" &
    pid=$!
    # The bot is in: ngircd answers on the port and lists porrazo in #porrazo.
    joined=no
    for _ in $(seq 100); do
        if python3 - "$port" <<'PY' 2>/dev/null; then
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
s.sendall(b"NICK probe\r\nUSER probe 0 * :probe\r\n")
data = b""
while b" 001 " not in data:
    chunk = s.recv(4096)
    if not chunk:
        sys.exit(1)
    data += chunk
s.sendall(b"NAMES #porrazo\r\n")
data = b""
while b" 366 " not in data:
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
sys.exit(0 if b"porrazo" in data.split(b" 353 ", 1)[-1].split(b"\r\n")[0] else 1)
PY
            joined=yes
            break
        fi
        sleep 0.2
    done
    [ "$joined" = yes ] || fail "no bot in #porrazo on port $port: $(cat "$scratch/play.err")"
    [ -n "$(ls -A "$tmp")" ] || fail "no temporary folder while running (TMPDIR not used?)"
    kill -"$sig" "$pid"
    set +e
    wait "$pid"
    set -e
    pid=""
    [ -z "$(ls -A "$tmp")" ] || fail "SIG$sig left $(ls -A "$tmp") behind"
    ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || fail "port $port still open after SIG$sig"
done

set +e
TMPDIR=$tmp python3 "$src/bot/app/play_irc.py" "$bot" "$scratch/play.db" --port 80 2> "$scratch/err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "from 1024 to 65535" "$scratch/err" || fail "--port 80: exit $rc, $(cat "$scratch/err")"
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True)
time.sleep(30)' > "$scratch/busy" &
holder=$!
for _ in $(seq 50); do [ -s "$scratch/busy" ] && break; sleep 0.1; done
set +e
TMPDIR=$tmp python3 "$src/bot/app/play_irc.py" "$bot" "$scratch/play.db" --port "$(cat "$scratch/busy")" 2> "$scratch/err"
rc=$?
set -e
kill "$holder"
wait "$holder" 2>/dev/null || true
holder=""
[ "$rc" -eq 2 ] && grep -q "is in use" "$scratch/err" || fail "a busy port: exit $rc, $(cat "$scratch/err")"
[ -z "$(ls -A "$tmp")" ] || fail "a refused start left $(ls -A "$tmp") behind"
echo "bot/play --port: listening with the bot in #porrazo; SIGINT and SIGTERM leave nothing behind"
