"""TER against sacrebleu's ``TER`` (``sentence_score`` / ``corpus_score``, its statistics and
``lib_ter.translation_edit_rate``) on generated cases: WMT lines with moved blocks of 1-6
words, drops, substitutions, case and punctuation changes; empty hypotheses and
references, 1-4 references (absent ones too), CJK with ``asian_support``, odd whitespace,
all 16 combinations of the tercom options; word lists with few distinct words (ties),
moved blocks, long sentences (the beam, several machine words) and extreme length ratios
(a wider beam). The Python twin of the compiled kernel, token-id input, the result object,
the resampled arithmetic and the errors.

sacrebleu's TER is slow (milliseconds a line): each comparison runs on a few dozen lines,
and only in the environments that count with the compiled kernel or the NumPy pipeline
(TER counts nothing with BLEUSUITE_COUNTING's strategies: the NumPy-only environment, which
sets ``fixed``, would repeat them).
"""

from __future__ import annotations

import itertools
import os
import random

import numpy as np
import pytest
from compiled_part import require_compiled
from workloads import edited_wmt_text

import bleusuite
from bleusuite.scores.ter.edits import pair_edits, ter_edits
from bleusuite.scores.ter.entry import METRIC
from bleusuite.scores.ter.settings import TerSettings
from bleusuite.scores.ter.statistics import REF_LENGTH_UNIT, TerStats
from bleusuite.text.tercom import TercomTokenizer, tercom_ids

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import TER  # noqa: E402
from sacrebleu.metrics.lib_ter import translation_edit_rate  # noqa: E402
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTokenizer  # noqa: E402

#: sacrebleu's comparisons run once (see the module's description)
once = pytest.mark.skipif(os.environ.get("BLEUSUITE_COUNTING") == "fixed",
                          reason="TER's parity with sacrebleu runs in the other environments")

OPTIONS = [dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), flags,
                    strict=True)) for flags in itertools.product((False, True), repeat=4)]
CJK = ["東京タワーに行きました。", "我们的朋友，你好！", "日本語のテキスト（テスト）です",
       "北京是中国的首都。 Beijing", "ひらがな カタカナ 漢字、記号・",
       "ｆｕｌｌ－ｗｉｄｔｈ，ｔｅｘｔ．", "㈱会社 ㍻ 﨑 ︰"]
ODD = ["John's\tcar is here.", "It's\u00a0fine, isn't it's ok", "a &amp; b &quot;c&quot; &lt;d&gt;",
       "3.14, 1,000 and 10-20 e-mail.", "line\nbreak-\ning", "", "   ", "U.S. (paren) [x] {y}",
       "ΟΔΟΣ Straße İstanbul", "what? yes! no; a:b \"q\""]


def text_cases(seed: int, rows: int, max_words: int = 30) -> tuple[
        list[str], list[list[str | None]]]:
    """Hypotheses and, for each, 1-4 references (an absent one now and then, empty lines):
    edited WMT lines of at most ``max_words`` words (the real reference, other edits as
    further references), CJK and odd lines mixed in."""
    rng = random.Random(seed)
    systems, reference = edited_wmt_text(200, systems=4, seed=seed)
    short = [i for i in range(200) if len(reference[i].split()) <= max_words]
    hyps, refs = [], []
    for _ in range(rows):
        draw = rng.random()
        if draw < 0.15:
            line = rng.choice(CJK)
            words = line.split()
            rng.shuffle(words)
            hyps.append(" ".join(words) if rng.random() < 0.5 else line[::-1])
            candidates = [line, rng.choice(CJK), " ".join(reversed(words))]
        elif draw < 0.3:
            hyps.append(rng.choice(ODD))
            candidates = [rng.choice(ODD), rng.choice(ODD), rng.choice(ODD).upper()]
        else:
            i = rng.choice(short)
            hyps.append(systems[0][i])
            candidates = [reference[i], systems[1][i], systems[2][i], systems[3][i]]
        count = rng.randint(1, 4)
        row: list[str | None] = [rng.choice(candidates) for _ in range(count)]
        if rng.random() < 0.1:
            row[rng.randrange(count)] = ""
        if count > 1 and rng.random() < 0.2:
            row[rng.randrange(1, count)] = None
        refs.append(row)
    hyps[rng.randrange(rows)] = ""
    return hyps, refs


