#!/usr/bin/env bash
# Refresh the locks the test command installs from: requirements-test.lock (the whole test
# toolchain, runtime requirements included) and requirements.lock (the runtime requirements and the
# `s3` extra, for the clean venv the system tests run the built wheel in), both with hashes, valid
# on every Python >= 3.10 and platform (--universal). The runtime lock is resolved within the test
# lock, so the two agree on every shared package. requirements.txt keeps its ranges for users.
# Usage: bash build/lock.sh [--upgrade]   (needs uv: pip install uv)
set -euo pipefail
cd "$(dirname "$0")/.."
common=(--universal --python-version 3.10 --generate-hashes --quiet "$@")
uv pip compile requirements-test.in -o requirements-test.lock "${common[@]}"
# The runtime lock holds the `s3` extra too (pyproject.toml, whose dependencies are requirements.txt):
# the system tests read s3:// base dirs from a real S3 server through the installed wheel.
uv pip compile pyproject.toml --extra s3 -c requirements-test.lock -o requirements.lock "${common[@]}"
