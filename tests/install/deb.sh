#!/usr/bin/env bash
# deb.sh BUILD VERSION — cpack -G DEB with BUILD's CPack configuration into
# a scratch folder: lintian reports no error and no warning (and nothing is
# overridden); the package's control shows the name, version, section,
# maintainer and the Debian runtime libraries in Depends; /etc/porrazo's
# example is a conffile; unpacked with dpkg -x into a scratch root, its
# binaries are stripped, its man pages and changelog gzip -9n, its docs in
# /usr/share/doc/porrazo-bot (the package's name) with a machine-readable
# copyright holding the LICENSE's terms and the rule book beside the README
# (whose link leads there), --help names installed paths,
# porrazo-bot --version and porrazo-replay run, and its unit starts
# /usr/bin/porrazo-bot.
. "$(dirname "$0")/lib.sh"
build=$1 version=$2 src=$3
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need lintian lintian
need readelf binutils

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/pkg" > "$scratch/cpack.log" 2>&1 ||
    fail "cpack failed: $(cat "$scratch/cpack.log")"
debs=("$scratch"/pkg/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single .deb: ${debs[*]}"
deb=${debs[0]}
[ "$(basename "$deb")" = "porrazo-bot_${version}_$(dpkg --print-architecture).deb" ] ||
    fail "unexpected package file name $(basename "$deb")"

# lintian as root needs --allow-root (its checks read the package only).
lintian_args=(--fail-on error,warning --no-override)
[ "$(id -u)" -ne 0 ] || lintian_args+=(--allow-root)
lintian "${lintian_args[@]}" "$deb" > "$scratch/lintian.txt" 2>&1 ||
    fail "lintian finds errors or warnings in $(basename "$deb"):
$(cat "$scratch/lintian.txt")"
! grep -qE '^[EW]: ' "$scratch/lintian.txt" || fail "lintian: $(cat "$scratch/lintian.txt")"

info=$(dpkg-deb -I "$deb")
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = porrazo-bot ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Section)" = net ] || fail "Section: $(field Section)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
for lib in libc6 libircclient1 libcurl4 libjson-c5 libmicrohttpd12 libsqlite3-0 libssl3; do
    echo "$depends" | tr ',' '\n' | grep -qE "^ *$lib( |$)" ||
        fail "Depends lacks $lib: $depends"
done
echo "$info" | grep -q conffiles || fail "the package has no conffiles"
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" = /etc/porrazo/porrazo.conf.example ] ||
    fail "conffiles is not /etc/porrazo/porrazo.conf.example"

root=$scratch/root
dpkg -x "$deb" "$root"
doc=usr/share/doc/porrazo-bot
for f in usr/bin/porrazo-bot usr/bin/porrazo-replay etc/porrazo/porrazo.conf.example \
    usr/lib/systemd/system/porrazo-bot.service $doc/copyright $doc/changelog.gz \
    $doc/README.md $doc/FAIRNESS.md $doc/RULES.md $doc/REPLAY.md $doc/porrazo.conf.example \
    usr/share/man/man1/porrazo-bot.1.gz usr/share/man/man1/porrazo-replay.1.gz \
    usr/share/man/man5/porrazo.conf.5.gz usr/share/locale/es/LC_MESSAGES/porrazo-es.mo; do
    [ -f "$root/$f" ] || fail "the package lacks /$f"
done
# Outputs are read whole before grep -q searches them: a pipe into grep -q
# ends the writer with SIGPIPE when it matches early, which pipefail turns
# into a failed test (or, under !, into a check that cannot fail).
[ -z "$(find "$root" -path "$root/usr/etc*")" ] || fail "the package has /usr/etc"
[ ! -e "$root/usr/share/doc/porrazo" ] || fail "the package has docs in /usr/share/doc/porrazo"
for b in porrazo-bot porrazo-replay; do
    sections=$(readelf -S "$root/usr/bin/$b")
    ! grep -qE '\.(debug_|symtab)' <<<"$sections" ||
        fail "/usr/bin/$b is not stripped"
done
for gz in $(cd "$root" && find usr/share/man $doc -name '*.gz'); do
    gzip -t "$root/$gz" || fail "/$gz is not gzip"
    # -n: no name nor time stamp in the header (bytes 4-7 are the time).
    [ "$(od -An -tx1 -j3 -N5 "$root/$gz" | tr -d ' ')" = 0000000000 ] ||
        fail "/$gz was not made with gzip -n"
done
cmp "$src/engine/RULES.md" "$root/$doc/RULES.md" || fail "RULES.md differs from the spec"
grep -q '`RULES.md`' "$root/$doc/README.md" && ! grep -q 'shared/spec/RULES' "$root/$doc/README.md" ||
    fail "the installed README does not link the RULES.md beside it"
copyright=$root/$doc/copyright
grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$copyright" ||
    fail "copyright is not machine-readable: $(head -3 "$copyright")"
grep -qx "Copyright: $(sed -n 's/^Copyright (c) //p' "$src/LICENSE")" "$copyright" ||
    fail "copyright lacks the LICENSE's holder"
# Its License paragraph, unfolded, is the LICENSE's terms.
terms=$(awk '/^License: Expat$/ { text = ""; on = 1; next } on { text = text $0 "\n" }
              END { printf "%s", text }' "$copyright" | sed 's/^ //; s/^\.$//')
[ "$terms" = "$(sed '1,/^Copyright (c)/d' "$src/LICENSE" | sed '/./,$!d')" ] ||
    fail "copyright's terms differ from LICENSE's: $terms"
changelog=$(zcat "$root/$doc/changelog.gz")
[[ "${changelog%%$'\n'*}" == "porrazo-bot ($version) "* ]] ||
    fail "changelog.gz does not start with version $version"
help=$("$root/usr/bin/porrazo-bot" --help)
echo "$help" | grep -q /etc/porrazo/porrazo.conf.example || fail "--help names no installed example: $help"
! echo "$help" | grep -q 'config/porrazo' || fail "--help names a path of the source tree: $help"
[ "$("$root/usr/bin/porrazo-bot" --version)" = "porrazo-bot $version" ] ||
    fail "the packaged porrazo-bot --version: $("$root/usr/bin/porrazo-bot" --version 2>&1)"
replayed=$(echo '{"players": 3, "seed": 7}' | "$root/usr/bin/porrazo-replay" -)
grep -q '"event": *"state"' <<<"$replayed" ||
    fail "the packaged porrazo-replay does not run"
grep -q '^ExecStart=/usr/bin/porrazo-bot ' "$root/usr/lib/systemd/system/porrazo-bot.service" ||
    fail "the packaged unit does not start /usr/bin/porrazo-bot"
echo "deb: $(basename "$deb"), lintian clean, Depends: $depends; unpacked, --version runs"
