"""``bleusuite.sacrebleu`` against sacrebleu's own ``BLEU`` and ``CHRF`` objects (every field,
``format``, ``str``, the signature, the bootstrap interval, bit for bit), and the warning for
reference streams given where references per hypothesis are expected.
"""

from __future__ import annotations

import json
import warnings
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleusuite
from bleusuite.sacrebleu import BLEU, CHRF
from bleusuite.text.streams import ReferenceStreamsWarning, read_as_streams

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog,", "(hello)", "x.", "!", "é", "東京",
         "A", "The", "a-b", "'s", "1,000", "3.5", "&amp;", "", "\t", "end."]
LINE = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)
BLEU_ARGS = st.fixed_dictionaries({
    "tokenize": st.sampled_from(["13a", "intl", "char", "none", "zh", None]),
    "lowercase": st.booleans(),
    "smooth_method": st.sampled_from(["exp", "none", "floor", "add-k"]),
    "max_ngram_order": st.integers(1, 5),
    "effective_order": st.booleans(),
})


def _value(method: str, data: st.DataObject) -> float | None:
    if method in ("floor", "add-k"):
        return data.draw(st.sampled_from([None, 0.5, 2]))
    return None


def _corpus(data: st.DataObject) -> tuple[list[str], list[list[str | None]]]:
    rows = data.draw(st.integers(1, 6))
    hyps = [data.draw(LINE) for _ in range(rows)]
    streams = [[data.draw(LINE) if j == 0 else data.draw(st.one_of(LINE, st.none()))
                for _ in range(rows)] for j in range(data.draw(st.integers(1, 3)))]
    return hyps, streams


def _same_bleu(ours, theirs) -> None:
    assert ours.score == theirs.score
    assert (ours.counts, ours.totals) == (theirs.counts, theirs.totals)
    assert ours.precisions == theirs.precisions
    assert (ours.bp, ours.sys_len, ours.ref_len, ours.ratio) == (
        theirs.bp, theirs.sys_len, theirs.ref_len, theirs.ratio)
    assert str(ours) == str(theirs) and ours.prec_str == theirs.prec_str
    assert ours.format(width=4, score_only=True) == theirs.format(width=4, score_only=True)


def _without_version(signature: str) -> str:
    return signature.rsplit("|", 1)[0]


@settings(max_examples=250, deadline=None)
@given(data=st.data(), args=BLEU_ARGS)
def test_bleu_is_sacrebleus_to_the_bit(data, args):
    args["smooth_value"] = _value(args["smooth_method"], data)
    hyps, streams = _corpus(data)
    ours, theirs = BLEU(**args), SacreBLEU(**args)
    _same_bleu(ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams))
    assert _without_version(ours.get_signature().format()) == _without_version(
        theirs.get_signature().format())
    assert _without_version(ours.get_signature().format(short=True)) == _without_version(
        theirs.get_signature().format(short=True))
    refs = [line for line in (s[0] for s in streams)]
    _same_bleu(ours.sentence_score(hyps[0], refs), theirs.sentence_score(hyps[0], refs))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), char_order=st.integers(0, 6), word_order=st.integers(0, 2),
       beta=st.one_of(st.integers(0, 3), st.sampled_from([0.5, 1.5, 2.0])),
       lowercase=st.booleans(), whitespace=st.booleans(),
       eps_smoothing=st.booleans())
def test_chrf_is_sacrebleus_to_the_bit(data, char_order, word_order, beta, lowercase,
                                      whitespace, eps_smoothing):
    if char_order + word_order == 0:
        return
    args = dict(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                whitespace=whitespace, eps_smoothing=eps_smoothing)
    hyps, streams = _corpus(data)
    ours, theirs = CHRF(**args), SacreCHRF(**args)
    mine, reference = ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams)
    assert mine.score == reference.score and str(mine) == str(reference)
    assert (mine.name, mine.char_order, mine.word_order, mine.beta) == (
        reference.name, reference.char_order, reference.word_order, reference.beta)
    assert _without_version(ours.get_signature().format()) == _without_version(
        theirs.get_signature().format())
    refs = [s[0] for s in streams]
    assert ours.sentence_score(hyps[0], refs).score == theirs.sentence_score(hyps[0], refs).score


