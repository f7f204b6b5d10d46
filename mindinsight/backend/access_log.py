"""gunicorn's logger, with the access token kept out of the access log.

The token reaches the server in the page address (``?token=``), in the ``Referer`` of every
call the page makes, in the token cookie and in ``Authorization: Bearer``; gunicorn's access
log writes the request line and the referer as they came. Each is written as ``<hidden>``.
"""

import re

from gunicorn.glogging import Logger

_SECRET = re.compile(r"((?:\btoken|mindinsight_token_\d+)=|\bBearer\s+)[^&;,\s\"]+", re.IGNORECASE)
HIDDEN = "<hidden>"


def redact(text: str) -> str:
    """``text`` with every access-token value replaced by ``<hidden>``."""
    return _SECRET.sub(lambda match: match.group(1) + HIDDEN, text)


class TokenHidingLogger(Logger):
    """gunicorn's ``Logger`` whose access-log fields never hold the access token."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            if isinstance(value, str) and ("oken" in value or "earer" in value):
                atoms[key] = redact(value)
        return atoms
