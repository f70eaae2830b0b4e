"""CSV, JSON and tables of rows (Parquet, gzip CSV) that never leave a half-written file
behind, and the two ways every file cribsolve grows is written whole (``append_whole``) and a
write the machine fails is said (``writing``)."""

from __future__ import annotations

import contextlib
import csv
import errno
import fcntl
import io
import json
import os
import stat
import tempfile

from cribsolve.errors import MACHINE, CribsolveError, FileFault

# what a file replaced whole (atomic_open) keeps when the machine fails its write
AS_WAS = "it is as it was: free space and run the same command again"

# the columns of a win-rate table: one row per simulate run, whatever the game; ``what`` says
# what the row's wins are and what its mean and std are of (a cribbage row's wins are the first
# dealer's, and a game of cribbage has no one score to average)
WIN_RATE_HEADER = [
    "variant",
    "policy",
    "n",
    "seed",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean",
    "std",
    "what",
]
# the header before ``what``: a table begun under it takes its rows without that column
WIN_RATE_HEADERS = (WIN_RATE_HEADER, WIN_RATE_HEADER[:-1])


def check_output_path(path: str, option_name: str) -> None:
    """Refuse an output path we could not or should not write, before any long work starts.

    A symbolic link is refused rather than replaced or written through, and so is anything that
    is not a regular file (folder, FIFO, device), since writing there would lose or block output.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.islink(path):
        raise CribsolveError(
            f"{option_name}: {path} is a symbolic link; give the real file instead"
        )
    if not os.path.isdir(folder):
        raise CribsolveError(f"{option_name}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise CribsolveError(f"{option_name}: folder {folder} is not writable")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        _probe(path, option_name)
        return
    except OSError as e:  # a name too long, say
        raise CribsolveError(f"{option_name}: cannot write {path}: {e.strerror}") from None
    if not stat.S_ISREG(mode):
        raise CribsolveError(f"{option_name}: {path} exists and is not a regular file")


def _probe(path: str, option_name: str) -> None:
    """Create a file beside ``path`` with as long a name, and remove it: what os.access cannot
    tell (a name too long, a folder that takes no new files, as under /proc) shows now, not
    once the work is done. Not ``path`` itself: a run appending to it meanwhile would lose its
    rows when the probe is removed."""
    folder, name = os.path.split(os.path.abspath(path))
    pad = max(0, len(name.encode()) - len(".cribsolve-") - 8)  # mkstemp adds 8 characters
    try:
        fd, probe = tempfile.mkstemp(prefix=".cribsolve-", suffix="-" * pad, dir=folder)
    except OSError as e:
        raise CribsolveError(f"{option_name}: cannot write {path}: {e.strerror}") from None
    os.close(fd)
    os.unlink(probe)


def _new_file_mode() -> int:
    """What open() gives a new file: 0o666 less the umask (read by setting it, then restoring)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic_open(path: str, binary: bool = False):
    """Write to a temporary file beside ``path`` (text, or bytes with ``binary``) and move it
    into place only on success.

    The result keeps the replaced file's permission mode (a new one follows the umask), because
    mkstemp's private 0600 would otherwise silently tighten the user's file.
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".cribsolve-", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with (
            os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", newline="", encoding="utf-8")
        ) as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


@contextlib.contextmanager
def writing(path: str, kept):
    """Within, a write the machine fails (errors.MACHINE: a full disk, say) raises FileFault:
    one line naming ``path`` and what it keeps (``kept``, or ``kept()`` said at the fault),
    which the CLI prints with exit status 1. Any other error passes unchanged."""
    try:
        yield
    except OSError as e:
        if e.errno not in MACHINE:
            raise
        said = kept() if callable(kept) else kept
        raise FileFault(f"cannot write {path} ({e.strerror or e}); {said}") from None


def append_whole(fd: int, data: bytes, sync: bool = False) -> int:
    """Append ``data`` to the file ``fd`` in one write (and flush it to disk with ``sync``), or,
    failing, cut the file back: an interrupt or a full disk leaves all of it or none. Returns
    where ``data`` begins. A short write is a full disk (the kernel says so at the next)."""
    end = os.fstat(fd).st_size
    try:
        if os.write(fd, data) != len(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if sync:
            os.fsync(fd)
    except BaseException:
        os.ftruncate(fd, end)
        raise
    return end


@contextlib.contextmanager
def growing(path: str, fresh: bool, kept):
    """``path`` (emptied first if ``fresh``) grown by whole pieces, as a game record grows deal
    by deal: yields write(text), each text appended whole and a fault said (``writing``, with
    ``kept``)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | (os.O_TRUNC if fresh else 0)
    with writing(path, kept):
        fd = os.open(path, flags, 0o666)
    try:

        def write(text: str) -> None:
            with writing(path, kept):
                append_whole(fd, text.encode("utf-8"))

        yield write
    finally:
        os.close(fd)


