#!/usr/bin/env bash
# Install everything the tests need, lint, build the package, then run every test: UI unit tests
# (vitest), then the Python unit tests on the source tree and the system (real gunicorn) and
# browser (Debian chromium) tests against the built wheel installed in a clean venv.
# Usage: bash build/run_tests.sh [extra pytest args]   (e.g. -k scalar, -m "not browser", -n 0)
#
# Python packages come from the locks only (requirements-test.lock, requirements.lock; refresh
# them with build/lock.sh), into venvs under .venv/, so what is already on the machine plays no part.
# At the end (also after a failure) it prints its wall time, in total and per phase.
set -euo pipefail
cd "$(dirname "$0")/.."

timings=() phase_name="" phase_started=$SECONDS
# Start phase $1, ending the one before (its seconds go to the report).
phase() {
    if [ -n "$phase_name" ]; then timings+=("$phase_name $((SECONDS - phase_started)) s"); fi
    phase_name=$1 phase_started=$SECONDS
}
report_wall_time() {
    local status=$? joined
    phase ""
    joined=$(printf '%s, ' "${timings[@]}")
    echo "wall time: $SECONDS s in total (${joined%, })$([ "$status" = 0 ] || echo ", failed with exit code $status")"
}
trap report_wall_time EXIT
phase install

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Browser tests drive Debian's chromium (a test tool never downloads a browser); the reverse-proxy
# tests put Debian's nginx in front of the server; the database tests start Debian's PostgreSQL
# (tests/helpers/postgres.py).
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/sbin/nginx ] || ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium nginx-light postgresql
fi

# The test toolchain (runtime requirements included), exactly as locked, hash-checked.
# Made anew whenever the lock changes, so a package dropped from the lock leaves the venv too.
tools=.venv/test
locked=$(sha256sum requirements-test.lock)
if [ "$(cat "$tools/.lock" 2>/dev/null)" != "$locked" ]; then
    rm -rf "$tools"
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install -q -r requirements-test.lock
    echo "$locked" >"$tools/.lock"
fi
export PATH="$PWD/$tools/bin:$PATH"
(cd ui && npm ci --no-audit --no-fund)

phase lint

# Python lint and format check (configuration in pyproject.toml), then the UI's.
python -m ruff check .
python -m ruff format --check .
(cd ui && npm run lint)

phase "UI tests and build"
(cd ui && npm test && npm run build)

phase "package build"

# The sdist and the wheel made from it, both carrying the UI built above (no second npm run).
rm -rf dist
MINDINSIGHT_SKIP_UI_BUILD=1 python -m build --no-isolation --outdir dist . >/dev/null
wheel=$(ls dist/mindinsight-*.whl)
echo "built $(ls dist | tr '\n' ' ')"

# A clean venv with the locked runtime requirements and the wheel: what a user installs (with the
# `s3` extra, which requirements.lock holds: the object-store tests read s3:// through it).
app=.venv/app
rm -rf "$app"
python3 -m venv "$app"
"$app/bin/python" -m pip install -q -r requirements.lock
"$app/bin/python" -m pip install -q --no-deps "$wheel"
"$app/bin/python" -m pip check
# Imported from outside the checkout, it must be the installed copy, UI included.
(cd /tmp && "$OLDPWD/$app/bin/python" -c '
import pathlib, sys, mindinsight
package = pathlib.Path(mindinsight.__file__).parent
assert pathlib.Path(sys.prefix) in package.parents, package
assert (package / "ui" / "dist" / "index.html").is_file(), "the wheel carries no built UI"
print("installed", package)
')
export MINDINSIGHT_TEST_COMMAND="$PWD/$app/bin/mindinsight"

phase pytest

# pytest exits 5 when it collects nothing: with set -e that fails the run, as it should.
# In parallel (pytest-xdist), each test file on one worker: a file's tests share its server
# (module fixtures), which then starts once. The tests wait on servers and chromium more than
# on the CPU, so more workers than cores pay (4 measured fastest on a 2-core machine).
python -m pytest -n "${MINDINSIGHT_TEST_WORKERS:-4}" --dist loadfile tests/ut tests/st tests/e2e "$@"
