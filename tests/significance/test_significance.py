"""Tests of bleusuite/significance.py against sacrebleu's own significance code.

sacrebleu's ``PairedTest`` (paired bootstrap and approximate randomization) and its
``_bootstrap_resample`` run on the same generated systems; the results must be equal to the
last bit (scores, means, half-widths, p-values), for several seeds, smoothing methods and
edge cases (empty lines, a system with no match, a system equal to the baseline).
``bleusuite.scores.bleu.sacrebleu_formula.exact_bleu`` (scores, precisions, brevity penalties) is
checked against ``BLEU.compute_bleu`` on random statistics, in float64 (Python ints) and in float32
(sacrebleu's resamples).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bleusuite import bleu_statistics, gleu_statistics
from bleusuite.backends.numpy import python_row_sums
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.parser import build_parser
from bleusuite.cli.statistics import systems_statistics
from bleusuite.scores.bleu.sacrebleu_formula import LOG_ZERO, exact_bleu
from bleusuite.significance import bootstrap, draws
from bleusuite.significance import paired as sig
from bleusuite.significance import sums as summing
from bleusuite.significance.seeding import DEFAULT_SEED, seed_from_environment
from bleusuite.text import encode_texts
from bleusuite.text.tokenizers import load_tokenizer

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402
from sacrebleu.significance import PairedTest, _bootstrap_resample  # noqa: E402

SACREBLEU_SMOOTHING = ["exp", "floor", "add-k", "none"]


def _systems(seed: int, n_lines: int = 120, n_systems: int = 4) -> tuple[list[list[str]],
                                                                         list[str]]:
    """A reference and systems made from it by seeded edits: words dropped, replaced,
    duplicated; some empty lines; the last system shares no word with the reference."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(300)] + [",", ".", "'s", "(", ")"]
    lengths = rng.integers(0, 30, size=n_lines)
    reference = [" ".join(rng.choice(words, size=n)) for n in lengths]
    systems = []
    for k in range(n_systems - 1):
        edited = []
        for line in reference:
            tokens = [t for t in line.split() if rng.random() > 0.1 + 0.05 * k]
            tokens = [str(rng.choice(words)) if rng.random() < 0.1 else t for t in tokens]
            edited.append(" ".join(tokens))
        systems.append(edited)
    systems.append(["zzz " * int(n % 5) for n in lengths])  # no match at all
    return systems, reference


def _stats(systems: list[list[str]], references: list[list[str]]) -> list[np.ndarray]:
    """Each system's per-sentence BLEU statistics, as ``bleusuite score`` counts them."""
    token_ids = encode_texts([*systems, *references], load_tokenizer("13a"), False)
    options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    return [system["bleu"] for system in systems_statistics(token_ids, len(systems), options)]


def _theirs(systems: list[list[str]], references: list[list[str]], test: str, n: int,
            smooth: str = "exp", smooth_value: float | None = None) -> list[dict[str, object]]:
    metric = BLEU(smooth_method=smooth, smooth_value=smooth_value, references=references)
    named = [(f"s{k}", lines) for k, lines in enumerate(systems)]
    _, scores = PairedTest(named, {"BLEU": metric}, None, test_type=test, n_samples=n)()
    return [dict(result.__dict__) for result in scores["BLEU"]]


def _score_functions(smooth: str, value: float | None) -> dict[str, bootstrap.ScoreFunction]:
    return {
        "score": lambda t: exact_bleu(t, smooth, value).scores,
        "resampled_score": lambda t: exact_bleu(t, smooth, value, float32=True).scores,
    }


@pytest.mark.parametrize("seed", [12345, 7])
@pytest.mark.parametrize("data_seed", [0, 1])
def test_paired_bootstrap_equals_sacrebleu_bit_for_bit(monkeypatch, seed, data_seed):
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems, reference = _systems(data_seed)
    stats = _stats(systems, [reference])
    theirs = _theirs(systems, [reference], "bs", 80)
    ours = sig.paired_bootstrap(stats[0], stats[1:], 80, seed)
    assert [r.as_dict() for r in ours] == theirs
    assert ours[-1].score == 0.0  # the system without a match


