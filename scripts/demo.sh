#!/usr/bin/env bash
# The README's first command: installs what the demo needs (Node 24 into .runtime/, the npm
# packages), then runs both services on their simulators (npm run demo). Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=./install.sh
source scripts/install.sh
command -v ffmpeg >/dev/null && command -v comskip >/dev/null ||
  echo "demo: without ffmpeg and comskip the demo runs with ad removal off (Debian: apt-get install ffmpeg comskip)" >&2
exec npm run demo "$@"
