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
# libolm-dev, end-to-end encryption on Matrix, and python3-olm, which checks
# its signatures and lets nio encrypt, for tests/matrix/test_mx_e2ee*.py;
# tzdata, the time zones players choose with "tz").
PZ_BUILD_PACKAGES=(build-essential cmake pkg-config python3 libjson-c-dev libcmocka-dev
    libsqlite3-dev libircclient-dev libssl-dev libcurl4-openssl-dev ngircd openssl
    systemd man-db groff-base dpkg-dev lintian binutils inspircd atheme-services python3-matrix-nio
    libolm-dev python3-olm tzdata)
