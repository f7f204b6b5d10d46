"""How many requests the fuzz suite sends, and what they were answered: figures, not a test.

    python bench/fuzz_figures.py [--scale N] [pytest args]

Runs ``tests/ut/test_fuzz.py`` (schemathesis over the OpenAPI document through the Flask app,
hypothesis raw requests through the ASGI front) with a plugin that counts every answer by its
status class, then prints the counts. ``--scale N`` asks N times the examples the test suite
asks per run (schemathesis per operation and mode, hypothesis raw requests). The test itself
fails on any 5xx; this says how many requests that verdict rests on.
"""

import collections
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


class CountAnswers:
    """Wraps the two places the fuzz suite sends from, once the tests are collected."""

    def __init__(self, scale: int = 1):
        self.counts = collections.Counter()
        self.scale = scale

    def pytest_collection_finish(self, session):
        import schemathesis

        from tests.ut import test_fuzz

        test_fuzz.SCHEMATHESIS_EXAMPLES *= self.scale
        test_fuzz.RAW_EXAMPLES *= self.scale
        counts = self.counts
        call = schemathesis.Case.call

        def counted_call(case, *args, **kwargs):
            response = call(case, *args, **kwargs)
            counts["schemathesis", response.status_code // 100] += 1
            return response

        schemathesis.Case.call = counted_call
        raw = test_fuzz.asgi_request

        def counted_raw(*args, **kwargs):
            answer = raw(*args, **kwargs)
            counts["raw", answer[0] // 100] += 1
            return answer

        test_fuzz.asgi_request = counted_raw


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    scale = 1
    if argv[:1] == ["--scale"]:
        scale, argv = int(argv[1]), argv[2:]
    plugin = CountAnswers(scale)
    status = pytest.main(["-q", "-p", "no:cacheprovider", str(ROOT / "tests/ut/test_fuzz.py"), *argv], plugins=[plugin])
    total = sum(plugin.counts.values())
    print(f"\nfuzzed requests: {total}")
    for fuzzer in ("schemathesis", "raw"):
        classes = {cls: n for (name, cls), n in sorted(plugin.counts.items()) if name == fuzzer}
        print(f"  {fuzzer}: {sum(classes.values())} ({', '.join(f'{cls}xx {n}' for cls, n in classes.items())})")
    server_errors = sum(n for (_, cls), n in plugin.counts.items() if cls == 5)
    print(f"  5xx: {server_errors}")
    return int(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
