import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
# The opponent model is solved once per test run into a private cache, not the user's.
os.environ["CRIBSOLVE_CACHE"] = tempfile.mkdtemp(prefix="cribsolve-test-cache-")
