"""``bleusuite.metrics``: Ignite's ``Bleu`` as a drop-in, and ``Gleu``.

* Bleu == ``ignite.metrics.Bleu`` for every Ignite smoothing x macro/micro, over several
  ``update`` calls per epoch and ``reset`` (1e-12; 2e-7 for macro ``no_smooth``, where Ignite
  computes sentence precisions in float32), and macro == the float64 references (NLTK
  ``sentence_bleu`` where the smoothing matches, ``bleusuite.sentence_bleu``) to 1e-12;
* every other smoothing name == the functional API (mean of ``sentence_bleu`` /
  ``corpus_bleu``), and Gleu == NLTK (mean of ``sentence_gleu`` / ``corpus_gleu``);
* every input form (token lists of ints or str, NumPy or torch ids with padding and eos,
  mixtures) gives the same numbers; text with ``tokenize=`` equals Ignite on the same
  tokens and the functions with ``tokenize=``; errors name the argument; Engine use, reset between
  epochs, state_dict, and the example script in its quick mode.

The distributed (gloo) test is in ``test_metrics_distributed.py``.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("ignite")

import ignite.metrics as ignite_metrics  # noqa: E402
from ignite.engine import Engine, Events  # noqa: E402
from ignite.exceptions import NotComputableError  # noqa: E402
from parity import split_corpora, to_lists  # noqa: E402

import bleusuite  # noqa: E402
from bleusuite.metrics import Bleu, Gleu  # noqa: E402

IGNITE_SMOOTHS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
AVERAGES = ("macro", "micro")
ROOT = Path(__file__).resolve().parents[2]

Case = tuple[list[int], list[list[int]]]


# ----------------------------------------------------------------------------- data


def make_cases(seed: int, n: int, *, max_len: int = 24, trigram_match: bool = False) -> list[Case]:
    """``n`` seeded (hypothesis, references) pairs of int tokens >= 3 (0, 1, 2 are special).

    Small vocabularies (many matches and repeats), empty and very short hypotheses, 1-3
    references (ties in length included). ``trigram_match``: every hypothesis shares a
    3-gram with its first reference (NLTK's method6 needs one).
    """
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        vocab = rng.integers(3, 3 + int(rng.choice([3, 8, 40, 5000])), size=64)
        u = rng.random()
        length = 0 if u < 0.05 else int(rng.integers(1, 4)) if u < 0.2 else int(
            rng.integers(4, max_len + 1)
        )
        if trigram_match:
            length = max(length, 3)
        hyp = [int(t) for t in rng.choice(vocab, size=length)]
        refs = []
        for _ in range(int(rng.integers(1, 4))):
            if rng.random() < 0.7 and hyp:  # a noisy copy of the hypothesis
                ref = [t if rng.random() < 0.75 else int(rng.choice(vocab)) for t in hyp]
                ref = ref[: int(rng.integers(1, len(ref) + 1))] + [
                    int(t) for t in rng.choice(vocab, size=int(rng.integers(0, 4)))
                ]
            else:
                ref = [int(t) for t in rng.choice(vocab, size=int(rng.integers(1, max_len + 1)))]
            refs.append(ref)
        if trigram_match:
            refs[0] = hyp[:3] + refs[0]
        cases.append((hyp, refs))
    return cases


def as_ids(
    cases: list[Case], seed: int, *, pad_id: int = 0, eos_id: int | None = None,
    squeeze: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Padded ids: hyp (B, L), refs (B, R, L) (absent references are rows of padding; with
    ``eos_id``, junk follows an eos); refs (B, L) with ``squeeze`` and one reference each."""
    rng = np.random.default_rng(seed)

    def row(tokens: list[int], width: int) -> list[int]:
        out = list(tokens)
        if eos_id is not None:
            out += [eos_id] + [int(t) for t in rng.integers(3, 9, size=int(rng.integers(0, 3)))]
        return (out + [pad_id] * width)[:width]

    n_refs = max([len(rs) for _, rs in cases] + [1])
    longest = max([len(h) for h, _ in cases] + [len(r) for _, rs in cases for r in rs] + [1])
    width = longest + (3 if eos_id is not None else 0) + int(rng.integers(0, 3))
    hyp = np.array([row(h, width) for h, _ in cases], dtype=np.int64).reshape(-1, width)
    refs = np.full((len(cases), n_refs, width), pad_id, dtype=np.int64)
    for b, (_, rs) in enumerate(cases):
        slots = np.sort(rng.choice(n_refs, size=len(rs), replace=False))
        for slot, r in zip(slots, rs, strict=True):
            refs[b, slot] = row(r, width)
    if squeeze:
        assert n_refs == 1
        return hyp, refs[:, 0]
    return hyp, refs


def encodings(batch: list[Case], k: int) -> tuple[tuple[Any, Any], dict[str, Any]]:
    """The ``k``-th (cyclic) input form of ``batch`` and the constructor arguments it needs."""
    form = k % 6
    if form == 0:
        return to_lists(batch), {}
    if form == 1:
        return to_lists(batch, as_str=True), {}
    if form == 2:
        return as_ids(batch, k), {"pad_id": 0}
    if form == 3:
        hyp, refs = as_ids(batch, k, pad_id=0, eos_id=1)
        return (torch.from_numpy(hyp), torch.from_numpy(refs)), {"pad_id": 0, "eos_id": 1}
    if form == 4:  # torch ids against token lists
        hyp, _ = as_ids(batch, k, pad_id=2)
        return (torch.from_numpy(hyp), to_lists(batch)[1]), {"pad_id": 2}
    # a list of 1-D tensors (one per sentence) against lists of reference tensors
    hyps, refs = to_lists(batch)
    return (
        [torch.tensor(h, dtype=torch.int64) for h in hyps],
        [[torch.tensor(r, dtype=torch.int64) for r in rs] for rs in refs],
    ), {}


def feed(metric: Any, batch: list[Case], k: int, forms: bool = True) -> None:
    """Update ``metric`` (built for form ``k``) with ``batch``; lists when not ``forms``."""
    metric.update(encodings(batch, k)[0] if forms else to_lists(batch))


def kwargs_of_form(k: int) -> dict[str, Any]:
    return encodings(make_cases(0, 1), k)[1]


# ------------------------------------------------------------------- reference values


def ignite_value(cases: list[list[Case]], ngram: int, smooth: str, average: str) -> float:
    metric = ignite_metrics.Bleu(ngram=ngram, smooth=smooth, average=average)
    for batch in cases:
        metric.update(to_lists(batch))
    return float(metric.compute())


def nltk_sentence_bleu(cases: list[Case], ngram: int, method: str) -> np.ndarray:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    smoothing = getattr(SmoothingFunction(), method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(
            [
                float(sentence_bleu(refs, hyp, weights=(1 / ngram,) * ngram,
                                    smoothing_function=smoothing))
                for hyp, refs in cases
            ]
        )


def flat(batches: list[list[Case]]) -> list[Case]:
    return [case for batch in batches for case in batch]


# ------------------------------------------------------------------- parity with Ignite


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("smooth", IGNITE_SMOOTHS)
def test_bleu_matches_ignite(smooth: str, average: str) -> None:
    seed = 100 * IGNITE_SMOOTHS.index(smooth) + AVERAGES.index(average)
    tol = 2e-7 if (average, smooth) == ("macro", "no_smooth") else 1e-12
    for ngram in (4, 1, 2, 3, 5):
        k = ngram  # one input form per order; Ignite always gets token lists
        ours = Bleu(ngram=ngram, smooth=smooth, average=average, **kwargs_of_form(k))
        for epoch in range(2):  # results start afresh after reset
            ours.reset()
            epoch_batches = split_corpora(make_cases(seed + 10 * ngram + epoch, 45),
                                          seed + epoch, max_size=12)
            for batch in epoch_batches:
                feed(ours, batch, k)
            value = ours.compute()
            expected = ignite_value(epoch_batches, ngram, smooth, average)
            assert abs(float(value) - expected) <= tol, (
                f"N={ngram} epoch {epoch}: ours {float(value)!r} != ignite {expected!r}"
            )
            everything = flat(epoch_batches)
            if average == "macro":
                assert isinstance(value, torch.Tensor) and value.dtype == torch.float64
                assert value.ndim == 0
                # exact against the float64 definition, whatever Ignite's float32 does
                hyps, refs = to_lists(everything)
                sentence = bleusuite.sentence_bleu(hyps, refs, max_order=ngram, smooth=smooth)
                assert abs(float(value) - float(np.mean(sentence))) <= 1e-12
                nltk_method = {"smooth1": "method1", "nltk_smooth2": "method2"}.get(smooth)
                if nltk_method is not None:
                    reference = nltk_sentence_bleu(everything, ngram, nltk_method)
                    assert abs(float(value) - float(np.mean(reference))) <= 1e-12
            else:
                assert type(value) is float


def test_bleu_ignite_docs_example() -> None:
    y_pred = ["the"] * 7
    y = [s.split() for s in ["the cat is on the mat", "there is a cat on the mat"]]
    for average in AVERAGES:
        ours, theirs = Bleu(smooth="smooth1", average=average), ignite_metrics.Bleu(
            smooth="smooth1", average=average
        )
        ours.update(([y_pred], [y]))
        theirs.update(([y_pred], [y]))
        assert abs(float(ours.compute()) - float(theirs.compute())) <= 1e-12


# ------------------------------------------------------ every smoothing name, and GLEU

OTHER_SETTINGS = [
    *({"smooth": f"method{k}"} for k in range(8)),
    {"smooth": "method1", "smooth_value": 0.05},
    {"smooth": "none"},
    {"smooth": "floor"},
    {"smooth": "floor", "smooth_value": 0.3},
    {"smooth": "add-k"},
    {"smooth": "add-k", "smooth_value": 2},
    {"smooth": "exp"},
    {"smooth": "exp", "effective_order": True},
    {"smooth": "none", "effective_order": True},
    {"smooth": "torchmetrics_smooth"},
    {"smooth": "nmt_smooth"},
]


def _id(settings: dict[str, Any]) -> str:
    return "-".join(str(v) for v in settings.values())


def test_every_smoothing_name_is_covered() -> None:
    covered = {s["smooth"] for s in OTHER_SETTINGS} | set(IGNITE_SMOOTHS)
    assert covered == set(bleusuite.SMOOTHING_NAMES)


@pytest.mark.parametrize("settings", OTHER_SETTINGS, ids=_id)
def test_bleu_matches_functional_api(settings: dict[str, Any]) -> None:
    seed = OTHER_SETTINGS.index(settings)
    trigram = settings["smooth"] == "method6"
    for ngram, average in ((4, "macro"), (4, "micro"), (3, "macro"), (5, "micro")):
        k = seed + ngram
        metric = Bleu(ngram=ngram, average=average, **settings, **kwargs_of_form(k))
        for epoch in range(2):
            metric.reset()
            cases = make_cases(1000 + seed * 7 + epoch + ngram, 40, trigram_match=trigram)
            epoch_batches = split_corpora(cases, seed + epoch, max_size=12)
            for batch in epoch_batches:
                feed(metric, batch, k)
            hyps, refs = to_lists(cases)
            if average == "macro":
                expected = np.mean(bleusuite.sentence_bleu(hyps, refs, max_order=ngram, **settings))
            else:
                expected = bleusuite.corpus_bleu(hyps, refs, max_order=ngram, **settings)
            value = float(metric.compute())
            assert abs(value - float(expected)) <= 1e-12, f"{settings} {average} N={ngram}"


def test_nltk_smoothing_names_match_nltk() -> None:
    """A direct check against NLTK: macro = mean of sentence_bleu, micro = corpus_bleu
    (methods without the last-sentence quirk of methods 5-7)."""
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    cases = make_cases(77, 60)
    batches = split_corpora(cases, 3, max_size=12)
    for method in ("method0", "method1", "method2", "method3", "method4"):
        macro, micro = Bleu(smooth=method), Bleu(smooth=method, average="micro")
        for batch in batches:
            macro.update(to_lists(batch))
            micro.update(to_lists(batch))
        expected_macro = np.mean(nltk_sentence_bleu(cases, 4, method))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected_micro = corpus_bleu(
                [refs for _, refs in cases], [hyp for hyp, _ in cases],
                smoothing_function=getattr(SmoothingFunction(), method),
            )
        assert abs(float(macro.compute()) - expected_macro) <= 1e-12, method
        assert abs(micro.compute() - float(expected_micro)) <= 1e-12, method


@pytest.mark.parametrize("orders", [(1, 4), (2, 3), (1, 1), (3, 3), (1, 6)])
def test_gleu_matches_nltk(orders: tuple[int, int]) -> None:
    from nltk.translate.gleu_score import corpus_gleu, sentence_gleu

    min_len, max_len = orders
    for average in AVERAGES:
        k = min_len + max_len + AVERAGES.index(average)
        metric = Gleu(min_len=min_len, max_len=max_len, average=average, **kwargs_of_form(k))
        for epoch in range(2):
            metric.reset()
            cases = make_cases(300 + 10 * k + epoch, 50)
            for batch in split_corpora(cases, k + epoch, max_size=12):
                feed(metric, batch, k)
            value = metric.compute()
            if average == "macro":
                assert isinstance(value, torch.Tensor) and value.dtype == torch.float64
                expected = np.mean(
                    [sentence_gleu(refs, hyp, min_len, max_len) for hyp, refs in cases]
                )
            else:
                assert type(value) is float
                expected = corpus_gleu(
                    [refs for _, refs in cases], [hyp for hyp, _ in cases], min_len, max_len
                )
            assert abs(float(value) - float(expected)) <= 1e-12, f"{orders} {average}"


# ------------------------------------------------------------------ input forms, state


@pytest.mark.parametrize("average", AVERAGES)
def test_every_input_form_gives_the_same_numbers(average: str) -> None:
    cases = make_cases(5, 30)
    single = [(hyp, refs[:1]) for hyp, refs in cases]
    results = []
    for k in range(6):
        for metric_class, kwargs in ((Bleu, {"smooth": "smooth1"}), (Gleu, {})):
            metric = metric_class(average=average, **kwargs, **kwargs_of_form(k))
            feed(metric, cases, k)
            results.append((metric_class.__name__, k, float(metric.compute())))
    for name in ("Bleu", "Gleu"):
        values = {k: v for n, k, v in results if n == name}
        assert len(set(values.values())) == 1, f"{name}: {values}"
    # (B, L) references: one each, as a tensor and as a NumPy array
    hyp, ref = as_ids(single, 9, pad_id=0, squeeze=True)
    for y_pred, y in ((hyp, ref), (torch.from_numpy(hyp), torch.from_numpy(ref))):
        metric = Bleu(average=average, pad_id=0)
        metric.update((y_pred, y))
        expected = Bleu(average=average)
        expected.update(to_lists(single))
        assert float(metric.compute()) == float(expected.compute())


@pytest.mark.parametrize("metric_class", [Bleu, Gleu])
@pytest.mark.parametrize("average", AVERAGES)
def test_not_computable_before_update(metric_class: type, average: str) -> None:
    metric = metric_class(average=average)
    with pytest.raises(NotComputableError, match="at least one example"):
        metric.compute()
    metric.update(([], []))  # an empty batch is no example either
    metric.update((np.zeros((0, 3), dtype=np.int64), np.zeros((0, 2, 3), dtype=np.int64)))
    with pytest.raises(NotComputableError):
        metric.compute()
    metric.update(([[3, 4, 5, 6]], [[[3, 4, 5, 6]]]))
    assert float(metric.compute()) == 1.0
    metric.reset()
    with pytest.raises(NotComputableError):
        metric.compute()


@pytest.mark.parametrize("metric_class", [Bleu, Gleu])
@pytest.mark.parametrize("average", AVERAGES)
def test_state_is_tensors_on_device_and_round_trips(metric_class: type, average: str) -> None:
    cases = make_cases(11, 20)
    metric = metric_class(average=average, device="cpu")
    for name in metric._state_dict_all_req_keys:
        value = getattr(metric, name)
        assert isinstance(value, torch.Tensor) and value.device == torch.device("cpu")
    metric.update(to_lists(cases[:12]))
    saved = metric.state_dict()
    expected = metric_class(average=average, device=torch.device("cpu"))
    expected.update(to_lists(cases))
    restored = metric_class(average=average)
    restored.load_state_dict(saved)
    restored.update(to_lists(cases[12:]))
    assert abs(float(restored.compute()) - float(expected.compute())) <= 1e-15


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"average": "mean"}, ValueError, "average"),
        ({"average": None}, ValueError, "average"),
        ({"ngram": 0}, ValueError, "ngram"),
        ({"ngram": -2}, ValueError, "ngram"),
        ({"ngram": 2.0}, TypeError, "ngram"),
        ({"ngram": True}, TypeError, "ngram"),
        ({"smooth": "smooth3"}, ValueError, "smooth"),
        ({"smooth": "smooth1", "smooth_value": 0.2}, ValueError, "smooth_value"),
        ({"smooth": "exp", "smooth_value": "x"}, ValueError, "smooth_value"),
        ({"effective_order": True}, ValueError, "effective_order"),
        ({"pad_id": 1.5}, TypeError, "pad_id"),
        ({"eos_id": [1]}, TypeError, "eos_id"),
        ({"output_transform": 3}, TypeError, "output_transform"),
    ],
)
def test_bleu_constructor_errors(kwargs: dict[str, Any], error: type, name: str) -> None:
    with pytest.raises(error, match=name):
        Bleu(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"min_len": 3, "max_len": 2}, ValueError, "min_len"),
        ({"min_len": 0}, ValueError, "min_len"),
        ({"max_len": 1.5}, TypeError, "max_len"),
        ({"average": "weighted"}, ValueError, "average"),
        ({"pad_id": 1.0}, TypeError, "pad_id"),
    ],
)
def test_gleu_constructor_errors(kwargs: dict[str, Any], error: type, name: str) -> None:
    with pytest.raises(error, match=name):
        Gleu(**kwargs)


