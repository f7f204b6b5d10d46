"""Holding back some of a page's scripts in a browser test: to show that a page draws without them
(the parts it loads after its first drawing) and what stands in their place meanwhile."""

import re


def hold_scripts(page, pattern: re.Pattern) -> list:
    """Answers every script of the app at once except those whose bytes match ``pattern``: those
    wait in the returned list as ``(route, response)`` until ``release`` is given it."""
    held = []

    def handle(route):
        response = route.fetch()
        if pattern.search(response.body()):
            held.append((route, response))
        else:
            route.fulfill(response=response)

    page.route("**/static/*.js", handle)
    return held


def release(held: list):
    """Answers the scripts ``hold_scripts`` held back."""
    for route, response in held:
        route.fulfill(response=response)
