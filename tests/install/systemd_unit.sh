#!/usr/bin/env bash
# systemd_unit.sh BUILD — the installed porrazo-bot.service passes
# systemd-analyze verify with no message at all (it exits 0 even on keys
# it ignores, so any output fails), its man pages found where they were
# installed, and it has the hardening and layout the README promises.
. "$(dirname "$0")/lib.sh"
build=$1
need systemd-analyze systemd
need man man-db

prefix=$scratch/prefix # no DESTDIR: ExecStart must name a file that exists
cmake --install "$build" --prefix "$prefix" > "$scratch/install.log" ||
    fail "cmake --install failed: $(cat "$scratch/install.log")"
unit=$prefix/lib/systemd/system/porrazo-bot.service
out=$(MANPATH="$prefix/share/man:" SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$unit" 2>&1) ||
    fail "systemd-analyze verify failed: $out"
[ -z "$out" ] || fail "systemd-analyze verify says: $out"

for line in "DynamicUser=yes" "StateDirectory=porrazo" "ProtectSystem=strict" \
    "ProtectHome=yes" "NoNewPrivileges=yes" "PrivateTmp=yes" "ProtectKernelTunables=yes" \
    "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX" "Restart=on-failure" \
    "ExecReload=/bin/kill -HUP \$MAINPID" "WantedBy=multi-user.target" \
    "ExecStart=$prefix/bin/porrazo-bot --config /etc/porrazo/porrazo.conf --db /var/lib/porrazo/porrazo.db"; do
    grep -qxF -- "$line" "$unit" || fail "the unit lacks '$line'"
done

# A broken copy is caught: the check above is not blind.
sed 's/^ProtectSystem=strict/ProtectSystem=strictly/' "$unit" > "$scratch/broken.service"
out=$(MANPATH="$prefix/share/man:" systemd-analyze verify "$scratch/broken.service" 2>&1 || true)
[ -n "$out" ] || fail "systemd-analyze verify did not notice a bad ProtectSystem value"
echo "systemd unit: systemd-analyze verify clean; hardening present"
