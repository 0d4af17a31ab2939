"""Tests of the coach; they share ``tests/helpers.py`` with the engine tests."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent.parent)
if TESTS not in sys.path:
    # Run alone (``pytest tests/coach``), pytest would not put tests/ on the path.
    sys.path.insert(0, TESTS)
