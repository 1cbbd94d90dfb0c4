#!/usr/bin/env bash
# Runs the unit and integration suites (vitest) with the machine's clock at 03:00, 12:00 and 19:00
# local time in three zones (UTC, Australia/Sydney, America/New_York), to show no test depends on
# the hour or the zone it runs in (issue 39). For people, not CI: nine full runs take long.
#
#   scripts/test-at-hours.sh                      # every test folder, one folder at a time
#   scripts/test-at-hours.sh main/energy/tariff   # only these paths (vitest filters)
#   scripts/test-at-hours.sh "main/core renderer" # one vitest run for several paths (space-separated)
#   ZONES="UTC" HOURS="19:00" scripts/test-at-hours.sh main/recordings
#   VITEST_ARGS="--testTimeout=60000" scripts/test-at-hours.sh   # more time on a busy machine
#
# The clock comes from Debian's faketime (apt-get install faketime): it starts at today's date and
# the given hour in the zone and runs on from there; child processes share it (FAKETIME_DONT_RESET)
# and the monotonic clock, which timers use, stays real. Logs: $OUT (default test-results/at-hours).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v faketime >/dev/null || { echo "faketime is missing: apt-get install faketime" >&2; exit 2; }

ZONES=${ZONES:-"UTC Australia/Sydney America/New_York"}
HOURS=${HOURS:-"03:00 12:00 19:00"}
OUT=${OUT:-test-results/at-hours}
mkdir -p "$OUT"

if [ "$#" -gt 0 ]; then
  groups=("$@")
else
  # Folder by folder keeps a 2-core machine responsive; the top-level main/*.test.ts run as one group.
  groups=(main/core main/energy main/recordings main/integrations main/electron deploy preload renderer bench scripts)
  groups+=("$(echo main/*.test.ts)")
fi

failed=()
for zone in $ZONES; do
  for hour in $HOURS; do
    stamp="$(TZ=$zone date +%F) $hour:00"
    for group in "${groups[@]}"; do
      log="$OUT/$(echo "$zone-$hour-$group" | tr '/: ' '___' | cut -c1-120).log"
      printf '%-20s %s  %-40s ' "$zone" "$hour" "$group"
      if TZ=$zone FAKETIME_DONT_RESET=1 faketime --exclude-monotonic "$stamp" npx vitest run --passWithNoTests ${VITEST_ARGS:-} $group >"$log" 2>&1; then
        echo "ok"
      else
        echo "FAILED ($log)"
        failed+=("$zone $hour $group")
      fi
    done
  done
done

if [ "${#failed[@]}" -gt 0 ]; then
  printf 'failed:\n'; printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "all passed at every hour and zone"
