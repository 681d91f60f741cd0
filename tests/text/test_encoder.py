"""The one text encoder (:mod:`bleusuite.text.encoder`): every route from text to ids gives
each line the tokens of the tokenizer applied to the whole line, for every tokenizer, with
and without lowercasing, numbered by the compiled part and by Python; ids per row and
global ids agree within each row; and the encoder's decisions, kept per tokenizer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from compiled_part import compiled_on, require_compiled

from bleusuite.inputs import text_batch
from bleusuite.text import Encoder, TextEncoder, Tokenizer, load_tokenizer
from bleusuite.text.encoder import number_sides, number_token_lists
from bleusuite.text.tercom import TercomTokenizer, tercom_encoders
from bleusuite.text.tokenizers import (
    CHRF_CHARACTERS,
    CHRF_CHARACTERS_WHITESPACE,
    CHRF_WORDS,
    ROUGE_STEMMED,
    Tokenizer13a,
)

#: lines where the tokenizers act: punctuation, entities, digits, line ends (13a joins
#: ``-\\n``), tabs and odd whitespace, cased letters whose lowercase is longer, empty lines
HYPS = ["The cat sat.", "It's John's car, isn't it?", "a-\nb c &quot;x&quot;", "",
        "Ünïcode ÉCOLE 3.50 - 4", "ΣΑΣ\tας  \u00a0 end ", "İstanbul (U.S.) don't!",
        "x &amp;\ny", "  lead and trail  ", "x"]
REFS = ["the Cat sat on the mat.", "It's  John's car.", "a b c \"x\"", "nothing here",
        "unicode école 3.5", "σας ας end", "istanbul U.S. dont", "x & y", "lead", ""]

#: the tokenizers every route is held to (intl and zh: sacrebleu's, by line)
NAMES = ["13a", "none", "char", "intl", "zh", "rouge"]
OBJECTS = {"chrf-char": CHRF_CHARACTERS, "chrf-char-space": CHRF_CHARACTERS_WHITESPACE,
           "chrf-word": CHRF_WORDS, "rouge-porter": ROUGE_STEMMED}


def _tokenizer(name: str) -> Tokenizer:
    if name in OBJECTS:
        return OBJECTS[name]
    if name in ("intl", "zh"):
        pytest.importorskip("sacrebleu")
    return load_tokenizer(name)


def _expected(tokenizer: Tokenizer, lowercase: bool, line: str) -> list[str]:
    """The tokenizer on the whole line (sacrebleu's ``tokenize(line.lower().rstrip())``)."""
    if lowercase:
        line = line.lower()
    if tokenizer.rstrip:
        line = line.rstrip()
    return tokenizer.tokenize(line).split()


def _rows_tokens(batch: Any, tokens: list[str]) -> list[list[str]]:
    pairs = batch.pairs
    out = []
    for b in range(pairs.rows):
        start, length = int(pairs.hyp_starts[b]), int(pairs.hyp_lengths[b])
        out.append([tokens[i] for i in pairs.hyp_ids[start : start + length].tolist()])
    for b in range(pairs.rows):
        start, length = int(pairs.ref_starts[b, 0]), int(pairs.ref_lengths[b, 0])
        out.append([tokens[i] for i in pairs.ref_ids[start : start + length].tolist()])
    return out


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES + list(OBJECTS))
def test_every_route_gives_the_tokens_of_the_whole_line(name, lowercase, compiled):
    """The library's text (gathered in C, or its general path), the command's and Ray's
    streams and a one-call numbering: each line's tokens are the tokenizer's on the whole
    line."""
    if compiled:
        require_compiled()
    tokenizer = _tokenizer(name)
    expected = [_expected(tokenizer, lowercase, line) for line in HYPS + REFS]
    with compiled_on(compiled):
        batch, tokens = text_batch(HYPS, REFS, tokenize=tokenizer, lowercase=lowercase,
                                   global_ids=True, require_references=False)
        streams = Encoder(tokenizer, lowercase).encode([HYPS, REFS])
        numbered = TextEncoder.of(tokenizer, lowercase).number(HYPS + REFS)
    assert _rows_tokens(batch, tokens) == expected
    assert [streams.tokens(s, i) for s in (0, 1) for i in range(len(HYPS))] == expected
    bounds = np.cumsum(numbered.lengths) - numbered.lengths
    vocabulary = numbered.vocabulary
    assert [[vocabulary[i] for i in numbered.ids[a : a + n].tolist()]
            for a, n in zip(bounds.tolist(), numbered.lengths.tolist(), strict=True)] == expected


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", ["13a", "none", "char", "rouge"])
def test_ids_per_row_agree_with_global_ids_within_each_row(name, lowercase):
    """Where the encoder numbers row by row, a row's ids are its global ids renamed: equal
    tokens of a hypothesis and its reference get equal ids either way."""
    require_compiled()
    assert TextEncoder.of(name, lowercase).per_row_ids
    per_row, _ = text_batch(HYPS, REFS, tokenize=name, lowercase=lowercase,
                            require_references=False)
    whole, _ = text_batch(HYPS, REFS, tokenize=name, lowercase=lowercase, global_ids=True,
                          require_references=False)
    for b in range(len(HYPS)):
        rows = []
        for batch in (per_row, whole):
            pairs = batch.pairs
            hs, hn = int(pairs.hyp_starts[b]), int(pairs.hyp_lengths[b])
            rs, rn = int(pairs.ref_starts[b, 0]), int(pairs.ref_lengths[b, 0])
            rows.append(pairs.hyp_ids[hs : hs + hn].tolist() + pairs.ref_ids[rs : rs + rn].tolist())
        renamed = dict(zip(rows[0], rows[1], strict=True))
        assert [renamed[i] for i in rows[0]] == rows[1]
        assert len(set(renamed.values())) == len(renamed)


