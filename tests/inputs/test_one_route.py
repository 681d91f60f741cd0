"""One way in (issue 36): every input form reaches the counting kernel by
:mod:`bleusuite.inputs` alone, the compiled ``gather`` and its general path give the same
rows, and the settings of a call are checked once and kept."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import bleusuite
from bleusuite import native
from bleusuite.inputs import normalize_batch, text_batch
from bleusuite.inputs.lists import python_gather
from bleusuite.scores.bleu.settings import BleuSettings

PACKAGE = Path(bleusuite.__file__).resolve().parent
#: the layers that may lay rows out for the kernel: the inputs, and the counting itself
ROW_LAYERS = ("inputs", "counting")


def test_no_front_end_lays_out_rows_itself():
    """``RaggedPairs`` (the kernel's form) is made only in ``bleusuite/inputs`` and
    ``bleusuite/counting``: every front end takes :func:`bleusuite.inputs.scoring_batch`,
    ``text_batch``, ``normalize_batch``, ``streams_batch`` or ``rows_batch``."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] in ROW_LAYERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            called = (function.id if isinstance(function, ast.Name) else
                      ast.unparse(function.value) if isinstance(function, ast.Attribute)
                      else "")
            if called == "RaggedPairs" or called.endswith(".RaggedPairs"):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not offenders, f"rows laid out outside bleusuite/inputs: {offenders}"


def _rows(batch) -> tuple[list[list[int]], list[list[list[int] | None]]]:
    """A batch's sentences as lists (absent references as None)."""
    padded = batch.padded()
    hyps = [row[:n].tolist() for row, n in zip(padded.hyp, padded.hyp_len, strict=True)]
    refs = [[r[:n].tolist() if present else None
             for r, n, present in zip(rows, lengths, here, strict=True)]
            for rows, lengths, here in zip(padded.refs, padded.ref_len, padded.ref_present,
                                           strict=True)]
    return hyps, refs


def _cases(rng: np.random.Generator, rows: int):
    hyps = [rng.integers(1, 6, rng.integers(0, 9)).tolist() for _ in range(rows)]
    refs = [[rng.integers(1, 6, rng.integers(1, 9)).tolist() for _ in range(rng.integers(1, 4))]
            for _ in range(rows)]
    return hyps, refs


@pytest.mark.parametrize("seed", range(6))
def test_every_form_gives_the_same_rows(seed):
    """Token lists (the compiled gather, and its general path on tuples of NumPy ints),
    ragged arrays, padded arrays and a mixed call: the same sentences, the same scores."""
    rng = np.random.default_rng(seed)
    hyps, refs = _cases(rng, 7)
    pad, eos = (0, None) if seed % 2 else (0, 4)
    # padding and eos inside the lists, as arrays would hold them
    with_pad = [[0, *h, 0] for h in hyps]
    want = normalize_batch(with_pad, [[[0, *r] for r in rs] for rs in refs], pad_id=pad,
                           eos_id=eos)
    forms = {
        "general path": ([tuple(np.int64(t) for t in h) for h in with_pad],
                         [[tuple(np.int64(t) for t in [0, *r]) for r in rs] for rs in refs]),
        "ragged arrays": ([np.array(h) for h in with_pad],
                          [[np.array([0, *r]) for r in rs] for rs in refs]),
    }
    width = max(map(len, with_pad))
    padded = np.zeros((len(hyps), width), dtype=np.int64)
    for row, h in zip(padded, with_pad, strict=True):
        row[: len(h)] = h
    forms["mixed"] = (padded, [[[0, *r] for r in rs] for rs in refs])
    for name, (h, r) in forms.items():
        batch = normalize_batch(h, r, pad_id=pad, eos_id=eos)
        assert _rows(batch) == _rows(want), name
        np.testing.assert_array_equal(
            bleusuite.sentence_bleu(h, r, pad_id=pad, eos_id=eos, smooth="method1"),
            bleusuite.sentence_bleu(with_pad, [[[0, *x] for x in rs] for rs in refs],
                                    pad_id=pad, eos_id=eos, smooth="method1"), err_msg=name)


