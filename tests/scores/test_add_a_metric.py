"""docs/architecture.md's recipe for a new metric, followed: a unit of its own
(``tests/exact_match_metric.py``: statistics type, formula, result object, registry entry)
plus one line of ``registry.METRICS`` (and ``COMMAND_METRICS`` to offer ``-m``), and every
front end that asks the registry scores it, nothing else changed: the command (text and
JSON, sentence level, a setting from its flags, the bootstrap interval, the paired tests),
the result objects, the paired tests of the library and Ray's plans and block statistics."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from exact_match_metric import ExactResult, ExactStats

from bleusuite import cli
from bleusuite.scores import registry
from bleusuite.significance import paired_bootstrap

HYPS = ["the cat sat", "a dog ran", "Birds fly", "no match here"]
REFS = ["the cat sat", "a dog ran.", "birds fly", "something else"]


@pytest.fixture
def with_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recipe's one line in the registry (and the command's list of ``-m``)."""
    monkeypatch.setitem(registry.METRICS, "exact", "exact_match_metric")
    monkeypatch.setattr(registry, "COMMAND_METRICS", (*registry.COMMAND_METRICS, "exact"))


def _files(tmp_path: Path) -> tuple[str, str, str]:
    hyp, other, ref = tmp_path / "hyp.txt", tmp_path / "other.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    other.write_text("\n".join(REFS[:2] + HYPS[2:]) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    return str(hyp), str(other), str(ref)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert cli.main(["score", *args]) == 0
    return capsys.readouterr().out


def test_the_registry_lists_it(with_exact: None) -> None:
    assert "exact" in registry.names()
    assert registry.text_counted("exact") is not None and registry.word_counted("exact") is None
    entry = registry.get("exact")
    assert entry.title(entry.settings()) == "Exact"
    assert registry.of_statistics(ExactStats(np.zeros(1), np.ones(1))) is entry


def test_the_command_scores_it(with_exact: None, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    hyp, _, ref = _files(tmp_path)
    # 1 of the 4 lines: the first ("." and the case tell the others apart)
    assert json.loads(_run(capsys, ref, "-i", hyp, "-m", "bleu", "exact", "-b")) == [0.0, 25.0]
    lowercase = _run(capsys, ref, "-i", hyp, "-m", "exact", "-lc", "-f", "text")
    assert lowercase.startswith("Exact|nrefs:1|case:lc|version:bleusuite-") and \
        lowercase.rstrip().endswith(" = 50.0")
    record = json.loads(_run(capsys, ref, "-i", hyp, "-m", "exact"))
    assert record["name"] == "Exact" and record["score"] == 25.0 and record["case"] == "mixed"
    sentences = _run(capsys, ref, "-i", hyp, "-m", "exact", "-sl", "-b").splitlines()
    assert sentences == ["100.0", "0.0", "0.0", "0.0"]
    interval = json.loads(_run(capsys, ref, "-i", hyp, "-m", "exact", "-ci", "-cin", "50"))
    assert interval["bs"] == "50" and interval["confidence_mean"] > 0


def test_the_paired_tests_of_the_command_take_it(with_exact: None, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    hyp, other, ref = _files(tmp_path)
    out = json.loads(_run(capsys, ref, "-i", hyp, other, "-m", "exact", "--paired-bs",
                          "-pbsn", "50"))
    assert [system["Exact"]["score"] for system in out] == [25.0, 50.0]
    assert 0 < out[1]["Exact"]["p_value"] < 1


def test_its_result_object_and_the_library_s_paired_test(with_exact: None) -> None:
    entry = registry.text_counted("exact")
    assert entry is not None
    settings = entry.settings()
    table = entry.text_statistics(HYPS, [REFS], settings)
    result = registry.result("exact", table.sum(axis=0), settings, "1")
    assert isinstance(result, ExactResult) and float(result) == 25.0
    assert result.format(signature=False) == "Exact = 25.00"
    baseline = ExactStats.from_array(table)
    other = ExactStats.from_array(entry.text_statistics(REFS, [REFS], settings))
    outcome = paired_bootstrap(baseline, [other], 50, seed=12345)
    assert [o.score for o in outcome] == [25.0, 100.0] and outcome[1].p_value is not None


def test_ray_plans_and_counts_it(with_exact: None) -> None:
    pytest.importorskip("ray.data")
    from bleusuite.ray.columns import Columns
    from bleusuite.ray.plan import make_plan
    from bleusuite.ray.statistics import block_statistics

    plan = make_plan(("bleu", "exact"), {})
    block = block_statistics(Columns("text", [HYPS], [REFS], len(HYPS)), plan)
    total = block.tables["exact"][0].sum(axis=0)
    assert total.tolist() == [1, 4]
    result = registry.result("exact", total, plan.settings("text", "exact"), "1")
    assert float(result) == 25.0