def streams_of(refs: list[list[str | None]]) -> list[list[str | None]]:
    """sacrebleu's reference streams of references per hypothesis (None: absent)."""
    width = max(len(row) for row in refs)
    return [[row[r] if r < len(row) else None for row in refs] for r in range(width)]


@once
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(k for k, v in o.items() if v)
                         or "default")
def test_sentence_and_corpus_ter_are_sacrebleus_for_every_option(options):
    hyps, refs = text_cases(seed=len(str(options)) + sum(options.values()) * 7, rows=9)
    metric = TER(**options)
    theirs = metric._extract_corpus_statistics(hyps, streams_of(refs))
    stats = bleusuite.ter_statistics(hyps, refs, **options)
    assert stats.edits.tolist() == [row[0] for row in theirs]
    assert stats.ref_length.tolist() == [row[1] for row in theirs]
    sentences = bleusuite.sentence_ter(hyps, refs, **options)
    for score, row in zip(sentences.tolist(), theirs, strict=True):
        # sentence_score(h, refs) is _aggregate_and_compute of the line's statistics
        assert score == pytest.approx(metric._aggregate_and_compute([row]).score / 100,
                                      abs=1e-12)
    corpus = float(bleusuite.corpus_ter(hyps, refs, **options))
    assert corpus == pytest.approx(metric._aggregate_and_compute(theirs).score / 100, abs=1e-12)


@once
def test_sentence_score_of_the_api_and_long_wmt_lines():
    """The real lines, long ones included (the beam no longer holds the whole matrix):
    ``TER().sentence_score`` itself, and ``corpus_ter`` with sacrebleu's streams."""
    (hyps,), refs = edited_wmt_text(24, seed=5)
    hyps[3], refs[3] = hyps[3] + " " + hyps[5], refs[3] + " " + refs[5]  # 40 words or more
    scores = bleusuite.sentence_ter(hyps, refs)
    metric = TER()
    for hyp, ref, score in zip(hyps, refs, scores.tolist(), strict=True):
        assert score == pytest.approx(metric.sentence_score(hyp, [ref]).score / 100, abs=1e-12)
    expected = sacrebleu.corpus_ter(hyps, [refs]).score / 100
    assert float(bleusuite.corpus_ter(hyps, refs)) == pytest.approx(expected, abs=1e-12)


