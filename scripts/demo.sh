#!/usr/bin/env bash
# One command for a fresh Debian machine: installs Chromium and its headless shell (apt) when missing and the npm
# dependencies (Bun included), then runs the bundled demo: the example app and its flows.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${FLOWPROOF_CHROME:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
  echo "Installing Chromium from Debian's packages…"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi

if [ ! -x node_modules/.bin/bun ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies…"
  # No install scripts: a dev dependency's (the Selenium jar's) downloads again and fails offline; bun's runs below.
  npm ci --ignore-scripts --no-audit --no-fund
fi
node_modules/.bin/bun --version >/dev/null 2>&1 || node node_modules/bun/install.js

exec node_modules/.bin/bun scripts/demo.ts "$@"
