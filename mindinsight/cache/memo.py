"""One memo of values derived from a tag's samples (display points, histogram grids, ...).

``JobData.samples`` returns the very same sorted-columns object until the tag receives new
samples, so a value derived from that object stays right while it is the current one. The
memo keeps each derived value with the samples object it came from and rebuilds it only
when the tag's samples change; a rebuild forgets the tag's other values built from older
samples (an image of each step asked for would otherwise keep its samples alive). Bounded
LRU: a request never waits for more than one build.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName


class Derived(dict):
    """A derived answer the memo keeps: the same object is handed out while its samples are
    unchanged, so a serializer may keep its bytes per object."""


class DerivedValues:
    """Derived values per (job data, plugin, tag, name), valid while the samples are the same."""

    def __init__(self, size: int = limits.DERIVED_VALUES_KEPT):
        self.size = size
        self._entries: OrderedDict[tuple, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, data, plugin: PluginName, tag: str, name: str, build: Callable[[dict], object]):
        """``build(samples)`` of the tag, or the kept value; None when the tag does not exist."""
        samples = data.samples(plugin, tag)
        if samples is None:
            return None
        key = (id(data), plugin, tag, name)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is data and entry[1] is samples:
                self._entries.move_to_end(key)
                return entry[2]
        value = build(samples)
        with self._lock:
            self._forget_stale(key[:3], samples)
            self._entries[key] = (data, samples, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def _forget_stale(self, tag_key: tuple, samples: dict) -> None:
        """Drop the values of one tag built from older samples: they can never be handed out
        again, and would keep those samples (images, tensors) in memory."""
        stale = [k for k, e in self._entries.items() if k[:3] == tag_key and e[1] is not samples]
        for k in stale:
            del self._entries[k]
