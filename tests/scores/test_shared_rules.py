"""Each rule of :mod:`bleusuite.scores.rules` is the one every front end applies, and so is each
argument rule of :mod:`bleusuite.checks` (orders, weights, token ids).

A rule is replaced (monkeypatched) on ``bleusuite.scores.rules`` and every front end's score is
seen to change with it: the differentiable losses, the Ignite metrics and the
``bleusuite score`` command. A front end with its own copy of a rule keeps its old score
and fails here.

The sentence: the hypothesis "a b c d" against "a b c d e f" and "x y z w q r s t".
BLEU: every precision is 1 and the closest reference has 6 tokens, so BLEU is the
brevity penalty exp(1 - 6/4). GLEU: the first reference gives 10 / max(10, 18), the
second 0 / 26, and the best one is kept.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("ignite")

import bleusuite  # noqa: E402
from bleusuite import checks, cli  # noqa: E402
from bleusuite.losses import BleuLoss, GleuLoss, soft_bleu, soft_gleu  # noqa: E402
from bleusuite.metrics import Bleu, Gleu  # noqa: E402
from bleusuite.rewards import BleuReward, GleuReward  # noqa: E402
from bleusuite.scores import rules  # noqa: E402

HYP = "a b c d"
REFS = ("a b c d e f", "x y z w q r s t")
VOCAB = {word: i + 1 for i, word in enumerate(" ".join(REFS).split())}
PAD = 0

BLEU = math.exp(1 - 6 / 4)
GLEU = 10 / 18


def _ids(sentence: str) -> list[int]:
    return [VOCAB[word] for word in sentence.split()]


def loss_bleu(tmp_path: Path) -> float:
    hyp = torch.nn.functional.one_hot(torch.tensor([_ids(HYP)]), len(VOCAB) + 1).double()
    refs = [[_ids(ref) for ref in REFS]]
    return float(soft_bleu(hyp, refs, pad_id=PAD)[0])


def loss_gleu(tmp_path: Path) -> float:
    hyp = torch.nn.functional.one_hot(torch.tensor([_ids(HYP)]), len(VOCAB) + 1).double()
    refs = [[_ids(ref) for ref in REFS]]
    return float(soft_gleu(hyp, refs, pad_id=PAD)[0])


def _metric(metric: Any) -> float:
    metric.update(([HYP.split()], [[ref.split() for ref in REFS]]))
    return float(metric.compute())


def metric_bleu(tmp_path: Path) -> float:
    return _metric(Bleu(ngram=4))


def metric_gleu(tmp_path: Path) -> float:
    return _metric(Gleu())


def _command(tmp_path: Path, metric: str) -> float:
    (tmp_path / "hyp.txt").write_text(HYP + "\n", encoding="utf-8")
    refs = []
    for index, ref in enumerate(REFS):
        refs.append(tmp_path / f"ref{index}.txt")
        refs[-1].write_text(ref + "\n", encoding="utf-8")
    argv = ["score", *map(str, refs), "-i", str(tmp_path / "hyp.txt"), "-m", metric,
            "-f", "json", "-w", "12"]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert cli.main(argv) == 0
    return float(json.loads(output.getvalue())["score"]) / 100


def command_bleu(tmp_path: Path) -> float:
    return _command(tmp_path, "bleu")


def _command_output(tmp_path: Path, *extra: str, systems: int = 1) -> str:
    """The command's text output on the sentence, ``systems`` times the same system."""
    refs = []
    for index, ref in enumerate(REFS):
        refs.append(tmp_path / f"ref{index}.txt")
        refs[-1].write_text(ref + "\n", encoding="utf-8")
    hyps = []
    for index in range(systems):
        hyps.append(tmp_path / f"hyp{index}.txt")
        hyps[-1].write_text(HYP + "\n", encoding="utf-8")
    argv = ["score", *map(str, refs), "-i", *map(str, hyps), "-w", "12", *extra]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert cli.main(argv) == 0
    return output.getvalue()


def command_bleu_sentence(tmp_path: Path) -> float:
    return float(_command_output(tmp_path, "-sl", "-b")) / 100


def command_bleu_method3(tmp_path: Path) -> float:
    """The command with an NLTK smoothing: the library's formula."""
    return float(_command_output(tmp_path, "-s", "method3", "-b")) / 100


