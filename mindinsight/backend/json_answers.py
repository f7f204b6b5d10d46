"""JSON responses, with the bytes of derived answers kept while the answer object lives.

A service hands out the same ``Derived`` object until its samples change (``cache/memo.py``),
so its serialized body is kept per object: a polled 1,000-point scalar answer is serialized
once per change, not once per request. Other payloads are serialized each time.
"""

import json
import threading
from collections import OrderedDict

from flask import Response

from mindinsight.cache.memo import Derived
from mindinsight.conf import limits

_MIMETYPE = "application/json"


_ENCODE = json.JSONEncoder(ensure_ascii=True, sort_keys=False, separators=(",", ":")).encode
# Items of a long list encoded per call. One call of the C encoder holds the GIL for its whole
# length, so a 50 MB comparison encoded at once kept the event loop (and every other request)
# waiting for a second; a slice of 64 items takes milliseconds.
ENCODED_ITEMS_PER_CALL = 64


def _encode(value, top_level: bool = True) -> str:
    """``value`` as compact JSON, byte for byte as one ``json.dumps`` call, in bounded calls."""
    if top_level and isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return "{" + ",".join(_ENCODE(key) + ":" + _encode(item, False) for key, item in value.items()) + "}"
    if isinstance(value, list) and len(value) > ENCODED_ITEMS_PER_CALL:
        step = ENCODED_ITEMS_PER_CALL
        return "[" + ",".join(_ENCODE(value[start : start + step])[1:-1] for start in range(0, len(value), step)) + "]"
    return _ENCODE(value)


def json_body(payload) -> bytes:
    """``payload`` serialized as Flask's ``jsonify`` does here (compact, keys in order)."""
    return (_encode(payload) + "\n").encode()


class _SerializedAnswers:
    """Bytes of ``Derived`` answers keyed by object identity (the entry keeps the object alive,
    so its id cannot be reused meanwhile). Bounded LRU."""

    def __init__(self, size: int):
        self.size = size
        self._entries: OrderedDict[int, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def body(self, payload: Derived) -> bytes:
        key = id(payload)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is payload:
                self._entries.move_to_end(key)
                return entry[1]
        body = json_body(payload)
        with self._lock:
            self._entries[key] = (payload, body)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return body


_SERIALIZED = _SerializedAnswers(limits.SERIALIZED_ANSWERS_KEPT)


def json_response(payload, status: int = 200) -> Response:
    """A JSON response for ``payload``."""
    body = _SERIALIZED.body(payload) if isinstance(payload, Derived) else json_body(payload)
    return Response(body, status=status, mimetype=_MIMETYPE)
