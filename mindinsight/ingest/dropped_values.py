"""What a job's logs hold that is not kept, counted for the user to see (train-jobs'
``unshown_values`` and ``dropped_values``).

Two reasons, kept apart:

- *unshown*: values of a kind the product does not show (a TensorBoard plugin such as
  ``pr_curves`` or ``mesh``), by (plugin name, tag);
- *dropped*: values of a kind shown, refused by its decoder (an image over its byte bound, a
  histogram whose buckets do not fit its limits) or let go by the tag limits (``JobData``),
  by (plugin, tag, reason); the reason is a ``kinds.base.REFUSALS`` code and its arguments, also
  given in English.

The names come from the files, so what is kept is bounded: names are cut to
``MAX_REPORTED_NAME_CHARS`` and at most ``MAX_REPORTED_KEYS`` keys are kept per reason; the
values of any further key are counted together under a key of ``None`` names ("other values").

The loader adds while request threads read: an addition builds new counts and puts them in
place whole, so a reader iterates counts no one changes.
"""

from collections import Counter

from mindinsight.conf.limits import MAX_REPORTED_KEYS, MAX_REPORTED_NAME_CHARS
from mindinsight.ingest.kinds.base import refusal_text

_OTHER_UNSHOWN = (None, None)
_OTHER_DROPPED = (None, None, None, None)


def _name(text: str) -> str:
    return text if len(text) <= MAX_REPORTED_NAME_CHARS else text[: MAX_REPORTED_NAME_CHARS - 1] + "…"


def _add_bounded(counts: Counter, other: tuple, key: tuple, count: int) -> None:
    if key not in counts and len(counts) >= MAX_REPORTED_KEYS + (other in counts):
        key = other
    counts[key] += count


class DroppedValues:
    """Counts of one job's values not kept, since it was last read from scratch."""

    def __init__(self):
        self._unshown: Counter = Counter()  # (plugin name, tag) -> values
        self._dropped: Counter = Counter()  # (plugin, tag, reason code, reason args) -> values

    def __bool__(self) -> bool:
        return bool(self._unshown or self._dropped)

    def add_unshown(self, counts: Counter) -> None:
        """Take ``counts`` of (plugin name, tag) -> values of a kind not shown."""
        added = Counter(self._unshown)
        for (plugin, tag), count in counts.items():
            _add_bounded(added, _OTHER_UNSHOWN, (_name(plugin), _name(tag)), count)
        self._unshown = added

    def add_dropped(self, counts: Counter) -> None:
        """Take ``counts`` of (PluginName, tag, Rejected) -> values refused, and why."""
        added = Counter(self._dropped)
        for (plugin, tag, reason), count in counts.items():
            args = tuple((name, _name(value) if isinstance(value, str) else value) for name, value in reason.args)
            _add_bounded(added, _OTHER_DROPPED, (plugin.value, _name(tag), reason.code, args), count)
        self._dropped = added

    def unshown(self) -> list[dict]:
        """``[{"plugin", "tag", "count"}]`` by plugin and tag; the other values last (names None)."""
        return [
            {"plugin": plugin, "tag": tag, "count": count}
            for (plugin, tag), count in sorted(self._unshown.items(), key=_others_last)
        ]

    def dropped(self) -> list[dict]:
        """``[{"plugin", "tag", "reason", "reason_code", "reason_args", "count"}]``, sorted as
        ``unshown``: the reason in English, and as its code with its arguments (an object)."""
        return [
            {
                "plugin": plugin,
                "tag": tag,
                "reason": None if code is None else refusal_text(code, args),
                "reason_code": code,
                "reason_args": None if code is None else dict(args),
                "count": count,
            }
            for (plugin, tag, code, args), count in sorted(self._dropped.items(), key=_others_last)
        ]

    def state(self) -> dict:
        """The counts as JSON-ready lists, for ``restore`` in a later process."""
        return {
            "unshown": [[*key, count] for key, count in self._unshown.items()],
            "dropped": [
                [plugin, tag, code, _pairs(args, list), count]
                for (plugin, tag, code, args), count in self._dropped.items()
            ],
        }

    def restore(self, state: dict) -> None:
        self._unshown = Counter({(plugin, tag): int(count) for plugin, tag, count in state["unshown"]})
        self._dropped = Counter(
            {
                (plugin, tag, code, _pairs(args, tuple)): int(count)
                for plugin, tag, code, args, count in state["dropped"]
            }
        )


def _pairs(args, sequence):
    """A refusal's arguments as a ``sequence`` of ``sequence`` pairs (None stays None)."""
    return None if args is None else sequence(sequence(pair) for pair in args)


def _others_last(item) -> tuple:
    key, _count = item
    return (key[0] is None, tuple("" if name is None else str(name) for name in key))