def command_bleu_confidence(tmp_path: Path) -> float:
    """The bootstrap mean: every resample is the one sentence."""
    out = json.loads(_command_output(tmp_path, "-ci", "-cin", "5", "-f", "json"))
    return float(out["confidence_mean"]) / 100


def command_bleu_paired(tmp_path: Path) -> float:
    """The score column of a paired bootstrap test of the system against itself."""
    out = json.loads(_command_output(tmp_path, "-pbs", "-pbsn", "5", "-f", "json",
                                     systems=2))
    return float(out[1]["BLEU"]["score"]) / 100


def result_bleu(tmp_path: Path) -> float:
    """The result object's score (0-100, as it prints it)."""
    return bleusuite.corpus_bleu_result([HYP], [list(REFS)], tokenize="none",
                                        smooth="exp").score / 100


def result_brevity_penalty(tmp_path: Path) -> float:
    """The brevity penalty a result reports beside its score (every precision is 1)."""
    return bleusuite.corpus_bleu_result([HYP], [list(REFS)], tokenize="none",
                                        smooth="exp").brevity_penalty


def command_gleu(tmp_path: Path) -> float:
    return _command(tmp_path, "gleu")


def _no_brevity_penalty(be: Any, hyp_len: Any, ref_len: Any) -> Any:
    return 0.0 * (ref_len / hyp_len)


def _reference_as_long_as_hypothesis(
    be: Any, hyp_len: Any, ref_len: Any, present: Any = None, *, far: float
) -> Any:
    return hyp_len


_best_reference = rules.best_reference


def _worst_reference(
    be: Any, true_positives: Any, n_all: Any, usable: Any, floor: float = 1.0
) -> Any:
    return _best_reference(be, -true_positives, n_all, usable, floor)


FrontEnd = Callable[[Path], float]
BLEU_FRONT_ENDS: list[FrontEnd] = [loss_bleu, metric_bleu, command_bleu, command_bleu_sentence,
                                   command_bleu_method3, command_bleu_confidence,
                                   command_bleu_paired, result_bleu, result_brevity_penalty]
GLEU_FRONT_ENDS: list[FrontEnd] = [loss_gleu, metric_gleu, command_gleu]

def _cases(front_ends: list[FrontEnd]) -> list[Any]:
    # the metrics and the command reach the rules through the core (stats.py, smoothing.py)
    return [pytest.param(f, id=f.__name__) for f in front_ends]


@pytest.mark.parametrize("front_end", BLEU_FRONT_ENDS + GLEU_FRONT_ENDS,
                         ids=lambda f: f.__name__)
def test_unchanged_rules_give_the_expected_scores(front_end: FrontEnd, tmp_path: Path) -> None:
    expected = BLEU if front_end in BLEU_FRONT_ENDS else GLEU
    assert front_end(tmp_path) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("front_end", _cases(BLEU_FRONT_ENDS))
@pytest.mark.parametrize(
    ("rule", "replacement"),
    [("log_brevity_penalty", _no_brevity_penalty),
     ("closest_ref_len", _reference_as_long_as_hypothesis)],
)
def test_bleu_front_ends_use_the_shared_brevity_penalty_rules(
    front_end: FrontEnd, rule: str, replacement: Callable[..., Any], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rules, rule, replacement)
    assert front_end(tmp_path) == pytest.approx(1.0, abs=1e-12)  # no penalty left


SACREBLEU_FRONT_ENDS: list[FrontEnd] = [command_bleu, command_bleu_sentence,
                                        command_bleu_confidence, command_bleu_paired,
                                        result_bleu]


