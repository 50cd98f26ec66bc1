#!/usr/bin/env bash
# install_tree.sh BUILD SOURCE VERSION — cmake --install BUILD into a
# scratch DESTDIR with prefix /usr/local, checked file by file: exactly
# the expected files, binaries executable and answering --version, the
# documents equal to their sources (the README's spec links leading to the
# copies beside it), the unit naming the installed binary, and each man
# page, gzip -9n, rendered by man and groff without a warning.
. "$(dirname "$0")/lib.sh"
build=$1 src=$2 version=$3
need man man-db
need groff groff-base

root=$scratch/root prefix=/usr/local
DESTDIR=$root cmake --install "$build" --prefix "$prefix" > "$scratch/install.log" ||
    fail "cmake --install failed: $(cat "$scratch/install.log")"
p=$root$prefix
expected=(
    bin/porrazo-bot
    bin/porrazo-replay
    etc/porrazo/porrazo.conf.example
    lib/systemd/system/porrazo-bot.service
    share/doc/porrazo-bot/FAIRNESS.md
    share/doc/porrazo-bot/LICENSE
    share/doc/porrazo-bot/README.md
    share/doc/porrazo-bot/RULES.md
    share/doc/porrazo-bot/REPLAY.md
    share/doc/porrazo-bot/changelog.gz
    share/doc/porrazo-bot/copyright
    share/doc/porrazo-bot/porrazo.conf.example
    share/man/man1/porrazo-bot.1.gz
    share/man/man1/porrazo-replay.1.gz
    share/man/man5/porrazo.conf.5.gz
    share/locale/es/LC_MESSAGES/porrazo-es.mo
)
got=$(cd "$root" && find . -type f -o -type l | sed 's|^\./||' | sort)
want=$(printf "${prefix#/}/%s\n" "${expected[@]}" | sort)
[ "$got" = "$want" ] || fail "installed files differ:
$(diff <(echo "$want") <(echo "$got"))"

for b in porrazo-bot porrazo-replay; do
    [ -x "$p/bin/$b" ] || fail "bin/$b is not executable"
done
[ "$("$p/bin/porrazo-bot" --version)" = "porrazo-bot $version" ] ||
    fail "installed porrazo-bot --version: $("$p/bin/porrazo-bot" --version)"
echo '{"players": 2, "seed": 7}' | "$p/bin/porrazo-replay" - | tail -1 | grep -q '"event": *"state"' ||
    fail "installed porrazo-replay does not run a scenario"
# The installed bot reads Spanish from share/locale beside it, on a host
# with no locale but C.UTF-8 (bot/base/i18n.c).
# Its output is read whole, then searched: `| grep -q` quits at the match,
# a later write of the bot's then dies of SIGPIPE and pipefail calls the
# pipeline failed (1 run in 3, at two tests at once).
printf '[bot]\nlanguage = es\n' > "$scratch/es.conf"
rules=$(printf 'ann: !rules\n' | env -i LANG=C.UTF-8 "$p/bin/porrazo-bot" --console \
    --config "$scratch/es.conf" --db "$scratch/es.db" 2>/dev/null) ||
    fail "the installed porrazo-bot --console failed"
grep -q 'Porrazo: de 2 a 8 jugadores' <<<"$rules" ||
    fail "the installed porrazo-bot does not read its Spanish catalogue"

doc=$p/share/doc/porrazo-bot
cmp "$src/LICENSE" "$doc/LICENSE" || fail "LICENSE differs"
cmp <(sed 's,`\.\./shared/spec/\(RULES\|REPLAY\)\.md`,`\1.md`,g' "$src/README.md") "$doc/README.md" ||
    fail "README.md differs from the source with its spec links made local"
for spec in engine/RULES.md engine/replay/REPLAY.md; do
    cmp "$src/$spec" "$doc/$(basename "$spec")" || fail "$spec differs from the installed copy"
    grep -qF "\`$(basename "$spec")\`" "$doc/README.md" ||
        fail "the installed README does not name $(basename "$spec")"
done
for f in etc/porrazo/porrazo.conf.example share/doc/porrazo-bot/porrazo.conf.example; do
    cmp "$src/config/porrazo.example.conf" "$p/$f" || fail "$f differs from the example"
    [ "$(stat -c %a "$p/$f")" = 644 ] || fail "$f is not mode 644"
done

unit=$p/lib/systemd/system/porrazo-bot.service
grep -qxF "ExecStart=$prefix/bin/porrazo-bot --config /etc/porrazo/porrazo.conf --db /var/lib/porrazo/porrazo.db" "$unit" ||
    fail "the unit does not start $prefix/bin/porrazo-bot: $(grep ExecStart "$unit")"
! grep -q '@[A-Z_]*@' "$unit" || fail "the unit has an unreplaced @VAR@"

for page in man1/porrazo-bot.1 man1/porrazo-replay.1 man5/porrazo.conf.5; do
    gz=$p/share/man/$page.gz f=$scratch/$(basename "$page")
    [ "$(od -An -tx1 -j3 -N5 "$gz" | tr -d ' ')" = 0000000000 ] ||
        fail "$page.gz was not made with gzip -n (a name or time stamp in it)"
    zcat "$gz" > "$f" || fail "$page.gz is not gzip"
    grep -qF "porrazo-bot $version" "$f" || fail "$page does not carry version $version"
    warnings=$(MANWIDTH=80 man -l --warnings "$f" 2>&1 >/dev/null) || fail "man -l $page failed"
    [ -z "$warnings" ] || fail "man -l $page warns: $warnings"
    warnings=$(groff -man -ww -z "$f" 2>&1) || fail "groff $page failed"
    [ -z "$warnings" ] || fail "groff $page warns: $warnings"
    [ "$(MANWIDTH=80 man -l "$f" 2>/dev/null | wc -l)" -gt 20 ] || fail "$page renders almost nothing"
done
echo "install: ${#expected[@]} files under DESTDIR$prefix as expected; man pages render cleanly"
