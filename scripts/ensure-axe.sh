#!/bin/sh
# The accessibility checks of the browser tests use axe-core, pinned in
# tests/browser/axe/package-lock.json and installed from the npm registry with
# `npm ci` (never served to players). Needs Node.js and npm (Debian's `npm`,
# installed with apt-get when missing and we are root).
set -e
cd "$(dirname "$0")/../tests/browser/axe"

if [ -f node_modules/axe-core/axe.min.js ]; then
    exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y npm
    else
        echo "The accessibility tests need npm to install axe-core: install Node.js and npm." >&2
        exit 1
    fi
fi

npm ci --no-audit --no-fund --ignore-scripts
