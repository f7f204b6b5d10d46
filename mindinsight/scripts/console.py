"""What a server-control command prints goes to the terminal and to its log file."""

import sys
import time
from pathlib import Path


class ScriptLog:
    """Print a line and append it, time-stamped, to the command's log file."""

    def __init__(self, path: Path):
        self.path = path

    def _append(self, line: str) -> None:
        try:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] {line}\n")
        except OSError:
            pass  # the terminal still gets the line

    def out(self, line: str, logged: str | None = None) -> None:
        """Print ``line``; log ``logged`` instead when given (a line holding a secret)."""
        print(line, flush=True)
        self._append(line if logged is None else logged)

    def err(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)
        self._append(line)
