"""Text: TensorBoard's text plugin, a string tensor per step, markdown the page renders safely.

A 0-d tensor is one text; a 1-d one a column of texts and a 2-d one a table (as TensorBoard
shows them); of a tensor of more dimensions its first 2-d slice is kept, as TensorBoard does.
The payload keeps the cells as rows (``[[text]]``), the shape the writer gave and whether
``limits.MAX_TEXT_CHARS`` or ``limits.MAX_TEXT_CELLS`` cut the sample. ``torch.utils.tensorboard``
and tensorboardX write a 1-d tensor of one text under ``<tag>/text_summary``.
"""

import math

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.tb_tensors import tensor_shape, tensor_strings
from mindinsight.ingest.kinds.base import Kind, TensorBoardValues


def _cut(cells: list[str]) -> tuple[list[str], bool]:
    """``cells`` within the character and cell bounds, and whether any was cut."""
    kept, left = [], limits.MAX_TEXT_CHARS
    truncated = len(cells) > limits.MAX_TEXT_CELLS
    for cell in cells[: limits.MAX_TEXT_CELLS]:
        truncated = truncated or len(cell) > left
        kept.append(cell[:left])
        left -= len(kept[-1])
    return kept, truncated


def decode_text_tensor(value):
    """``(rows, shape, truncated)`` of a string tensor of the text plugin, or None if it is not one."""
    try:
        strings = tensor_strings(value.tensor)
    except ValueError:
        return None
    shape = list(tensor_shape(value.tensor))
    if len(strings) != math.prod(shape):  # a shape its values do not fill: shown as a column
        shape = [len(strings)]
    columns = max(shape[-1], 1) if len(shape) >= 2 else 1
    count = shape[-2] * shape[-1] if len(shape) >= 2 else len(strings)  # the first 2-d slice
    cells, truncated = _cut([item.decode("utf-8", errors="replace") for item in strings[:count]])
    rows = [cells[start : start + columns] for start in range(0, len(cells), columns)]
    return rows, shape, truncated


KIND = Kind(
    PluginName.TEXT,
    {"text": object, "shape": object, "truncated": bool},
    limits.steps_per_tag(PluginName.TEXT),
    tensorboard=TensorBoardValues(plugins={"text": decode_text_tensor}),
)
KINDS = (KIND,)
