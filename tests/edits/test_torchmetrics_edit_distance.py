"""``bleusuite.torchmetrics.EditDistance`` and ``ExtendedEditDistance`` against torchmetrics
1.9's own classes, on generated cases (fixed seeds): batched updates and ``forward``, every
reduction and option, both languages, empty strings, Unicode, one and several references,
sentence-level scores, torchmetrics' quirks, and its argument checks.

Every result is compared with ``torch.equal`` and the same dtype and shape: the numbers are
bit for bit torchmetrics' (EditDistance's are integers, or their float32 mean computed by
the same torch division; EED's are the same float64 operations in the same order, rounded
to float32 and summed in float32 in the same order), not within a tolerance. The compiled
kernels and their Python twins are both checked.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
torchmetrics_text = pytest.importorskip("torchmetrics.text")

from compiled_part import compiled_on  # noqa: E402

from bleusuite.torchmetrics import EditDistance, ExtendedEditDistance  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "bleusuite" / "data"
WORDS = [
    "the", "a", "cat", "sat", "on", "mat", "dog", "ran", "far", "away", "is", "was", "it",
    "this", "that", "here", "there", "and", "of", "in", "to", "prediction", "reference",
    "sample", "other", "another", "Mr", "Dr", "e.g.", "i.e.", "U.S.", "3.5", "1,000", "7",
    ".", ",", "!", "?", "café", "naïve", "Straße", "東京", "カタカナ", "ｶﾀｶﾅ", "ＡＢＣ",
    "１２３", "😀", "👍🏽", "e\u0301",
]


def _edit(rng: random.Random, words: list[str]) -> list[str]:
    """The words with substitutions, deletions, insertions and merged or split words."""
    out: list[str] = []
    for word in words:
        roll = rng.random()
        if roll < 0.1:
            continue
        if roll < 0.2:
            out.append(rng.choice(WORDS))
        elif roll < 0.25 and out:
            out[-1] += word
        elif roll < 0.3 and len(word) > 2:
            out += [word[:2], word[2:]]
        else:
            out.append(word)
        if rng.random() < 0.08:
            out.append(rng.choice(WORDS))
    return out


def _spacing(rng: random.Random, words: list[str]) -> str:
    """Words joined by single spaces mostly, sometimes runs of spaces, tabs, padding."""
    if not words:
        return rng.choice(["", " ", "\t"])
    gaps = [rng.choice([" "] * 8 + ["  ", "\t", " \n "]) for _ in words[1:]]
    text = words[0] + "".join(g + w for g, w in zip(gaps, words[1:], strict=True))
    return rng.choice(["", " "]) + text + rng.choice(["", "", " ", "  \n"])


def _pair(rng: random.Random, max_words: int) -> tuple[str, str]:
    ref = [rng.choice(WORDS) for _ in range(rng.randint(0, max_words))]
    return _spacing(rng, _edit(rng, ref)), _spacing(rng, ref)


def _wmt(count: int, seed: int) -> list[tuple[str, str]]:
    """WMT lines (the package's sample: Russian and English), as pairs and edited."""
    hyps = (DATA / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    rng = random.Random(seed)
    pairs = list(zip(hyps, refs, strict=True))
    pairs += [(" ".join(_edit(rng, r.split())), r) for r in refs]
    rng.shuffle(pairs)
    return pairs[:count]


def _batches(items: list, rng: random.Random) -> list[list]:
    out, start = [], 0
    while start < len(items):
        size = rng.choice([1, 2, 3, 7, 16])
        out.append(items[start : start + size])
        start += size
    return out


def _same(ours, theirs) -> None:
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            _same(a, b)
        return
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (ours, theirs)
    assert torch.equal(ours, theirs) or (
        ours.is_floating_point() and torch.isnan(ours).all() and torch.isnan(theirs).all()
    ), (ours, theirs)


def _run(ours, theirs, batches) -> None:
    """forward on each batch (its value) and compute at the end, side by side."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torchmetrics' warnings on compute before update
        for batch in batches:
            preds, target = batch
            _same(ours(preds, target), theirs(preds, target))
        _same(ours.compute(), theirs.compute())


@pytest.fixture(params=[True, False], ids=["compiled", "twin"])
def kernel(request):
    if request.param:
        from compiled_part import require_compiled

        require_compiled()
    with compiled_on(request.param):
        yield request.param


# --------------------------------------------------------------------- EditDistance


def _edit_cases(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = [_pair(rng, 14) for _ in range(count)]
    pairs += [("", ""), ("", "abc"), ("abc", ""), ("😀", "😃"), ("e\u0301", "é"),
              ("\ud800x", "\udfffx")]
    # where the beam matters: lengths far apart, and m / n > 50 (a wider beam)
    pairs += [("ab" * 40, "ba" * 3), ("xy", "y" * 130), ("q" * 3, "q" * 200 + "r"),
              ("abcd" * 30, "dcba" * 12)]
    rng.shuffle(pairs)
    return pairs


@pytest.mark.parametrize("reduction", ["mean", "sum", "none", None])
@pytest.mark.parametrize("substitution_cost", [0, 1, 2, 3, 7, True])
def test_edit_distance_is_torchmetrics(kernel, reduction, substitution_cost):
    rng = random.Random(f"{reduction}-{substitution_cost}")
    pairs = _edit_cases(substitution_cost * 10 + len(str(reduction)), 60)
    batches = [([p for p, _ in b], [t for _, t in b]) for b in _batches(pairs, rng)]
    batches.insert(1, ([], []))
    batches.append(("one string", "one strung"))
    ours = EditDistance(substitution_cost=substitution_cost, reduction=reduction)
    theirs = torchmetrics_text.EditDistance(substitution_cost=substitution_cost,
                                            reduction=reduction)
    _run(ours, theirs, batches)


def test_edit_distance_on_wmt_lines(kernel):
    pairs = _wmt(200, seed=3)
    rng = random.Random(4)
    batches = [([p for p, _ in b], [t for _, t in b]) for b in _batches(pairs, rng)]
    for cost in (1, 2):
        _run(EditDistance(substitution_cost=cost),
             torchmetrics_text.EditDistance(substitution_cost=cost), batches)


def test_edit_distance_huge_substitution_cost_is_torchmetrics():
    pairs = [("abc", "abd"), ("", "x"), ("kitten", "sitting")]
    preds, target = [p for p, _ in pairs], [t for _, t in pairs]
    # a path without substitutions exists within the beam: the cost is never paid
    _run(EditDistance(substitution_cost=2**50, reduction="none"),
         torchmetrics_text.EditDistance(substitution_cost=2**50, reduction="none"),
         [(preds, target)])


def test_edit_distance_empty_states():
    for reduction in ("mean", "sum"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _same(EditDistance(reduction=reduction).compute(),
                  torchmetrics_text.EditDistance(reduction=reduction).compute())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torchmetrics raises here: an empty result instead
        assert torch.equal(EditDistance(reduction="none").compute(),
                           torch.tensor(0, dtype=torch.int32))


@pytest.mark.parametrize("arguments", [
    {"substitution_cost": -1}, {"substitution_cost": 1.0}, {"substitution_cost": "1"},
    {"substitution_cost": None}, {"reduction": "max"}, {"reduction": "MEAN"},
])
def test_edit_distance_refuses_what_torchmetrics_refuses(arguments):
    name = next(iter(arguments))
    with pytest.raises(ValueError, match=name):
        torchmetrics_text.EditDistance(**arguments)
    with pytest.raises(ValueError, match=name):
        EditDistance(**arguments)


@pytest.mark.parametrize(("preds", "target", "name"), [
    (["a", "b"], ["a"], "same length"), (["a", 1], ["a", "b"], "preds"),
    (["a"], [None], "target"), ([b"a"], ["a"], "preds"),
])
def test_edit_distance_update_refuses_what_torchmetrics_refuses(preds, target, name):
    with pytest.raises(ValueError, match=name):
        torchmetrics_text.EditDistance().update(preds, target)
    with pytest.raises(ValueError, match=name):
        EditDistance().update(preds, target)


# -------------------------------------------------------------- ExtendedEditDistance


def _eed_batches(seed: int, count: int, max_refs: int) -> list[tuple[list[str], list]]:
    rng = random.Random(seed)
    batches = []
    while count > 0:
        size = rng.choice([1, 2, 5, 9])
        preds, target = [], []
        for _ in range(size):
            ref = [rng.choice(WORDS) for _ in range(rng.randint(0, 12))]
            preds.append(_spacing(rng, _edit(rng, ref)))
            refs = [_spacing(rng, ref)] + [_spacing(rng, _edit(rng, ref))
                                           for _ in range(rng.randint(0, max_refs - 1))]
            target.append(refs)
        if max_refs == 1 and rng.random() < 0.5:  # the flat form: one reference each
            target = [refs[0] for refs in target]
        batches.append((preds, target))
        count -= size
    return batches


EED_OPTIONS = [
    {},
    {"alpha": 0.5, "rho": 0.0, "deletion": 1.0, "insertion": 0.1},
    {"alpha": 3.0, "rho": 1.0, "deletion": 0.0, "insertion": 0.0},
    {"alpha": 0.0, "rho": 0.7, "deletion": 0.35, "insertion": 2.5},
    {"alpha": float("inf"), "rho": float("inf"), "deletion": 0.2, "insertion": 1.0},
]


@pytest.mark.parametrize("options", EED_OPTIONS, ids=range(len(EED_OPTIONS)))
@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("max_refs", [1, 3])
def test_eed_is_torchmetrics(kernel, options, language, max_refs):
    seed = len(str(options)) * 7 + max_refs + len(language)
    batches = _eed_batches(seed, 30, max_refs)
    if language == "ja" and options.get("rho") == 0.0:  # an empty reference: 0 / 0
        batches = [(p, [[r for r in refs if r.strip()] or ["x"] for refs in t]
                    if not isinstance(t[0], str) else [r.strip() or "x" for r in t])
                   for p, t in batches]
    for sentence_level in (False, True):
        ours = ExtendedEditDistance(language=language,
                                    return_sentence_level_score=sentence_level, **options)
        theirs = torchmetrics_text.ExtendedEditDistance(
            language=language, return_sentence_level_score=sentence_level, **options)
        _run(ours, theirs, batches)


def test_eed_on_wmt_lines(kernel):
    pairs = _wmt(80, seed=5)
    rng = random.Random(6)
    batches = [([p for p, _ in b], [[t] for _, t in b]) for b in _batches(pairs, rng)]
    _run(ExtendedEditDistance(return_sentence_level_score=True),
         torchmetrics_text.ExtendedEditDistance(return_sentence_level_score=True), batches)


def test_eed_torchmetrics_quirks():
    batches = [
        ("one prediction", ["its first reference", "its second one"]),  # flat: all its refs
        ("a string", "a str"),                # one-character references (the str's)
        (["a", "b"], [[], ["b"]]),            # the first has no reference: nothing added
        (["a", "b c"], [["a"], []]),          # a later one without: inf
        (["x y", "z"], [["x z"], "zz"]),      # a string where a list is: one per character
        (["p", "q", "r"], [["p"], [], ["r"]]),  # an empty target: zip's pairs only
        (["  trailing  "], [[" trailing"]]),
    ]
    _run(ExtendedEditDistance(), torchmetrics_text.ExtendedEditDistance(), batches)
    # sentence scores: update, then compute (torchmetrics' forward of a batch that adds
    # nothing raises in its stack of no scores)
    ours = ExtendedEditDistance(return_sentence_level_score=True)
    theirs = torchmetrics_text.ExtendedEditDistance(return_sentence_level_score=True)
    for preds, target in batches:
        ours.update(preds, target)
        theirs.update(preds, target)
    _same(ours.compute(), theirs.compute())


def test_eed_empty_batches_add_nothing():
    ours = ExtendedEditDistance(return_sentence_level_score=True)
    theirs = torchmetrics_text.ExtendedEditDistance(return_sentence_level_score=True)
    ours.update([], [])  # torchmetrics raises an IndexError here
    for metric in (ours, theirs):
        metric.update(["a b"], [["a c"]])
        metric.update([], [["x"]])
    _same(ours.compute(), theirs.compute())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(ExtendedEditDistance().compute(), torchmetrics_text.ExtendedEditDistance().compute())
        average, sentences = ExtendedEditDistance(return_sentence_level_score=True).compute()
    assert torch.equal(average, torch.tensor(0.0)) and sentences.shape == (0,)


@pytest.mark.parametrize("arguments", [
    {"language": "de"}, {"language": None}, {"alpha": 2}, {"rho": -0.1}, {"deletion": "0.2"},
    {"insertion": -1.0}, {"alpha": None},
])
def test_eed_refuses_what_torchmetrics_refuses(arguments):
    name = next(iter(arguments))
    with pytest.raises(ValueError, match=name):
        torchmetrics_text.ExtendedEditDistance(**arguments)
    with pytest.raises(ValueError, match=name):
        ExtendedEditDistance(**arguments)


@pytest.mark.parametrize(("preds", "target", "name"), [
    (["a", "b"], [["a"], ["b"], ["c"]], "length"), (["a", 1], [["a"], ["b"]], "preds"),
    (["a"], [["a", None]], "target"), (["a", "b"], [["a"], [], [3]], "target"),
])
def test_eed_update_refuses_what_torchmetrics_refuses(preds, target, name):
    with pytest.raises(ValueError):
        torchmetrics_text.ExtendedEditDistance().update(preds, target)
    with pytest.raises(ValueError, match=name):
        ExtendedEditDistance().update(preds, target)


def test_eed_empty_reference_without_coverage_divides_by_zero():
    for metric in (ExtendedEditDistance(language="ja", rho=0.0),
                   torchmetrics_text.ExtendedEditDistance(language="ja", rho=0.0)):
        with pytest.raises(ZeroDivisionError):
            metric.update(["a"], [[" "]])


@pytest.mark.parametrize("language", ["en", "ja"])
def test_preprocessing_is_torchmetrics(language):
    """Sentences one by one and many at once (the English rules over joined sentences),
    against torchmetrics' preprocessing, on texts dense in what its rules rewrite."""
    from torchmetrics.functional.text import eed as reference

    from bleusuite.scores.eed.preprocess import preprocess, preprocess_all

    rules = reference._preprocess_en if language == "en" else reference._preprocess_ja
    rng = random.Random(language)
    pieces = [*"aeMrDJsPofGnvtUSig .,!?0123456789\t\n\u00a0\x1c\u3000ｶ１", "Mr ", "Dr ",
              "Mrs .", "e . g .", "i . e .", "U . S .", "1 . 5", " , ", "\x00"]
    for _ in range(400):
        sentences = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 15)))
                     for _ in range(rng.randint(0, 6))]
        expected = [rules(sentence) for sentence in sentences]
        assert [preprocess(sentence, language) for sentence in sentences] == expected
        assert preprocess_all(sentences, language) == expected
    with pytest.raises(ValueError, match="Only strings"):
        preprocess_all(["a", 5], language)