@pytest.fixture(scope="module")
def sample() -> tuple[list[str], list[str]]:
    data = resources.files("bleusuite") / "data"
    return ((data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines(),
            (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines())


def test_bootstrap_interval_is_sacrebleus(sample, monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps, refs = sample
    for ours, theirs in [(BLEU(), SacreBLEU()), (CHRF(word_order=2), SacreCHRF(word_order=2)),
                         (CHRF(beta=0), SacreCHRF(beta=0)), (CHRF(beta=1.5), SacreCHRF(beta=1.5))]:
        mine = ours.corpus_score(hyps, [refs], n_bootstrap=200)
        reference = theirs.corpus_score(hyps, [refs], n_bootstrap=200)
        assert str(mine) == str(reference)
        assert (mine._mean, mine._ci) == pytest.approx((reference._mean, reference._ci),
                                                       abs=1e-9)
        signature = ours.get_signature().format()
        assert _without_version(signature) == _without_version(
            theirs.get_signature().format())
        assert "|bs:200|seed:12345|" in signature
        ours_json = json.loads(mine.format(signature=signature, is_json=True))
        theirs_json = json.loads(reference.format(signature=signature, is_json=True))
        assert ours_json == theirs_json


def test_cached_references_and_the_sample(sample):
    hyps, refs = sample
    ours, theirs = BLEU(references=[refs]), SacreBLEU(references=[refs])
    _same_bleu(ours.corpus_score(hyps, None), theirs.corpus_score(hyps, None))
    assert ours.get_signature().format().startswith("nrefs:1|case:mixed|eff:no|tok:13a|")
    assert ours.get_signature().format().endswith(f"version:bleusuite-{bleusuite.__version__}")


@pytest.mark.parametrize(("call", "error", "argument"), [
    (lambda: BLEU().corpus_score(["a", "b"], [["a"]]), ValueError, "references"),
    (lambda: BLEU().corpus_score("a b", [["a b"]]), TypeError, "hypotheses"),
    (lambda: BLEU().corpus_score([], [[]]), ValueError, "hypotheses"),
    (lambda: BLEU().corpus_score(["a"], ["a"]), TypeError, "references"),
    (lambda: BLEU().corpus_score(["a"], None), ValueError, "references"),
    (lambda: BLEU().corpus_score(["a"], [["a"]], n_bootstrap=0), ValueError, "n_bootstrap"),
    (lambda: BLEU().sentence_score(["a"], ["a"]), TypeError, "hypothesis"),
    (lambda: BLEU(smooth_method="add-one"), ValueError, "smooth_method"),
    (lambda: BLEU(smooth_method="floor", smooth_value=-1), ValueError, "smooth_value"),
    (lambda: BLEU(tokenize="moses"), ValueError, "tokenize"),
    (lambda: BLEU(max_ngram_order=0), ValueError, "max_ngram_order"),
    (lambda: BLEU(lowercase=1), TypeError, "lowercase"),
    (lambda: CHRF(char_order=0, word_order=0), ValueError, "char_order"),
    (lambda: BLEU().get_signature(), ValueError, "references"),
])
def test_bad_arguments_are_named(call, error, argument):
    with pytest.raises(error, match=argument):
        call()


def test_a_corpus_score_runs_no_python_loop_per_sentence(sample, monkeypatch):
    """Not a benchmark (benchmarks/bench_adapters.py measures the ratio to sacrebleu): that
    the whole pipeline is vectorised, counted without a clock: the Python functions a
    corpus score calls are as many for 40 times the lines (the compiled part tokenises,
    numbers and counts them; on one thread, as blocks on threads add calls per block)."""
    import sys

    from compiled_part import compiled_on, require_compiled

    require_compiled()
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    hyps, refs = sample

    def python_calls(copies: int) -> int:
        calls = 0

        def count(frame, event, arg):
            nonlocal calls
            calls += event == "call"

        metric = BLEU()
        metric.corpus_score(hyps[:2], [refs[:2]])  # imports, caches
        sys.setprofile(count)
        try:
            metric.corpus_score(hyps * copies, [refs * copies])
        finally:
            sys.setprofile(None)
        return calls

    with compiled_on(True):
        few, many = python_calls(1), python_calls(40)
        assert BLEU().corpus_score(hyps * 20, [refs * 20]).score == \
            SacreBLEU().corpus_score(hyps * 20, [refs * 20]).score
    assert many <= few + 10, (few, many)  # 3,900 more lines, no call per line


# ----------------------------------------------------- streams given as per-hypothesis lists

THE_STREAMS = (["the cat sat on the mat", "a dog ran"],
               [["the cat sat on the mat", "a dog ran"],
                ["the cat sat on a mat", "a dog ran fast"]])


def _warned(call) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w for w in caught if issubclass(w.category, ReferenceStreamsWarning)]


def test_the_streams_mix_up_warns_and_the_adapter_reads_streams():
    hyps, streams = THE_STREAMS
    caught = _warned(lambda: bleusuite.corpus_bleu(hyps, streams, tokenize="13a", smooth="exp"))
    assert len(caught) == 1 and "list(zip(*streams))" in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the caller's line
    assert BLEU().corpus_score(hyps, streams).score == pytest.approx(100.0)
    assert _warned(lambda: BLEU().corpus_score(hyps, streams)) == []
    per_hypothesis = [list(r) for r in zip(*streams, strict=True)]
    assert _warned(lambda: bleusuite.corpus_bleu(hyps, per_hypothesis, tokenize="13a")) == []


@pytest.mark.parametrize("front_end", [
    lambda h, r: bleusuite.sentence_bleu(h, r, tokenize="13a"),
    lambda h, r: bleusuite.corpus_gleu(h, r, tokenize="none"),
    lambda h, r: bleusuite.corpus_chrf(h, r),
    lambda h, r: bleusuite.corpus_bleu_result(h, r, tokenize="char"),
])
def test_every_text_front_end_warns(front_end):
    hyps, streams = THE_STREAMS
    assert len(_warned(lambda: front_end(hyps, streams))) == 1
    assert len(_warned(lambda: front_end(hyps, tuple(map(tuple, streams))))) == 1
    assert _warned(lambda: front_end(hyps, [list(r) for r in zip(*streams, strict=True)])) == []


def test_variants_of_the_mix_up_warn(sample):
    hyps, refs = sample
    three = hyps[:3]
    # the hypotheses as the second of three streams; and three streams of references
    assert read_as_streams(three, [refs[:3], list(three), [r.upper() for r in refs[:3]]])
    assert read_as_streams(["the cat sat on the mat", "a dog ran", "it rained all day"],
                           [["the cat sat on a mat", "dogs ran", "it rained the whole day"],
                            ["a cat sat on the mat", "a dog ran off", None],
                            ["the cat sat", "a dog was running", "it rained all the day"]])


def test_references_per_hypothesis_do_not_warn(sample):
    """Squares of the WMT sample (2 to 4 sentences, the reference and copies with words
    dropped) given the right way round: no warning; the wrong way round: mostly one."""
    hyps, refs = sample
    rng = np.random.default_rng(3)
    wrong = 0
    for _ in range(300):
        size = int(rng.integers(2, 5))
        rows = rng.choice(len(hyps), size, replace=False)
        streams = [[refs[i] for i in rows]] + [
            [" ".join(w for w in refs[i].split() if rng.random() > 0.2) for i in rows]
            for _ in range(size - 1)]
        chosen = [hyps[i] for i in rows]
        assert not read_as_streams(chosen, [list(r) for r in zip(*streams, strict=True)])
        wrong += read_as_streams(chosen, streams)
    assert wrong >= 240
    # rows of other lengths are never read as streams
    assert not read_as_streams(["a b", "c d"], [["c d", "a b", "x"], ["a b", "c d"]])
    assert not read_as_streams(["a b"], [["a b"]])


@pytest.mark.parametrize("options", [{}, {"normalized": True, "asian_support": True},
                                     {"no_punct": True, "case_sensitive": True}])
def test_ter_is_sacrebleus_to_the_bit(sample, options, monkeypatch):
    """Fields, ``str``, signatures (long and short), sentence scores, cached references and
    the bootstrap interval of ``TER`` (lines of at most 25 words: sacrebleu's TER is slow)."""
    from sacrebleu.metrics import TER as SacreTER

    from bleusuite.sacrebleu import TER

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps, refs = sample
    keep = [i for i, line in enumerate(refs) if len(line.split()) <= 25][:30]
    streams = [[refs[i] for i in keep], [None if k % 3 else hyps[i].upper() for k, i in
                                         enumerate(keep)]]
    hyps = [hyps[i] for i in keep]
    ours, theirs = TER(**options), SacreTER(**options)
    mine, reference = ours.corpus_score(hyps, streams), theirs.corpus_score(hyps, streams)
    assert (mine.score, mine.num_edits, str(mine)) == (reference.score, reference.num_edits,
                                                       str(reference))
    assert mine.ref_length == pytest.approx(reference.ref_length, abs=1e-9)
    for short in (False, True):
        assert _without_version(ours.get_signature().format(short)) == _without_version(
            theirs.get_signature().format(short))
    for k in (0, 1):
        sentence_refs = [s[k] for s in streams if s[k] is not None]
        assert ours.sentence_score(hyps[k], sentence_refs).score == \
            theirs.sentence_score(hyps[k], sentence_refs).score
    cached = TER(references=streams, **options).corpus_score(hyps, None)
    assert cached.score == reference.score
    mine = ours.corpus_score(hyps, streams, n_bootstrap=100)
    reference = theirs.corpus_score(hyps, streams, n_bootstrap=100)
    assert (mine._mean, mine._ci) == (reference._mean, reference._ci)
    signature = ours.get_signature().format()
    assert "|bs:100|seed:12345|" in signature
    assert json.loads(mine.format(signature=signature, is_json=True)) == json.loads(
        reference.format(signature=signature, is_json=True))