def word_pairs(seed: int, count: int) -> list[tuple[list[str], list[str]]]:
    """Word lists: a reference of few distinct words (ties everywhere) or many, the
    hypothesis it with blocks of 1-6 words moved and words dropped, replaced, inserted;
    sometimes the other way round, or lengths far apart."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        vocabulary = rng.choice([2, 3, 6, 30, 1000])
        draw = rng.random()
        if draw < 0.1:  # lengths far apart: a wider beam, or a one-word side
            short, long = rng.randint(1, 3), rng.randint(60, 130)
            pair = ([f"w{rng.randrange(vocabulary)}" for _ in range(short)],
                    [f"w{rng.randrange(vocabulary)}" for _ in range(long)])
            pairs.append(pair if rng.random() < 0.5 else pair[::-1])
            continue
        # long sentences of two or three words reach the candidate limit: that has its own test
        size = rng.randint(0, 70 if draw < 0.2 and vocabulary > 3 else 30)
        ref = [f"w{rng.randrange(vocabulary)}" for _ in range(size)]
        hyp = list(ref)
        for _ in range(rng.randint(0, 4)):
            if len(hyp) > 1:
                length = rng.randint(1, min(6, len(hyp) - 1))
                start = rng.randrange(len(hyp) - length + 1)
                block = hyp[start : start + length]
                del hyp[start : start + length]
                target = rng.randint(0, len(hyp))
                hyp[target:target] = block
        for _ in range(rng.randint(0, 4)):
            where = rng.randint(0, len(hyp))
            edit = rng.random()
            if edit < 0.33 and hyp:
                hyp[min(where, len(hyp) - 1)] = f"w{rng.randrange(vocabulary)}"
            elif edit < 0.66 and hyp:
                del hyp[min(where, len(hyp) - 1)]
            else:
                hyp.insert(where, f"w{rng.randrange(vocabulary)}")
        pairs.append((hyp, ref) if rng.random() < 0.7 else (ref, hyp))
    return pairs


def kernel_edits(pairs: list[tuple[list[str], list[str]]]) -> list[int]:
    """The kernel's edits of word-list pairs (numbered here), in one call."""
    vocabulary: dict[str, int] = {}
    hyps = [[vocabulary.setdefault(w, len(vocabulary)) for w in h] for h, _ in pairs]
    refs = [[vocabulary.setdefault(w, len(vocabulary)) for w in r] for _, r in pairs]
    lengths = np.array([len(s) for s in hyps + refs], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    ids = np.array([w for s in hyps + refs for w in s], dtype=np.int64)
    rows = len(pairs)
    edits = ter_edits(ids, starts[:rows], lengths[:rows], ids, starts[rows:, None],
                      lengths[rows:, None], workers=2)
    return edits[:, 0].tolist()


@once
def test_edits_are_translation_edit_rate():
    pairs = word_pairs(seed=11, count=110)
    assert kernel_edits(pairs) == [translation_edit_rate(h, r)[0] for h, r in pairs]


@once
def test_the_candidate_limit_is_sacrebleus(monkeypatch):
    """Two words in long sentences: sacrebleu's search stops at 1000 candidates, the shift
    it found then unmade."""
    from sacrebleu.metrics import lib_ter

    rng = random.Random(2)
    pairs = [([rng.choice("ab") for _ in range(34)], [rng.choice("ab") for _ in range(36)])
             for _ in range(2)]
    checked = []
    search = lib_ter._shift

    def counted(*args):
        result = search(*args)
        checked.append(result[2])
        return result

    monkeypatch.setattr(lib_ter, "_shift", counted)
    expected = [translation_edit_rate(h, r)[0] for h, r in pairs]
    assert max(checked) >= 1000
    assert kernel_edits(pairs) == expected


def test_the_python_twin_gives_the_kernels_edits():
    require_compiled()
    pairs = [p for p in word_pairs(seed=12, count=220) if len(p[0]) * len(p[1]) <= 1600]
    vocabulary: dict[str, int] = {}

    def ids(words: list[str]) -> list[int]:
        return [vocabulary.setdefault(w, len(vocabulary)) for w in words]

    assert [pair_edits(ids(h), ids(r)) for h, r in pairs] == kernel_edits(pairs)


def test_without_the_compiled_part_the_numbers_are_the_same(monkeypatch):
    hyps, refs = text_cases(seed=3, rows=14, max_words=18)
    compiled = bleusuite.ter_statistics(hyps, refs, normalized=True).to_array()
    monkeypatch.setenv("BLEUSUITE_NATIVE", "0")
    assert bleusuite.ter_statistics(hyps, refs, normalized=True).to_array().tolist() == \
        compiled.tolist()


@once
@pytest.mark.parametrize("options", [OPTIONS[0], OPTIONS[5], OPTIONS[15]])
def test_the_tokenizer_is_sacrebleus(options):
    ours, theirs = TercomTokenizer(**options), SacreTokenizer(**options)
    hyps, refs = text_cases(seed=4, rows=30)
    lines = hyps + [r for row in refs for r in row if r is not None] + CJK + ODD
    for line in lines:
        assert ours(line) == theirs(line)
    references = [r for row in refs for r in row if r is not None] + ODD
    ids, lengths = tercom_ids(lines, references, **options)
    # sacrebleu's TER tokenises a reference twice (the second pass is not always a no-op)
    tokens = [theirs(line.rstrip()).split() for line in lines] + [
        theirs(theirs(line.rstrip())).split() for line in references]
    assert lengths.tolist() == [len(t) for t in tokens]
    vocabulary: dict[str, int] = {}
    expected = [vocabulary.setdefault(w, len(vocabulary)) for t in tokens for w in t]
    assert ids.tolist() == expected


@once
@pytest.mark.parametrize("options", [OPTIONS[0], OPTIONS[9], OPTIONS[14]])
def test_the_result_object_prints_sacrebleus_line_and_signature(options):
    hyps, refs = text_cases(seed=6, rows=8, max_words=20)
    result = bleusuite.corpus_ter_result(hyps, refs, **options)
    metric = TER(**options)
    theirs = metric.corpus_score(hyps, streams_of(refs))
    assert result.format(signature=False) == str(theirs)
    assert result.num_edits == theirs.num_edits
    assert result.ref_length == pytest.approx(theirs.ref_length, abs=1e-9)
    signature = metric.get_signature().format()
    assert result.signature.rsplit("|", 1)[0] == signature.rsplit("|", 1)[0]
    assert result.signature.endswith(f"version:bleusuite-{bleusuite.__version__}")
    assert float(result) == result.score and result.to_dict()["num_edits"] == result.num_edits


def test_token_ids_and_token_lists_score_as_their_words():
    hyps, refs = text_cases(seed=8, rows=10, max_words=16)
    refs = [[r for r in row if r is not None] for row in refs]
    words = [h.lower().split() for h in hyps], [[r.lower().split() for r in row] for row in refs]
    expected = bleusuite.sentence_ter(hyps, refs)
    vocabulary: dict[str, int] = {}

    def ids(tokens: list[str]) -> list[int]:
        return [vocabulary.setdefault(w, len(vocabulary)) + 1 for w in tokens]

    hyp_ids = [ids(h) for h in words[0]]
    ref_ids = [[ids(r) for r in row] for row in words[1]]
    assert np.array_equal(bleusuite.sentence_ter(words[0], words[1]), expected)
    assert np.array_equal(bleusuite.sentence_ter(hyp_ids, ref_ids), expected)
    width = max(len(s) for s in hyp_ids + [r for row in ref_ids for r in row]) + 2
    padded_hyp = np.zeros((len(hyps), width), dtype=np.int64)
    padded_ref = np.zeros((len(hyps), 4, width), dtype=np.int64)
    for b, (h, row) in enumerate(zip(hyp_ids, ref_ids, strict=True)):
        padded_hyp[b, : len(h)] = h
        for r, ref in enumerate(row):
            padded_ref[b, r, : len(ref)] = ref
            if not ref:
                padded_ref[b, r, 0] = 99_999  # an empty reference: an eos at its start
    scores = bleusuite.sentence_ter(padded_hyp, padded_ref, pad_id=0, eos_id=99_999)
    assert np.array_equal(scores, expected)
    corpus = bleusuite.corpus_ter(padded_hyp, padded_ref, pad_id=0, eos_id=99_999)
    assert float(corpus) == float(bleusuite.corpus_ter(hyps, refs))
    result = bleusuite.corpus_ter_result(padded_hyp, padded_ref, pad_id=0, eos_id=99_999)
    assert "tok:given" in result.signature
    assert result.score == pytest.approx(100 * float(corpus), rel=1e-15)
    torch = pytest.importorskip("torch")
    tensor_scores = bleusuite.sentence_ter(torch.tensor(padded_hyp), torch.tensor(padded_ref),
                                           pad_id=0, eos_id=99_999)
    assert isinstance(tensor_scores, torch.Tensor)
    assert tensor_scores.tolist() == expected.tolist()


def test_statistics_sum_exactly_and_average_up_to_16_references():
    hyp = ["a b c d"]
    refs = [["a b c", "c d a b", "b", "a b c d e f g"][:k] for k in range(1, 5)]
    stats = [bleusuite.ter_statistics(hyp * 1, [row]) for row in refs]
    assert [float(s.ref_length[0]) for s in stats] == [3.0, 3.5, 8 / 3, 15 / 4]
    total = stats[0] + stats[1]
    assert total.to_array().tolist() == [[stats[0].edits[0] + stats[1].edits[0],
                                          int(stats[0].ref_length_units[0]
                                              + stats[1].ref_length_units[0])]]
    joined = TerStats.from_array(np.concatenate([s.to_array() for s in stats]))
    assert len(joined) == 4 and joined[1:3].sum().ref_length_units == sum(
        int(s.ref_length_units[0]) for s in stats[1:3])
    sixteen = bleusuite.ter_statistics(["a"], [["a b"] * 16])
    assert sixteen.ref_length_units.tolist() == [2 * REF_LENGTH_UNIT]
    with pytest.raises(ValueError, match="17 references"):
        bleusuite.ter_statistics(["a"], [["a"] * 17])


def test_the_resampled_arithmetic_is_sacrebleus_float32():
    metric = TER()
    rng = np.random.default_rng(0)
    for refs in (1, 2, 4):
        rows = [[int(rng.integers(0, 30)), float(rng.integers(0, 40)) / refs]
                for _ in range(50)] + [[3, 0.0], [0, 0.0]]
        theirs = [metric._compute_score_from_stats(np.array(rows[i:i + 7], np.float32).sum(0))
                  .score for i in range(0, len(rows), 7)]
        table = np.array([[e, round(length * REF_LENGTH_UNIT)] for e, length in rows])
        sums = np.stack([table[i:i + 7].sum(0) for i in range(0, len(rows), 7)])
        ours = METRIC.scores(sums, TerSettings(), resampled=True)
        assert ours.dtype == np.float32 and ours.tolist() == [float(t) for t in theirs]
        exact = METRIC.scores(sums, TerSettings())
        assert exact.tolist() == [metric._compute_score_from_stats(
            np.array(rows[i:i + 7]).sum(0).tolist()).score for i in range(0, len(rows), 7)]


def test_paired_tests_take_ter_statistics():
    from bleusuite.significance import paired_bootstrap

    (base, system), refs = edited_wmt_text(30, systems=2, seed=9)
    tables = [bleusuite.ter_statistics(lines, refs) for lines in (base, system)]
    baseline, other = paired_bootstrap(tables[0], [tables[1]], n_resamples=50)
    assert baseline.score == pytest.approx(100 * float(bleusuite.corpus_ter(base, refs)))
    assert other.p_value is not None and 0 < other.p_value <= 1


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: bleusuite.sentence_ter(["a"], [[]]), ValueError, "no reference"),
    (lambda: bleusuite.sentence_ter(["a"], [[None]]), ValueError, "no reference"),
    (lambda: bleusuite.corpus_ter([], []), ValueError, "at least one sentence"),
    (lambda: bleusuite.sentence_ter(["a"], ["a"], normalized="yes"), TypeError, "normalized"),
    (lambda: bleusuite.sentence_ter(["a"], ["a"], pad_id=0), ValueError, "pad_id"),
    (lambda: bleusuite.sentence_ter([[1, 2]], [[[1]]], no_punct=True), ValueError, "apply to text"),
    (lambda: bleusuite.sentence_ter(["a", "b"], ["a"]), ValueError, "same batch size"),
    (lambda: bleusuite.sentence_ter(["a"], [[1]]), TypeError, r"references\[0\]\[0\]"),
    (lambda: bleusuite.ter_score(np.zeros((1, 2))), TypeError, "TerStats"),
])
def test_bad_input_is_refused_by_name(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_empty_sides_and_the_edge_scores():
    scores = bleusuite.sentence_ter(["", "a b", "", "x"], [[""], [""], ["a b"], ["y z"]])
    assert scores.tolist() == [0.0, 1.0, 1.0, 1.0]  # sacrebleu: 0, 100, 100, 100
    assert float(bleusuite.corpus_ter(["", "a b"], [[""], [""]])) == 1.0


@pytest.mark.gpu
def test_cuda_tensors_come_back_on_their_device():
    """TER runs on the host; scores of CUDA tensors come back as CUDA tensors."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    hyp = torch.tensor([[1, 2, 3, 4, 0], [5, 6, 0, 0, 0]], device="cuda")
    ref = torch.tensor([[3, 4, 1, 2, 5], [5, 7, 6, 0, 0]], device="cuda")
    scores = bleusuite.sentence_ter(hyp, ref, pad_id=0)
    assert scores.device.type == "cuda"
    assert scores.tolist() == bleusuite.sentence_ter(hyp.cpu(), ref.cpu(), pad_id=0).tolist()
    assert bleusuite.corpus_ter(hyp, ref, pad_id=0).device.type == "cuda"
