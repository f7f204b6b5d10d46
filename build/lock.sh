#!/usr/bin/env bash
# Refresh the locks the test command installs from: requirements-test.lock (the whole test
# toolchain, runtime requirements included) and requirements.lock (the runtime requirements alone,
# for the clean venv the system tests run the built wheel in), both with hashes, valid on every
# Python >= 3.10 and platform (--universal). The runtime lock is resolved within the test lock, so
# the two agree on every shared package. requirements.txt keeps its ranges for users.
# Usage: bash build/lock.sh [--upgrade]   (needs uv: pip install uv)
set -euo pipefail
cd "$(dirname "$0")/.."
common=(--universal --python-version 3.10 --generate-hashes --quiet "$@")
uv pip compile requirements-test.in -o requirements-test.lock "${common[@]}"
uv pip compile requirements.txt -c requirements-test.lock -o requirements.lock "${common[@]}"
