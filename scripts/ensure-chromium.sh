#!/bin/sh
# The browser tests drive Debian's Chromium (never a browser downloaded by
# Playwright). Install it with apt-get when it is missing and we are root, as
# in CI; otherwise say what to do.
set -e

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "The browser tests need Debian's Chromium, which is not installed." >&2
    echo "Install it with:  sudo apt-get update && sudo apt-get install -y chromium" >&2
    echo "(make test installs it by itself only when run as root.)" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is missing and there is no apt-get to install it: install chromium yourself." >&2
    exit 1
fi

echo "Installing Debian's chromium for the browser tests..."
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium
command -v chromium >/dev/null 2>&1
