#!/usr/bin/env bash
# The README's second command, and what .ci/run calls: installs what the tests need that is missing
# (the Debian packages when run as root; otherwise it prints the one line to run), the project's Node
# and the npm packages, then runs every test (npm test: typecheck, lint, unit + integration, e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian packages the tests run for real: media tools, the UI's browser (and its headless build, which
# the e2e specs drive), SQLite's shell, the MQTT broker and promtool.
packages=(ffmpeg comskip chromium chromium-headless-shell sqlite3 mosquitto prometheus)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "test: installing ${missing[*]} (apt-get)…" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test: the tests need Debian packages that are missing; run this once, then again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
# shellcheck source=./install.sh
source scripts/install.sh
echo "test: node $(node -v) ($(command -v node)), npm $(npm -v)" >&2
exec npm test "$@"
