"""Text input (``tokenize=``) and result objects against the real sacrebleu.

Every sacrebleu tokenizer that runs here, on the shipped WMT sample and on generated text
with punctuation, case, CJK and odd spaces; every sacrebleu smoothing name; corpus and
sentence level, with and without the effective order; 1e-12 on the 0-1 scale.
"""

from __future__ import annotations

import contextlib
import functools
import json
from importlib import resources
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sacrebleu = pytest.importorskip("sacrebleu")

from compiled_part import compiled_on, require_compiled  # noqa: E402

import bleusuite  # noqa: E402
from bleusuite import text  # noqa: E402
from bleusuite.text import tokenizers  # noqa: E402

SACREBLEU_SMOOTHS = ("none", "floor", "add-k", "exp")
TOLERANCE = 1e-12


def _runnable_tokenizers() -> list[str]:
    names = []
    for name in tokenizers.SACREBLEU_TOKENIZERS:
        if name in tokenizers.SPM_MODELS:  # tests/text/test_spm.py, on a model it trains
            continue
        try:
            tokenizers.load_tokenizer(name)
        except ImportError:  # ja-mecab / ko-mecab without their MeCab packages
            assert name in ("ja-mecab", "ko-mecab"), name
            continue
        names.append(name)
    return names


TOKENIZERS = _runnable_tokenizers()
WORDS = [
    "the", "The", "cat", "CAT", "sat", "on", "mat", "a", "dog's", "don't", "U.S.", "3.14",
    "1,000", "e-mail", "(yes)", "\"quoted\"", "end.", "why?", "wow!", "a,b", "&amp;", "&lt;",
    "東京", "日本語です", "你好。", "世界", "Σίσυφος", "ΣΑ", "İstanbul", "«ёлка»", "naïve",
    "５", "—", "x/y", "$5", "100%", "<skip>", "ok;", "https://a.b/c",
]
SPACES = [" ", " ", " ", "  ", "\t", "\u00a0"]


def _random_text(rng: np.random.Generator, n: int, max_words: int = 14) -> list[str]:
    lines = []
    for _ in range(n):
        count = int(rng.integers(0, max_words))
        words = [WORDS[i] for i in rng.integers(0, len(WORDS), size=count)]
        spaces = [SPACES[i] for i in rng.integers(0, len(SPACES), size=count)]
        lines.append("".join(w + s for w, s in zip(words, spaces, strict=True)).rstrip(" "))
    return lines


