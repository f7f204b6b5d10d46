"""Opening a file the server reads: a regular file inside the base dir, read within a bound.

Every file the server reads from the summary base dir is opened by ``open_inside``: summary,
lineage and ``.pb`` files, profiler CSV and JSON files; and every directory it lists is listed
by ``scandir`` here. A base dir given as a URL (``s3://bucket/prefix``) lies on an object store
(``format/object_store.py``): the same functions answer from its latest listing and read by
range, and containment is the normalized URL lying below the base URL (a ``..`` never climbs
out of it). One rule decides what may be opened locally:

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

from mindinsight.format import object_store
from mindinsight.format.object_store import RemoteFile, is_remote


class FileRefused(OSError):
    """A file the server does not read (see the subclasses)."""


class OutsideBaseDir(FileRefused):
    """The file's real path lies outside the base dir."""


class NotRegularFile(FileRefused):
    """A FIFO, device, socket or directory where a file was expected."""


class FileTooLarge(FileRefused):
    """The file holds more than the reader's bound."""


def real_root(base_dir: str) -> str:
    """The real path every opened path must lie in (a normalized URL on an object store)."""
    if is_remote(base_dir):
        return object_store.normalized(base_dir) or base_dir
    return os.path.realpath(base_dir)


def resolve_inside(path: str, root: str) -> str | None:
    """The real path of ``path`` if it lies inside ``root`` (a real path), else None."""
    if is_remote(root) or is_remote(path):
        normal = object_store.normalized(path)
        inside = normal is not None and (normal == root or normal.startswith(root + "/"))
        return normal if inside else None
    real = os.path.realpath(path)
    return real if _lies_inside(real, root) else None


def _lies_inside(real: str, root: str) -> bool:
    """Whether the real path ``real`` is ``root`` or lies below it (both local real paths)."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


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
    if is_remote(real):
        return _open_remote(real, path, max_bytes)
    # O_NOFOLLOW: the real path has no link left; one that appears now is refused (ELOOP).
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(real, flags)
    try:
        mode = os.fstat(fd)
        if not stat.S_ISREG(mode.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", path)
        # The kernel's path of the descriptor has every link resolved already: compared as it is.
        opened = _opened_path(fd)
        if opened is not None and not _lies_inside(opened, root):
            raise OutsideBaseDir(errno.EACCES, "outside the summary base dir", path)
        if max_bytes is not None and mode.st_size > max_bytes:
            raise FileTooLarge(errno.EFBIG, f"{mode.st_size} bytes, more than {max_bytes}", path)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _open_remote(real: str, path: str, max_bytes: int | None) -> RemoteFile:
    store = object_store.store_for(real)
    if store is None:
        raise FileNotFoundError(errno.ENOENT, "no mounted object store holds it", path)
    stream = store.open(real)
    if max_bytes is not None and stream.stat.st_size > max_bytes:
        raise FileTooLarge(errno.EFBIG, f"{stream.stat.st_size} bytes, more than {max_bytes}", path)
    return stream


def read_bounded(path: str, root: str, max_bytes: int) -> bytes:
    """The whole content of ``path`` (see ``open_inside``), at most ``max_bytes`` of it."""
    with open_inside(path, root, max_bytes) as stream:
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew since it was opened
        raise FileTooLarge(errno.EFBIG, f"more than {max_bytes} bytes", path)
    return data


# -- listing and the state of what is open: local, or from an object store's listing ------


class _Entries(list):
    """A store directory's entries, usable where ``os.scandir``'s iterator is (``with``, ``close``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def close(self) -> None:
        return None


def _store(path: str) -> object_store.ObjectStore:
    store = object_store.store_for(path)
    if store is None:
        raise FileNotFoundError(errno.ENOENT, "no mounted object store holds it", path)
    return store


def scandir(path: str):
    """The entries of directory ``path`` (``os.scandir``'s, or a store listing's alike)."""
    if is_remote(path):
        return _Entries(_store(path).scandir(path))
    return os.scandir(path)


def stat_path(path: str, follow_symlinks: bool = True):
    """``os.stat`` of ``path``, or its state at the store's latest listing."""
    if is_remote(path):
        return _store(path).stat(path)
    return os.stat(path, follow_symlinks=follow_symlinks)


def is_link(path: str) -> bool:
    """Whether ``path`` is a symlink (objects never are)."""
    return not is_remote(path) and os.path.islink(path)


def is_dir(path: str) -> bool:
    """Whether ``path`` is a directory (a key prefix holding objects, on a store)."""
    if is_remote(path):
        try:
            return stat.S_ISDIR(_store(path).stat(path).st_mode)
        except OSError:
            return False
    return os.path.isdir(path)


def opened_stat(stream):
    """Size, mtime and inode of an opened file (``os.fstat``; its listed state on a store)."""
    if isinstance(stream, RemoteFile):
        return stream.stat
    return os.fstat(stream.fileno())


def read_at(stream, size: int, offset: int) -> bytes:
    """``size`` bytes of an opened file at ``offset``, its position unchanged (``os.pread``)."""
    if isinstance(stream, RemoteFile):
        return stream.pread(size, offset)
    return os.pread(stream.fileno(), size, offset)


def mount_base_dir(base_dir: str, storage_options: dict | None = None) -> None:
    """Make an object-store base dir readable (``object_store.mount``); nothing for a local one."""
    if is_remote(base_dir):
        object_store.mount(base_dir, storage_options)


def refresh_listing(base_dir: str) -> None:
    """Take a new listing of an object-store base dir (``StoreUnavailable`` when it cannot be
    listed; the previous one stays); nothing for a local one, which is listed as it is read."""
    if is_remote(base_dir):
        _store(base_dir).refresh()
