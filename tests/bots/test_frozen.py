"""The frozen reference level ``expert-2026-11`` still plays exactly as the Expert did.

``data/expert_2026_11_decisions.json`` holds decisions of the Expert recorded
at commit 92e818d, before it was changed: passes and plays at random
positions and in matches played by Normal, each as the match's record, the
deciding seat, the generator's seed and the decision.  The frozen level must
make every one of them again, with its default settings.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from hearts.bots import make_bot
from hearts.record import read_record

DATA = Path(__file__).parent / "data" / "expert_2026_11_decisions.json"


def cases() -> list[dict[str, Any]]:
    loaded: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    assert loaded["level"] == "expert-2026-11"
    found: list[dict[str, Any]] = loaded["cases"]
    return found


def test_the_recording_covers_passes_and_plays() -> None:
    kinds = [case["kind"] for case in cases()]
    assert kinds.count("pass") >= 10 and kinds.count("play") >= 30


@pytest.mark.parametrize("case", cases(), ids=lambda case: str(case["how"]))
def test_frozen_expert_makes_the_recorded_decisions(case: dict[str, Any]) -> None:
    bot = make_bot("expert-2026-11")
    assert bot.level == "expert-2026-11"
    view = read_record(case["record"], seed=0).view(case["seat"])
    decision = bot.decide(view, random.Random(case["seed"]))
    assert decision.kind == case["kind"]
    assert decision.texts() == case["decision"]