def _perturbed(rng: np.random.Generator, lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        words = line.split()
        keep = [w for w in words if rng.random() > 0.2]
        if rng.random() < 0.5:
            keep.append(WORDS[int(rng.integers(0, len(WORDS)))])
        out.append(" ".join(keep))
    return out


@pytest.fixture(scope="module")
def sample() -> tuple[list[str], list[str]]:
    data = resources.files("bleusuite") / "data"
    hyp = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    return hyp, ref


@pytest.fixture(scope="module")
def generated() -> tuple[list[str], list[list[str]]]:
    rng = np.random.default_rng(7)
    base = _random_text(rng, 80)
    return _perturbed(rng, base), [_perturbed(rng, base), _perturbed(rng, base)]


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_corpus_bleu_of_text_equals_sacrebleu(sample, generated, name, lowercase):
    corpora = {
        "sample": (sample[0], [sample[1]]),
        "generated": generated,
        "generated, one ref": (generated[0], generated[1][:1]),
    }
    for label, (hyps, streams) in corpora.items():
        per_hypothesis = [list(refs) for refs in zip(*streams, strict=True)]
        for smooth in SACREBLEU_SMOOTHS:
            expected = sacrebleu.corpus_bleu(hyps, streams, smooth_method=smooth,
                                             tokenize=name, lowercase=lowercase)
            got = bleusuite.corpus_bleu(hyps, per_hypothesis, smooth=smooth, tokenize=name,
                                        lowercase=lowercase)
            assert abs(float(got) - expected.score / 100) <= TOLERANCE, (label, smooth)
            result = bleusuite.corpus_bleu_result(hyps, per_hypothesis, smooth=smooth,
                                                  tokenize=name, lowercase=lowercase)
            assert result.score == expected.score  # sacrebleu's .score, to the bit
            assert result.score / 100 == float(got)
            assert result.format(signature=False) == str(expected), (label, smooth)
            assert list(result.precisions) == expected.precisions
            assert (result.hyp_len, result.ref_len) == (expected.sys_len, expected.ref_len)
            assert abs(result.brevity_penalty - expected.bp) <= TOLERANCE
            # sacrebleu's add-k adds k to its own counts in place (orders >= 2); ours stay raw
            k = np.array([0, 1, 1, 1]) if smooth == "add-k" else 0
            assert result.matches == tuple(np.array(expected.counts) - k), (label, smooth)
            assert result.totals == tuple(np.array(expected.totals) - k), (label, smooth)


@pytest.mark.parametrize("name", TOKENIZERS)
def test_sentence_bleu_of_text_equals_sacrebleu(sample, generated, name):
    hyps = sample[0][:40] + generated[0]
    refs = [[r] for r in sample[1][:40]] + [list(r) for r in zip(*generated[1], strict=True)]
    for smooth in SACREBLEU_SMOOTHS:
        for effective_order in (True, False):
            got = bleusuite.sentence_bleu(hyps, refs, smooth=smooth, tokenize=name,
                                          effective_order=effective_order)
            expected = [
                sacrebleu.sentence_bleu(h, r, smooth_method=smooth, tokenize=name,
                                        use_effective_order=effective_order).score / 100
                for h, r in zip(hyps, refs, strict=True)
            ]
            np.testing.assert_allclose(got, expected, rtol=0, atol=TOLERANCE,
                                       err_msg=f"{smooth} eff={effective_order}")


def test_sacrebleu_sentence_bleu_defaults(generated):
    """sacrebleu.sentence_bleu's defaults (exp, effective order) are ours when asked for."""
    hyps, streams = generated
    got = bleusuite.sentence_bleu(hyps, [[r] for r in streams[0]], tokenize="13a",
                                  smooth="exp", effective_order=True)
    expected = [sacrebleu.sentence_bleu(h, [r]).score / 100
                for h, r in zip(hyps, streams[0], strict=True)]
    np.testing.assert_allclose(got, expected, rtol=0, atol=TOLERANCE)


def test_gleu_of_text_is_gleu_of_sacrebleu_tokens(generated):
    nltk_gleu = pytest.importorskip("nltk.translate.gleu_score")
    from sacrebleu.metrics import BLEU

    hyps, streams = generated
    per_hypothesis = [list(r) for r in zip(*streams, strict=True)]
    metric = BLEU(tokenize="intl", lowercase=True)

    def tokens(line: str) -> list[str]:
        return metric._preprocess_segment(line).split()

    hyp_tokens = [tokens(h) for h in hyps]
    ref_tokens = [[tokens(r) for r in refs] for refs in per_hypothesis]
    got = bleusuite.corpus_gleu(hyps, per_hypothesis, tokenize="intl", lowercase=True)
    assert abs(float(got) - nltk_gleu.corpus_gleu(ref_tokens, hyp_tokens)) <= TOLERANCE
    got = bleusuite.sentence_gleu(hyps, per_hypothesis, tokenize="intl", lowercase=True)
    expected = [nltk_gleu.sentence_gleu(r, h) for r, h in zip(ref_tokens, hyp_tokens, strict=True)]
    np.testing.assert_allclose(got, expected, rtol=0, atol=TOLERANCE)
    result = bleusuite.corpus_gleu_result(hyps, per_hypothesis, tokenize="intl", lowercase=True)
    assert result.score == pytest.approx(100 * float(
        bleusuite.corpus_gleu(hyps, per_hypothesis, tokenize="intl", lowercase=True)), rel=1e-15)
    assert "tok:intl" in result.signature and "case:lc" in result.signature


def test_none_references_are_absent_as_in_sacrebleu():
    hyps = ["a b c d", "e f g h"]
    streams = [["a b c d", "e f g x"], ["a b c e", None]]
    expected = sacrebleu.corpus_bleu(hyps, streams, smooth_method="exp").score / 100
    per_hypothesis = [list(r) for r in zip(*streams, strict=True)]
    got = bleusuite.corpus_bleu(hyps, per_hypothesis, smooth="exp", tokenize="13a")
    assert abs(float(got) - expected) <= TOLERANCE
    assert bleusuite.corpus_bleu_result(hyps, per_hypothesis, tokenize="13a").signature \
        .startswith("nrefs:var|")


def test_empty_strings():
    hyps = ["", "a b c d", "x"]
    refs = [["a b"], [""], ["y"]]
    for smooth in SACREBLEU_SMOOTHS:
        got = bleusuite.sentence_bleu(hyps, refs, smooth=smooth, tokenize="13a",
                                      effective_order=True)
        expected = [sacrebleu.sentence_bleu(h, r, smooth_method=smooth).score / 100
                    for h, r in zip(hyps, refs, strict=True)]
        np.testing.assert_allclose(got, expected, rtol=0, atol=TOLERANCE)
        got = bleusuite.corpus_bleu(hyps, refs, smooth=smooth, tokenize="13a")
        streams = [[r[0] for r in refs]]
        expected_corpus = sacrebleu.corpus_bleu(hyps, streams, smooth_method=smooth).score / 100
        assert abs(float(got) - expected_corpus) <= TOLERANCE


def test_result_to_dict_is_json_and_matches_the_array_path():
    hyp = np.array([[1, 2, 3, 4, 5, 0], [1, 2, 3, 0, 0, 0]])
    ref = np.array([[[1, 2, 3, 4, 6, 0], [0, 0, 0, 0, 0, 0]],
                    [[1, 2, 3, 4, 0, 0], [1, 2, 0, 0, 0, 0]]])
    for smooth in ("no_smooth", "method1", "method4", "smooth2", "exp", "floor"):
        result = bleusuite.corpus_bleu_result(hyp, ref, pad_id=0, smooth=smooth)
        score = float(bleusuite.corpus_bleu(hyp, ref, pad_id=0, smooth=smooth))
        assert result.score == pytest.approx(100 * score, rel=1e-15, abs=0)
        dumped = json.loads(json.dumps(result.to_dict()))
        assert dumped["score"] == result.score and dumped["smooth"] == smooth
        assert result.signature.startswith("nrefs:var|case:mixed|eff:no|tok:given|")
    gleu = bleusuite.corpus_gleu_result(hyp, ref, pad_id=0)
    assert gleu.score == pytest.approx(100 * float(bleusuite.corpus_gleu(hyp, ref, pad_id=0)),
                                       rel=1e-15)
    assert json.loads(json.dumps(gleu.to_dict()))["score"] == gleu.score
    stats = bleusuite.bleu_statistics(hyp, ref, pad_id=0)
    from_stats = bleusuite.BleuResult.from_stats(stats, smooth="method1")
    assert from_stats.score == bleusuite.corpus_bleu_result(hyp, ref, pad_id=0,
                                                            smooth="method1").score
    assert float(from_stats) == from_stats.score  # the printed number, 0-100


def test_result_of_torch_inputs_is_plain_python():
    torch = pytest.importorskip("torch")
    result = bleusuite.corpus_bleu_result([torch.tensor([1, 2, 3])], [torch.tensor([1, 2, 3])],
                                          max_order=2, weights=(0.25, 0.75))
    assert result.score == 100.0 and type(result.hyp_len) is int
    assert "|w:0.25/0.75|" in result.signature
    json.dumps(result.to_dict())


def test_text_errors_are_clear():
    with pytest.raises(TypeError, match=r"hypotheses\[0\] must be a sequence of tokens, not a "
                       r"string.*tokenize='13a'"):
        bleusuite.sentence_bleu(["the cat"], [["the cat"]])
    with pytest.raises(ValueError, match="lowercase=True applies to text: give tokenize="):
        bleusuite.corpus_bleu([["a"]], [[["a"]]], lowercase=True)
    with pytest.raises(ValueError, match="pad_id and eos_id apply to token ids"):
        bleusuite.sentence_gleu(["a"], ["a"], tokenize="13a", pad_id=0)
    with pytest.raises(ValueError, match="unknown tokenizer 'moses'"):
        bleusuite.sentence_bleu(["a"], ["a"], tokenize="moses")
    with pytest.raises(ValueError, match=r"1 hypotheses and 2 entries.*zip\(\*streams\)"):
        bleusuite.corpus_bleu(["a"], [["a"], ["b"]], tokenize="13a")
    with pytest.raises(TypeError, match=r"hypotheses must be a list of strings.*wrap"):
        bleusuite.sentence_bleu("a b", ["a b"], tokenize="13a")
    with pytest.raises(TypeError, match=r"hypotheses\[0\] must be a string when tokenize"):
        bleusuite.sentence_bleu([["a", "b"]], [["a b"]], tokenize="13a")
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be a string"):
        bleusuite.sentence_bleu(["a"], [["a", 3]], tokenize="13a")
    with pytest.raises(TypeError, match="lowercase must be a bool"):
        bleusuite.sentence_bleu(["a"], ["a"], tokenize="13a", lowercase="yes")


# --------------------------------------------------- encoding: every word, one dictionary


HOSTILE = [
    "a", "B", "ΣΑΣ", "Σ", "σ.", "İ", "ß", "x.", ".y", "5.", ".5", "1,000", "3-4", "-", "--",
    "5-", "-5", "a-", "&amp;", "&quot;x&quot;", "&lt;", "&gt;", "&amp;quot;", "&", "<skipped>",
    "a<skipped>b", "&<skipped>amp;", "(", ")", "$", "%", "!", "?", ",", ".", ":", "'", "`",
    "{x}", "[y]", "~", "|", "\\\\", "/", "東京", "你好。", "«ёлка»", "—", "５", "™", "\u200b",
    "e\u0301",
]
BLANKS = [" ", "  ", "\t", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "\r", "\x0b", "\x0c"]


@st.composite
def _hostile_lines(draw: st.DrawFn) -> list[str]:
    pieces = st.one_of(st.sampled_from(HOSTILE), st.sampled_from(BLANKS),
                       st.text(min_size=1, max_size=3))
    lines = draw(st.lists(st.lists(pieces, max_size=12).map("".join), min_size=1, max_size=8))
    if draw(st.booleans()):  # a line ending in punctuation, a digit or a dash
        lines.append(draw(st.sampled_from(["end.", "1.", "x-", "3,", "a .", "&amp;"])))
    return lines


@functools.cache
def _sacrebleu_metric(name: str, lowercase: bool) -> Any:
    from sacrebleu.metrics import BLEU

    return BLEU(tokenize=name, lowercase=lowercase)


def _sacrebleu_tokens(name: str, line: str, lowercase: bool) -> list[str]:
    """sacrebleu's own preprocessing of a hypothesis line (lowercase, rstrip, tokenize)."""
    return str(_sacrebleu_metric(name, lowercase)._preprocess_segment(line)).split()


#: the two ways words are numbered: the compiled part (bleusuite._native) and plain Python
NUMBERINGS = ["compiled", "python"]


@contextlib.contextmanager
def _numbering(kind: str) -> Any:
    """Number words the ``kind`` way (``BLEUSUITE_NATIVE``). Without the compiled part,
    ``compiled`` is skipped, unless ``BLEUSUITE_NATIVE=1`` (tox) says it must be built."""
    if kind == "compiled":
        require_compiled()
    with compiled_on(kind == "compiled"):
        yield


def _check_tokens(streams: list[list[str]], name: str, lowercase: bool,
                  numbering: str = "compiled") -> None:
    with _numbering(numbering):
        ids = text.encode_texts(streams, tokenizers.load_tokenizer(name), lowercase)
    for s, lines in enumerate(streams):
        got = [ids.tokens(s, i) for i in range(len(lines))]
        assert got == [_sacrebleu_tokens(name, line, lowercase) for line in lines], name
    assert len(set(ids.vocabulary)) == len(ids.vocabulary)
    first_seen = dict.fromkeys(ids.vocabulary[i] for i in ids.ids.tolist())
    assert list(first_seen) == ids.vocabulary  # ids in the order tokens first occur


@pytest.mark.parametrize("numbering", NUMBERINGS)
@pytest.mark.parametrize("name", ["13a", "none", "char", "intl", "zh"])
@settings(max_examples=60, deadline=None)
@given(lines=_hostile_lines(), other=_hostile_lines(), lowercase=st.booleans())
def test_tokens_are_sacrebleus_on_hostile_lines(name, numbering, lines, other, lowercase):
    """Each line's tokens are sacrebleu's ``tokenize(line.lower().rstrip()).split()``:
    punctuation at line ends, digits, dashes, entities, ``<skipped>``, empty lines, odd
    Unicode whitespace, final sigma; two streams share one vocabulary. Words numbered by
    the compiled part and by plain Python."""
    width = max(len(lines), len(other))
    streams = [lines + [""] * (width - len(lines)), other + ["x"] * (width - len(other))]
    _check_tokens(streams, name, lowercase, numbering)


@pytest.mark.parametrize("numbering", NUMBERINGS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_lines_holding_a_line_end_are_tokenised_on_their_own(lowercase, numbering):
    """Text given to the functions may hold ``\\n`` (13a joins the words around it,
    ``-\\n``): such a line is tokenised whole, as one unit, by both numberings."""
    lines = ["a-\nb c", "Σ\nΣ.", "", "x &amp;\ny"]
    for name in ("13a", "none", "char"):
        _check_tokens([lines], name, lowercase, numbering)


@pytest.mark.parametrize("numbering", NUMBERINGS)
@pytest.mark.parametrize("name", ["13a", "none", "char", "intl", "zh"])
def test_tokens_are_sacrebleus_on_the_sample(sample, name, numbering, monkeypatch):
    monkeypatch.setattr(text.encoder, "ENCODE_CHUNK_LINES", 33)  # several chunks, one vocabulary
    for lowercase in (False, True):
        _check_tokens([sample[0], sample[1]], name, lowercase, numbering)


@pytest.mark.parametrize("name", ["13a", "none", "char"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_both_numberings_give_the_same_ids(sample, generated, name, lowercase):
    """The compiled part and plain Python number every unit and token alike: the whole
    ``TokenIds`` is the same (ids, offsets, lengths, vocabulary)."""
    streams = [sample[0], sample[1], generated[0][: len(sample[0])]]
    streams[2] += [""] * (len(sample[0]) - len(streams[2]))
    results = []
    for numbering in NUMBERINGS:
        with _numbering(numbering):
            results.append(text.encode_texts(streams, tokenizers.load_tokenizer(name), lowercase))
    compiled, python = results
    for field in ("ids", "starts", "lengths"):
        np.testing.assert_array_equal(getattr(compiled, field), getattr(python, field))
    assert compiled.vocabulary == python.vocabulary


def test_the_compiled_numbering_splits_at_pythons_whitespace():
    """The compiled ``Numbering`` splits where ``str.split()`` does, for every code point but
    the surrogates (its list of whitespace above Latin-1 is written out in C)."""
    from compiled_part import require_compiled

    native = require_compiled()
    points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    lines = [f"a{chr(c)}b" for c in points]
    _, counts = native.Numbering().number(lines)
    words = np.frombuffer(counts, dtype=np.int64)
    assert [c for c, n in zip(points, words.tolist(), strict=True) if n == 2] == \
        [c for c in points if chr(c).isspace()]
