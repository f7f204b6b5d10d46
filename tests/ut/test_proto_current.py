"""The committed protobuf modules are what build/gen_proto.py makes from proto/*.proto."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_modules_are_current():
    result = subprocess.run(
        [sys.executable, str(ROOT / "build" / "gen_proto.py"), "--check"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "generated modules are current" in result.stdout


def test_check_notices_a_stale_module(tmp_path):
    # Run the checker on a copy of the tree whose generated module was edited.
    for part in ("build", "proto", "mindinsight/format/proto"):
        shutil.copytree(ROOT / part, tmp_path / part)
    stale = tmp_path / "mindinsight/format/proto/mindinsight_summary_pb2.py"
    stale.write_text(stale.read_text() + "\n# edited by hand\n")
    result = subprocess.run(
        [sys.executable, str(tmp_path / "build" / "gen_proto.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1 and "mindinsight_summary_pb2.py" in result.stdout
