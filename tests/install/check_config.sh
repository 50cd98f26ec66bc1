#!/usr/bin/env bash
# check_config.sh BOT — porrazo-bot --check-config on files with several
# errors lists every one (FILE:LINE and the suggestion) and exits 1; a file
# with warnings only exits 0; no database file is made and no network is
# opened; a normal start with the broken file prints the same errors and
# exits 2.
. "$(dirname "$0")/lib.sh"
bot=$1
cd "$scratch"

cat > bad.conf <<'CONF'
[bot]
database = should-not-exist.db
max_games = lots
log_levle = info

[irc libera]
host = irc.libera.chat
nick = 9lives
channels = #porrazo, not a channel
tls = maybe

[irx typo]
junk here

[matrix m]
homeserver = ftp://matrix.example.org
user = @bot:example.org
password = ${PZ_CHECK_CONFIG_UNSET}
CONF
unset PZ_CHECK_CONFIG_UNSET
set +e
"$bot" --check-config bad.conf > out.txt 2> err.txt
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "--check-config exit status $rc, want 1; output: $(cat out.txt err.txt)"
[ ! -s err.txt ] || fail "--check-config wrote to stderr: $(cat err.txt)"
want=(
    "error: bad.conf:3: max_games must be a whole number from 1 to 1000000"
    "error: bad.conf:4: [bot] has no key log_levle; did you mean log_level?"
    "error: bad.conf:8: nick is not a valid IRC nick"
    "error: bad.conf:9: entry 2 of channels is not a channel name"
    "error: bad.conf:10: tls must be true or false (or yes/no, on/off)"
    "error: bad.conf:12: unknown section; did you mean [irc NAME]?"
    "error: bad.conf:16: homeserver must be a URL starting with https://"
    "error: bad.conf:18: password uses \${PZ_CHECK_CONFIG_UNSET}, but the environment variable"
    "bad.conf: 8 errors, 0 warnings"
)
for w in "${want[@]}"; do
    grep -qF -- "$w" out.txt || fail "missing from --check-config: '$w'; got:
$(cat out.txt)"
done
[ "$(wc -l < out.txt)" -eq ${#want[@]} ] || fail "want ${#want[@]} lines, got:
$(cat out.txt)"
[ ! -e should-not-exist.db ] || fail "--check-config made the database"

# The same file at a normal start: every error on stderr, exit 2, no database.
set +e
"$bot" --config bad.conf > out2.txt 2> err2.txt
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a start with bad.conf exited $rc, want 2"
[ "$(grep -c '^porrazo-bot: error: bad.conf:' err2.txt)" -eq 8 ] ||
    fail "a start with bad.conf should print its 8 errors; got: $(cat err2.txt)"
[ ! -e should-not-exist.db ] || fail "a start with a bad configuration made the database"

# Warnings only: valid, exit 0; the host is unresolvable, and never asked.
cat > warn.conf <<'CONF'
[bot]
database = should-not-exist.db
owners = elsewhere:alice
[irc x]
host = irc.invalid
tls = false
nickserv_password = secret-in-clear
nick = porrazo
channels = #porrazo
CONF
"$bot" --check-config warn.conf > out3.txt || fail "a file with warnings only must exit 0: $(cat out3.txt)"
grep -qF "warning: warn.conf:6: [irc x] sends its password in clear" out3.txt ||
    fail "no clear-text warning: $(cat out3.txt)"
grep -qF "warning: warn.conf:3: entry 1 of owners names the network elsewhere" out3.txt ||
    fail "no owners warning: $(cat out3.txt)"
grep -qF "warn.conf: 0 errors, 2 warnings: the configuration is valid" out3.txt ||
    fail "no summary: $(cat out3.txt)"
! grep -q secret-in-clear out3.txt || fail "a password was printed"
[ ! -e should-not-exist.db ] || fail "--check-config made the database"

# A file that does not exist is one error.
set +e
"$bot" --check-config missing.conf > out4.txt
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -qF "error: missing.conf: cannot open: No such file or directory" out4.txt ||
    fail "a missing file: exit $rc, $(cat out4.txt)"
echo "check-config: 8 errors listed, exit 1; warnings only, exit 0; no database made"
