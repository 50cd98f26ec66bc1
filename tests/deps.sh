# tests/deps.sh — sourced by tests/check and bot/play: installs the Debian
# packages the project needs when any is missing (apt-get, as root or
# through sudo). Usage: pz_install_packages PACKAGE...
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

# What building and testing porrazo needs (systemd, man-db, groff-base,
# dpkg-dev, lintian and binutils for tests/install/: systemd-analyze, man,
# groff, dpkg-shlibdeps, Debian's package checker, readelf;
# inspircd and atheme-services for tests/irc/test_irc_services.py;
# python3-matrix-nio, a real Matrix client, for tests/matrix/test_mx_nio.py;
# tzdata, the time zones players choose with "tz"; libmicrohttpd-dev for the game
# pages (bot/web), chromium, chromium-driver and python3-selenium for
# tests/web/web_e2e.py, wrk, nginx-light and apache2-utils for tests/bench/web_bench.py; gettext, the catalogues
# of bot/po: xgettext, msgfmt, msgcat, msgmerge).
PZ_BUILD_PACKAGES=(build-essential cmake pkg-config python3 libjson-c-dev libcmocka-dev
    libsqlite3-dev libircclient-dev libssl-dev libcurl4-openssl-dev ngircd openssl
    systemd man-db groff-base dpkg-dev lintian binutils inspircd atheme-services python3-matrix-nio tzdata
    libmicrohttpd-dev chromium chromium-driver python3-selenium wrk nginx-light apache2-utils
    gettext)