@pytest.mark.skipif(not native.compiled(), reason="compares the compiled gather")
@pytest.mark.parametrize("seed", range(20))
def test_gather_is_python_gather(seed):
    """The compiled ``gather`` and its Python copy (installs without a compiler): the same
    ids, layout, references present and first row without reference."""
    rng = np.random.default_rng(seed)
    hyps, refs = _cases(rng, int(rng.integers(0, 9)))
    refs = [[r if rng.random() > 0.2 else [0] * int(rng.integers(1, 3)) for r in rs]
            for rs in refs]  # references of nothing but padding are absent
    pad = [None, 0, 3][seed % 3]
    eos = [None, 2, 0][seed % 3 - 1]
    compiled = native.module()
    ours = compiled.gather(hyps, refs, None, False, pad, eos, None, False)
    theirs = python_gather(hyps, refs, pad, eos)
    assert ours[0] == theirs[0] and bytes(ours[1]) == bytes(theirs[1])
    assert bytes(ours[2]) == bytes(theirs[2]) and ours[3:] == theirs[3:]


def test_text_general_path_equals_the_compiled_route():
    """Rows of other sequence types take the general path (the checks, then the lists
    rebuilt): the same batch."""
    hyps = ["The cat sat.", "A dog ran home!"]
    refs = [("The cat sat on the mat.", None), ["a dog ran"]]
    fast = text_batch(hyps, [list(r) for r in refs], tokenize="13a")[0]
    general = text_batch(tuple(hyps), refs, tokenize="13a")[0]
    assert _rows(fast) == _rows(general)


def test_settings_are_checked_once_and_kept():
    settings = BleuSettings.of(smooth="method1", weights=[0.5, 0.5])
    assert BleuSettings.of(smooth="method1", weights=(0.5, 0.5)) is settings
    assert settings.max_order == 2 and settings.weights == (0.5, 0.5)
    BleuSettings.of(tokenize="13a", lowercase=True)
    with pytest.raises(TypeError, match="lowercase must be a bool"):  # 1 == True, not kept
        BleuSettings.of(tokenize="13a", lowercase=1)
    with pytest.raises(TypeError, match="weights"):
        BleuSettings.of(weights=[True, False])
    with pytest.raises(ValueError, match="effective_order=True is sacrebleu's option"):
        BleuSettings.of(smooth="method1", effective_order=True)


def test_text_takes_sacrebleus_smoothing_by_default():
    """Item 9 of issue 35: text with the default smoothing gives sacrebleu's numbers
    (sentence: ``sacrebleu.sentence_bleu``, corpus: ``sacrebleu.corpus_bleu``)."""
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = ["The cat sat."], [["The cat sat!"]]
    assert bleusuite.sentence_bleu(hyps, refs, tokenize="13a")[0] == pytest.approx(
        sacrebleu.sentence_bleu(hyps[0], refs[0]).score / 100, abs=1e-12)
    assert float(bleusuite.corpus_bleu(hyps, refs, tokenize="13a")) == pytest.approx(
        sacrebleu.corpus_bleu(hyps, [[r[0] for r in refs]]).score / 100, abs=1e-12)
    # token ids keep ignite's no_smooth
    assert bleusuite.sentence_bleu([[1, 2, 3]], [[[1, 2, 4]]])[0] == 0.0


@pytest.mark.parametrize("form", ["token lists", "text"])
def test_a_corpus_in_blocks_gives_the_whole_corpus_score(form, monkeypatch):
    """A corpus score of many rows of lists or text is counted block by block (memory for
    one block's ids, not the corpus's): the same numbers as in one block, the same nrefs,
    and a fault named at the caller's row."""
    from bleusuite.inputs import normalize

    rng = np.random.default_rng(11)
    hyps, refs = _cases(rng, 40)
    if form == "text":
        hyps = [" ".join(f"w{t}" for t in h) for h in hyps]
        refs = [[" ".join(f"w{t}" for t in r) for r in rs] for rs in refs]
    options = {"tokenize": "13a"} if form == "text" else {}
    whole = (bleusuite.corpus_bleu(hyps, refs, **options),
             bleusuite.corpus_gleu(hyps, refs, **options),
             bleusuite.corpus_bleu_result(hyps, refs, **options).signature,
             bleusuite.corpus_gleu_result(hyps, refs, **options).score)
    monkeypatch.setattr(normalize, "CORPUS_BLOCK_ROWS", 7)
    blocks = (bleusuite.corpus_bleu(hyps, refs, **options),
              bleusuite.corpus_gleu(hyps, refs, **options),
              bleusuite.corpus_bleu_result(hyps, refs, **options).signature,
              bleusuite.corpus_gleu_result(hyps, refs, **options).score)
    assert blocks == whole
    refs[23] = []
    with pytest.raises(ValueError, match="hypothesis 23 has no reference"):
        bleusuite.corpus_bleu(hyps, refs, **options)
