"""Operator rows read from the parsed CSV files the profiler writes (``POST profile/ops/search``).

A file is parsed whole (a view filters and sorts all its rows), so it is bounded in bytes, rows
and line length (``limits.MAX_PROFILER_CSV_BYTES``, ``MAX_PROFILER_CSV_ROWS``,
``MAX_PROFILER_CSV_LINE_CHARS``): a file beyond them answers 50546086 instead of being read until
memory runs out. Bytes are counted as they are read, so a file that grows while it is parsed is
stopped at the bound too.
"""

import csv
import errno
import io
import os

from mindinsight.conf import limits
from mindinsight.errors import ProfilerIOError
from mindinsight.format.files import FileTooLarge, open_inside, opened_stat, stat_path
from mindinsight.ingest.profiler_files import reading

MS_TO_US = 1e3


def rounded(value: float) -> float:
    """The original's display rounding: 6 decimals below 1, 3 from 1 up."""
    return round(value, 6 if value < 1 else 3)


def _cpu_type_row(row: list[str]) -> list:
    # CSV: op_type, type_occurrences, execution_frequency(per-step), total_compute_time (ms),
    # avg_time(ms), percent (fraction) -> times in µs, percent x100
    return [
        row[0],
        int(row[1]),
        int(row[2]),
        rounded(float(row[3]) * MS_TO_US),
        rounded(float(row[4]) * MS_TO_US),
        rounded(float(row[5]) * 100),
    ]


def _cpu_detail_row(row: list[str]) -> list:
    # CSV: op_side, op_type, op_name, full_op_name, op_occurrences, op_total_time(ms), op_avg_time(ms),
    # total_proportion (fraction, kept as is), subgraph[, pid]
    return [
        *row[:4],
        int(row[4]),
        rounded(float(row[5]) * MS_TO_US),
        rounded(float(row[6]) * MS_TO_US),
        rounded(float(row[7])),
        row[8],
    ]


# view -> (file name pattern, row converter); other views have no reader here and answer no rows
READERS = {
    "cpu_op_type": ("cpu_op_type_info_{}.csv", _cpu_type_row),
    "cpu_op_info": ("cpu_op_detail_info_{}.csv", _cpu_detail_row),
}


def file_mark(path: str | os.PathLike) -> tuple | None:
    """``(inode, size, mtime)`` of ``path`` now (on a store: at its latest listing), None when
    it does not exist."""
    try:
        stat = stat_path(os.fspath(path))  # never blocks, even on a FIFO; only opening does
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ProfilerIOError() from error
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


class _Capped(io.RawIOBase):
    """A stream that refuses to read past ``cap`` bytes."""

    def __init__(self, stream, cap: int, path: str):
        self._stream, self._left, self._path = stream, cap, path

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = self._stream.readinto(buffer)
        self._left -= count
        if self._left < 0:
            raise FileTooLarge(errno.EFBIG, f"more than {limits.MAX_PROFILER_CSV_BYTES} bytes", self._path)
        return count


def _lines(text, path: str):
    """The lines of ``text``, refusing one longer than the bound before it is read whole."""
    cap = limits.MAX_PROFILER_CSV_LINE_CHARS
    while line := text.readline(cap + 1):
        if len(line) > cap:
            raise FileTooLarge(errno.EFBIG, f"a line longer than {cap} characters", path)
        yield line


def parse_rows(path: str | os.PathLike, root: str, convert) -> tuple[list[list], tuple]:
    """The rows of the CSV file ``path`` (inside ``root``, the real base dir; header skipped),
    each passed through ``convert``, and the ``file_mark`` of the file that was read."""
    path = os.fspath(path)
    cap, max_rows = limits.MAX_PROFILER_CSV_BYTES, limits.MAX_PROFILER_CSV_ROWS
    rows = []
    with reading(path), open_inside(path, root, cap) as stream:
        stat = opened_stat(stream)
        text = io.TextIOWrapper(io.BufferedReader(_Capped(stream, cap, path)), encoding="utf-8", newline="")
        reader = csv.reader(_lines(text, path))
        try:
            next(reader, None)  # header
            for row in reader:
                if not row:
                    continue
                if len(rows) == max_rows:
                    raise FileTooLarge(errno.EFBIG, f"more than {max_rows} rows", path)
                rows.append(convert(row))
        except (csv.Error, IndexError) as error:
            raise ProfilerIOError() from error
    return rows, (stat.st_ino, stat.st_size, stat.st_mtime_ns)
