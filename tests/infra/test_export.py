import csv
import multiprocessing
import os
import stat

import pytest

from cribsolve.errors import CribsolveError
from cribsolve.infra import export
from cribsolve.infra.export import check_output_path, write_csv

HEADER = ["policy", "games", "win"]


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_whole_write_creates_file_with_header_and_rows(tmp_path):
    p = tmp_path / "out.csv"
    write_csv(str(p), HEADER, [["greedy", 10, 0.5], ["win", 20, 0.25]])
    assert read_rows(p) == [HEADER, ["greedy", "10", "0.5"], ["win", "20", "0.25"]]
    assert os.listdir(tmp_path) == ["out.csv"]


def test_whole_write_replaces_existing_content(tmp_path):
    p = tmp_path / "out.csv"
    write_csv(str(p), HEADER, [["a", 1, 1]])
    write_csv(str(p), HEADER, [["b", 2, 2]])
    assert read_rows(p) == [HEADER, ["b", "2", "2"]]


def test_interrupted_whole_write_leaves_file_unchanged_and_no_temp(tmp_path):
    p = tmp_path / "out.csv"
    p.write_bytes(b"old,content\r\n")

    def rows():
        yield ["x", 1, 1]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_csv(str(p), HEADER, rows())
    assert p.read_bytes() == b"old,content\r\n"
    assert os.listdir(tmp_path) == ["out.csv"]


def test_rewrite_keeps_existing_mode(tmp_path):
    p = tmp_path / "out.csv"
    p.write_text("old\n")
    os.chmod(p, 0o640)
    write_csv(str(p), HEADER, [["a", 1, 1]])
    assert mode_of(p) == 0o640
    assert read_rows(p)[0] == HEADER


@pytest.mark.parametrize("append", [False, True])
def test_new_file_mode_follows_umask(tmp_path, append):
    p = tmp_path / "out.csv"
    old = os.umask(0o027)
    try:
        write_csv(str(p), HEADER, [["a", 1, 1]], append=append)
    finally:
        os.umask(old)
    assert mode_of(p) == 0o666 & ~0o027
    assert current_umask() == old


def test_symlink_refused_and_untouched(tmp_path):
    target = tmp_path / "target.csv"
    target.write_text("precious\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    for append in (False, True):
        with pytest.raises(CribsolveError, match=r"^--csv: .*symbolic link"):
            write_csv(str(link), HEADER, [["a", 1, 1]], append=append)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "precious\n"
    assert sorted(os.listdir(tmp_path)) == ["link.csv", "target.csv"]


def test_dangling_symlink_refused(tmp_path):
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "missing.csv")
    with pytest.raises(CribsolveError, match="symbolic link"):
        check_output_path(str(link), "--csv")
    assert not (tmp_path / "missing.csv").exists()


@pytest.mark.parametrize("append", [False, True])
def test_fifo_refused_and_untouched(tmp_path, append):
    p = tmp_path / "pipe.csv"
    os.mkfifo(p)
    with pytest.raises(CribsolveError, match=r"^--csv: .*not a regular file"):
        write_csv(str(p), HEADER, [["a", 1, 1]], append=append)
    assert stat.S_ISFIFO(os.lstat(p).st_mode)
    assert os.listdir(tmp_path) == ["pipe.csv"]


def test_folder_refused(tmp_path):
    d = tmp_path / "sub"
    d.mkdir()
    with pytest.raises(CribsolveError, match=r"^--histogram-csv: .*not a regular file"):
        check_output_path(str(d), "--histogram-csv")


def test_missing_parent_folder_refused(tmp_path):
    p = tmp_path / "no" / "such" / "out.csv"
    with pytest.raises(CribsolveError) as e:
        write_csv(str(p), HEADER, [["a", 1, 1]])
    assert str(e.value) == f"--csv: folder {tmp_path / 'no' / 'such'} does not exist"


