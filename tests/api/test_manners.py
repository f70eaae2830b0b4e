"""The library's manners, in a fresh process on an empty cache: nothing on stdout, the
first-use compile said in one line of the ``cribsolve`` logger (nothing at all unless logging
is set up), and a second call in the same process compiles nothing."""

import subprocess
import sys

SCRIPT = """
import logging, sys
if sys.argv[1] == "log":
    logging.basicConfig(level=logging.INFO, format="%(name)s %(levelname)s %(message)s")
import os
import cribsolve as cs
hands, cuts = cs.card_codes(["5H 5S 5C JD"]), cs.card_codes(["5D"])
compiled = lambda: open(os.environ["CRIBSOLVE_COMPILE_LOG"]).read().count("\\n")
print(int(cs.score_many(hands, cuts)[0]), compiled() > 0, file=sys.stderr)
first = compiled()
print(int(cs.score_many(hands, cuts)[0]), compiled() - first, file=sys.stderr)
"""


def _run(tmp_path, mode):
    env = {
        "CRIBSOLVE_CACHE": str(tmp_path / mode),
        "CRIBSOLVE_COMPILE_LOG": str(tmp_path / f"{mode}.log"),
        "PATH": "/usr/bin:/bin",
    }
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], env=env, capture_output=True, text=True
    )


def test_the_library_prints_nothing_and_logs_its_first_compile_once(tmp_path):
    logged = _run(tmp_path, "log")
    assert logged.returncode == 0, logged.stderr
    assert logged.stdout == ""
    lines = logged.stderr.splitlines()
    assert lines == [
        "cribsolve INFO compiling the kernels this command needs; later runs load them",
        "29 True",
        "29 0",
    ]
    silent = _run(tmp_path, "silent")
    assert silent.returncode == 0, silent.stderr
    assert (silent.stdout, silent.stderr) == ("", "29 True\n29 0\n")
