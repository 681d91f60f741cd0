"""bleusuite's PTB tokenizer against the Stanford tokenizer's output, as pycocoevalcap 1.2
runs it: recorded (tests/captioning/data/ptb_tokens.json, tools/record_ptb_tokens.py), and
live where ``java`` is on the PATH."""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

import pytest

from bleusuite.text.ptb import PUNCTUATIONS, tokenize_captions

DATA = Path(__file__).parent / "data" / "ptb_tokens.json"
RECORDS = json.loads(DATA.read_text(encoding="utf-8"))["records"]


def test_corpus_is_broad():
    held_out = [r for r in RECORDS if r["split"] == "held_out"]
    assert len(held_out) >= 300
    assert sum(not r["line"].isascii() for r in held_out) >= 30
    assert any("-lrb-" in r["tokens"] for r in held_out)
    assert any("n't" in r["tokens"].split() for r in held_out)


@pytest.mark.parametrize("split", ["held_out", "develop"])
def test_equals_recorded_java_output(split):
    # The whole corpus in one call, as it was recorded (the lexer looks across line ends:
    # "I." before a line that starts with "He" is "I" and "."); the held-out lines were
    # not looked at while the tokenizer was written.
    got = tokenize_captions([r["line"] for r in RECORDS])
    assert [(r["line"], g, r["tokens"]) for g, r in zip(got, RECORDS, strict=True)
            if r["split"] == split and g != r["tokens"]] == []


def test_each_line_alone_where_no_line_follows():
    # ... and one by one: a line's tokens may depend on the next line ("I." before "He"),
    # so only lines whose recorded output does not depend on it are compared.
    for record in RECORDS[:200]:
        alone = tokenize_captions([record["line"], ""])[0]
        if alone != record["tokens"]:
            assert record["line"].rstrip().endswith(".")


def test_punctuation_list_is_pycocoevalcaps():
    ptbtokenizer = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer")
    assert frozenset(ptbtokenizer.PUNCTUATIONS) == PUNCTUATIONS


def test_newlines_and_empty_captions():
    assert tokenize_captions(["a\nb", "", "...", "  x  "]) == ["a b", "", "", "x"]
    assert tokenize_captions([]) == []


@pytest.mark.parametrize("bad", ["a caption", [1, 2], None])
def test_bad_input(bad):
    with pytest.raises(TypeError, match="captions"):
        tokenize_captions(bad)


@pytest.mark.skipif(shutil.which("java") is None, reason="no java on PATH: the recorded "
                    "output (test_equals_recorded_java_output) stands in for the live run")
def test_live_java_on_fresh_lines():
    ptbtokenizer = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer")
    sys.path.insert(0, str(Path(__file__).parents[2] / "tools"))
    try:
        import record_ptb_tokens as recorder
    finally:
        sys.path.pop(0)
    rng = random.Random(4545)
    lines = [recorder.noise(rng) for _ in range(200)] + [recorder.caption(rng) for _ in range(100)]
    java = ptbtokenizer.PTBTokenizer().tokenize({i: [{"caption": line}]
                                                 for i, line in enumerate(lines)})
    got = tokenize_captions(lines)
    assert [(line, g, java[i][0]) for i, (line, g) in enumerate(zip(lines, got, strict=True))
            if g != java[i][0]] == []


def test_plain_lines_equal_the_lexer():
    # the fast path's whole-text space handling against the lexer on spacing and
    # punctuation that plain lines may hold
    from bleusuite.text.ptb_lexer import lex

    lines = ["a , b", "a  b .", " . a", "a .  ", "  ", ", , ,", "x ! y ? z", "one two, three",
             "end.", "a\tb", "a ,b"]
    text = "\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    want = [" ".join(t for t in lex(text, starts[i], starts[i + 1] - 1) if t not in PUNCTUATIONS)
            for i in range(len(lines))]
    assert tokenize_captions(lines) == want


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_equals_the_lexer_on_generated_ascii(seed):
    # the whole-text tests that pick the lines to lex (abbreviations before a period,
    # cannot & co. anywhere, the last line's last word included, digits, punctuation inside
    # a word, other characters) against lexing every line
    from bleusuite.text.ptb_lexer import lex

    rng = random.Random(seed)
    pieces = ["a", "man", "Ga.", "fla.", "mr.", "u.s.", "x.", "cannot", "gonna", "wanna",
              "Lemme", "gimme", "gotta", "sitting", "tennis", "3", "4.5", "12", ",", ".", "!",
              "?", "a,b", "end.", "(", "'s", "don't", "st.", "etc.", "e.g.", "no.", "  ", "-"]
    lines = [" ".join(rng.choice(pieces) for _ in range(rng.randint(0, 9))) for _ in range(300)]
    lines[-1] = lines[-1] + " gonna"
    text = "\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    want = [" ".join(t for t in lex(text, starts[i], starts[i + 1] - 1) if t not in PUNCTUATIONS)
            for i in range(len(lines))]
    assert tokenize_captions(lines) == want


def test_an_assimilation_that_ends_the_text():
    assert tokenize_captions(["a man", "he is gonna"]) == ["a man", "he is gon na"]
    assert tokenize_captions(["gimme"]) == ["gim me"]
