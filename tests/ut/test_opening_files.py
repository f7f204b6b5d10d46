"""The one rule for opening a file (format/files.py): a regular file, inside the base dir,
within a bound; checked on the opened descriptor, and never blocking."""

import os
import threading

import pytest

from mindinsight.format.files import (
    FileTooLarge,
    NotRegularFile,
    OutsideBaseDir,
    open_inside,
    read_bounded,
    real_root,
)
from mindinsight.format.records import RecordReader, frame


def opened_within(seconds: float, path, root, **kwargs):
    """What ``open_inside`` did (the stream's bytes or the error), failing if it blocks."""
    outcome = []

    def attempt():
        try:
            with open_inside(str(path), root, **kwargs) as stream:
                outcome.append(stream.read())
        except OSError as error:
            outcome.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"open_inside({path}) blocked"
    return outcome[0]


def test_a_regular_file_inside_is_read(tmp_path):
    (tmp_path / "a.csv").write_bytes(b"x,y\n")
    (tmp_path / "link.csv").symlink_to(tmp_path / "a.csv")
    root = real_root(str(tmp_path))
    assert opened_within(5, tmp_path / "a.csv", root) == b"x,y\n"
    assert opened_within(5, tmp_path / "link.csv", root) == b"x,y\n"  # a link inside is followed


def test_a_fifo_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "cpu_op_detail_info_0.csv")
    assert isinstance(opened_within(5, tmp_path / "cpu_op_detail_info_0.csv", real_root(str(tmp_path))), NotRegularFile)


def test_devices_directories_and_links_out_are_refused(tmp_path):
    base, outside = tmp_path / "base", tmp_path / "outside"
    base.mkdir()
    outside.mkdir()
    (outside / "secret.csv").write_text("secret")
    (base / "zero.csv").symlink_to("/dev/zero")
    (base / "out.csv").symlink_to(outside / "secret.csv")
    (base / "dir.csv").mkdir()
    (base / "linked_dir").symlink_to(outside)
    root = real_root(str(base))
    assert isinstance(opened_within(5, base / "zero.csv", root), OutsideBaseDir)
    assert isinstance(opened_within(5, base / "out.csv", root), OutsideBaseDir)
    assert isinstance(opened_within(5, base / "linked_dir" / "secret.csv", root), OutsideBaseDir)
    assert isinstance(opened_within(5, base / "dir.csv", root), NotRegularFile)
    # /dev/zero inside the "base dir" /dev: refused as not regular, not read forever
    assert isinstance(opened_within(5, "/dev/zero", "/dev"), NotRegularFile)


def test_size_bounds(tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "wb") as file:
        file.truncate(4 * 1024**3)  # sparse: 4 GB that take no disk
    root = real_root(str(tmp_path))
    with pytest.raises(FileTooLarge):
        read_bounded(str(path), root, 1024)
    (tmp_path / "small").write_bytes(b"12345")
    assert read_bounded(str(tmp_path / "small"), root, 5) == b"12345"
    with pytest.raises(FileTooLarge):
        read_bounded(str(tmp_path / "small"), root, 4)


def test_the_record_reader_opens_by_the_rule(tmp_path):
    (tmp_path / "x.summary.1").write_bytes(frame(b"a"))
    assert RecordReader(str(tmp_path / "x.summary.1")).read().payloads == [b"a"]
    os.mkfifo(tmp_path / "y.summary.2")
    with pytest.raises(NotRegularFile):
        RecordReader(str(tmp_path / "y.summary.2")).read()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "z.summary.3").write_bytes(frame(b"b"))
    (tmp_path / "job").mkdir()
    (tmp_path / "job" / "z.summary.3").symlink_to(outside / "z.summary.3")
    root = real_root(str(tmp_path / "job"))
    with pytest.raises(OutsideBaseDir):
        RecordReader(str(tmp_path / "job" / "z.summary.3"), root=root).read()