@pytest.mark.parametrize("seed", [12345, 3])
@pytest.mark.parametrize("data_seed", [0, 2])
def test_paired_ar_equals_sacrebleu_bit_for_bit(monkeypatch, seed, data_seed):
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems, reference = _systems(data_seed)
    stats = _stats(systems, [reference])
    theirs = _theirs(systems, [reference], "ar", 90)
    ours = sig.paired_approximate_randomization(stats[0], stats[1:], 90, seed)
    assert [r.as_dict() for r in ours] == theirs


@pytest.mark.parametrize(("smooth", "value"), [("floor", None), ("floor", 0.3), ("add-k", None),
                                               ("add-k", 2), ("none", None)])
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_equal_sacrebleu_for_every_smoothing(smooth, value, test):
    systems, reference = _systems(4, n_lines=60, n_systems=3)
    # a second reference stream, shorter lines: more zero precisions
    second = [" ".join(line.split()[:3]) for line in reference]
    stats = _stats(systems, [reference, second])
    theirs = _theirs(systems, [reference, second], test, 50, smooth, value)
    functions = _score_functions(smooth, value)
    if test == "bs":
        ours = sig.paired_bootstrap(stats[0], stats[1:], 50, **functions)
    else:
        ours = sig.paired_approximate_randomization(stats[0], stats[1:], 50,
                                                    score=functions["score"])
    assert [r.as_dict() for r in ours] == theirs


def test_single_system_bootstrap_equals_sacrebleu_resamples():
    """The float32 scorer on the resample sums is sacrebleu's ``_bootstrap_resample``."""
    systems, reference = _systems(5, n_lines=70, n_systems=2)
    metric = BLEU(references=[reference])
    their_stats = metric._extract_corpus_statistics(systems[0], None)
    _, their_scores = _bootstrap_resample(their_stats, metric, 64)
    stats = _stats(systems, [reference])[0]
    ours = bootstrap.bootstrap_scores(stats, lambda t: exact_bleu(t, float32=True).scores, 64,
                                      DEFAULT_SEED)
    assert ours.tolist() == [s.score for s in their_scores]
    assert bootstrap.estimate_ci(ours) == tuple(
        float(x) for x in sacrebleu.significance.estimate_ci(np.array(ours)))


@pytest.mark.parametrize(
    ("draw_elements", "weight_elements", "scored_rows", "updates"),
    [
        (50 * 3, 1 << 22, 1 << 16, 1),  # 3 rows a draw, one block
        (50 * 3, 50 * 7, 1 << 16, 12),  # 6 rows (2 draws) a product: 70 = 11 x 6 + 4
        (50 * 3, 1 << 22, 3 * 4, 24),  # 4 rows a score call: one draw (3 rows) a block
        (50 * 4, 50 * 9, 3 * 8, 9),  # 4-row draws, 8 rows a block: 70 = 8 x 8 + 6
        (50, 50, 3, 70),  # one row at a time everywhere
    ],
)
def test_chunked_draws_change_nothing(monkeypatch, draw_elements, weight_elements, scored_rows,
                                      updates):
    """Draw steps, product buffers and score blocks of any size give the same results;
    the progress bar counts every resample once, one update per score block."""
    systems, reference = _systems(6, n_lines=50, n_systems=3)
    stats = _stats(systems, [reference])
    whole_bs = sig.paired_bootstrap(stats[0], stats[1:], 70)
    whole_ar = sig.paired_approximate_randomization(stats[0], stats[1:], 70)
    whole_ci = bootstrap.bootstrap_scores_of_metrics(stats[:2], [_ratio, _ratio], 70, 5)
    monkeypatch.setattr(draws, "RESAMPLE_CHUNK", draw_elements)  # AR: rounded up to 32
    monkeypatch.setattr(summing, "WEIGHT_ELEMENTS", weight_elements)
    monkeypatch.setattr(sig, "SCORED_ROWS", scored_rows)
    monkeypatch.setattr(bootstrap, "SCORED_ROWS", scored_rows)
    seen: list[int] = []
    assert sig.paired_bootstrap(stats[0], stats[1:], 70, bar=_Bar(seen)) == whole_bs
    assert sum(seen) == 70 and len(seen) == updates
    assert sig.paired_approximate_randomization(stats[0], stats[1:], 70) == whole_ar
    chunked_ci = bootstrap.bootstrap_scores_of_metrics(stats[:2], [_ratio, _ratio], 70, 5)
    assert [s.tolist() for s in chunked_ci] == [s.tolist() for s in whole_ci]


