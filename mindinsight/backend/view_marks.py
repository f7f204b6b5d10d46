"""Marks on Flask views that tell the ASGI front (``serving.py``) how it may run them.

Unmarked and ``pooled`` views run in the front's thread pool, the safe default for anything
that may block (files, request bodies, long computations). Every API route states its mark
(``backend/api/routing.py`` requires one). Only views whose work is small and bounded whatever
the query may run on the event loop (``ON_LOOP_MARKS``): one whose answer grows with its query
(repeated parameters, a page size) is ``reusable_pooled`` or ``pooled``, and the routing
refuses to declare it otherwise.
"""

MARK_ATTRIBUTE = "mindinsight_serving"
IN_MEMORY = "in_memory"
REUSABLE = "reusable"
REUSABLE_POOLED = "reusable_pooled"
IMMUTABLE_FILE = "immutable_file"
POOLED = "pooled"
MARKS = (IN_MEMORY, REUSABLE, REUSABLE_POOLED, IMMUTABLE_FILE, POOLED)
ON_LOOP_MARKS = (IN_MEMORY, REUSABLE, IMMUTABLE_FILE)  # computed on the event loop thread itself


def in_memory(view):
    """The view only reads in-memory state under short locks: run it on the event loop."""
    setattr(view, MARK_ATTRIBUTE, IN_MEMORY)
    return view


def reusable_answer(view):
    """Like ``in_memory``, and its answer is a pure function of the URL and the data manager's
    state (no side effect): a 200 answer may be served again until that state changes."""
    setattr(view, MARK_ATTRIBUTE, REUSABLE)
    return view


def reusable_pooled_answer(view):
    """Like ``reusable_answer``, but computed in the thread pool (its work grows with the query);
    a kept answer is still served on the event loop."""
    setattr(view, MARK_ATTRIBUTE, REUSABLE_POOLED)
    return view


def immutable_file(view):
    """Like ``in_memory``, and an answer of it that says ``Cache-Control: ... immutable`` (a file
    whose name carries its content hash) never changes: the front keeps it per URL and accepted
    encodings, whatever the data does."""
    setattr(view, MARK_ATTRIBUTE, IMMUTABLE_FILE)
    return view


def pooled(view):
    """The view may block (files, bodies, long computations): run it in the thread pool."""
    setattr(view, MARK_ATTRIBUTE, POOLED)
    return view


def mark_of(view) -> str | None:
    """The mark of ``view``, or None."""
    return getattr(view, MARK_ATTRIBUTE, None)


# Whether a view changes state (writes), so the front holds it to the same-origin rule
# (``access.py``). Set from the route declaration (``api/routing.py``); a view without it is
# taken to change state under any method but GET, HEAD and OPTIONS.
CHANGES_STATE_ATTRIBUTE = "mindinsight_changes_state"


def changes_state(view) -> bool:
    """Whether ``view`` is declared to change state; True when it declares nothing."""
    return getattr(view, CHANGES_STATE_ATTRIBUTE, True)
