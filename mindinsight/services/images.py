"""Images of one tag: the kept steps' sizes, and one step's encoded bytes as stored.

Nothing is decoded or re-encoded (docs/BEHAVIOUR.md §4.4): the bytes a writer stored are served
with a MIME type sniffed from their first bytes. A step that was listed a moment ago and thinned
out since is still served from the tag's recently evicted samples (``Reservoir.recent``): a page
lists the steps, a reload runs, then the page fetches what it listed.
"""

import hashlib
from dataclasses import dataclass

from mindinsight.cache.memo import Derived
from mindinsight.cache.provider import DataProvider
from mindinsight.conf.plugins import PluginName
from mindinsight.errors import ImageNotExistError
from mindinsight.services import per_tag

KIND = per_tag.PerTagKind(PluginName.IMAGE, ImageNotExistError)
LATEST_STEP = -1  # ``step=-1`` asks for the latest kept image

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


def image_metadata(provider: DataProvider, train_id: str, tag: str) -> Derived:
    """``{metadatas: [{wall_time, step, width, height}]}`` of the kept steps of one image tag."""
    data = per_tag.job(provider, train_id)
    with data.lock:  # no batch between the two: every step this answer lists stays fetchable a while
        data.mark_listed(PluginName.IMAGE, tag)
        return per_tag.tag_answer(provider, data, KIND, tag, "metadata", _metadata)


def _metadata(samples: dict) -> Derived:
    sizes = {"width": samples["width"].tolist(), "height": samples["height"].tolist()}
    return Derived(metadatas=per_tag.step_rows(samples, sizes))


def single_image(provider: DataProvider, train_id: str, tag: str, step: int) -> StoredImage:
    """The image of ``step`` (``-1``: the latest kept one) of one tag, or ``ImageNotExistError``."""
    data = per_tag.job(provider, train_id)
    image = per_tag.tag_answer(provider, data, KIND, tag, f"image:{step}", lambda s: _stored_image(s, step))
    if image is _NO_SUCH_STEP:
        # Not memoized: a recent sample expires with time, not with a change of the samples.
        listable = step != LATEST_STEP and per_tag.fits_int64(step)
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
    else:
        index = per_tag.step_index(samples, step)
    if index is None:
        return _NO_SUCH_STEP
    return _as_stored(steps[index], samples["wall_time"][index], samples["image"][index])


def _as_stored(step, wall_time, image) -> StoredImage:
    payload = bytes(image)
    # The validator names the bytes themselves: a restarted training may store other bytes
    # under the same step.
    etag = '"' + hashlib.blake2b(payload, digest_size=16).hexdigest() + '"'
    return StoredImage(int(step), float(wall_time), payload, sniff_mimetype(payload), etag)