def _ratio(table: np.ndarray) -> np.ndarray:
    """A score of summed BLEU statistics: unigram matches over hypothesis length."""
    return table[:, 2] / np.maximum(table[:, 0], 1)


class _Bar:
    def __init__(self, seen: list[int]) -> None:
        self.seen = seen

    def update(self, n: int = 1) -> None:
        self.seen.append(n)


@pytest.mark.parametrize("seed", [12345, 7])
@pytest.mark.parametrize("scored_rows", [3 * 4, 1 << 16])
def test_resamples_drawn_ahead_give_sacrebleus_numbers(monkeypatch, seed, scored_rows):
    """Resamples drawn ahead (``DrawnResamples``) are the draws of the resampling itself:
    the paired bootstrap is still sacrebleu's to the bit, in score blocks of any size, and
    the single-system bootstrap gives the same scores."""
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    systems, reference = _systems(3, n_lines=90)
    stats = _stats(systems, [reference])
    drawn = draws.DrawnResamples.draw(90, 60, seed)
    assert drawn.weights.dtype == np.float32 and drawn.weights.shape == (60, 90)
    whole = np.concatenate(list(draws.bootstrap_weights(90, 60, seed)))
    np.testing.assert_array_equal(drawn.weights, whole)
    monkeypatch.setattr(sig, "SCORED_ROWS", scored_rows)
    monkeypatch.setattr(bootstrap, "SCORED_ROWS", scored_rows)
    seen: list[int] = []
    ours = sig.paired_bootstrap(stats[0], stats[1:], 60, seed, drawn=drawn, bar=_Bar(seen))
    assert [r.as_dict() for r in ours] == _theirs(systems, [reference], "bs", 60)
    assert sum(seen) == 60
    ahead = bootstrap.bootstrap_scores_of_metrics(stats[:2], [_ratio, _ratio], 60, seed,
                                                  drawn=drawn)
    here = bootstrap.bootstrap_scores_of_metrics(stats[:2], [_ratio, _ratio], 60, seed)
    assert [s.tolist() for s in ahead] == [s.tolist() for s in here]


def test_resamples_drawn_for_another_resampling_are_refused():
    systems, reference = _systems(4, n_lines=30, n_systems=2)
    stats = _stats(systems, [reference])
    for drawn in (draws.DrawnResamples.draw(31, 20, 1),  # other sentences
                  draws.DrawnResamples.draw(30, 21, 1),  # other resamples
                  draws.DrawnResamples.draw(30, 20, 2),  # another seed
                  draws.DrawnResamples.draw(30, 20, None)):  # fresh entropy
        with pytest.raises(ValueError, match="drawn: resamples drawn for"):
            sig.paired_bootstrap(stats[0], stats[1:], 20, 1, drawn=drawn)
        with pytest.raises(ValueError, match="drawn: resamples drawn for"):
            bootstrap.bootstrap_scores_of_metrics(stats[:1], [_ratio], 20, 1, drawn=drawn)
    # unseeded: resamples drawn with fresh entropy serve an unseeded resampling
    drawn = draws.DrawnResamples.draw(30, 20, None)
    first = sig.paired_bootstrap(stats[0], stats[1:], 20, None, drawn=drawn)
    assert sig.paired_bootstrap(stats[0], stats[1:], 20, None, drawn=drawn) == first
    with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
        draws.DrawnResamples.draw(30, 0, 1)
    with pytest.raises(ValueError, match="num_sentences must be a positive integer"):
        draws.DrawnResamples.draw(0, 5, 1)