def test_unwritable_folder_refused_via_access(tmp_path, monkeypatch):
    calls = []

    def no_write(path, mode, **kw):
        calls.append((path, mode))
        return False

    monkeypatch.setattr(export.os, "access", no_write)
    with pytest.raises(CribsolveError, match=r"^--csv: folder .* is not writable$"):
        check_output_path(str(tmp_path / "out.csv"), "--csv")
    assert calls == [(str(tmp_path), os.W_OK)]


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores permission bits")
def test_unwritable_folder_refused_for_real(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    os.chmod(d, 0o555)
    try:
        with pytest.raises(CribsolveError, match="not writable"):
            write_csv(str(d / "out.csv"), HEADER, [["a", 1, 1]])
    finally:
        os.chmod(d, 0o755)


def test_a_name_too_long_or_a_folder_that_takes_no_files_is_refused_before_the_work(tmp_path):
    """os.access cannot tell these: the file is created and removed again to find out."""
    long = str(tmp_path / ("a" * 300 + ".csv"))
    with pytest.raises(CribsolveError, match=r"^--csv: cannot write .*name too long"):
        check_output_path(long, "--csv")
    if os.access("/proc", os.W_OK):  # as root: the folder says yes
        with pytest.raises(CribsolveError, match=r"^--plot: cannot write /proc/x\.png"):
            check_output_path("/proc/x.png", "--plot")
    assert os.listdir(tmp_path) == []


def test_a_file_error_at_the_command_line_is_one_line(tmp_path):
    from clihelp import run

    code, out, err = run("distribution", "--csv", tmp_path / ("a" * 300 + ".csv"))
    assert code == 2 and len(err.splitlines()) == 1 and "name too long" in err


def test_good_path_passes(tmp_path):
    assert check_output_path(str(tmp_path / "new.csv"), "--csv") is None
    assert os.listdir(tmp_path) == []
    (tmp_path / "old.csv").write_text("x\n")
    assert check_output_path(str(tmp_path / "old.csv"), "--csv") is None


def test_append_writes_header_once(tmp_path):
    p = tmp_path / "table.csv"
    write_csv(str(p), HEADER, [["greedy", 10, 0.5]], append=True)
    write_csv(str(p), HEADER, [["win", 20, 0.25], ["max", 30, 0.125]], append=True)
    assert read_rows(p) == [
        HEADER,
        ["greedy", "10", "0.5"],
        ["win", "20", "0.25"],
        ["max", "30", "0.125"],
    ]


def test_append_to_empty_file_writes_header(tmp_path):
    p = tmp_path / "table.csv"
    p.touch()
    write_csv(str(p), HEADER, [["greedy", 10, 0.5]], append=True)
    assert read_rows(p) == [HEADER, ["greedy", "10", "0.5"]]


def test_append_after_file_without_final_newline(tmp_path):
    p = tmp_path / "table.csv"
    p.write_bytes(b"policy,games,win\ngreedy,10,0.5")
    write_csv(str(p), HEADER, [["win", 20, 0.25]], append=True)
    assert read_rows(p) == [HEADER, ["greedy", "10", "0.5"], ["win", "20", "0.25"]]


def test_append_different_header_refused_and_unchanged(tmp_path):
    p = tmp_path / "table.csv"
    p.write_bytes(b"score,count\r\n1,2\r\n")
    with pytest.raises(
        CribsolveError, match=r"^--csv: .* has a different header .*use another file$"
    ):
        write_csv(str(p), HEADER, [["greedy", 10, 0.5]], append=True)
    assert p.read_bytes() == b"score,count\r\n1,2\r\n"


def test_append_longer_header_refused(tmp_path):
    p = tmp_path / "table.csv"
    p.write_bytes(b"policy,games,win,extra\r\n")
    with pytest.raises(CribsolveError, match="different header"):
        write_csv(str(p), HEADER, [["greedy", 10, 0.5]], append=True)
    assert p.read_bytes() == b"policy,games,win,extra\r\n"


def test_append_interrupted_rows_write_nothing(tmp_path):
    p = tmp_path / "table.csv"
    write_csv(str(p), HEADER, [["greedy", 10, 0.5]], append=True)
    before = p.read_bytes()

    def rows():
        yield ["win", 1, 1]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_csv(str(p), HEADER, rows(), append=True)
    assert p.read_bytes() == before


PAYLOAD = "x" * 300


def _append_worker(path, worker):
    for i in range(50):
        write_csv(path, HEADER, [[worker, i, PAYLOAD]], append=True)


def test_concurrent_appends_keep_every_row(tmp_path):
    p = str(tmp_path / "table.csv")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_worker, args=(p, w)) for w in range(8)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
    assert [proc.exitcode for proc in procs] == [0] * 8
    rows = read_rows(p)
    assert rows[0] == HEADER
    body = rows[1:]
    assert len(body) == 400
    assert all(len(r) == 3 and r[2] == PAYLOAD for r in body)
    assert sorted((int(r[0]), int(r[1])) for r in body) == [
        (w, i) for w in range(8) for i in range(50)
    ]


def test_append_to_a_table_under_an_older_header(tmp_path):
    """A header that grew a column at its end: a table begun under the older one takes the
    rows cut to its columns; any other header is still refused."""
    path = tmp_path / "t.csv"
    write_csv(str(path), HEADER[:2], [["a", 1]], append=True)
    write_csv(str(path), HEADER, [["b", 2, True]], append=True, older=[HEADER[:2]])
    assert read_rows(path) == [HEADER[:2], ["a", "1"], ["b", "2"]]
    fresh = tmp_path / "new.csv"
    write_csv(str(fresh), HEADER, [["b", 2, True]], append=True, older=[HEADER[:2]])
    assert read_rows(fresh) == [HEADER, ["b", "2", "True"]]
    with pytest.raises(CribsolveError, match="has a different header"):
        write_csv(str(path), HEADER, [["c", 3, 0]], append=True, older=[HEADER[:1]])
