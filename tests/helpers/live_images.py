"""A training that keeps writing images while a test reads them (issue 17's live image page).

``LiveImages`` appends one event per step holding an image per tag with our summary writer,
flushing each, from a background thread; every image names its step in its pixels, so
``step_of`` tells which step a served image is.
"""

import io
import threading

import numpy as np
from PIL import Image

from mindinsight.summary.writer import SummaryWriter, image_proto


def step_image(step: int) -> np.ndarray:
    """An 8x8 grey image whose first two pixels hold ``step`` (high byte, low byte)."""
    pixels = np.full((8, 8), 127, dtype=np.uint8)
    pixels[0, 0], pixels[0, 1] = (step >> 8) & 0xFF, step & 0xFF
    return pixels


def step_of(data: bytes) -> int:
    """The step an image made by ``step_image`` names."""
    with Image.open(io.BytesIO(data)) as image:
        pixels = np.asarray(image)
    return int(pixels[0, 0]) << 8 | int(pixels[0, 1])


class LiveImages:
    """Writes steps ``first..`` of ``tags`` into ``job_dir`` every ``period`` seconds until stopped."""

    def __init__(self, job_dir, tags, period: float = 0.02, first: int = 1):
        self.tags = tags
        self.period = period
        self.step = first - 1  # the last step written and flushed
        self._writer = SummaryWriter(job_dir)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="live-images", daemon=True)

    def write_steps(self, count: int) -> None:
        """Write ``count`` more steps now (before the thread starts)."""
        for _ in range(count):
            self._write_next()

    def _write_next(self) -> None:
        step = self.step + 1
        self._writer.add_values(step, {tag: image_proto(step_image(step)) for tag in self.tags})
        self._writer.flush()
        self.step = step

    def _run(self) -> None:
        while not self._stop.wait(self.period) and self.step < 0xFFFF:
            self._write_next()

    def __enter__(self) -> "LiveImages":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self._writer.close()