def _csv_text(*rows) -> str:
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return buf.getvalue()


def _append_csv(path: str, header, rows, option_name: str, older=()) -> None:
    """Append rows under an exclusive lock so concurrent runs can share one table.

    Rows are formatted first and appended whole (``append_whole``); a file with another header
    is left alone. A file begun under one of the ``older`` headers (each the first columns of
    ``header``) takes the rows cut to its columns.
    """
    header_line = _csv_text(header).encode("utf-8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        end = os.fstat(fd).st_size
        if end == 0:
            data = header_line + _csv_text(*rows).encode("utf-8")
        else:
            first = os.pread(fd, len(header_line) + 1, 0).split(b"\n")[0].rstrip(b"\r")
            kept = [h for h in (header, *older) if first == _csv_text(h).encode().rstrip(b"\r\n")]
            if not kept:
                found = first.decode("utf-8", "replace")
                want = header_line.decode("utf-8").rstrip("\r\n")
                raise CribsolveError(
                    f"{option_name}: {path} has a different header "
                    f"({found!r}, not {want!r}); use another file"
                )
            body = _csv_text(*(row[: len(kept[0])] for row in rows)).encode("utf-8")
            # A hand-edited file may lack its final newline; don't glue our first row onto it.
            data = body if os.pread(fd, 1, end - 1) == b"\n" else b"\r\n" + body
        append_whole(fd, data)
    finally:
        os.close(fd)  # also releases the lock


def write_csv(
    path: str, header, rows, append: bool = False, option_name: str = "--csv", older=()
) -> None:
    """Write rows under a header, replacing the file atomically, or with ``append`` add them to
    a table built across runs (the header is written once and must match, or be one of the
    ``older`` headers, which take the rows cut to their columns)."""
    check_output_path(path, option_name)
    with writing(path, AS_WAS):
        if append:
            _append_csv(path, header, rows, option_name, older)
            return
        with atomic_open(path) as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


ROWS_AT_ONCE = 50_000  # rows of a table formatted for CSV at a time: its text stays small


def check_table_format(path: str, option_name: str) -> None:
    """Refuse Parquet without pyarrow (write_table) before any long work starts."""
    if not path.lower().endswith(".parquet"):
        return
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise CribsolveError(
            f"{option_name}: {path} is Parquet, which needs pyarrow: pip install 'cribsolve[data]'"
        ) from None


def write_table(path: str, columns: dict) -> None:
    """Columns (name: numpy array, one entry a row) into ``path``, replaced whole or not at all
    (an interrupt leaves the file as it was), in the format its name ends with: .parquet
    (pyarrow), .csv.gz (gzip, without a timestamp, so the same rows give the same bytes) or
    else CSV."""
    with writing(path, AS_WAS), atomic_open(path, binary=True) as f:
        name = path.lower()
        if name.endswith(".parquet"):
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.table(columns), f)
        elif name.endswith(".csv.gz"):
            import gzip

            # gzip's own default level: 9 took nearly three times as long for 4% less
            with gzip.GzipFile(filename="", mode="wb", compresslevel=6, fileobj=f, mtime=0) as z:
                _csv_columns(z, columns)
        else:
            _csv_columns(f, columns)


def _csv_columns(f, columns: dict) -> None:
    """CSV of ``columns`` into the binary file ``f``, a block of rows at a time."""
    text = io.TextIOWrapper(f, encoding="utf-8", newline="")
    w = csv.writer(text)
    w.writerow(columns)
    n = len(next(iter(columns.values()), ()))
    for start in range(0, n, ROWS_AT_ONCE):
        w.writerows(zip(*(c[start : start + ROWS_AT_ONCE].tolist() for c in columns.values())))
    text.flush()
    text.detach()


def dumps(obj) -> str:
    return json.dumps(obj, indent=2)
