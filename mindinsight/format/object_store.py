"""Logs on an object store (S3, OBS, MinIO, GCS, HDFS, Azure ...), read through fsspec.

A base dir given as a URL (``s3://bucket/prefix``) is *mounted*: one ``ObjectStore`` holds the
fsspec file system of its protocol (s3fs, gcsfs, ... from the package extras) and a snapshot
of everything below the prefix. ``refresh`` takes that snapshot with one recursive listing
(fsspec's ``find``; on S3 one paged LIST without delimiter, whatever the number of runs), and
every ``scandir`` and ``stat`` until the next refresh is answered from it: an idle reload
costs the listing pages and no request per directory or file. Directories are the key
prefixes the snapshot holds.

Files are read by byte range (``cat_file(path, start, end)``: one ranged GET), or, from their
first byte, through one streamed GET (``ObjectReads``); at most ``limits.MAX_OPEN_REMOTE_READS``
objects are being read at once. S3 has no append: a log re-uploaded bigger has a
new ETag and modification time; the record reader compares the bytes just before its offset
(the last record's CRC) and reads on from there when they are unchanged (``format/records.py``).
An object has no inode: ``st_ino`` is 0 for every file, so a replaced object is told by its
size, modification time and those bytes.

Credentials and endpoints come the standard way (for S3: the AWS environment variables and
config files, ``AWS_ENDPOINT_URL`` for S3-compatible stores such as OBS and MinIO; fsspec's
own config), plus the storage options given to ``mount``. Every failure of the store surfaces
as an ``OSError``: the reader gives up on that file for this pass and tries again next time.
"""

import errno
import io
import re
import stat as file_modes
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from mindinsight.conf import limits

_URL = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*)://(.*)$")

# The package extra that brings each protocol's fsspec implementation.
EXTRAS = {
    "s3": "s3",
    "s3a": "s3",
    "gs": "gcs",
    "gcs": "gcs",
    "az": "azure",
    "abfs": "azure",
    "abfss": "azure",
    "adl": "azure",
    "hdfs": "hdfs",
}

# Where fsspec leaves a choice open, what a dashboard polling a store wants: a refused
# connection or a stalled request gives up within seconds (the next reload tries again, later
# each time: cache/data_manager.py), and throttling (503 SlowDown) and dropped connections are
# retried with botocore's exponential backoff, and s3fs retries throttling twice on top of it.
_S3_DEFAULTS = {
    "config_kwargs": {"connect_timeout": 3, "read_timeout": 5, "retries": {"mode": "standard", "max_attempts": 3}},
}
_S3_CLIENT_RETRIES = 2


class StoreUnavailable(OSError):
    """The object store cannot be listed or read now (unreachable, refused, throttled, missing bucket)."""


class MissingExtra(RuntimeError):
    """The fsspec implementation of a URL's protocol is not installed."""


def protocol_of(path: str) -> str | None:
    """The scheme of a URL (``s3``), None for a local path (``file://`` URLs are local too)."""
    match = _URL.match(path)
    if match is None or match.group(1).lower() == "file":
        return None
    return match.group(1).lower()


def is_remote(path: str) -> bool:
    """Whether ``path`` names an object-store location rather than a local one."""
    return protocol_of(path) is not None


def normalized(url: str) -> str | None:
    """``url`` with ``.``/``..``/empty segments resolved and no trailing slash; None when a
    ``..`` climbs above the bucket."""
    match = _URL.match(url)
    if match is None:
        return None
    parts: list[str] = []
    for part in match.group(2).split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if len(parts) <= 1:  # never above the bucket
                return None
            parts.pop()
            continue
        parts.append(part)
    if not parts:
        return None
    return f"{match.group(1).lower()}://{'/'.join(parts)}"


def file_system_class(url: str):
    """The fsspec file-system class of ``url``'s protocol; ``MissingExtra`` naming the package
    extra to install when its implementation is missing."""
    import fsspec

    protocol = protocol_of(url)
    try:
        return fsspec.get_filesystem_class(protocol)
    except ImportError as error:
        extra = EXTRAS.get(protocol)
        hint = f"pip install 'mindinsight[{extra}]'" if extra else f"install the fsspec implementation of {protocol}://"
        raise MissingExtra(f"reading {protocol}:// needs a package that is not installed ({error}); {hint}") from None
    except ValueError as error:
        raise MissingExtra(f"{protocol}:// is not a storage protocol fsspec knows ({error})") from None


@dataclass(frozen=True)
class StoreStat:
    """What ``os.stat`` answers for a local file, as far as an object store knows it."""

    st_mode: int
    st_size: int
    st_mtime_ns: int
    etag: str = ""
    st_ino: int = 0  # objects have no inode (see the module docstring)

    @property
    def st_mtime(self) -> float:
        return self.st_mtime_ns / 1e9

    @property
    def st_ctime(self) -> float:
        return self.st_mtime

    @property
    def st_ctime_ns(self) -> int:
        return self.st_mtime_ns


