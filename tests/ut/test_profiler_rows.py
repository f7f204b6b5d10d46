"""The parsed-rows memo of profiler CSV files (cache/profiler_rows.py): one version per file,
bounded in bytes, and bounded readers (ingest/profiler_csv.py)."""

import os

import pytest

from mindinsight.cache.profiler_rows import ParsedRows, rows_bytes
from mindinsight.conf import limits
from mindinsight.errors import ProfilerFileTooLargeError
from mindinsight.ingest.profiler_csv import READERS

HEADER = (
    "op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),op_avg_time(ms),"
    "total_proportion,subgraph,pid\n"
)
CONVERT = READERS["cpu_op_info"][1]


def write_csv(path, rows: int, tag: str = "") -> None:
    lines = (f"Host,Conv2D{tag},Conv2D-op{i},Default/Conv2D-op{i},3,0.2,0.07,0.0001,Default,1\n" for i in range(rows))
    path.write_text(HEADER + "".join(lines))


def test_a_changed_file_replaces_its_rows_instead_of_adding_a_version(tmp_path):
    memo = ParsedRows()
    path = tmp_path / "cpu_op_detail_info_0.csv"
    write_csv(path, 2000)
    first = memo.rows(path, str(tmp_path), CONVERT)
    assert len(first) == 2000 and len(memo) == 1
    one_version = memo.kept_bytes
    assert one_version == rows_bytes(first) > 2000 * 100
    for touch in range(1, 4):  # a new mtime each time: the file is parsed again
        os.utime(path, ns=(touch * 10**9, touch * 10**9))
        again = memo.rows(path, str(tmp_path), CONVERT)
        assert again == first and again is not first
        assert len(memo) == 1 and memo.kept_bytes == rows_bytes(again)
    assert memo.rows(path, str(tmp_path), CONVERT) is again  # unchanged: the kept rows
    path.unlink()
    assert memo.rows(path, str(tmp_path), CONVERT) == [] and len(memo) == 0 and memo.kept_bytes == 0


def test_the_rows_kept_are_bounded_in_bytes(tmp_path):
    paths = [tmp_path / f"cpu_op_detail_info_{n}.csv" for n in range(4)]
    for path in paths:
        write_csv(path, 1000)
    one = rows_bytes(ParsedRows().rows(paths[0], str(tmp_path), CONVERT))
    memo = ParsedRows(max_bytes=int(one * 2.5))  # room for two files
    kept = [memo.rows(path, str(tmp_path), CONVERT) for path in paths]
    assert len(memo) == 2 and memo.kept_bytes <= memo.max_bytes
    assert memo.rows(paths[3], str(tmp_path), CONVERT) is kept[3]  # the newest stay
    assert memo.rows(paths[0], str(tmp_path), CONVERT) is not kept[0]  # the oldest went
    big = tmp_path / "cpu_op_detail_info_9.csv"
    write_csv(big, 5000)
    assert len(memo.rows(big, str(tmp_path), CONVERT)) == 5000  # answered, but larger than the bound
    assert str(big) not in memo._entries and memo.kept_bytes <= memo.max_bytes


def test_the_size_estimate_is_close_to_what_the_rows_hold(tmp_path):
    import tracemalloc

    path = tmp_path / "cpu_op_detail_info_0.csv"
    write_csv(path, 20_000)
    tracemalloc.start()
    rows = ParsedRows(max_bytes=0).rows(path, str(tmp_path), CONVERT)  # kept by nothing but `rows`
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert 0.7 * held < rows_bytes(rows) < 1.5 * held


def test_files_beyond_the_row_and_byte_bounds_are_refused(tmp_path, monkeypatch):
    path = tmp_path / "cpu_op_detail_info_0.csv"
    write_csv(path, 11)
    monkeypatch.setattr(limits, "MAX_PROFILER_CSV_ROWS", 10)
    with pytest.raises(ProfilerFileTooLargeError, match="more than 10 rows"):
        ParsedRows().rows(path, str(tmp_path), CONVERT)
    monkeypatch.setattr(limits, "MAX_PROFILER_CSV_ROWS", 100)
    monkeypatch.setattr(limits, "MAX_PROFILER_CSV_BYTES", path.stat().st_size - 1)
    with pytest.raises(ProfilerFileTooLargeError, match="bytes"):
        ParsedRows().rows(path, str(tmp_path), CONVERT)


def test_a_line_without_end_is_refused_once_it_passes_the_line_bound(tmp_path):
    import tracemalloc

    path = tmp_path / "cpu_op_detail_info_0.csv"
    path.write_text(HEADER + "x" * (8 * 1024 * 1024))  # 8 MB and no newline
    tracemalloc.start()
    with pytest.raises(ProfilerFileTooLargeError, match="a line longer than"):
        ParsedRows().rows(path, str(tmp_path), CONVERT)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8 * limits.MAX_PROFILER_CSV_LINE_CHARS + 1024 * 1024  # the line was never read whole
