#!/usr/bin/env bash
# npm test's first step: the typecheck and the lint side by side (each keeps one core busy; one after
# the other they were the first minute of a test run). Each one's output is printed whole, the
# typecheck's first; the step fails if either does.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm run -s typecheck >"$out/typecheck" 2>&1 &
typecheck=$!
npm run -s lint >"$out/lint" 2>&1 &
lint=$!
wait "$typecheck"; typecheck_status=$?
wait "$lint"; lint_status=$?
cat "$out/typecheck" "$out/lint"
[ "$typecheck_status" = 0 ] || echo "static checks: the typecheck failed (above)" >&2
[ "$lint_status" = 0 ] || echo "static checks: the lint failed (above)" >&2
[ "$typecheck_status" = 0 ] && [ "$lint_status" = 0 ]