def test_unseeded_runs_differ_and_seeded_runs_repeat():
    systems, reference = _systems(7, n_lines=80, n_systems=2)
    stats = _stats(systems, [reference])
    runs = [sig.paired_bootstrap(stats[0], stats[1:], 40, seed=None)[0].mean for _ in range(3)]
    assert len(set(runs)) > 1
    assert sig.paired_bootstrap(stats[0], stats[1:], 40, 9) == \
        sig.paired_bootstrap(stats[0], stats[1:], 40, 9)


def test_gleu_statistics_get_gleu_scores():
    hyp = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [1, 1, 2, 2]])
    ref = np.array([[1, 2, 3, 5], [5, 6, 9, 8], [1, 2, 1, 2]])
    base = gleu_statistics(hyp, ref)
    same = gleu_statistics(ref, ref)
    results = sig.paired_approximate_randomization(base, [same], 30)
    assert results[1].score == 100.0
    totals = base.sum()
    assert results[0].score == pytest.approx(100 * float(totals.matches) / float(totals.totals))


# ---------------------------------------------------------------------------- exact_bleu


def _random_stats(rng: np.random.Generator, rows: int) -> np.ndarray:
    """``to_array`` rows with ``matches <= totals``, totals non-increasing with the order,
    some zero matches and zero totals; layout [hyp_len, ref_len, matches, totals, clamped]."""
    hyp_len = rng.integers(0, 60, size=rows)
    hyp_len = np.where(rng.random(rows) < 0.15, rng.integers(0, 4, size=rows), hyp_len)
    ref_len = np.maximum(hyp_len + rng.integers(-10, 10, size=rows), 0)
    totals = np.maximum(hyp_len[:, None] - np.arange(4), 0)
    matches = (totals * rng.random((rows, 4)) ** 2).astype(np.int64)
    matches[rng.random((rows, 4)) < 0.2] = 0
    return np.concatenate([hyp_len[:, None], ref_len[:, None], matches, totals, totals], axis=1)


def _compute_bleu(row: np.ndarray, smooth: str, value: float | None, effective: bool,
                  float32: bool) -> tuple[float, list[float], float]:
    """sacrebleu's score, precisions and brevity penalty of one row."""
    if float32:
        stats = row.astype(np.float32)
        correct, total = stats[2:6], stats[6:10]
    else:
        stats = [int(x) for x in row]
        correct, total = stats[2:6], stats[6:10]
    result = BLEU.compute_bleu(correct, total, int(row[0]), int(row[1]), smooth, value,
                               effective)
    return float(result.score), [float(p) for p in result.precisions], float(result.bp)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), smooth=st.sampled_from(SACREBLEU_SMOOTHING),
       value=st.sampled_from([None, 0.05, 0.5, 1, 3]), effective=st.booleans(),
       float32=st.booleans())
def test_exact_bleu_equals_compute_bleu(seed, smooth, value, effective, float32):
    if smooth in ("exp", "none"):
        value = None
    rows = _random_stats(np.random.default_rng(seed), 40)
    ours = exact_bleu(rows, smooth, value, effective, float32=float32)
    theirs = [_compute_bleu(row, smooth, value, effective, float32) for row in rows]
    assert ours.scores.tolist() == [score for score, _, _ in theirs]
    assert ours.precisions.tolist() == [precisions for _, precisions, _ in theirs]
    assert ours.brevity_penalty.tolist() == [bp for _, _, bp in theirs]


def test_exact_bleu_of_bleu_stats_and_errors():
    stats = bleu_statistics(np.array([[1, 2, 3, 4, 5]]), np.array([[1, 2, 3, 4, 6]]))
    assert exact_bleu(stats).scores.tolist() == exact_bleu(stats.to_array()).scores.tolist()
    one_row = exact_bleu(stats.to_array()[0])  # a single row of statistics is one row
    assert one_row.scores.tolist() == exact_bleu(stats).scores.tolist()
    with pytest.raises(ValueError, match="smooth must be one of sacrebleu's"):
        exact_bleu(stats, "method1")
    with pytest.raises(TypeError, match="table must be BleuStats or a NumPy array"):
        exact_bleu([[1, 2]])
    with pytest.raises(ValueError, match=r"table: expected rows of 2 \+ 3 \* N >= 14"):
        exact_bleu(np.zeros((2, 11), dtype=np.int64))


