"""Encoders of exported scalar points: CSV, JSON and Parquet, one chunk of numpy columns at a time.

Every format has the columns ``run, tag, step, wall_time, value``. An encoder is made once per
export (``encoder(fmt)``) and turns each chunk of one series into bytes; ``header()`` and
``footer()`` open and close the document, so any number of chunks is streamed without holding
more than one.

Numbers are written as the shortest text that reads back to the same value: a step as an
integer, a wall time as a float64, a value as a float32 (``0.1``, not ``0.10000000149011612``).
CSV and JSON text is made column-wise: with pyarrow, its compute kernels cast each column to
text and join the pieces of every line in C++ (about 4.9 M points per CPU-second, bench/README.md);
without it, numpy casts the columns and Python joins the lines (about 0.6 M points per CPU-second).
Non-finite values: CSV says ``nan``, ``inf``, ``-inf`` (what ``float()`` reads); JSON says
``null`` with ``non_finite`` naming it, as ``/datavisual/scalar/metadata`` does; Parquet keeps
them as they are.
"""

import csv
import json

import numpy as np

from mindinsight.errors import ExportFormatUnavailableError

COLUMNS = ("run", "tag", "step", "wall_time", "value")
FORMATS = ("csv", "json", "parquet")
MEDIA_TYPES = {"csv": "text/csv", "json": "application/json", "parquet": "application/vnd.apache.parquet"}
_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _pyarrow():
    """pyarrow's modules, or None when it is not installed (it is the ``parquet`` extra)."""
    try:
        import pyarrow  # noqa: PLC0415  (optional: imported when an export first needs it)
        import pyarrow.compute
        import pyarrow.parquet
    except ImportError:
        return None
    return pyarrow


def encoder(fmt: str, text_with_pyarrow: bool = True):
    """The encoder of ``fmt``; ``ExportFormatUnavailableError`` when its package is missing.
    ``text_with_pyarrow=False`` makes CSV and JSON text with numpy alone, as without pyarrow."""
    pa = _pyarrow()
    if fmt == "parquet":
        if pa is None:
            raise ExportFormatUnavailableError("Parquet needs pyarrow: pip install 'mindinsight[parquet]'.")
        return ParquetEncoder(pa)
    texts = ArrowTexts(pa) if pa is not None and text_with_pyarrow else NumpyTexts()
    return CsvEncoder(texts) if fmt == "csv" else JsonEncoder(texts)


class ArrowTexts:
    """Each line of a chunk as ``pieces`` joined: literal strings and the numbers' texts."""

    def __init__(self, pa):
        self._pa, self._pc = pa, pa.compute

    def lines(self, steps, wall_times, values, pieces, non_finite=None, separator="") -> bytes:
        """``pieces`` joined by ``separator`` (fewer pieces with a separator are faster):
        literals and the names ``step``, ``wall_time``, ``value``; ``non_finite``
        maps ``nan``/``inf``/``-inf`` to what a value's text becomes, and the finite wall-time
        text is kept (a non-finite one becomes ``null``) when given."""
        pa, pc = self._pa, self._pc
        texts = {
            "step": pc.cast(pa.array(steps), pa.string()),
            "wall_time": pc.cast(pa.array(wall_times), pa.string()),
            "value": pc.cast(pa.array(values), pa.string()),
        }
        if non_finite is not None:
            for name, column in (("value", values), ("wall_time", wall_times)):
                if not np.isfinite(column).all():
                    replaced = texts[name]
                    for text, written in non_finite.items() if name == "value" else _NULLS.items():
                        replaced = pc.if_else(pc.equal(replaced, text), written, replaced)
                    texts[name] = replaced
        joined = pc.binary_join_element_wise(*(texts.get(piece, pa.scalar(piece)) for piece in pieces), separator)
        offsets, data = joined.buffers()[1:3]
        bounds = np.frombuffer(offsets, dtype=np.int32, count=len(joined) + 1, offset=joined.offset * 4)
        return bytes(memoryview(data)[bounds[0] : bounds[-1]])


