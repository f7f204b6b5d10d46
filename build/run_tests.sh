#!/usr/bin/env bash
# Install everything the tests need, lint, then run every test: UI unit tests (vitest), then the
# Python unit, system (real gunicorn) and browser (Debian chromium) tests.
# Usage: bash build/run_tests.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Browser tests drive Debian's chromium; a test tool never downloads a browser.
if [ ! -x /usr/bin/chromium ]; then
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
fi

python3 -m pip install -q -r requirements-test.txt

# Python lint and format check (configuration in pyproject.toml).
python3 -m ruff check .
python3 -m ruff format --check .

(cd ui && npm ci --no-audit --no-fund && npm test && npm run lint && npm run build)

# The UI is built above; the editable install only registers the package and its command.
MINDINSIGHT_SKIP_UI_BUILD=1 python3 -m pip install -q --no-deps -e .
if command -v pyenv >/dev/null; then pyenv rehash; fi  # puts the new `mindinsight` command on PATH

# pytest exits 5 when it collects nothing: with set -e that fails the run, as it should.
python3 -m pytest tests/ut tests/st tests/e2e "$@"