# ------------------------------------------------------------------------- argument checks


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda b, s: sig.paired_bootstrap(b, s, 0), ValueError, "n_resamples must be"),
        (lambda b, s: sig.paired_approximate_randomization(b, s, -3), ValueError,
         "n_trials must be"),
        (lambda b, s: sig.paired_bootstrap(b, [], 10), ValueError, "at least one system"),
        (lambda b, s: sig.paired_bootstrap(b, s[0], 10), TypeError, "sequence of statistics"),
        (lambda b, s: sig.paired_bootstrap(b, [s[0][:2]], 10), ValueError,
         r"systems\[0\]: statistics of shape"),
        (lambda b, s: sig.paired_bootstrap("x", s, 10), TypeError, "baseline must be"),
        (lambda b, s: sig.paired_bootstrap(b.to_array()[0], s, 10), ValueError,
         "baseline: expected one row"),
    ],
    ids=["n-resamples", "n-trials", "no-system", "not-a-sequence", "other-sentences",
         "baseline-type", "baseline-shape"],
)
def test_bad_arguments_are_clear_errors(call, error, match):
    refs = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 5, 6]])
    base = bleu_statistics(np.array([[1, 2, 3, 9], [5, 6, 7, 8], [1, 2, 5, 9]]), refs)
    with pytest.raises(error, match=match):
        call(base, [bleu_statistics(refs, refs)])


def test_seed_from_environment():
    assert seed_from_environment({"SACREBLEU_SEED": "42"}) == 42
    assert seed_from_environment({"SACREBLEU_SEED": "NONE"}) is None
    for value in ("x", "-1"):  # NumPy takes no negative seed: the message names the variable
        with pytest.raises(ValueError, match=r"SACREBLEU_SEED \(environment variable\) must be "
                           "an integer >= 0"):
            seed_from_environment({"SACREBLEU_SEED": value})


@pytest.mark.parametrize("scale", [1, 1 << 20, 1 << 50])
def test_resampled_sums_are_exact_in_either_precision(scale):
    """float32 where every sum stays below 2**24, float64 below 2**53, integers beyond."""
    rng = np.random.default_rng(scale % 97)
    table = rng.integers(-50, 50, size=(300, 7)) * scale
    counts = draws.multiplicities(rng.integers(0, 300, size=(40, 300)), 300)
    expected = counts.astype(object) @ table.astype(object)
    assert summing.resampled_sums(counts, table).tolist() == expected.tolist()
    sums = summing.WeightedSums(table, 300)  # a resample's multiplicities sum to B
    assert np.concatenate([sums(counts[:25]), sums(counts[25:])]).tolist() == expected.tolist()
    masks = rng.integers(0, 2, size=(40, 300)).astype(bool)
    expected = masks.astype(int).astype(object) @ table.astype(object)
    assert summing.resampled_sums(masks, table).tolist() == expected.tolist()


