"""The UI shows server errors in the user's language by error code: its list of codes
(``ui/tests/unit/error-codes.json``, checked against both locale files by vitest) must hold
exactly the codes ``mindinsight/errors.py`` defines."""

import json
from pathlib import Path

from mindinsight import errors

UI = Path(__file__).resolve().parents[2] / "ui"
UI_CODES = UI / "tests" / "unit" / "error-codes.json"


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def server_codes() -> set[str]:
    """Codes of every concrete error: each class that sets its own ``value``."""
    return {
        errors.error_code(cls.module, cls.value) for cls in _subclasses(errors.MindInsightError) if "value" in vars(cls)
    }


def test_ui_lists_every_server_error_code():
    listed = set(json.loads(UI_CODES.read_text()))
    codes = server_codes()
    assert "50545005" in codes
    missing, extra = sorted(codes - listed), sorted(listed - codes)
    assert not missing, f"add {missing} to {UI_CODES} and a message to every ui/src/locales/*/errors.json"
    assert not extra, f"{UI_CODES} lists codes mindinsight/errors.py does not define: {extra}"


def test_every_locale_has_a_message_per_code():
    codes = server_codes()
    for locale_file in sorted(UI.glob("src/locales/*/errors.json")):
        messages = json.loads(locale_file.read_text())
        assert sorted(codes - set(messages)) == [], locale_file
