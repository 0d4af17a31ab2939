#!/bin/sh
# The tests in tests/scale start their own throwaway PostgreSQL cluster and
# Redis server (on loopback ports, stopped afterwards). They need Debian's
# PostgreSQL server binaries (initdb, pg_ctl, postgres under
# /usr/lib/postgresql/VERSION/bin) and redis-server. Install the packages with
# apt-get when they are missing and we are root, as in CI; otherwise say what
# to do. The services the packages themselves set up are never started.
set -e

# The bin folder of the highest PostgreSQL version holding the server binaries.
postgres_bin() {
    for version in $(ls /usr/lib/postgresql 2>/dev/null | sort -rn); do
        dir="/usr/lib/postgresql/$version/bin"
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

missing=""
postgres_bin >/dev/null || missing="postgresql"
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
missing="${missing# }"

if [ -z "$missing" ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "The tests in tests/scale need Debian's $missing, which is not installed." >&2
    echo "Install with:  sudo apt-get update && sudo apt-get install -y $missing" >&2
    echo "(make test installs them by itself only when run as root.)" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "$missing is missing and there is no apt-get to install it: install it yourself." >&2
    exit 1
fi

# The packages' post-install scripts start their services through invoke-rc.d
# (postgresql's default cluster, redis-server). We run our own instances and a
# container has no init system, so forbid starting anything during the
# install: a policy-rc.d that answers 101 ("action forbidden"), removed
# afterwards. One that is already there is left alone.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    trap 'rm -f "$policy"' EXIT
    trap 'exit 130' INT TERM
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
fi

echo "Installing Debian's $missing for the tests in tests/scale..."
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086  # one word per package
if ! apt-get install -y --no-install-recommends $missing; then
    # A post-install step may still fail on a machine without an init system;
    # the binaries are what we need, so judge by them below.
    echo "apt-get install reported an error; checking the binaries anyway." >&2
fi

if ! postgres_bin >/dev/null; then
    echo "PostgreSQL's server binaries are still missing under /usr/lib/postgresql/*/bin." >&2
    exit 1
fi
if ! command -v redis-server >/dev/null 2>&1; then
    echo "redis-server is still missing." >&2
    exit 1
fi
