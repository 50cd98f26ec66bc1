#!/usr/bin/env bash
# same_as_shared.sh SOURCE — the project's copies of the rule book and the
# scenario format (engine/RULES.md, engine/replay/REPLAY.md, shipped in the
# .deb) are the text of ../shared/spec/, the authoritative one; where that
# folder is not beside the checkout, there is nothing to compare (77, skip).
set -euo pipefail
src=$1
spec=$src/../shared/spec
if [ ! -d "$spec" ]; then
    echo "skip: no $spec beside this checkout"
    exit 77
fi
rc=0
for pair in RULES.md:engine/RULES.md REPLAY.md:engine/replay/REPLAY.md; do
    if cmp -s "$spec/${pair%%:*}" "$src/${pair#*:}"; then
        echo "ok: ${pair#*:} is ../shared/spec/${pair%%:*}"
    else
        echo "FAIL: ${pair#*:} differs from ../shared/spec/${pair%%:*}: cp it again"
        rc=1
    fi
done
exit $rc