class StoreEntry:
    """One entry of a store directory, answering what ``os.DirEntry`` answers."""

    __slots__ = ("name", "path", "_stat")

    def __init__(self, name: str, path: str, stat: StoreStat):
        self.name, self.path, self._stat = name, path, stat

    def is_dir(self, follow_symlinks: bool = True) -> bool:
        return file_modes.S_ISDIR(self._stat.st_mode)

    def is_file(self, follow_symlinks: bool = True) -> bool:
        return file_modes.S_ISREG(self._stat.st_mode)

    def is_symlink(self) -> bool:
        return False

    def stat(self, follow_symlinks: bool = True) -> StoreStat:
        return self._stat

    def inode(self) -> int:
        return 0


@dataclass(frozen=True)
class _Snapshot:
    """One listing of the prefix: every file and directory by URL, and each directory's entries."""

    stats: dict
    children: dict  # directory URL -> {name: StoreEntry}


class ObjectStore:
    """One mounted base-dir URL: its file system and the latest listing of its prefix."""

    def __init__(self, url: str, storage_options: dict | None = None):
        root = normalized(url)
        if root is None:
            raise ValueError(f"not a storage URL: {url}")
        self.root = root
        self.protocol = protocol_of(root)
        cls = file_system_class(root)
        options = dict(storage_options or {})
        if self.protocol in ("s3", "s3a"):
            options = {**_S3_DEFAULTS, **options}
        # An instance of our own (not fsspec's shared one): its retry count is set below.
        self.fs = cls(skip_instance_cache=True, **options)
        if self.protocol in ("s3", "s3a") and hasattr(self.fs, "retries"):
            self.fs.retries = _S3_CLIENT_RETRIES
        self._key_root = self.fs._strip_protocol(root)
        self._snapshot = _Snapshot({root: _dir_stat(0)}, {root: {}})
        self._refresh_lock = threading.Lock()
        self._reads: OrderedDict[str, ObjectReads] = OrderedDict()  # by URL, least recently opened first
        self._reads_lock = threading.Lock()
        self.listed = False  # a listing has succeeded at least once

    # -- listing ----------------------------------------------------------------------

    def refresh(self) -> None:
        """List the whole prefix once (paged) and make it what ``scandir``/``stat`` answer;
        ``StoreUnavailable`` when the store cannot be listed (the previous listing stays)."""
        with self._refresh_lock:
            try:
                self.fs.invalidate_cache()
                found = self.fs.find(self._key_root, detail=True, withdirs=False)
            except FileNotFoundError as error:
                missing = f"{self.root} does not exist (no such bucket or prefix)"
                raise StoreUnavailable(errno.ENOENT, missing) from error
            except Exception as error:  # any failure of the store's client: botocore, aiohttp, ...
                raise StoreUnavailable(errno.EIO, f"cannot list {self.root}: {_reason(error)}") from error
            self._snapshot = self._snapshot_of(found)
            self.listed = True

    def _snapshot_of(self, found: dict) -> _Snapshot:
        stats: dict[str, StoreStat] = {}
        children: dict[str, dict] = {self.root: {}}
        prefix = self._key_root.rstrip("/") + "/"
        for key, info in found.items():
            if info.get("type", "file") != "file" or not key.startswith(prefix):
                continue
            relative = key[len(prefix) :]
            if not relative or relative.endswith("/"):  # a "folder" placeholder object
                continue
            stat = StoreStat(
                file_modes.S_IFREG | 0o444, int(info.get("size") or 0), _mtime_ns(info), str(_etag(info) or "")
            )
            path = f"{self.root}/{relative}"
            stats[path] = stat
            # Each directory above the object: listed in its parent, dated by its newest object.
            child, child_stat = path, stat
            while True:
                parent, name = child.rsplit("/", 1)
                children.setdefault(parent, {})[name] = StoreEntry(name, child, child_stat)
                if parent == self.root:
                    break
                newest = max(stats[parent].st_mtime_ns if parent in stats else 0, stat.st_mtime_ns)
                child, child_stat = parent, _dir_stat(newest)
                stats[parent] = child_stat
        stats[self.root] = _dir_stat(max((s.st_mtime_ns for s in stats.values()), default=0))
        return _Snapshot(stats, children)

    def scandir(self, path: str) -> list[StoreEntry]:
        """The entries of directory ``path`` at the latest listing; ``FileNotFoundError`` if none."""
        entries = self._snapshot.children.get(_strip(path))
        if entries is None:
            raise FileNotFoundError(errno.ENOENT, "no such directory in the store", path)
        return list(entries.values())

    def stat(self, path: str) -> StoreStat:
        """The listed state of ``path``; ``FileNotFoundError`` if the latest listing lacks it."""
        stat = self._snapshot.stats.get(_strip(path))
        if stat is None:
            raise FileNotFoundError(errno.ENOENT, "no such object in the store", path)
        return stat

    def contains(self, path: str) -> bool:
        """Whether ``path`` (a normalized URL) is the root or below it."""
        return path == self.root or path.startswith(self.root + "/")

    # -- reading ----------------------------------------------------------------------

    def open(self, path: str) -> "RemoteFile":
        """``path`` opened for reading at its listed size (see ``ObjectReads``)."""
        stat = self.stat(path)
        if not file_modes.S_ISREG(stat.st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a file", path)
        with self._reads_lock:
            reads = self._reads.pop(path, None)
            if reads is None or reads.stat != stat:
                if reads is not None:
                    reads.close()
                reads = ObjectReads(self, self.fs._strip_protocol(path), stat)
            self._reads[path] = reads  # most recently used last
            while len(self._reads) > limits.MAX_OPEN_REMOTE_READS:
                self._reads.pop(next(iter(self._reads))).close()
        return RemoteFile(reads)

    def fetch(self, key: str, start: int, end: int) -> bytes:
        """Bytes ``[start, end)`` of object ``key``: one ranged GET."""
        try:
            return self.fs.cat_file(key, start=start, end=end)
        except Exception as error:
            raise _os_error(error, key) from error

    def stream(self, key: str):
        """A streamed read of object ``key`` from its first byte (fsspec's ``open_async``: one
        GET read as it arrives), or None when the file system streams no reads."""
        if not getattr(self.fs, "async_impl", False):
            return None
        try:
            return _sync(self.fs.loop, self.fs.open_async, key, "rb")
        except NotImplementedError:
            return None
        except Exception as error:
            raise _os_error(error, key) from error


class ObjectReads:
    """What is being read of one object version (its listed size and ETag): the bytes last
    fetched, and a streamed GET while the object is read from its start.

    A log read from its first byte with more left than one read asks comes through one streamed
    GET, chunk after chunk across the loader's calls, instead of a ranged GET per chunk (fewer
    requests; some S3 servers pay for the whole object on every ranged GET). Any other read is
    a ranged GET reaching ``REMOTE_READ_AHEAD_BYTES`` further, and the last bytes fetched answer
    the record reader's check of the bytes before its offset without a request. A new version of
    the object (another size or ETag) gets a new ``ObjectReads``, so that check always compares
    with what the store holds now."""

    def __init__(self, store: ObjectStore, key: str, stat: StoreStat):
        self.store, self.key, self.stat = store, key, stat
        self._window_start = 0
        self._window = b""
        self._stream = None
        self._stream_pos = 0
        self._lock = threading.Lock()

    def pread(self, size: int, offset: int) -> bytes:
        """``size`` bytes at ``offset`` (fewer at the end of the object)."""
        end = min(self.stat.st_size, offset + max(0, size))
        if offset >= end:
            return b""
        with self._lock:
            start_in_window = offset - self._window_start
            if 0 <= start_in_window and end - self._window_start <= len(self._window):
                return self._window[start_in_window : start_in_window + end - offset]
            if self._stream is None and offset == 0 and end < self.stat.st_size:
                self._stream, self._stream_pos = self.store.stream(self.key), 0
            window_end = self._window_start + len(self._window)
            # The reader resumes at its last whole record: the bytes up to the stream's position
            # are the end of what it last fetched.
            resumes = self._stream_pos == window_end and self._window_start <= offset <= self._stream_pos
            if self._stream is not None and resumes:
                head = self._window[offset - self._window_start :]
                data = head + self._from_stream(end - self._stream_pos)
                if len(data) < end - offset:  # the stream ended early (the object changed)
                    self.close()
                    data += self.store.fetch(self.key, offset + len(data), end)
                self._remember(offset, data)
                return data
            if self._stream is not None and offset > self._stream_pos:
                self.close()  # the reader moved on past the stream: it would only hold a connection
            reach = min(self.stat.st_size, end + limits.REMOTE_READ_AHEAD_BYTES)
            fetched = self.store.fetch(self.key, offset, reach)
            self._remember(offset, fetched)
            return fetched[: end - offset]

    def _from_stream(self, size: int) -> bytes:
        try:
            data = _sync(self.store.fs.loop, _read_up_to, self._stream, size)
        except Exception as error:
            self.close()
            raise _os_error(error, self.key) from error
        self._stream_pos += len(data)
        return data

    def _remember(self, offset: int, data: bytes) -> None:
        # Only the end is kept (the read-ahead and as much before it): it answers the next
        # check of the bytes before the offset, and the next few small reads.
        keep = 2 * limits.REMOTE_READ_AHEAD_BYTES
        if self._window_start <= offset <= self._window_start + len(self._window):  # it continues the window
            data = self._window[: offset - self._window_start] + data
            offset = self._window_start
        kept = data[-keep:] if len(data) > keep else data
        self._window_start, self._window = offset + len(data) - len(kept), kept

    def close(self) -> None:
        """Let go of the streamed GET, if any (its connection goes back to the client's pool)."""
        stream, self._stream = self._stream, None
        body = getattr(stream, "r", None)  # the HTTP body s3fs's streamed file reads from
        if body is not None and hasattr(body, "close"):
            try:
                body.close()
            except Exception:  # already closed or broken: nothing is held any more
                pass


class RemoteFile(io.RawIOBase):
    """An object opened for reading: seek/read like a local file, plus ``pread`` and ``stat``."""

    def __init__(self, reads: ObjectReads):
        super().__init__()
        self._reads = reads
        self.stat = reads.stat
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self.stat.st_size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def read(self, size: int = -1) -> bytes:
        end = self.stat.st_size if size is None or size < 0 else min(self.stat.st_size, self._pos + size)
        data = self.pread(end - self._pos, self._pos) if end > self._pos else b""
        self._pos += len(data)
        return data

    def readall(self) -> bytes:
        return self.read(-1)

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def pread(self, size: int, offset: int) -> bytes:
        """``size`` bytes at ``offset`` (fewer at the end), the position left unchanged."""
        return self._reads.pread(size, offset)


async def _read_up_to(stream, size: int) -> bytes:
    """``size`` bytes of a streamed file (fewer at its end), in one trip to the loop: a
    stream answers in pieces of whatever has arrived."""
    parts, got = [], 0
    while got < size:
        part = await stream.read(size - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def _sync(loop, coroutine_function, *args):
    """Run an async file-system call from this (synchronous) thread on the file system's loop."""
    from fsspec.asyn import sync  # fsspec is needed only once a store is mounted

    return sync(loop, coroutine_function, *args)


def _os_error(error: BaseException, key: str) -> OSError:
    """A store client's failure as the ``OSError`` readers handle."""
    if isinstance(error, (FileNotFoundError, StoreUnavailable)):
        return error
    if isinstance(error, PermissionError):
        return PermissionError(errno.EACCES, f"access denied by the store: {_reason(error)}", key)
    return StoreUnavailable(errno.EIO, f"cannot read from the store: {_reason(error)}", key)


# -- the mounted stores ---------------------------------------------------------------

_MOUNTED: dict[str, ObjectStore] = {}
_MOUNT_LOCK = threading.Lock()


def mount(url: str, storage_options: dict | None = None) -> ObjectStore:
    """The store of base-dir ``url``, made once per process (``MissingExtra`` when its protocol's
    package is missing). Storage options of a later call for the same URL are ignored."""
    root = normalized(url)
    if root is None:
        raise ValueError(f"not a storage URL: {url}")
    with _MOUNT_LOCK:
        store = _MOUNTED.get(root)
        if store is None:
            store = _MOUNTED[root] = ObjectStore(root, storage_options)
        return store


def store_for(path: str) -> ObjectStore | None:
    """The mounted store ``path`` lies in (the longest mounted root that contains it), or None."""
    path = _strip(path)
    best = None
    for root, store in list(_MOUNTED.items()):
        if store.contains(path) and (best is None or len(root) > len(best.root)):
            best = store
    return best


def _strip(path: str) -> str:
    normal = normalized(path)
    return normal if normal is not None else path


def _dir_stat(mtime_ns: int) -> StoreStat:
    return StoreStat(file_modes.S_IFDIR | 0o555, 0, mtime_ns)


def _mtime_ns(info: dict) -> int:
    """An object's modification time in ns, from whichever field its file system gives."""
    for key in ("LastModified", "mtime", "updated", "last_modified", "modification_time", "created"):
        value = info.get(key)
        if value is None:
            continue
        if isinstance(value, datetime):
            return int(value.timestamp() * 1e9)
        if isinstance(value, (int, float)):
            return int(value * 1e9) if value < 1e12 else int(value * 1e6) if value < 1e15 else int(value)
        try:
            return int(datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp() * 1e9)
        except ValueError:
            continue
    return 0


def _etag(info: dict) -> str | None:
    for key in ("ETag", "etag", "md5Hash", "content_settings"):
        if info.get(key):
            return str(info[key])
    return None


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 300 else text[:297] + "..."


__all__ = [
    "EXTRAS",
    "MissingExtra",
    "ObjectStore",
    "RemoteFile",
    "StoreEntry",
    "StoreStat",
    "StoreUnavailable",
    "is_remote",
    "mount",
    "normalized",
    "protocol_of",
    "store_for",
]