@pytest.mark.parametrize(("n_lines", "n"), [(1, 1), (1, 7), (2, 1), (33, 1)])
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_tiny_paired_tests_equal_sacrebleu(monkeypatch, n_lines, n, test):
    """One sentence, one resample: the smallest chunks, buffers and blocks."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    systems, reference = _systems(8, n_lines=n_lines, n_systems=3)
    stats = _stats(systems, [reference])
    theirs = _theirs(systems, [reference], test, n)
    if test == "bs":
        ours = sig.paired_bootstrap(stats[0], stats[1:], n)
    else:
        ours = sig.paired_approximate_randomization(stats[0], stats[1:], n)
    assert [r.as_dict() for r in ours] == theirs


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 11, 12, 50])
def test_bootstrap_weights_are_multiplicities_of_the_draws(chunk):
    whole = np.random.default_rng(4).choice(13, size=(11, 13))
    parts = list(draws.bootstrap_weights(13, 11, seed=4, chunk=chunk))
    assert [len(p) for p in parts] == [min(chunk, 11 - b) for b in range(0, 11, chunk)]
    counts = np.concatenate(parts)
    assert counts.tolist() == draws.multiplicities(whole, 13).tolist()
    assert counts.tolist() == [np.bincount(row, minlength=13).tolist() for row in whole]


@pytest.mark.parametrize("scale", [1, 1 << 20, 1 << 50])  # float32, float64, int64 products
@pytest.mark.parametrize("block_rows", [1, 4, 5, 100])
def test_weighted_sum_blocks_are_the_sums_of_every_chunk(monkeypatch, scale, block_rows):
    rng = np.random.default_rng(block_rows)
    table = rng.integers(-9, 30, size=(20, 5)) * scale
    sums = summing.WeightedSums(table, 20 * 3)
    # uneven chunks, a later one larger than the first (summed on its own), 0/1 masks
    chunks = [rng.integers(0, 4, size=(rows, 20)) for rows in (2, 2, 1, 3, 2, 2)]
    chunks.insert(4, rng.integers(0, 2, size=(2, 20)).astype(bool))
    expected = np.concatenate([c.astype(object) @ table.astype(object) for c in chunks])
    blocks = list(sums.blocks(iter(chunks), block_rows))
    assert np.concatenate(blocks).tolist() == expected.tolist()
    assert all(b.dtype == np.int64 for b in blocks)
    assert max(len(b) for b in blocks) <= max(block_rows, 3)
    monkeypatch.setattr(summing, "WEIGHT_ELEMENTS", 20 * 3)  # at most 3 rows a product
    blocks = list(sums.blocks(iter(chunks), block_rows))
    assert np.concatenate(blocks).tolist() == expected.tolist()
    assert max(len(b) for b in blocks) <= 3


def test_tables_side_by_side_are_one_table():
    rng = np.random.default_rng(11)
    tables = [rng.integers(0, 50, size=(30, width)) for width in (3, 1, 4)]
    tables[1][4, 0] = -(1 << 20)  # the largest magnitude is negative: float64 needed
    counts = draws.multiplicities(rng.integers(0, 30, size=(6, 30)), 30)
    together = summing.WeightedSums.side_by_side(tables, 30)
    stacked = summing.WeightedSums(np.concatenate(tables, axis=1), 30)
    assert together.dtype is stacked.dtype is np.float64
    assert together(counts).tolist() == stacked(counts).tolist()
    assert together(counts).tolist() == (counts @ np.concatenate(tables, axis=1)).tolist()


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.lists(st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1e16, -1e16, 1.0, 0.1, LOG_ZERO])),
    min_size=4, max_size=4), min_size=1, max_size=20))
@example(rows=[[0.0, 0.0, 8.988465674311579e307, 8.98846567431158e307]])  # overflows to inf
@example(rows=[[-1e308, -1e308, 1.0, -0.0], [1e308, 1e308, -1e308, -1e308]])
def test_python_row_sums_are_pythons_sum(rows):
    """sacrebleu adds the log terms with Python's ``sum``: the vectorised sums are the
    same floats, rounding and signed zeros included."""
    ours = python_row_sums(np.array(rows, dtype=np.float64)).tolist()
    theirs = [sum(row) for row in rows]
    assert [(x, np.copysign(1.0, x)) for x in ours] == \
        [(x, np.copysign(1.0, x)) for x in theirs]


def test_resampling_memory_is_bounded_by_the_buffers(monkeypatch):
    """Draws, counts and weights never take a whole ``(R, B)`` matrix: the peak stays near
    one weight buffer (here 1 MB of float32; 4-5 MB in all) where ``(R, B)`` int64 draws
    alone are 24 MB (the whole-matrix code peaked at 69 MB)."""
    import tracemalloc

    rng = np.random.default_rng(12)
    tables = [rng.integers(0, 30, size=(1000, 14)) for _ in range(3)]
    monkeypatch.setattr(summing, "WEIGHT_ELEMENTS", 1 << 18)
    expected = sig.paired_bootstrap(tables[0], tables[1:], 300)
    tracemalloc.start()
    try:
        results = sig.paired_bootstrap(tables[0], tables[1:], 3000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"peak {peak / 2**20:.1f} MB"
    assert results[1].score == expected[1].score
