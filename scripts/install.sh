#!/usr/bin/env bash
# What the quick start's two commands share (scripts/demo.sh, scripts/test.sh): the project's Node
# (Node 24 from the npm registry, scripts/provision-node.sh) first on PATH, and the npm packages
# installed from package-lock.json when node_modules is missing or older than the lock file.
# `npm ci` leaves package.json and the lock file as they are, so the clone stays clean.
# Sourced, not run: `source scripts/install.sh`.
_install_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=./provision-node.sh
source "$_install_root/scripts/provision-node.sh" || return 1
if [ ! -f "$_install_root/node_modules/.package-lock.json" ] || [ "$_install_root/package-lock.json" -nt "$_install_root/node_modules/.package-lock.json" ]; then
  echo "install: npm packages (npm ci)…" >&2
  # Electron's own binary is only for the tray app (`npm run app`), from a host some networks cannot
  # reach; the demo and the tests do not use it. `node node_modules/electron/install.js` fetches it later.
  (cd "$_install_root" && ELECTRON_SKIP_BINARY_DOWNLOAD="${ELECTRON_SKIP_BINARY_DOWNLOAD:-1}" npm ci --no-audit --no-fund) || return 1
fi
unset _install_root
