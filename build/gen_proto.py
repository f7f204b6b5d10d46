"""Generate the Python protobuf modules in mindinsight/format/proto from proto/*.proto.

Usage: python build/gen_proto.py [--check]

The .proto sources are mapped onto the virtual path ``mindinsight/format/proto`` so the
generated modules import each other as package modules (no post-processing of imports).
``--check`` generates into a temporary directory and fails if the committed modules differ;
the test suite runs it to prove the committed modules are current.
"""

import argparse
import filecmp
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PACKAGE_PATH = "mindinsight/format/proto"
OUT_DIR = ROOT / PACKAGE_PATH


def generate(out_root: Path) -> list[Path]:
    """Run protoc (from grpcio-tools) on every .proto; return the generated module paths."""
    from grpc_tools import protoc  # build-time dependency only

    sources = sorted(PROTO_DIR.glob("*.proto"))
    # protobuf's own messages (google/protobuf/struct.proto), which the hparams messages import
    well_known = resources.files("grpc_tools") / "_proto"
    args = ["protoc", f"-I{PACKAGE_PATH}={PROTO_DIR}", f"-I{well_known}", f"--python_out={out_root}"]
    args += [f"{PACKAGE_PATH}/{src.name}" for src in sources]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    return [out_root / PACKAGE_PATH / (src.stem + "_pb2.py") for src in sources]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if committed modules are stale")
    options = parser.parse_args()
    if not options.check:
        generate(ROOT)
        print(f"generated modules in {OUT_DIR}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        stale = [
            p.name
            for p in generate(Path(tmp))
            if not (OUT_DIR / p.name).exists() or not filecmp.cmp(p, OUT_DIR / p.name, shallow=False)
        ]
    if stale:
        print("stale generated modules: " + ", ".join(stale) + " (run python build/gen_proto.py)")
        return 1
    print("generated modules are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
