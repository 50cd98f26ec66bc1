#!/usr/bin/env bash
# deb.sh BUILD VERSION — cpack -G DEB with BUILD's CPack configuration into
# a scratch folder: the package's control shows the name, version, section,
# maintainer and the Debian runtime libraries in Depends; /etc/porrazo's
# example is a conffile; unpacked with dpkg -x into a scratch root, its
# porrazo-bot --version and porrazo-replay run, and its unit starts
# /usr/bin/porrazo-bot.
. "$(dirname "$0")/lib.sh"
build=$1 version=$2
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/pkg" > "$scratch/cpack.log" 2>&1 ||
    fail "cpack failed: $(cat "$scratch/cpack.log")"
debs=("$scratch"/pkg/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single .deb: ${debs[*]}"
deb=${debs[0]}
[ "$(basename "$deb")" = "porrazo-bot_${version}_$(dpkg --print-architecture).deb" ] ||
    fail "unexpected package file name $(basename "$deb")"

info=$(dpkg-deb -I "$deb")
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = porrazo-bot ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Section)" = games ] || fail "Section: $(field Section)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
for lib in libc6 libircclient1 libcurl4 libjson-c5 libsqlite3-0 libssl3; do
    echo "$depends" | tr ',' '\n' | grep -qE "^ *$lib( |$)" ||
        fail "Depends lacks $lib: $depends"
done
echo "$info" | grep -q conffiles || fail "the package has no conffiles"
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" = /etc/porrazo/porrazo.conf.example ] ||
    fail "conffiles is not /etc/porrazo/porrazo.conf.example"

root=$scratch/root
dpkg -x "$deb" "$root"
for f in usr/bin/porrazo-bot usr/bin/porrazo-replay etc/porrazo/porrazo.conf.example \
    usr/lib/systemd/system/porrazo-bot.service usr/share/doc/porrazo/LICENSE \
    usr/share/doc/porrazo/README.md usr/share/man/man1/porrazo-bot.1 \
    usr/share/man/man1/porrazo-replay.1 usr/share/man/man5/porrazo.conf.5; do
    [ -f "$root/$f" ] || fail "the package lacks /$f"
done
! find "$root" -path "$root/usr/etc*" | grep -q . || fail "the package has /usr/etc"
[ "$("$root/usr/bin/porrazo-bot" --version)" = "porrazo-bot $version" ] ||
    fail "the packaged porrazo-bot --version: $("$root/usr/bin/porrazo-bot" --version 2>&1)"
echo '{"players": 3, "seed": 7}' | "$root/usr/bin/porrazo-replay" - | grep -q '"event": *"state"' ||
    fail "the packaged porrazo-replay does not run"
grep -q '^ExecStart=/usr/bin/porrazo-bot ' "$root/usr/lib/systemd/system/porrazo-bot.service" ||
    fail "the packaged unit does not start /usr/bin/porrazo-bot"
echo "deb: $(basename "$deb"), Depends: $depends; unpacked, --version runs"
