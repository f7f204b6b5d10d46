"""Text: TensorBoard's text plugin, a string tensor per step, markdown the page renders safely.

A 0-d tensor is one text; a 1-d one a column of texts and a 2-d one a table (as TensorBoard
shows them); of a tensor of more dimensions its first 2-d slice is kept, as TensorBoard does.
The payload keeps the cells as rows (``[[text]]``), the shape the writer gave and whether
``limits.MAX_TEXT_CHARS`` or ``limits.MAX_TEXT_CELLS`` cut the sample. ``torch.utils.tensorboard``
and tensorboardX write a 1-d tensor of one text under ``<tag>/text_summary``. In the persistent
index the cells are UTF-8 bytes with their row and sample bounds (``CODEC``).
"""

import math

import numpy as np

from mindinsight.conf import limits
from mindinsight.conf.plugins import PluginName
from mindinsight.format.tb_tensors import tensor_shape, tensor_strings
from mindinsight.ingest.kinds.base import (
    Codec,
    Kind,
    TensorBoardValues,
    bounds,
    object_column,
    pack_bytes,
    pack_ragged,
    unpack_bytes,
    unpack_ragged,
)


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


def _encode(columns: dict) -> dict:
    samples = columns["text"]
    rows = [row for sample in samples for row in sample]
    cells, cell_ends = pack_bytes([cell.encode("utf-8", "surrogatepass") for row in rows for cell in row])
    shapes, shape_ends = pack_ragged(columns["shape"], np.int64)
    return {
        "cells": cells,
        "cells.ends": cell_ends,
        "rows.ends": np.cumsum([len(row) for row in rows], dtype=np.int64),
        "samples.ends": np.cumsum([len(sample) for sample in samples], dtype=np.int64),
        "shape": shapes,
        "shape.ends": shape_ends,
    }


def _decode(arrays: dict, count: int, _shared: dict) -> dict:
    sample_rows = bounds(arrays["samples.ends"], None, count)
    row_cells = bounds(arrays["rows.ends"], None, int(sample_rows[-1]))
    cells = unpack_bytes(arrays["cells"], arrays["cells.ends"], int(row_cells[-1]))
    cells = [cell.decode("utf-8", "surrogatepass") for cell in cells]
    rows = [cells[start:end] for start, end in zip(row_cells[:-1].tolist(), row_cells[1:].tolist())]
    texts = [rows[start:end] for start, end in zip(sample_rows[:-1].tolist(), sample_rows[1:].tolist())]
    shapes = [shape.tolist() for shape in unpack_ragged(arrays["shape"], arrays["shape.ends"], count, np.int64)]
    return {"text": object_column(texts), "shape": object_column(shapes)}


CODEC = Codec(_encode, _decode)

KIND = Kind(
    PluginName.TEXT,
    {"text": object, "shape": object, "truncated": bool},
    limits.steps_per_tag(PluginName.TEXT),
    tensorboard=TensorBoardValues(plugins={"text": decode_text_tensor}),
    codec=CODEC,
)
KINDS = (KIND,)
