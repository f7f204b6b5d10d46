"""JSON responses, with the text of derived answers kept while the answer object lives.

A service hands out the same ``Derived`` object until its samples change (``cache/memo.py``),
so its serialized text is kept per object: a polled 1,000-point scalar answer is serialized
once per change, not once per request. The same holds for a ``Derived`` inside a list: each
series of a 100-run comparison is serialized once per change of that series, and the answer is
their texts joined. Other payloads are serialized each time.
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
    """``value`` as compact JSON, byte for byte as one ``json.dumps`` call, in bounded calls;
    a ``Derived`` answer, at the top or as an item of a list, is its kept text."""
    if isinstance(value, Derived) and not top_level:
        return _SERIALIZED.text(value)
    if top_level and isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return "{" + ",".join(_ENCODE(key) + ":" + _encode(item, False) for key, item in value.items()) + "}"
    if isinstance(value, list) and any(isinstance(item, Derived) for item in value):
        return "[" + ",".join(_encode(item, False) for item in value) + "]"
    if isinstance(value, list) and len(value) > ENCODED_ITEMS_PER_CALL:
        step = ENCODED_ITEMS_PER_CALL
        return "[" + ",".join(_ENCODE(value[start : start + step])[1:-1] for start in range(0, len(value), step)) + "]"
    return _ENCODE(value)


def json_body(payload) -> bytes:
    """``payload`` serialized as Flask's ``jsonify`` does here (compact, keys in order)."""
    text = _SERIALIZED.text(payload) if isinstance(payload, Derived) else _encode(payload)
    return (text + "\n").encode()


class _SerializedAnswers:
    """Texts of ``Derived`` answers keyed by object identity (the entry keeps the object alive,
    so its id cannot be reused meanwhile). Least recently used first out once the texts pass
    ``max_chars`` in all."""

    def __init__(self, max_chars: int):
        self.max_chars = max_chars
        self._entries: OrderedDict[int, tuple] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def text(self, payload: Derived) -> str:
        key = id(payload)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is payload:
                self._entries.move_to_end(key)
                return entry[1]
        text = _encode(payload)
        with self._lock:
            if key in self._entries:
                self._chars -= len(self._entries.pop(key)[1])
            self._entries[key] = (payload, text)
            self._chars += len(text)
            while self._chars > self.max_chars and len(self._entries) > 1:
                self._chars -= len(self._entries.popitem(last=False)[1][1])
        return text


_SERIALIZED = _SerializedAnswers(limits.SERIALIZED_ANSWER_CHARS_KEPT)


def json_response(payload, status: int = 200) -> Response:
    """A JSON response for ``payload``."""
    return Response(json_body(payload), status=status, mimetype=_MIMETYPE)
