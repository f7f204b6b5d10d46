"""Holding back some of a page's scripts in a browser test: to show that a page draws without them
(the parts it loads after its first drawing) and what stands in their place meanwhile.

The scripts to hold are chosen by their bytes in the built UI the test server serves, before the
page opens; only their requests are intercepted, and a held request is let through unchanged
(``continue_``) when released. Every other script goes straight to the server: answering each one
from the test (a fetch, then a fulfil) put dozens of round trips through the driver on a busy
machine, and one of them failing raised in whatever browser call the test made next.
"""

import re
from pathlib import Path
from urllib.parse import urlsplit

STATIC_DIR = Path(__file__).resolve().parents[2] / "mindinsight" / "ui" / "dist" / "static"


class Held(list):
    """The held requests' routes; once released, later ones pass too."""

    released = False


def script_names(pattern: re.Pattern) -> set[str]:
    """The names of the built UI's scripts whose bytes match ``pattern``."""
    names = {path.name for path in STATIC_DIR.glob("*.js") if pattern.search(path.read_bytes())}
    if not names:
        raise AssertionError(f"no script of the built UI ({STATIC_DIR}) matches {pattern.pattern!r}")
    return names


def hold_scripts(page, pattern: re.Pattern) -> Held:
    """Holds every request for a script of the app whose bytes match ``pattern``: those wait in
    the returned list until ``release`` is given it. The others are not touched."""
    held = Held()
    names = script_names(pattern)

    def is_held(url: str) -> bool:
        path = urlsplit(url).path
        return "/static/" in path and path.rsplit("/", 1)[-1] in names

    def handle(route):
        if held.released:
            route.continue_()
        else:
            held.append(route)

    page.route(is_held, handle)
    return held


def release(held: Held):
    """Lets the scripts ``hold_scripts`` held back through, and every later one: a part the
    released code asks for afterwards (on a loaded machine, after the release) is not held."""
    held.released = True
    for route in held:
        route.continue_()