LONG = torch.long


@pytest.mark.parametrize(
    ("output", "error", "name"),
    [
        (([[3, 4]],), TypeError, "output"),
        ("ab", TypeError, "output"),
        (None, TypeError, "output"),
        ((torch.rand(2, 5), torch.zeros(2, 5, dtype=LONG)), TypeError, "y_pred"),
        ((torch.zeros(2, 5, dtype=LONG), torch.zeros(2, 5, dtype=torch.bool)), TypeError, "y"),
        ((np.zeros((2, 5)), np.zeros((2, 5), dtype=np.int64)), TypeError, "y_pred"),
        ((torch.zeros(2, 5, dtype=LONG), torch.zeros(3, 5, dtype=LONG)), ValueError, "y_pred"),
        ((torch.zeros(5, dtype=LONG), torch.zeros(5, dtype=LONG)), ValueError, "y_pred"),
        ((torch.zeros(2, 5, dtype=LONG), torch.zeros(2, 1, 1, 5, dtype=LONG)), ValueError, "y"),
        ((torch.zeros(2, 5, dtype=LONG), [[[1]], [[2]], [[3]]]), ValueError, "batch size"),
        ((torch.zeros(2, 3, 5, dtype=LONG), [[[1]], [[2]]]), ValueError, "y_pred"),
        (([[3, 4]], [[3, 4]]), ValueError, r"y\[0\]"),
        ((["a b c"], [[["a"]]]), TypeError, r"y_pred\[0\]"),
        (("a b c", [[["a"]]]), TypeError, "y_pred"),
        (([[3, 4]], [[]]), ValueError, "y: hypothesis 0 has no reference"),
        (([[3, 4], [5]], [[[3, 4]]]), ValueError, "batch size"),
    ],
)
def test_update_errors_name_the_argument(output: Any, error: type, name: str) -> None:
    for metric in (Bleu(), Gleu(average="micro")):
        with pytest.raises(error, match=name):
            metric.update(output)


