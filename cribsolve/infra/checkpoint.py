"""A run's finished chunks on disk, so that an interrupted run resumes where it stopped.

The file is a header (a magic line, then one JSON line: the key of what the results depend on)
followed by one record per finished chunk, appended as the chunk finishes: its index, the
length and SHA-256 of its arrays, then the arrays (npz). Each record goes out in one write and
is flushed to disk; one left half-written by a crash or a full disk fails its length or digest
and is cut off when the file is opened again, so only whole chunks are ever read back. Nothing
is rewritten, so keeping a long run's chunks costs one append each. A file made by other
arguments or other code is refused, never mixed in; a lock keeps two runs out of one file.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import json
import os
import struct

import numpy as np

from cribsolve.errors import CribsolveError
from cribsolve.infra.export import AS_WAS, append_whole, atomic_open, writing

MAGIC = b"cribsolve-checkpoint 1\n"
# what a user knows each entry of a run's key as (another key reads "--name")
NAMES = {
    "n": "-n",
    "spec": "the rules (--game-length and the house rules)",
    "chunk": "the chunk size (another version of cribsolve)",
    "version": "the version of cribsolve",
    "code": "the code of cribsolve",
    "run": "the command (bracket or simulate)",
}
_RECORD = struct.Struct("<QQ32s")  # chunk index, payload length, payload SHA-256


def _encode(arrays: dict) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def _decode(payload: bytes) -> dict:
    with np.load(io.BytesIO(payload), allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def _differ(ours: dict, theirs: dict) -> str:
    """What differs between two runs' keys, as the user knows it ("-n and --seed differ")."""
    keys = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
    if "run" in keys:  # another command's file: its options are beside the point
        keys = ["run"]
    names = [NAMES.get(k, "--" + k.replace("_", "-")) for k in keys] or ["its header"]
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{said} {'differs' if len(names) == 1 else 'differ'}"


class Checkpoint:
    """The finished chunks of one run (``key``) of ``chunks`` chunks, kept in the file at
    ``path`` (made if it is missing or empty)."""

    def __init__(self, path: str, key: dict, chunks: int):
        self.path, self.chunks = path, chunks
        header = MAGIC + json.dumps(key, sort_keys=True).encode() + b"\n"
        try:
            with writing(path, AS_WAS):
                if not os.path.exists(path) or os.path.getsize(path) == 0:
                    with atomic_open(path) as f:
                        f.write(header.decode())
                self._fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        except OSError as e:
            raise CribsolveError(f"--checkpoint: cannot write {path} ({e.strerror or e})") from None
        try:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise CribsolveError(f"--checkpoint: {path} is in use by another run") from None
            self.done = self._scan(header, key)  # chunk index -> (payload offset, length)
        except BaseException:
            os.close(self._fd)
            raise

    def _scan(self, header: bytes, key: dict) -> dict:
        f = os.fdopen(os.dup(self._fd), "rb")
        with f:
            if f.readline(len(MAGIC) + 1) != MAGIC:
                raise CribsolveError(
                    f"--checkpoint: {self.path} is not a cribsolve checkpoint; give another file"
                )
            line = f.readline(1 << 20)
            if MAGIC + line != header:
                try:
                    theirs = json.loads(line)
                except ValueError:
                    theirs = None
                if not isinstance(theirs, dict):
                    raise CribsolveError(
                        f"--checkpoint: {self.path} has a damaged header; give "
                        "another file or remove it"
                    )
                raise CribsolveError(
                    f"--checkpoint: {self.path} is from a run with other arguments: "
                    f"{_differ(key, theirs)}; give another file or remove it"
                )
            done, end = {}, f.tell()
            while True:
                head = f.read(_RECORD.size)
                if len(head) < _RECORD.size:
                    break
                index, length, digest = _RECORD.unpack(head)
                payload = f.read(length) if index < self.chunks else b""
                if len(payload) != length or hashlib.sha256(payload).digest() != digest:
                    break
                done[index] = (end + _RECORD.size, length)
                end = f.tell()
        os.ftruncate(self._fd, end)  # drop a record left half-written
        return done

    def add(self, index: int, arrays: dict) -> None:
        """Record chunk ``index``'s arrays (in one write, flushed to disk; or, the disk full, the
        file as it was, and one line saying what it keeps)."""
        payload = _encode(arrays)
        record = _RECORD.pack(index, len(payload), hashlib.sha256(payload).digest()) + payload
        with writing(self.path, self._kept):
            start = append_whole(self._fd, record, sync=True)
        self.done[index] = (start + _RECORD.size, len(payload))

    def _kept(self) -> str:
        n = len(self.done)
        return (
            f"it keeps the {n} chunk{'s' * (n != 1)} finished: free space and run the same "
            "command again"
        )

    def read(self, index: int) -> dict:
        offset, length = self.done[index]
        return _decode(os.pread(self._fd, length, offset))

    def close(self) -> None:
        os.close(self._fd)  # also releases the lock