def _two_processes(tensor, group=None):
    """A gather of two processes that hold the same state (torchmetrics' dist_sync_fn)."""
    return [tensor, tensor.clone()]


@pytest.mark.parametrize("metric", ["mean", "sum", "none", "eed", "eed sentences"])
def test_states_after_a_distributed_sync_are_torchmetrics(metric):
    """torchmetrics' sync (a gather, then the states reduced: sums added, lists
    concatenated into one tensor) and compute, as in a two-process run."""
    sync = {"dist_sync_fn": _two_processes, "distributed_available_fn": lambda: True}
    if metric.startswith("eed"):
        options = {"return_sentence_level_score": metric.endswith("sentences"), **sync}
        pair = (ExtendedEditDistance(**options),
                torchmetrics_text.ExtendedEditDistance(**options))
        batches = [(["a cat sat", "the dog"], [["the cat sat"], ["a dog", "dogs"]]),
                   (["here"], [["there"]])]
    else:
        pair = (EditDistance(reduction=metric, **sync),
                torchmetrics_text.EditDistance(reduction=metric, **sync))
        batches = [(["rain", "lnaguaeg"], ["shine", "language"]), (["a"], ["b"])]
    if metric == "eed sentences":  # torchmetrics' own fails there (stack of one tensor):
        # its synced average, and its sentence scores of one process twice
        pair = (pair[0], torchmetrics_text.ExtendedEditDistance(**sync),
                torchmetrics_text.ExtendedEditDistance(return_sentence_level_score=True))
    results = []
    for instance in pair:
        for preds, target in batches:
            instance.update(preds, target)
        results.append(instance.compute())  # synced: the states of both "processes"
    if metric == "eed sentences":
        sentences = results[2][1]
        results[1:] = [(results[1], torch.cat([sentences, sentences]))]
    _same(*results)
