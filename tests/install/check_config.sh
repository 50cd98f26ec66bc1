#!/usr/bin/env bash
# check_config.sh BOT SOURCE — porrazo-bot --check-config on files with
# several errors lists every one (FILE:LINE and the suggestion) and exits 1;
# a file with warnings only exits 0; an unset ${NAME} is a warning naming
# the variable (a normal start refuses it: an error, exit 2); the shipped
# example checks with exit 0 as the README's service steps run it, with and
# without --env-file (systemd's EnvironmentFile= syntax), and no secret of
# that file reaches the output; no database file is made and no network is
# opened.
. "$(dirname "$0")/lib.sh"
bot=$1 src=$2
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
    "warning: bad.conf:18: password uses \${PZ_CHECK_CONFIG_UNSET}, which is not set here; porrazo-bot needs PZ_CHECK_CONFIG_UNSET in its environment at start"
    "bad.conf: 7 errors, 1 warning"
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
grep -qF "porrazo-bot: error: bad.conf:18: password uses \${PZ_CHECK_CONFIG_UNSET}, but the environment variable PZ_CHECK_CONFIG_UNSET is not set" err2.txt ||
    fail "a start must refuse the unset variable: $(cat err2.txt)"
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
# The README's service steps: the shipped example as /etc/porrazo/porrazo.conf,
# its password in porrazo.env, which the admin's shell never reads.
cp "$src/config/porrazo.example.conf" porrazo.conf
unset PORRAZO_LIBERA_PASSWORD PORRAZO_MATRIX_TOKEN PORRAZO_MATRIX_PASSWORD
"$bot" --check-config porrazo.conf > out5.txt 2> err5.txt ||
    fail "--check-config on the shipped example exited $?: $(cat out5.txt err5.txt)"
grep -qE "^warning: porrazo.conf:[0-9]+: sasl_password uses \\\$\{PORRAZO_LIBERA_PASSWORD\}, which is not set here; porrazo-bot needs PORRAZO_LIBERA_PASSWORD in its environment at start \(the service's EnvironmentFile=, or --env-file FILE\)$" out5.txt ||
    fail "no warning naming PORRAZO_LIBERA_PASSWORD: $(cat out5.txt)"
grep -qE "^porrazo.conf: 0 errors, [0-9]+ warnings?: the configuration is valid$" out5.txt ||
    fail "no valid summary: $(cat out5.txt)"
[ ! -s err5.txt ] || fail "--check-config wrote to stderr: $(cat err5.txt)"

# The same with the env file, in systemd's syntax (a comment, quotes, blanks),
# its values secrets: no warning about the variable, and no value printed.
secret='pw "with" $pecial#chars'
cat > porrazo.env <<'ENV'
# the bot's secrets, read by systemd as root (EnvironmentFile=)
PORRAZO_LIBERA_PASSWORD='pw "with" $pecial#chars'
  UNUSED_TOKEN = tok-3x4mpl3-v4lu3
ENV
chmod 600 porrazo.env
"$bot" --check-config porrazo.conf --env-file porrazo.env > out6.txt 2> err6.txt ||
    fail "--check-config --env-file exited $?: $(cat out6.txt err6.txt)"
! grep -q PORRAZO_LIBERA_PASSWORD out6.txt || fail "the env file's variable still warned: $(cat out6.txt)"
[ "$(grep -c '^warning:' out6.txt)" -eq "$(($(grep -c '^warning:' out5.txt) - 1))" ] ||
    fail "--env-file should remove exactly one warning: $(cat out5.txt) / $(cat out6.txt)"
for v in "$secret" 'pw "with"' pecial tok-3x4mpl3-v4lu3; do
    ! grep -qF -- "$v" out6.txt err6.txt || fail "a secret of the env file reached the output"
done
# A start reads the same file: the configuration is accepted (the --export
# of a game the new database lacks fails after it), and no secret is printed.
set +e
"$bot" --config porrazo.conf --env-file porrazo.env --db start.db --export 1 > out7.txt 2> err7.txt
rc=$?
"$bot" --config porrazo.conf --db start2.db --export 1 > out8.txt 2> err8.txt
rc8=$?
set -e
[ "$rc" -eq 1 ] && ! grep -q 'error: porrazo.conf' err7.txt ||
    fail "a start with --env-file: exit $rc, $(cat err7.txt)"
for v in "$secret" 'pw "with"' pecial tok-3x4mpl3-v4lu3; do
    ! grep -qF -- "$v" out7.txt err7.txt || fail "a secret of the env file reached a start's output"
done
[ "$rc8" -eq 2 ] && grep -qF "environment variable PORRAZO_LIBERA_PASSWORD is not set" err8.txt ||
    fail "a start without the variable: exit $rc8, $(cat err8.txt)"
[ ! -e start2.db ] || fail "a refused start made its database"

# An env file others may read is a warning; one that cannot be opened an error.
chmod 644 porrazo.env
"$bot" --check-config porrazo.conf --env-file porrazo.env > out9.txt ||
    fail "a readable env file is no error: $(cat out9.txt)"
grep -qF "warning: porrazo.env: other users may read this file of secrets; make it private with chmod 600" out9.txt ||
    fail "no warning about a readable env file: $(cat out9.txt)"
set +e
"$bot" --check-config porrazo.conf --env-file nowhere.env > out10.txt
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -qF "error: nowhere.env: cannot open: No such file or directory" out10.txt ||
    fail "a missing env file: exit $rc, $(cat out10.txt)"
echo "check-config: 7 errors and an unset variable listed, exit 1; warnings only, exit 0;" \
    "the shipped example valid with and without --env-file, no secret printed; no database made"
