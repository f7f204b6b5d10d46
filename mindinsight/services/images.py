"""Images of one tag: the kept steps' sizes, and one step's encoded bytes as stored.

Nothing is decoded or re-encoded (behaviour.md 4.4): the bytes a writer stored are served
with a MIME type sniffed from their first bytes. A step that was listed a moment ago and thinned
out since is still served from the tag's recently evicted samples (``Reservoir.recent``): a page
lists the steps, a reload runs, then the page fetches what it listed.
"""

import hashlib
from dataclasses import dataclass

import numpy as np

from mindinsight.cache.data_manager import DataManager
from mindinsight.cache.memo import Derived
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import ImageNotExistError
from mindinsight.services.jobs import cached_job_data

LATEST_STEP = -1  # ``step=-1`` asks for the latest kept image
_INT64 = np.iinfo(np.int64)

# Leading bytes -> MIME type, as the original sniffed them; anything else is octet-stream.
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"BM", "image/bmp"),
)
OCTET_STREAM = "application/octet-stream"


def sniff_mimetype(data: bytes) -> str:
    """The image MIME type of ``data`` from its magic bytes, else ``application/octet-stream``."""
    for signature, mimetype in _SIGNATURES:
        if data.startswith(signature):
            return mimetype
    return OCTET_STREAM


@dataclass(frozen=True)
class StoredImage:
    """One kept image: its bytes as written, their MIME type and a strong validator."""

    step: int
    wall_time: float
    data: bytes
    mimetype: str
    etag: str


def _no_tag_error() -> ImageNotExistError:
    return ImageNotExistError("Invalid parameter value. Can not find any data in this train job by given tag.")


def image_metadata(manager: DataManager, train_id: str, tag: str) -> Derived:
    """``{metadatas: [{wall_time, step, width, height}]}`` of the kept steps of one image tag."""
    data = cached_job_data(manager, train_id)
    with data.lock:  # no batch between the two: every step this answer lists stays fetchable a while
        data.mark_listed(PluginName.IMAGE, tag)
        answer = manager.derived.get(data, PluginName.IMAGE, tag, "metadata", _metadata)
    if answer is None:
        raise _no_tag_error()
    return answer


def _metadata(samples: dict) -> Derived:
    return Derived(
        metadatas=[
            {"wall_time": wall_time, "step": step, "width": width, "height": height}
            for wall_time, step, width, height in zip(
                samples["wall_time"].tolist(),
                samples["step"].tolist(),
                samples["width"].tolist(),
                samples["height"].tolist(),
            )
        ]
    )


def single_image(manager: DataManager, train_id: str, tag: str, step: int) -> StoredImage:
    """The image of ``step`` (``-1``: the latest kept one) of one tag, or ``ImageNotExistError``."""
    data = cached_job_data(manager, train_id)
    image = manager.derived.get(data, PluginName.IMAGE, tag, f"image:{step}", lambda s: _stored_image(s, step))
    if image is None:
        raise _no_tag_error()
    if image is _NO_SUCH_STEP:
        # Not memoized: a recent sample expires with time, not with a change of the samples.
        listable = step != LATEST_STEP and _INT64.min <= step <= _INT64.max
        recent = data.recent_sample(PluginName.IMAGE, tag, step) if listable else None
        if recent is None:
            raise ImageNotExistError("Can not find the step with given train job id and tag.")
        return _as_stored(recent["step"], recent["wall_time"], recent["image"])
    return image


_NO_SUCH_STEP = object()


def _stored_image(samples: dict, step: int):
    steps = samples["step"]
    if step == LATEST_STEP:
        index = steps.size - 1 if steps.size else None
    elif _INT64.min <= step <= _INT64.max:
        found = np.flatnonzero(steps == step)
        index = int(found[0]) if found.size else None
    else:
        index = None
    if index is None:
        return _NO_SUCH_STEP
    return _as_stored(steps[index], samples["wall_time"][index], samples["image"][index])


def _as_stored(step, wall_time, image) -> StoredImage:
    payload = bytes(image)
    # The validator names the bytes themselves: a restarted training may store other bytes
    # under the same step.
    etag = '"' + hashlib.blake2b(payload, digest_size=16).hexdigest() + '"'
    return StoredImage(int(step), float(wall_time), payload, sniff_mimetype(payload), etag)
