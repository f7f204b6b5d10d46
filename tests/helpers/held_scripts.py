"""Holding back some of a page's scripts in a browser test: to show that a page draws without them
(the parts it loads after its first drawing) and what stands in their place meanwhile."""

import re


class Held(list):
    """The scripts held back, as ``(route, response)``; once released, later ones pass too."""

    released = False


def hold_scripts(page, pattern: re.Pattern) -> Held:
    """Answers every script of the app at once except those whose bytes match ``pattern``: those
    wait in the returned list until ``release`` is given it."""
    held = Held()

    def handle(route):
        response = route.fetch()
        if not held.released and pattern.search(response.body()):
            held.append((route, response))
        else:
            route.fulfill(response=response)

    page.route("**/static/*.js", handle)
    return held


def release(held: Held):
    """Answers the scripts ``hold_scripts`` held back, and lets every later one through: a part
    the released code asks for afterwards (on a loaded machine, after the release) is not held."""
    held.released = True
    for route, response in held:
        route.fulfill(response=response)
