#!/bin/sh
# axe-core, for the accessibility browser tests only: from the npm registry at the
# version pinned in tests/browser/axe/package-lock.json. npm comes with Node.js;
# when it is missing and we are root (as in CI), Debian's npm is installed.
set -e
cd "$(dirname "$0")/../tests/browser/axe"

wanted=$(sed -n 's/.*"axe-core": "\(.*\)".*/\1/p' package.json)
if [ -f node_modules/axe-core/axe.min.js ] &&
    grep -q "\"version\": \"$wanted\"" node_modules/axe-core/package.json; then
    exit 0  # already there, at the pinned version
fi

if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "The accessibility tests need npm (Node.js) to install axe-core." >&2
        echo "Install it with:  sudo apt-get install -y npm" >&2
        exit 1
    fi
    echo "Installing Debian's npm for the accessibility tests..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y npm
fi

npm ci --no-audit --no-fund --loglevel=error
