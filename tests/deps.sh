# tests/deps.sh — sourced by bot/play, tests/check and the benchmarks: the
# Debian packages the project needs, and pz_install_packages PACKAGE...,
# which installs those missing (apt-get, as root or through sudo).
pz_install_packages() {
    local missing=() p sudo=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing ${missing[*]}" >&2
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >&2
}

# Three lists, so each command installs only what it uses:
#
# PZ_BUILD_PACKAGES: building and running the bot (bot/play installs these
# alone): the compiler and CMake, the libraries it links (json-c, SQLite,
# libircclient, OpenSSL, libcurl, libmicrohttpd for the game pages, libolm
# for Matrix's end-to-end encryption), python3 and ngircd for bot/play's
# local IRC server, tzdata for the time zones players choose with "tz",
# gettext for the translations' catalogues.
PZ_BUILD_PACKAGES=(build-essential cmake pkg-config python3 libjson-c-dev libsqlite3-dev
    libircclient-dev libssl-dev libcurl4-openssl-dev libmicrohttpd-dev libolm-dev ngircd tzdata
    gettext)

# PZ_TEST_PACKAGES: what the tests need besides (tests/check installs both
# lists): cmocka for the unit tests (without it the build has no tests);
# openssl, the certificates of the TLS tests (tests/irc/ircd.py); systemd,
# man-db, groff-base, dpkg-dev, lintian and binutils for tests/install/
# (systemd-analyze, man, groff, dpkg-shlibdeps, Debian's package checker,
# readelf); inspircd and atheme-services for tests/irc/test_irc_services.py;
# python3-matrix-nio, a real Matrix client, for tests/matrix/test_mx_nio.py;
# python3-olm, which checks libolm's signatures and lets nio encrypt, for
# tests/matrix/test_mx_e2ee*.py; nodejs (20 or later, with npm: NodeSource's
# package has both, Debian's wants npm besides) for the matrix-js-sdk players
# of tests/matrix/test_mx_jssdk.py, whose npm packages tests/check installs;
# chromium, chromium-driver and python3-selenium for tests/web/web_e2e.py.
PZ_TEST_PACKAGES=(libcmocka-dev openssl systemd man-db groff-base dpkg-dev lintian binutils
    inspircd atheme-services python3-matrix-nio python3-olm nodejs chromium chromium-driver
    python3-selenium)

# PZ_BENCH_PACKAGES: the web benchmark's tools (tests/bench/web_bench.py:
# wrk, nginx serving the same page as a file, curl to save it). Neither
# bot/play nor tests/check installs them; the benchmark names what is
# missing and how to install it.
PZ_BENCH_PACKAGES=(wrk nginx-light curl)
