"""bleusuite.torchmetrics' WER, CER, MER, WIL and WIP against torchmetrics 1.9's, on
batched updates of ASR-like cases."""

from __future__ import annotations

import pytest
from edit_cases import asr_pairs

pytest.importorskip("torch")
tm = pytest.importorskip("torchmetrics.text")
ours = pytest.importorskip("bleusuite.torchmetrics")

PAIRS = asr_pairs(200, seed=5)
NAMES = ["WordErrorRate", "CharErrorRate", "MatchErrorRate", "WordInfoLost",
         "WordInfoPreserved"]


def torch_equal(a: object, b: object) -> bool:
    """The same float32 number (NaN equal to NaN)."""
    x, y = float(a), float(b)  # type: ignore[arg-type]
    return x == y or (x != x and y != y)


@pytest.mark.parametrize("name", NAMES)
def test_batched_updates_equal_torchmetrics(name: str) -> None:
    theirs, mine = getattr(tm, name)(), getattr(ours, name)()
    for start in range(0, len(PAIRS), 37):
        batch = PAIRS[start: start + 37]
        preds, target = [h for _, h in batch], [r for r, _ in batch]
        theirs.update(preds, target)
        mine.update(preds, target)
        step_theirs, step_mine = theirs.compute(), mine.compute()
        assert step_mine.dtype == step_theirs.dtype
        assert torch_equal(step_mine, step_theirs)
    # a single pair, and a forward call
    assert getattr(ours, name)()("a b c", "a x c").item() == pytest.approx(
        getattr(tm, name)()("a b c", "a x c").item(), abs=1e-7)


def test_bad_input() -> None:
    with pytest.raises(TypeError, match="preds"):
        ours.WordErrorRate().update([1], ["a"])  # type: ignore[list-item]