def _t(*data: Any) -> Any:
    return torch.tensor(data)


# (y_pred, y), pad_id, error, message start with {h} / {r} for the two arguments' names: one
# case per check the core makes, on each input path (padded arrays, token lists, ragged or
# mixed arrays)
CORE_CHECKS = [
    # padded arrays
    ((np.zeros((2, 5)), np.zeros((2, 5), np.int64)), None, TypeError,
     "{h} must be an array of integer token ids; got dtype float64"),
    ((np.zeros((2, 5), np.int64), np.zeros((2, 5))), None, TypeError,
     "{r} must be an array of integer token ids"),
    ((np.ma.masked_array(np.zeros((1, 2), np.int64)), np.zeros((1, 2), np.int64)), None,
     TypeError, "{h} must be a plain array of token ids, not a masked array"),
    ((np.full((1, 2), 2**63 + 5, np.uint64), np.zeros((1, 2), np.int64)), None, ValueError,
     r"{h} holds token ids above 2\*\*63 - 1"),
    ((_t(1, 2), _t(1, 2)), None, ValueError, r"{h} must be a 2-D array \(batch, length\)"),
    ((_t([1, 2]), _t([[[1, 2]]])), None, ValueError, r"{r} must be a 2-D array \(batch, length\) "
     "with one reference per hypothesis or 3-D"),
    ((_t([1, 2]), _t([1, 2], [3, 4])), None, ValueError,
     "{h} and {r} must have the same batch size; got 1 hypotheses and 2 rows of references"),
    ((_t([1, 2]), _t([0, 0])), 0, ValueError, "{r}: hypothesis 0 has no reference"),
    # token lists
    ((5, [[[1]]]), None, TypeError, "{h} must be an integer array or a list of token sequences"),
    (([[1]], 5), None, TypeError, "{r} must be an integer array or a list"),
    ((["a b"], [[["a"]]]), None, TypeError, r"{h}\[0\] must be a sequence of tokens, not a string"),
    (([[[1]]], [[[1]]]), None, ValueError, r"{h}\[0\] must be a sequence of tokens, but its "
     "first token is itself a sequence"),
    (([[1]], [5]), None, TypeError, r"{r}\[0\] must be a list of reference token sequences; got"),
    (([[3, 4]], [[3, 4]]), None, ValueError, r"{r}\[0\] must be a list of reference token "
     r"sequences \(NLTK form"),
    (([[1]], [[["a"], "ab"]]), None, TypeError, r"{r}\[0\]\[1\] must be a sequence of tokens, "
     "not a string"),
    (([[{}]], [[[1]]]), None, TypeError, r"{h}\[0\]\[0\] must be a hashable token"),
    (([[1], [2]], [[[1]]]), None, ValueError, "{h} and {r} must have the same batch size"),
    (([[3]], [[]]), None, ValueError, "{r}: hypothesis 0 has no reference"),
    # ragged arrays, and arrays beside token lists
    (([_t(1), _t([1])], [[[1]], [[2]]]), None, ValueError, r"{h}\[1\] must be a 1-D array"),
    (([_t(1.5)], [[[1]]]), None, TypeError, r"{h}\[0\] must be an array of integer token ids"),
    (([_t(1), [2]], [[[1]], [[2]]]), None, TypeError, r"{h}\[0\] is an array but {h}\[1\] is a "
     "list"),
    ((_t([1, 2]), [[["a"]]]), None, TypeError, r"{r}\[0\]\[0\] must hold int token ids"),
    ((_t([[1, 2]]), [[[1]]]), None, ValueError, r"{h} must be a 2-D array \(batch, length\)"),
    (([[1]], _t([[[1]]])), None, ValueError, r"{r} must be a 2-D array \(batch, length\) with"),
    (([_t(1)], ["ab"]), None, TypeError, r"{r}\[0\] must be a 1-D array \(one reference\) or a "
     "list of references"),
    (([_t(1), _t(2)], [[[1]]]), None, ValueError, "{h} and {r} must have the same batch size"),
    (([_t(1)], [[1, 2]]), None, ValueError, r"{r}\[0\] must be a list of reference token "
     "sequences"),
    (([_t(1)], 5), None, TypeError, "{r} must be an integer array, a list of 1-D arrays"),
    ((5, [_t(1)]), None, TypeError, "{h} must be an integer array, a list of 1-D arrays"),
    (([_t(1)], [[[2**64]]]), None, ValueError, "{r} holds token ids outside the int64 range"),
    (([_t(1)], [_t(0)]), 0, ValueError, "{r}: hypothesis 0 has no reference"),
]


