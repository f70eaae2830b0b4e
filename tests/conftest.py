import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
# The opponent model is solved once per test run into a private cache, not the user's.
os.environ["CRIBSOLVE_CACHE"] = tempfile.mkdtemp(prefix="cribsolve-test-cache-")
# Commands run in-process keep numba's kernels (a single answer would otherwise switch this
# process to plain Python); the plain-Python path is tested in subprocesses.
os.environ["CRIBSOLVE_COMPILED"] = "1"
