#!/usr/bin/env bash
# npm test: typecheck, lint, unit, integration (embedded database) and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${QM_CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "Browser tests need Debian's chromium at $chromium; installing it…"
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo -n"
  if command -v apt-get >/dev/null && { [ -z "$as_root" ] || sudo -n true 2>/dev/null; }; then
    $as_root apt-get install -y -qq chromium >/dev/null 2>&1 || { $as_root apt-get update -qq && $as_root apt-get install -y -qq chromium; }
  fi
  if [ ! -x "$chromium" ]; then
    echo "Could not install it here. Run:  sudo apt-get install -y chromium   (then npm test again)" >&2
    exit 1
  fi
fi

step() { printf '\n\033[1m▶ %s\033[0m\n' "$*"; }
# The tests and the demo use the SDK as built (sdk/dist), as its users will: build it from the current source.
step "build the Tool Host SDK" && npm run -s build:sdk
step "typecheck" && npm run -s typecheck
step "lint" && npm run -s lint
step "unit tests" && npm run -s test:unit
step "integration tests (embedded database)" && npm run -s test:integration
step "browser tests" && npm run -s test:e2e
printf '\n\033[1;32m✔ all tests passed\033[0m\n'
