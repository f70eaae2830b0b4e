"""Running a job's chunks, here or on a Dask cluster, and handing back their results in chunk
order.

A chunk is a call of a top-level function (a worker imports it by name) on plain arguments; it
returns a dict of numpy arrays, the same for the same arguments wherever it runs. Merged in
chunk order, the results are therefore the same for any number of workers and any order of
finishing, and a chunk lost with a worker is simply run again (Dask does that by itself). With
a checkpoint file each finished chunk is also kept on disk, and a run started again reads those
back instead of computing them. Dask is imported only when a scheduler is given (the optional
extra ``cribsolve[distributed]``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
import signal
import threading
from dataclasses import dataclass
from typing import Callable, Iterator

from cribsolve.errors import CribsolveError
from cribsolve.infra.checkpoint import Checkpoint
from cribsolve.infra.jit import code_key, set_threads

WORKERS_MAX = 256
CONNECT_TIMEOUT = "20s"  # to reach a scheduler


@dataclass
class Job:
    fn: Callable[..., dict]  # top level and pure: fn(*args) -> {name: array}
    args: list[tuple]  # one tuple per chunk, in chunk order
    sizes: list[int]  # games per chunk, for the progress bar
    key: dict  # what the results depend on, besides the code


def chunks(n: int, size: int) -> list[tuple[int, int]]:
    """(index, games) of each chunk of ``n`` games, ``size`` at most each."""
    return [(i, min(size, n - start)) for i, start in enumerate(range(0, n, size))]


class Local:
    """Chunk after chunk in this process, each kernel over ``jobs`` numba threads."""

    def __init__(self, jobs: int | None = None):
        self.jobs = jobs

    def results(self, job: Job, todo: list[int]):
        set_threads(self.jobs)
        for i in todo:
            yield i, job.fn(*job.args[i])


@functools.cache
def _code() -> str:
    return code_key()


_ONE_AT_A_TIME = threading.Lock()


def _call(fn, args, threads):
    """One chunk on a worker, tagged with the code that ran it. Chunks take turns in a worker
    process: each already spreads over the cores, and numba's default thread pool must not be
    entered from two threads at once (a worker started with --nthreads 4 is safe too)."""
    with _ONE_AT_A_TIME:
        set_threads(threads)
        return _code(), fn(*args)


class Cluster:
    """Chunks on a Dask cluster through ``client``: twice as many in flight as the workers have
    threads (at least 4), taken as they finish. ``threads``: numba threads per chunk (None:
    each worker's cores)."""

    def __init__(self, client, threads: int | None = None):
        self.client, self.threads = client, threads

    def results(self, job: Job, todo: list[int]):
        from distributed import as_completed

        todo, running = iter(todo), {}
        finished = as_completed(loop=self.client.loop)

        def top_up():
            limit = max(4, 2 * sum(self.client.nthreads().values()))
            while len(running) < limit:
                i = next(todo, None)
                if i is None:
                    return
                fut = self.client.submit(_call, job.fn, job.args[i], self.threads, pure=False)
                running[fut] = i
                finished.add(fut)

        try:
            top_up()
            for fut in finished:
                code, res = fut.result()
                if code != _code():
                    raise CribsolveError(
                        f"--scheduler: a worker runs other cribsolve code (key "
                        f"{code}, here {_code()}); install the same version on "
                        "every worker"
                    )
                i = running.pop(fut)
                top_up()
                yield i, res
        finally:
            self.client.cancel(list(running))


def _parse_local(scheduler: str) -> int | None:
    """WORKERS of ``local[:WORKERS]`` (all cores for ``local``), None for an address."""
    m = re.fullmatch(r"local(?::(\d+))?", scheduler.strip())
    if m is None:
        return None
    workers = int(m[1]) if m[1] else os.cpu_count() or 1
    if not 1 <= workers <= WORKERS_MAX:
        raise CribsolveError(f"--scheduler: local:{m[1]} is not 1 to {WORKERS_MAX} workers")
    return workers


@contextlib.contextmanager
def _deaf_to_ctrl_c():
    """Processes started inside ignore SIGINT: Ctrl-C reaches every process of the terminal,
    and this one, interrupted, stops its workers itself (without their tracebacks)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def connect(scheduler: str | None = None, jobs: int | None = None):
    """Where chunks run: here (None), on a new cluster of worker processes on this machine
    (``local`` or ``local:WORKERS``), or on the Dask scheduler at an address. ``jobs``: numba
    threads per chunk (default: here, all cores; a local cluster, its share of them)."""
    if scheduler is None:
        yield Local(jobs)
        return
    workers = _parse_local(scheduler)
    try:
        from distributed import Client, LocalCluster
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        raise CribsolveError(
            "--scheduler needs Dask: pip install 'cribsolve[distributed]'"
        ) from None
    if not workers:
        try:
            get_address_host_port(scheduler)
        except ValueError as e:
            raise CribsolveError(
                f"--scheduler: {scheduler!r} is neither local[:WORKERS] nor the "
                f"address of a scheduler, such as tcp://host:8786 ({e})"
            ) from None
    with contextlib.ExitStack() as stack:
        target, threads = scheduler, jobs
        if workers:
            with _deaf_to_ctrl_c():
                target = stack.enter_context(
                    LocalCluster(
                        n_workers=workers,
                        processes=True,
                        threads_per_worker=1,
                        dashboard_address=":0",
                        silence_logs=logging.ERROR,
                    )
                )
            threads = jobs or max(1, (os.cpu_count() or 1) // workers)
        try:
            client = stack.enter_context(
                Client(target, timeout=CONNECT_TIMEOUT, set_as_default=False)
            )
        except (OSError, TimeoutError) as e:
            raise CribsolveError(
                f"--scheduler: cannot reach a Dask scheduler at {scheduler} ({e})"
            ) from None
        yield Cluster(client, threads)


def run(job: Job, where=None, progress=None, checkpoint: str | None = None) -> Iterator[dict]:
    """Each chunk's result in chunk order: computed ``where`` (default: here, all cores) or,
    when ``checkpoint`` names a file holding it, read back; ``progress(games)`` is called as
    chunks finish, and first for the chunks read back, through ``progress.resume(games)`` where
    it has one (a progress bar then starts there)."""
    from cribsolve import __version__

    n = len(job.args)
    ck = (
        Checkpoint(checkpoint, {**job.key, "version": __version__, "code": _code()}, n)
        if checkpoint
        else None
    )
    try:
        kept = set(ck.done) if ck else set()
        if progress and kept:
            getattr(progress, "resume", progress)(sum(job.sizes[i] for i in kept))
        pending, nxt = {}, 0

        def ready():
            nonlocal nxt
            while nxt < n and (nxt in pending or nxt in kept):
                yield pending.pop(nxt) if nxt in pending else ck.read(nxt)
                nxt += 1

        todo = [i for i in range(n) if i not in kept]
        with contextlib.closing((where or Local()).results(job, todo)) as results:
            for i, res in results:
                if ck:
                    ck.add(i, res)
                if progress:
                    progress(job.sizes[i])
                pending[i] = res
                yield from ready()
        yield from ready()
    finally:
        if ck:
            ck.close()