@pytest.mark.parametrize(("output", "pad_id", "error", "start"), CORE_CHECKS)
def test_core_errors_name_y_pred_and_y(output: Any, pad_id: Any, error: type, start: str) -> None:
    """The core builds its messages with the metric's names (no rewriting afterwards), and
    names its own arguments for the same input."""
    for metric in (Bleu(pad_id=pad_id), Gleu(pad_id=pad_id, average="micro")):
        with pytest.raises(error, match="^" + start.format(h="y_pred", r="y")) as info:
            metric.update(output)
        assert info.value.__cause__ is None, "raised in these words, not rewritten"
    with pytest.raises(error, match="^" + start.format(h="hypotheses", r="references")):
        bleusuite.sentence_bleu(*output, pad_id=pad_id)


# ------------------------------------------------------------------------------ text


def _text_corpus() -> tuple[list[str], list[str | list[str]]]:
    """The shipped WMT sample (mixed case, punctuation); every third line has a second
    reference, its first one in upper case (``lowercase=True`` makes the two the same)."""
    data = ROOT / "bleusuite" / "data"
    hyps = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    references: list[str | list[str]] = [
        [ref, ref.upper()] if i % 3 == 0 else ref for i, ref in enumerate(refs)
    ]
    return hyps, references


def _batches(hyps: list[str], refs: list[Any], size: int = 32) -> list[tuple[Any, Any]]:
    return [(hyps[i : i + size], refs[i : i + size]) for i in range(0, len(hyps), size)]


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("smooth", IGNITE_SMOOTHS)
def test_text_with_tokenize_equals_ignite_on_the_same_tokens(
    smooth: str, average: str, lowercase: bool
) -> None:
    """Issue 24, item 10: the error for strings suggested ``tokenize='13a'``, which the
    metrics did not accept. With it, a metric scores text as ``ignite.metrics.Bleu`` scores
    the words of sacrebleu's 13a tokenizer (lowercased first with ``lowercase=True``)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenizer = Tokenizer13a()

    def words(line: str) -> list[str]:
        return tokenizer(line.lower() if lowercase else line).split()

    hyps, refs = _text_corpus()
    ours = Bleu(smooth=smooth, average=average, tokenize="13a", lowercase=lowercase)
    theirs = ignite_metrics.Bleu(smooth=smooth, average=average)
    for y_pred, y in _batches(hyps, refs):
        ours.update((y_pred, y))
        theirs.update(([words(h) for h in y_pred],
                       [[words(r) for r in ([rs] if isinstance(rs, str) else rs)] for rs in y]))
    tol = 2e-7 if (smooth, average) == ("no_smooth", "macro") else 1e-12  # Ignite's float32
    assert abs(float(ours.compute()) - float(theirs.compute())) <= tol


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none"])
def test_text_metrics_equal_the_functions_with_tokenize(tokenize: str) -> None:
    hyps, refs = _text_corpus()
    text = {"tokenize": tokenize, "lowercase": True}
    metrics = {(name, average): cls(average=average, **settings, **text)
               for name, cls, settings in (("bleu", Bleu, {"smooth": "exp"}),
                                           ("gleu", Gleu, {"max_len": 3}))
               for average in AVERAGES}
    for y_pred, y in _batches(hyps, refs, size=40):
        for metric in metrics.values():
            metric.update((y_pred, y))
    expected = {
        ("bleu", "micro"): bleusuite.corpus_bleu(hyps, refs, smooth="exp", **text),
        ("bleu", "macro"): bleusuite.sentence_bleu(hyps, refs, smooth="exp", **text).mean(),
        ("gleu", "micro"): bleusuite.corpus_gleu(hyps, refs, max_len=3, **text),
        ("gleu", "macro"): bleusuite.sentence_gleu(hyps, refs, max_len=3, **text).mean(),
    }
    for key, metric in metrics.items():
        assert abs(float(metric.compute()) - float(expected[key])) <= 1e-12, key
    unlowered = Bleu(average="micro", smooth="exp", tokenize=tokenize)
    unlowered.update((hyps, refs))
    assert unlowered.compute() == pytest.approx(
        float(bleusuite.corpus_bleu(hyps, refs, smooth="exp", tokenize=tokenize)), abs=1e-12)
    assert unlowered.compute() < metrics["bleu", "micro"].compute()  # lowercase= matters


def test_the_hint_for_strings_is_true() -> None:
    """The message for a string where tokens belong names ``tokenize='13a'``; the metric
    then takes the same input with that argument."""
    output = (["The cat sat on the mat."], [["The cat sat on a mat."]])
    for metric_class in (Bleu, Gleu):
        with pytest.raises(TypeError, match=r"pass tokenize='13a'"):
            metric_class().update(output)
        metric = metric_class(tokenize="13a", average="micro")
        metric.update(output)
        assert 0 < metric.compute() < 1


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"tokenize": "13b"}, ValueError, "^tokenize must be one of"),
        ({"tokenize": 13}, ValueError, "^tokenize must be one of"),
        ({"lowercase": True}, ValueError, "^lowercase=True applies to text: give tokenize="),
        ({"tokenize": "13a", "lowercase": "yes"}, TypeError, "^lowercase must be a bool"),
        ({"tokenize": "13a", "pad_id": 0}, ValueError, "^pad_id and eos_id apply to token ids"),
        ({"tokenize": "13a", "eos_id": "</s>"}, ValueError, "^pad_id and eos_id apply"),
    ],
)
def test_text_settings_errors(kwargs: dict[str, Any], error: type, message: str) -> None:
    for metric_class in (Bleu, Gleu):
        with pytest.raises(error, match=message):
            metric_class(**kwargs)


@pytest.mark.parametrize(
    ("output", "error", "message"),
    [
        (("a b", ["a b"]), TypeError, "^y_pred must be a list of strings when tokenize= is "
         "given"),
        (([[1, 2]], [[[1, 2]]]), TypeError, r"^y_pred\[0\] must be a string when tokenize= is "
         "given; got list"),
        ((torch.tensor([[1, 2]]), [["a"]]), TypeError, "^y_pred must be a list of strings"),
        ((["a"], "a"), TypeError, "^y must be a list with, for each sentence of y_pred, a "
         "reference string or a list of them; got str"),
        ((["a"], [None]), TypeError, r"^y\[0\] must be a reference string or a list of them; "
         "got NoneType"),
        ((["a"], [["a", 3]]), TypeError, r"^y\[0\]\[1\] must be a string \(or None: no such "
         r"reference\); got int"),
        ((["a", "b"], ["a"]), ValueError, "^y_pred and y must have the same batch size; got 2 "
         "hypotheses and 1 entries of y"),
        ((["a"], [[]]), ValueError, "^y: hypothesis 0 has no reference"),
        ((["a"], [[None]]), ValueError, "^y: hypothesis 0 has no reference"),
    ],
)
def test_text_update_errors_name_y_pred_and_y(output: Any, error: type, message: str) -> None:
    for metric in (Bleu(tokenize="13a"), Gleu(tokenize="13a", average="micro")):
        with pytest.raises(error, match=message):
            metric.update(output)


# --------------------------------------------------- agreement with Ignite, as measured


def test_ignite_sentence_scores_differ_only_for_no_smooth() -> None:
    """Issue 24, item 16, as measured against pytorch-ignite 0.5.5: Ignite divides
    ``no_smooth``'s counts by float32 tensors, so its sentence scores (and their macro mean,
    itself summed in float64) are off by up to about 1e-7 (7e-8 seen); the other names
    compute in Python floats and agree to 1e-12 (4e-16 seen), as does every micro score."""
    cases = make_cases(2024, 300)
    worst = {}
    for smooth in IGNITE_SMOOTHS:
        for ngram in (1, 2, 4):
            ours = bleusuite.sentence_bleu(*to_lists(cases), max_order=ngram, smooth=smooth)
            for (hyp, refs), score in zip(cases, ours, strict=True):
                theirs = ignite_metrics.Bleu(ngram=ngram, smooth=smooth)
                theirs.update(([hyp], [refs]))
                difference = abs(float(theirs.compute()) - float(score))
                worst[smooth] = max(worst.get(smooth, 0.0), difference)
    assert 1e-10 < worst["no_smooth"] <= 2e-7, worst  # the float32 division shows
    for smooth in IGNITE_SMOOTHS[1:]:
        assert worst[smooth] <= 1e-12, worst


# ----------------------------------------------------------------------------- Engine


def _epoch_output(batch: list[Case], epoch: int) -> tuple[Any, Any]:
    """The model's "prediction" changes from epoch to epoch (so must the results)."""
    hyps = [[t for i, t in enumerate(hyp) if i % (epoch + 1) == 0] for hyp, _ in batch]
    hyp_ids, _ = as_ids([(h, r) for h, (_, r) in zip(hyps, batch, strict=True)], epoch)
    _, ref_ids = as_ids(batch, epoch)
    return torch.from_numpy(hyp_ids), torch.from_numpy(ref_ids)


