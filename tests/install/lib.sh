# tests/install/lib.sh — sourced by the install tests: a scratch folder
# removed on exit, failing with a message, and a tool installed from its
# Debian package when missing (tests/deps.sh; tests/check installs them
# all beforehand, so this only matters when a test is run alone).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../deps.sh
. "$here/../deps.sh"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/porrazo-install-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# fail MESSAGE...: says what went wrong and ends the test.
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# need COMMAND PACKAGE: installs PACKAGE when COMMAND is not on the PATH.
need() {
    command -v "$1" >/dev/null 2>&1 || pz_install_packages "$2"
    command -v "$1" >/dev/null 2>&1 || fail "$1 is missing and $2 could not be installed"
}
