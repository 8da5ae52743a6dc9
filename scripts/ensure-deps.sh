#!/usr/bin/env bash
# Installs the Debian packages the build needs when they are missing: libssl-dev (libcrypto, for plugin
# trust hashes) and a C compiler (for the C plugin and the test fixtures). Swift itself comes with the
# machine image. Sourced or run by install.sh, test.sh and .ci/run.
set -euo pipefail
missing=()
[ -e /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
[ -e /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
# python3 with venv: the peer tests install skills-ref, icalendar and the official `mcp` client into .build/peers/.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
# The HTTPS transport test makes a self-signed certificate with the openssl command and serves it with python3.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# The scale-out test puts three `skillhost mcp --http` replicas behind HAProxy; the deployment files are
# checked with yamllint (docs/deploy.md).
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v yamllint >/dev/null 2>&1 || missing+=(yamllint)
# The nginx configuration docs/deploy.md shows is run as written (TLS ending at nginx in front of replicas).
[ -x /usr/sbin/nginx ] || missing+=(nginx)
# The attacker's suite types into a real terminal (tmux) and reads victims' I/O priority (util-linux's ionice).
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v ionice >/dev/null 2>&1 || missing+=(util-linux)
# Plugin package signatures are checked against the real minisign (keys and signatures both ways).
command -v minisign >/dev/null 2>&1 || missing+=(minisign)
# Skills' scripts run with the system's python3 (/usr/bin); the vendored skill-creator's script needs PyYAML.
[ -x /usr/bin/python3 ] || missing+=(python3)
/usr/bin/python3 -c 'import yaml' >/dev/null 2>&1 || missing+=(python3-yaml)
# The clock plugin reads time zones from the system's database (TZif files and their index, tzdata.zi).
[ -e /usr/share/zoneinfo/tzdata.zi ] || missing+=(tzdata)
# `skillhost ui`'s tests drive the page in headless Chromium through chromedriver (Selenium from PyPI).
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
    echo "==> installing ${missing[*]} (Debian packages)"
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    else
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    fi
fi