def test_the_decisions():
    """What the encoder decides from what a tokenizer says of itself."""
    bleu = TextEncoder.of("13a")
    assert (bleu.rules, bleu.word_local, bleu.per_row_ids, bleu.line_transform) == (
        "13a", True, True, None)
    assert TextEncoder.of("13a", lowercase=True).line_transform is str.lower
    words = TextEncoder.of("none", lowercase=True)
    assert (words.rules, words.word_local, words.per_row_ids) == (None, False, True)
    pytest.importorskip("sacrebleu")
    intl = TextEncoder.of("intl", lowercase=True)
    assert not intl.word_local and intl.line_transform is not None
    assert intl.line_transform("A , B ") == load_tokenizer("intl").tokenize("a , b")
    # a custom tokenizer around the rules written in C gets them; one in Python is called
    # per distinct word, numbered once for the call
    custom = Tokenizer("mine", Tokenizer13a(), "13a", word_local=True)
    assert TextEncoder.of(custom).rules == "13a"
    python = Tokenizer("upper", str.upper, "upper", word_local=True)
    assert TextEncoder.of(python).rules is None and not TextEncoder.of(python).per_row_ids


def test_an_unknown_tokenizer_is_named():
    for bad in (5, None, ["13a"], "13A"):
        with pytest.raises(ValueError, match="unknown tokenizer"):
            TextEncoder.of(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown tokenizer"):
        text_batch(["a"], ["a"], tokenize=7)  # type: ignore[arg-type]


def test_encoders_are_kept_per_tokenizer():
    """A repeated call finds its encoder (by name, or by the tokenizer object itself)."""
    assert TextEncoder.of("13a") is TextEncoder.of("13a")
    assert TextEncoder.of("13a") is not TextEncoder.of("13a", lowercase=True)
    assert TextEncoder.of(CHRF_WORDS) is TextEncoder.of(CHRF_WORDS)
    twin = Tokenizer(**{**CHRF_WORDS.__dict__})
    assert TextEncoder.of(twin) is not TextEncoder.of(CHRF_WORDS)
    assert TextEncoder.of(twin).tokenizer is twin
    assert TextEncoder.of("13a", np.True_) is TextEncoder.of("13a", True)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_newline_is_a_space_to_rouge(compiled):
    """rouge-score's tokenizer separates at a newline: the words of a text of several lines
    are its tokens, as the whole text tokenised."""
    if compiled:
        require_compiled()
    texts = ["The cats\nsat. Dogs!\n\nran", "cats-\nsat"]
    for tokenizer in (load_tokenizer("rouge"), ROUGE_STEMMED):
        with compiled_on(compiled):
            numbered = TextEncoder.of(tokenizer).number(texts)
        vocabulary = numbered.vocabulary
        got = [vocabulary[i] for i in numbered.ids.tolist()]
        assert got == [t for text in texts for t in tokenizer.tokenize(text).split()]


@pytest.mark.parametrize("compiled", [True, False])
def test_tercom_sides_share_one_vocabulary(compiled):
    """TER's references are tokenised twice, its hypotheses once, in one vocabulary; a line
    where ``'s`` meets a tab is tokenised whole."""
    if compiled:
        require_compiled()
    hyps, refs = ["John's.\tcar It's", "a b"], ["John's. car", "It's\tB"]
    first, second = tercom_encoders(True)
    assert first is not second and tercom_encoders()[0] is tercom_encoders()[1]
    with compiled_on(compiled):
        ids, lengths = number_sides(first, hyps, second, refs)
    tokenize = TercomTokenizer(normalized=True)
    expected = ([tokenize(h.rstrip()).split() for h in hyps]
                + [tokenize(tokenize(r.rstrip())).split() for r in refs])
    assert lengths.tolist() == [len(t) for t in expected]
    names: dict[str, int] = {}
    assert ids.tolist() == [names.setdefault(t, len(names)) for ts in expected for t in ts]


def test_a_callers_tokens_are_numbered_as_they_compare():
    ids, lengths, vocabulary = number_token_lists([("a", 1), [], [1, ("a",), "a"]])
    assert ids.tolist() == [0, 1, 1, 2, 0] and lengths.tolist() == [2, 0, 3]
    assert vocabulary == ["a", 1, ("a",)]
