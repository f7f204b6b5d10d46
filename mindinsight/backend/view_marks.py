"""Marks on Flask views that tell the ASGI front (``serving.py``) how it may run them.

Unmarked and ``pooled`` views run in the front's thread pool, the safe default for anything
that may block (files, request bodies, long computations). Every API route states its mark
(``backend/api/routing.py`` requires one).
"""

MARK_ATTRIBUTE = "mindinsight_serving"
IN_MEMORY = "in_memory"
REUSABLE = "reusable"
POOLED = "pooled"
MARKS = (IN_MEMORY, REUSABLE, POOLED)


def in_memory(view):
    """The view only reads in-memory state under short locks: run it on the event loop."""
    setattr(view, MARK_ATTRIBUTE, IN_MEMORY)
    return view


def reusable_answer(view):
    """Like ``in_memory``, and its answer is a pure function of the URL and the data manager's
    state (no side effect): a 200 answer may be served again until that state changes."""
    setattr(view, MARK_ATTRIBUTE, REUSABLE)
    return view


def pooled(view):
    """The view may block (files, bodies, long computations): run it in the thread pool."""
    setattr(view, MARK_ATTRIBUTE, POOLED)
    return view


def mark_of(view) -> str | None:
    """The mark of ``view``, or None."""
    return getattr(view, MARK_ATTRIBUTE, None)