@pytest.mark.parametrize("front_end", _cases(SACREBLEU_FRONT_ENDS))
def test_sacrebleu_front_ends_use_the_one_precision_rule(
    front_end: FrontEnd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sacrebleu's precisions are computed by one function, whatever the route: halved,
    every front end's score is halved (all orders: exp(mean of logs) halves)."""
    from bleusuite.scores.bleu import sacrebleu_formula

    original = sacrebleu_formula.smoothed_precisions

    def halved(*args: Any, **kwargs: Any) -> Any:
        precisions, reached = original(*args, **kwargs)
        return precisions / 2, reached

    monkeypatch.setattr(sacrebleu_formula, "smoothed_precisions", halved)
    assert front_end(tmp_path) == pytest.approx(BLEU / 2, rel=1e-6)


#: what only the one copy of a formula holds: (fragment, the file that may hold it)
FORMULA_FINGERPRINTS = [
    ("9999999999", "bleusuite/scores/bleu/sacrebleu_formula.py"),  # sacrebleu's log of 0
    ("smooth_mteval", None),  # sacrebleu's own name for its exp smoothing (no copy of it)
    ("ref_len / sys_len", None),
    ("1 - ref_len", None),
    ("_NLTK_ALPHA", "bleusuite/scores/bleu/nltk_formula.py"),
    ("float_info.min", "bleusuite/scores/bleu/nltk_formula.py"),
    ("0.1 / floored", "bleusuite/scores/bleu/ignite_formula.py"),
]


@pytest.mark.parametrize(("fragment", "home"), FORMULA_FINGERPRINTS)
def test_each_formula_is_written_once(fragment: str, home: str | None) -> None:
    """A second copy of a formula (a brevity penalty, a log of zero, a smoothing) outside
    its family's module fails here, whatever it is called."""
    package = Path(bleusuite.__file__).resolve().parent
    holders = sorted(str(path.relative_to(package.parent)) for path in package.rglob("*.py")
                     if fragment in path.read_text(encoding="utf-8"))
    if home is None:
        assert len(holders) <= 1, holders
    else:
        assert holders == [home]


@pytest.mark.parametrize("front_end", _cases(GLEU_FRONT_ENDS))
def test_gleu_front_ends_use_the_shared_best_reference_rule(
    front_end: FrontEnd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rules, "best_reference", _worst_reference)
    assert front_end(tmp_path) == 0.0  # the second reference shares nothing


# ---------------------------------------------------------------------------------------
# validation rules: each argument rule of bleusuite.checks is the one every front end calls
# ---------------------------------------------------------------------------------------


class RuleCalled(Exception):
    """Raised by a replaced rule: the front end reached the shared function."""


def _raising(*args: Any, **kwargs: Any) -> Any:
    raise RuleCalled(args)


_IDS = np.array([[1, 2, 3, 4]])
_REFS = np.array([[1, 2, 3, 5]])
_PROBS = torch.full((1, 4, 6), 1 / 6, dtype=torch.float64)
_TENSOR_REFS = torch.tensor([[1, 2, 3, 5]])


class _Words:
    eos_token_id = None

    def encode(self, text: str) -> list[int]:
        return [len(word) for word in text.split()]


def _sum_bleu_stats() -> bleusuite.BleuStats[Any]:
    return bleusuite.bleu_statistics(_IDS, _REFS).sum()


def _sum_gleu_stats() -> bleusuite.GleuStats[Any]:
    return bleusuite.gleu_statistics(_IDS, _REFS).sum()


# rule -> the front ends given an argument that rule checks
_VALIDATED: dict[str, list[tuple[str, Callable[[], Any]]]] = {
    "weights": [
        ("sentence_bleu", lambda: bleusuite.sentence_bleu(_IDS, _REFS, weights=[0.5, 0.5])),
        ("corpus_bleu", lambda: bleusuite.corpus_bleu(_IDS, _REFS, weights=[0.5, 0.5])),
        ("bleu_score", lambda: bleusuite.bleu_score(_sum_bleu_stats(), weights=[1.0])),
        ("corpus_bleu_result",
         lambda: bleusuite.corpus_bleu_result(_IDS, _REFS, weights=[0.5, 0.5])),
        ("BleuResult.from_stats",
         lambda: bleusuite.BleuResult.from_stats(_sum_bleu_stats(), weights=[1.0])),
        ("soft_bleu", lambda: soft_bleu(_PROBS, _TENSOR_REFS, max_order=1, weights=[1.0])),
        ("BleuLoss", lambda: BleuLoss(max_order=1, weights=[1.0])),
    ],
    "order": [
        ("sentence_bleu", lambda: bleusuite.sentence_bleu(_IDS, _REFS, max_order=2)),
        ("corpus_bleu", lambda: bleusuite.corpus_bleu(_IDS, _REFS, max_order=2)),
        ("bleu_statistics", lambda: bleusuite.bleu_statistics(_IDS, _REFS, max_order=2)),
        ("bleu_score", lambda: bleusuite.bleu_score(_sum_bleu_stats(), max_order=2)),
        ("corpus_bleu_result", lambda: bleusuite.corpus_bleu_result(_IDS, _REFS, max_order=2)),
        ("BleuResult.from_stats",
         lambda: bleusuite.BleuResult.from_stats(_sum_bleu_stats(), max_order=2)),
        ("BleuReward", lambda: BleuReward(_Words(), max_order=2)),
        ("soft_bleu", lambda: soft_bleu(_PROBS, _TENSOR_REFS, max_order=2)),
        ("BleuLoss", lambda: BleuLoss(max_order=2)),
        ("metrics.Bleu", lambda: Bleu(ngram=2)),
    ],
    "gleu_orders": [
        ("sentence_gleu", lambda: bleusuite.sentence_gleu(_IDS, _REFS, max_len=2)),
        ("corpus_gleu", lambda: bleusuite.corpus_gleu(_IDS, _REFS, max_len=2)),
        ("gleu_statistics", lambda: bleusuite.gleu_statistics(_IDS, _REFS, max_len=2)),
        ("corpus_gleu_result", lambda: bleusuite.corpus_gleu_result(_IDS, _REFS, max_len=2)),
        ("GleuResult.from_stats",
         lambda: bleusuite.GleuResult.from_stats(_sum_gleu_stats(), max_len=2)),
        ("GleuReward", lambda: GleuReward(_Words(), max_len=2)),
        ("soft_gleu", lambda: soft_gleu(_PROBS, _TENSOR_REFS, max_len=2)),
        ("GleuLoss", lambda: GleuLoss(max_len=2)),
        ("metrics.Gleu", lambda: Gleu(max_len=2)),
    ],
    # token lists take any hashable token as pad_id / eos_id (not an id): not this rule
    "token_id": [
        ("sentence_bleu", lambda: bleusuite.sentence_bleu(_IDS, _REFS, pad_id=0)),
        ("corpus_gleu, ragged", lambda: bleusuite.corpus_gleu(list(_IDS), [list(_REFS)],
                                                              eos_id=0)),
        ("bleu_statistics", lambda: bleusuite.bleu_statistics(_IDS, _REFS, pad_id=0)),
        ("BleuReward", lambda: BleuReward(_Words(), pad_id=0)),
        ("GleuReward", lambda: GleuReward(_Words(), eos_id=0)),
        ("soft_bleu", lambda: soft_bleu(_PROBS, _TENSOR_REFS, pad_id=0)),
        ("soft_gleu", lambda: soft_gleu(_PROBS, _TENSOR_REFS, eos_id=0)),
        ("BleuLoss", lambda: BleuLoss(pad_id=0)),
        ("GleuLoss", lambda: GleuLoss(eos_id=0)),
        ("metrics.Bleu", lambda: _metric_update(Bleu(ngram=2, pad_id=0))),
    ],
}


def _metric_update(metric: Any) -> None:
    metric.update((torch.tensor(_IDS), torch.tensor(_REFS)))


@pytest.mark.parametrize(
    ("rule", "front_end"),
    [pytest.param(rule, call, id=f"{rule}-{name}")
     for rule, calls in _VALIDATED.items() for name, call in calls],
)
def test_front_ends_check_arguments_with_the_shared_rule(
    rule: str, front_end: Callable[[], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    front_end()  # valid as given
    monkeypatch.setattr(checks, rule, _raising)
    with pytest.raises(RuleCalled):
        front_end()


def test_the_losses_and_the_core_word_a_bad_weight_alike() -> None:
    """One rule, one message: the same bad weights fail the same way everywhere."""
    messages = set()
    for call in (
        lambda: bleusuite.sentence_bleu(_IDS, _REFS, weights=[0.5, -0.5]),
        lambda: soft_bleu(_PROBS, _TENSOR_REFS, max_order=2, weights=[0.5, -0.5]),
        lambda: BleuLoss(max_order=2, weights=[0.5, -0.5]),
    ):
        with pytest.raises(ValueError) as error:
            call()
        messages.add(str(error.value))
    assert messages == {"weights[1] must be a number >= 0; got -0.5"}