def test_engine_two_epochs_resets_between_epochs() -> None:
    data = split_corpora(make_cases(21, 40), 4, max_size=10)

    def step(engine: Engine, batch: list[Case]) -> dict[str, Any]:
        y_pred, y = _epoch_output(batch, engine.state.epoch)
        return {"y_pred": y_pred, "y": y, "loss": 0.0}

    engine = Engine(step)
    metrics = {
        "bleu": Bleu(pad_id=0),
        "bleu_micro": Bleu(smooth="smooth1", average="micro", pad_id=0),
        "bleu_nltk": Bleu(smooth="method3", average="micro", pad_id=0),
        "gleu": Gleu(pad_id=0),
        "gleu_micro": Gleu(average="micro", pad_id=0),
        "bleu_tuple": Bleu(pad_id=0, output_transform=lambda out: (out["y_pred"], out["y"])),
    }
    for name, metric in metrics.items():
        metric.attach(engine, name)
    seen: list[dict[str, Any]] = []
    engine.add_event_handler(Events.EPOCH_COMPLETED, lambda e: seen.append(dict(e.state.metrics)))
    engine.run(data, max_epochs=2)

    assert len(seen) == 2
    for epoch, results in enumerate(seen, start=1):
        outputs = [_epoch_output(batch, epoch) for batch in data]
        for name, metric_class, kwargs in (
            ("bleu", Bleu, {}),
            ("bleu_micro", Bleu, {"smooth": "smooth1", "average": "micro"}),
            ("bleu_nltk", Bleu, {"smooth": "method3", "average": "micro"}),
            ("gleu", Gleu, {}),
            ("gleu_micro", Gleu, {"average": "micro"}),
            ("bleu_tuple", Bleu, {}),
        ):
            expected = metric_class(pad_id=0, **kwargs)
            for output in outputs:  # this epoch's outputs only
                expected.update(output)
            assert float(results[name]) == float(expected.compute()), (name, epoch)
    assert seen[0]["bleu"] != seen[1]["bleu"]
    # the macro results are what ignite.metrics.Bleu gives on the same sentences
    theirs = ignite_metrics.Bleu()
    for hyp_ids, ref_ids in (_epoch_output(batch, 2) for batch in data):
        hyps = [[t for t in row if t != 0] for row in hyp_ids.tolist()]
        refs = [[[t for t in r if t] for r in rows if any(r)] for rows in ref_ids.tolist()]
        theirs.update((hyps, refs))
    assert abs(float(seen[1]["bleu"]) - float(theirs.compute())) <= 2e-7


