#!/usr/bin/env bash
# Installs Debian's chromium (the browser the end-to-end tests drive through playwright-core) when
# /usr/bin/chromium is missing. Idempotent: an installed browser is left as it is.
# Playwright's own browser download does not work here; the tests use executablePath instead.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "install-chromium: $CHROMIUM already installed ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-chromium: not root and no sudo; cannot install chromium" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
install() { "${as_root[@]}" apt-get install -y --no-install-recommends chromium; }

echo "install-chromium: $CHROMIUM missing; installing Debian's chromium"
if ! install; then
  echo "install-chromium: install failed; running apt-get update and trying again"
  "${as_root[@]}" apt-get update
  install
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "install-chromium: chromium installed but $CHROMIUM is missing" >&2
  exit 1
fi
echo "install-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