_NULLS = {"nan": "null", "inf": "null", "-inf": "null"}


class NumpyTexts:
    """``ArrowTexts`` without pyarrow: numpy casts the columns, Python joins the lines."""

    def lines(self, steps, wall_times, values, pieces, non_finite=None, separator="") -> bytes:
        texts = {"step": steps.astype(str), "wall_time": wall_times.astype(str), "value": values.astype(str)}
        if non_finite is not None:
            for name, mapping in (("value", non_finite), ("wall_time", _NULLS)):
                texts[name] = texts[name].astype(object)
                for text, written in mapping.items():
                    texts[name][texts[name] == text] = written
        parts = [texts[piece].tolist() if piece in texts else [piece] * steps.size for piece in pieces]
        return "".join(map(separator.join, zip(*parts))).encode()


class CsvEncoder:
    media_type = MEDIA_TYPES["csv"]
    parallel = True  # ``chunk`` keeps no state: chunks may be encoded side by side
    separator = 0  # bytes to cut from the first chunk

    def __init__(self, texts):
        self._texts = texts

    def header(self) -> bytes:
        return ",".join(COLUMNS).encode()  # each line starts with its line end, the footer ends the last

    def chunk(self, run: str, tag: str, steps, wall_times, values) -> bytes:
        line = _Sink()
        csv.writer(line, lineterminator="").writerow((run, tag))  # quoted as csv quotes, once per series
        prefix = "\n" + "".join(line.parts)
        return self._texts.lines(steps, wall_times, values, (prefix, "step", "wall_time", "value"), None, ",")

    def footer(self) -> bytes:
        return b"\n"


class JsonEncoder:
    """A JSON array of ``{"run", "tag", "step", "wall_time", "value"}`` objects."""

    media_type = MEDIA_TYPES["json"]
    parallel = True
    separator = 1  # every object starts with ",", which the first must not

    def __init__(self, texts):
        self._texts = texts

    def header(self) -> bytes:
        return b"["

    def chunk(self, run: str, tag: str, steps, wall_times, values) -> bytes:
        opening = f'{{"run":{json.dumps(run)},"tag":{json.dumps(tag)},"step":'
        pieces = (",\n" + opening, "step", ',"wall_time":', "wall_time", ',"value":', "value", "}")
        non_finite = {text: f'null,"non_finite":"{name}"' for text, name in _NON_FINITE.items()}
        return self._texts.lines(steps, wall_times, values, pieces, non_finite)

    def footer(self) -> bytes:
        return b"\n]\n"


class ParquetEncoder:
    """One Parquet file; each chunk a row group, handed on as soon as it is written."""

    media_type = MEDIA_TYPES["parquet"]
    parallel = False  # one writer, in order
    separator = 0

    def __init__(self, pa):
        self._pa = pa
        self._sink = _Sink()
        self._schema = pa.schema(
            [
                ("run", pa.string()),
                ("tag", pa.string()),
                ("step", pa.int64()),
                ("wall_time", pa.float64()),
                ("value", pa.float32()),
            ]
        )
        self._writer = pa.parquet.ParquetWriter(self._sink, self._schema, compression="zstd")

    def header(self) -> bytes:
        return self._sink.take()

    def chunk(self, run: str, tag: str, steps, wall_times, values) -> bytes:
        pa = self._pa
        size = steps.size
        table = pa.table(
            [
                pa.repeat(run, size),
                pa.repeat(tag, size),
                pa.array(steps),
                pa.array(wall_times),
                pa.array(values),
            ],
            schema=self._schema,
        )
        self._writer.write_table(table)
        return self._sink.take()

    def footer(self) -> bytes:
        self._writer.close()
        return self._sink.take()


class _Sink:
    """A write-only file object in memory whose written parts are taken away as they come."""

    closed = False

    def __init__(self):
        self.parts = []

    def write(self, data) -> int:
        self.parts.append(data)
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def take(self) -> bytes:
        data, self.parts = b"".join(map(bytes, self.parts)), []
        return data