# ------------------------------------------------------------------------- the example


def test_example_runs_in_quick_mode() -> None:
    script = ROOT / "examples" / "ignite_seq2seq.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("epoch")]
    assert lines, done.stdout
    for name in ("bleu_macro", "bleu_micro", "gleu_macro", "gleu_micro"):
        assert name in lines[-1]
        value = float(lines[-1].split(f"{name}=")[1].split()[0])
        assert 0.0 <= value <= 1.0 and math.isfinite(value)


# ------------------------------------------------------------------------------- CUDA


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("average", AVERAGES)
def test_cuda_ids_and_state(average: str) -> None:
    cases = make_cases(31, 40)
    hyp, refs = as_ids(cases, 1, pad_id=0, eos_id=1)
    on_gpu = Bleu(smooth="smooth1", average=average, device="cuda", pad_id=0, eos_id=1)
    on_gpu.update((torch.from_numpy(hyp).cuda(), torch.from_numpy(refs).cuda()))
    on_cpu = Bleu(smooth="smooth1", average=average, pad_id=0, eos_id=1)
    on_cpu.update((hyp, refs))
    value = on_gpu.compute()
    if average == "macro":
        assert value.device.type == "cuda"
    assert abs(float(value) - float(on_cpu.compute())) <= 1e-12
