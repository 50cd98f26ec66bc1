#!/bin/sh
# check_po.sh SRC BUILD — the catalogues are complete (issue 20):
#   - every bot/po/*.po passes msgfmt --check (formats, header, plurals)
#     with no fuzzy entry (an entry one of them leaves untranslated may be
#     another's: es.po after the target po-update holds every string);
#   - the Spanish catalogue (bot/po/es.po, which the .mo is made from)
#     merged with a porrazo.pot made now from the sources has
#     no untranslated or fuzzy entry either: a new _() string without its
#     Spanish fails here, with its msgid shown.
set -eu
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# "N translated messages, M fuzzy translations, K untranslated messages."
stats() {
    LC_ALL=C msgfmt --check --statistics -o /dev/null "$1" 2>&1 | tail -n 1
}
complete() { # FILE [partial]: 0 when valid, no fuzzy and (unless partial) no untranslated entry
    s=$(stats "$1")
    echo "$1: $s"
    case $s in
    *fuzzy*) return 1 ;;
    *untranslated*) [ "${2-}" = partial ] ;;
    *" translated message"*) return 0 ;;
    *) return 1 ;;
    esac
}

for po in "$src"/bot/po/*.po; do
    complete "$po" partial || fail=1
done

# The pot of the sources as they are now (the build's rule, run again so
# that this test sees an edit made since the last build).
cmake --build "$build" --target pz_po >/dev/null
msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$tmp/merged.po" \
    "$src/bot/po/es.po" "$build/po/porrazo.pot"
if ! complete "$tmp/merged.po"; then
    echo "strings of the sources without a Spanish translation:" >&2
    msgattrib --untranslated --no-obsolete --no-wrap "$tmp/merged.po" | grep '^msgid ' | sed 1d >&2
    msgattrib --only-fuzzy --no-obsolete --no-wrap "$tmp/merged.po" | grep '^msgid ' | sed 1d >&2
    fail=1
fi
# How many strings the pot has: a check that read nothing would pass.
n=$(grep -c '^msgid "' "$build/po/porrazo.pot")
echo "porrazo.pot: $((n - 1)) strings"
[ "$n" -gt 100 ] || { echo "porrazo.pot has almost no strings: xgettext read nothing?" >&2; fail=1; }
exit $fail
