"""Opening a file the server reads: a regular file inside the base dir, read within a bound.

Every file the server reads from the summary base dir is opened by ``open_inside``: summary,
lineage and ``.pb`` files, profiler CSV and JSON files. One rule decides what may be opened:

* containment (``resolve_inside``): the file's real path (every symlink resolved) lies inside
  the real path of the base dir. It is checked before opening and again on the opened
  descriptor (``/proc/self/fd``), so a link swapped in between is caught;
* only a regular file: a FIFO blocks ``open()`` until a writer comes (forever, holding a server
  thread), a device such as ``/dev/zero`` never ends. The file is opened with ``O_NONBLOCK``
  (a FIFO then opens at once), ``fstat``-ed on the descriptor (a check by name before opening
  races with a rename), and only then switched back to blocking reads;
* a size bound when the caller gives one, checked on the descriptor's size and again on the
  bytes read (the file may grow meanwhile).

A refused file raises a ``FileRefused`` (an ``OSError``), so readers that already give up on an
unreadable file give up on these too.
"""

import errno
import fcntl
import os
import stat
from typing import BinaryIO


class FileRefused(OSError):
    """A file the server does not read (see the subclasses)."""


class OutsideBaseDir(FileRefused):
    """The file's real path lies outside the base dir."""


class NotRegularFile(FileRefused):
    """A FIFO, device, socket or directory where a file was expected."""


class FileTooLarge(FileRefused):
    """The file holds more than the reader's bound."""


def real_root(base_dir: str) -> str:
    """The real path every opened path must lie in."""
    return os.path.realpath(base_dir)


def resolve_inside(path: str, root: str) -> str | None:
    """The real path of ``path`` if it lies inside ``root`` (a real path), else None."""
    real = os.path.realpath(path)
    return real if real == root or real.startswith(root.rstrip(os.sep) + os.sep) else None


def _opened_path(fd: int) -> str | None:
    """The path the kernel holds for an open descriptor (Linux), None where unknown."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def open_inside(path: str, root: str, max_bytes: int | None = None) -> BinaryIO:
    """``path`` opened for binary reading, if it is a regular file inside ``root`` (a real path)
    of at most ``max_bytes``; else ``OutsideBaseDir``, ``NotRegularFile`` or ``FileTooLarge``."""
    real = resolve_inside(path, root)
    if real is None:
        raise OutsideBaseDir(errno.EACCES, "outside the summary base dir", path)
    # O_NOFOLLOW: the real path has no link left; one that appears now is refused (ELOOP).
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(real, flags)
    try:
        mode = os.fstat(fd)
        if not stat.S_ISREG(mode.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", path)
        opened = _opened_path(fd)
        if opened is not None and resolve_inside(opened, root) is None:
            raise OutsideBaseDir(errno.EACCES, "outside the summary base dir", path)
        if max_bytes is not None and mode.st_size > max_bytes:
            raise FileTooLarge(errno.EFBIG, f"{mode.st_size} bytes, more than {max_bytes}", path)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: str, root: str, max_bytes: int) -> bytes:
    """The whole content of ``path`` (see ``open_inside``), at most ``max_bytes`` of it."""
    with open_inside(path, root, max_bytes) as stream:
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew since it was opened
        raise FileTooLarge(errno.EFBIG, f"more than {max_bytes} bytes", path)
    return data
