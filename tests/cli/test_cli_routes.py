"""``bleusuite score`` against the real ``sacrebleu`` command over a matrix of flags.

The command has one route (read, tokenise and number chunk by chunk, count, score with
sacrebleu's own arithmetic, render); this file runs it on the combinations of flags that
exercise every part of that route, next to ``python -m sacrebleu`` on the same files, and
compares the printed text byte for byte. Only what bleusuite documents as its own differs
(docs/cli.md): the version in the signatures (``version:2.6.0`` / ``v:2.6.0`` against
``bleusuite-0.1.0``) and the two JSON keys that ``-ci`` adds (``confidence_low`` and
``confidence_high``), which are taken out before comparing: ``-ci``'s text line is
sacrebleu's, byte for byte.

* The matrix: a small input (the WMT sample in ``bleusuite/data``, 1 reference) and a
  generated one (1,000 lines, 2 references, ``tests/workloads.py``); one system
  and three (``-i A B C``), ``-ci -cin 50``, ``--paired-bs -pbsn 50``, ``--paired-ar -parn
  50``, sentence level ``-sl``; each with the tokenizers ``13a``, ``intl``, ``char`` and
  ``none``, with and without ``-lc``, ``-f text`` and ``-f json``, every ``-w`` from 1 to
  16, with and without ``-m bleu``, the compiled part on and off (``BLEUSUITE_NATIVE``).
* ``-m bleu gleu`` prints sacrebleu's BLEU (sacrebleu has no GLEU: its ``-m bleu`` output
  is compared with the BLEU part of ours).
* In this process: the per-sentence statistics of the chunked route are sacrebleu's own
  (``BLEU._extract_corpus_statistics``), and the compiled part and plain Python count
  alike, chunk by chunk or all at once.

``tests/cli/test_cli_sacrebleu.py`` has the rest of the flags against the same command
(``-nr``, ``-e``, ``-f latex``, ``SACREBLEU_FORMAT``, ``SACREBLEU_SEED``, standard input,
exit statuses, every digit of several smoothing methods).
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sacrebleu")

from compiled_part import require_compiled
from test_cli_sacrebleu import VERSION, both
from workloads import make_corpus, write_corpus

from bleusuite.cli import statistics
from bleusuite.cli.io import Progress, progress_bar
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.parser import build_parser
from bleusuite.text import encode_texts
from bleusuite.text.tokenizers import load_tokenizer

DATA = resources.files("bleusuite") / "data"
CHUNK_BOUNDS = statistics.chunk_bounds
TOKENIZERS = ["13a", "intl", "char", "none"]
MODES = {  # the flags of each mode, and whether it scores the three systems
    "one system": ([], False),
    "three systems": ([], True),
    "confidence": (["-ci", "-cin", "50"], False),
    "paired bootstrap": (["--paired-bs", "-pbsn", "50"], True),
    "paired randomization": (["--paired-ar", "-parn", "50"], True),
    "sentence level": (["-sl"], False),
}
CORPORA = ["sample", "generated"]
GENERATED_LINES = 1000
#: what ``-ci`` adds to sacrebleu's output: the interval's ends, in JSON only
INTERVAL_JSON = re.compile(r'^ "confidence_(low|high)": -?[0-9.]+,\n', re.MULTILINE)


def _edited(lines: list[str], every: int) -> list[str]:
    """A system made from another: one word in ``every`` of each line dropped."""
    return [" ".join(w for k, w in enumerate(line.split()) if k % every != 1)
            for line in lines]


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each corpus's reference files and its three systems (A, B, C)."""
    out: dict[str, dict[str, Any]] = {}
    sample = tmp_path_factory.mktemp("sample")
    hyp = (DATA / "sample-hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    systems = []
    for name, lines in (("A", hyp), ("B", _edited(hyp, 3)), ("C", _edited(hyp, 5))):
        path = sample / f"{name}.txt"
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        systems.append(str(path))
    out["sample"] = {"refs": [str(DATA / "sample-ref.txt")], "systems": systems}
    # four streams that perturb the same sentences: two references, two more systems
    hyp, streams = make_corpus(GENERATED_LINES, 4, seed=11)
    hyp_path, paths = write_corpus(tmp_path_factory.mktemp("generated"), hyp, streams)
    out["generated"] = {"refs": paths[:2], "systems": [hyp_path, *paths[2:]]}
    return out


def _sacrebleus_part(text: str, confidence: bool) -> str:
    """``text`` with the version taken out of the signatures and, for ``-ci``, the two JSON
    keys of the interval's ends that bleusuite adds (its text line adds nothing)."""
    if confidence:
        assert "95% CI" not in text, text  # sacrebleu's text line, nothing inside it
        text = INTERVAL_JSON.sub("", text)
    return VERSION.sub(r"\1\2X", text)


def _variant(corpus: str, mode: str, tokenizer: str) -> tuple[list[str], dict[str, str]]:
    """The flags of one cell of the matrix and bleusuite's environment. The cells cycle
    through the widths 1-16, both formats, both cases, ``-m bleu`` and the compiled part
    on and off, so that every tokenizer and every mode meets each of them."""
    corpus_index, mode_index = CORPORA.index(corpus), list(MODES).index(mode)
    tokenizer_index = TOKENIZERS.index(tokenizer)
    index = (corpus_index * len(MODES) + mode_index) * len(TOKENIZERS) + tokenizer_index
    flags, _ = MODES[mode]
    output = "json" if (tokenizer_index // 2 + mode_index + corpus_index) % 2 else "text"
    if mode == "sentence level":
        output = "text"  # sacrebleu prints text there whatever -f says (bleusuite: JSON)
    args = ["-tok", tokenizer, "-w", str(1 + index % 16), "-f", output, *flags]
    if (tokenizer_index + mode_index) % 2:
        args.append("-lc")
    if index % 3 == 0:
        args += ["-m", "bleu"]
    compiled = (index // len(TOKENIZERS) + tokenizer_index) % 2 == 0
    return args, {} if compiled else {"BLEUSUITE_NATIVE": "0"}


def _files(corpora: dict[str, dict[str, Any]], corpus: str, several: bool) -> list[str]:
    files = corpora[corpus]
    return [*files["refs"], "-i", *(files["systems"] if several else files["systems"][:1])]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("corpus", CORPORA)
def test_output_is_sacrebleus(corpora, corpus, mode):
    """One cell per tokenizer: the whole output, byte for byte but for the version."""
    _, several = MODES[mode]
    for tokenizer in TOKENIZERS:
        flags, env = _variant(corpus, mode, tokenizer)
        args = [*_files(corpora, corpus, several), *flags]
        theirs, ours = both(args, env)
        assert theirs.returncode == 0, theirs.stderr
        assert ours.returncode == 0, ours.stderr
        confidence = "-ci" in flags
        assert _sacrebleus_part(ours.stdout.decode(), confidence) == \
            _sacrebleus_part(theirs.stdout.decode(), False), (args, env)


def test_the_matrix_covers_every_setting():
    """Every tokenizer meets both cases, both formats, ``-m bleu`` and the compiled part on
    and off; every width from 1 to 16 is printed."""
    cells = [(tokenizer, *_variant(corpus, mode, tokenizer))
             for corpus in CORPORA for mode in MODES for tokenizer in TOKENIZERS]
    for tokenizer in TOKENIZERS:
        mine = [(flags, env) for name, flags, env in cells if name == tokenizer]
        assert {"-lc" in flags for flags, _ in mine} == {False, True}
        assert {flags[flags.index("-f") + 1] for flags, _ in mine} == {"text", "json"}
        assert {bool(env) for _, env in mine} == {False, True}
        assert {"-m" in flags for flags, _ in mine} == {False, True}
    assert {flags[flags.index("-w") + 1] for _, flags, _ in cells} == {
        str(width) for width in range(1, 17)}


GLEU_CASES = {  # the BLEU part of each output of -m bleu gleu, and its flags
    "line": ["-f", "text", "-w", "3"],
    "object": ["-f", "json", "-tok", "intl", "-lc"],
    "rows": ["-f", "json", "-tok", "char"],
    "sentences": ["-sl", "-tok", "none"],
}


@pytest.mark.parametrize(("corpus", "shape"), [*(("sample", shape) for shape in GLEU_CASES),
                                               ("generated", "line"), ("generated", "rows")])
def test_bleu_with_gleu_prints_sacrebleus_bleu(corpora, corpus, shape):
    """``-m bleu gleu``: the BLEU line (text), the BLEU object (JSON, one system), each
    system's BLEU (JSON, three systems) and each sentence's BLEU (``-sl``, before the tab)
    are sacrebleu's ``-m bleu`` output."""
    args = [*_files(corpora, corpus, shape == "rows"), *GLEU_CASES[shape]]
    theirs, _ = both([*args, "-m", "bleu"])
    _, ours = both([*args, "-m", "bleu", "gleu"])
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == 0, ours.stderr
    expected = VERSION.sub(r"\1\2X", theirs.stdout.decode())
    got = VERSION.sub(r"\1\2X", ours.stdout.decode())
    if shape == "line":
        bleu, gleu = got.splitlines()
        assert bleu + "\n" == expected and gleu.lstrip().startswith("GLEU|")
    elif shape == "object":
        bleu, gleu = json.loads(got)
        assert list(bleu.items()) == list(json.loads(expected).items())
        assert gleu["name"] == "GLEU"
    elif shape == "rows":
        rows = json.loads(got)
        assert [row["BLEU"] for row in rows] == [row["BLEU"] for row in json.loads(expected)]
        assert all(float(row["GLEU"]) > 0 for row in rows)
    else:
        lines = got.splitlines()
        assert [line.split("\t")[0] for line in lines] == expected.splitlines()
        assert all(line.split("\t")[1].startswith("GLEU|") for line in lines)


# ------------------------------------------------------------------ the statistics


def _options(*flags: str) -> ScoreOptions:
    return ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt", *flags]))


def _texts(seed: int, lines: int, references: int, systems: int) -> list[list[str]]:
    """Systems then references, as the command reads them: perturbations of the same
    sentences, an empty line now and then, and one system that is a reference."""
    hyp, streams = make_corpus(lines, references + systems - 1, seed=seed)
    out = [hyp, *streams[references:], *streams[:references]]
    out[systems - 1] = list(streams[0]) if systems > 1 else out[0]
    return out


def _no_bar() -> Progress:
    return progress_bar(0, "lines", enabled=False)


def _chunked(monkeypatch: pytest.MonkeyPatch, chars: int) -> None:
    """The command's chunks of about ``chars`` characters (several chunks, one vocabulary)."""
    monkeypatch.setattr(statistics, "chunk_bounds", lambda texts: CHUNK_BOUNDS(texts, chars))


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize("tokenizer", TOKENIZERS)
def test_statistics_are_sacrebleus(tokenizer, compiled, monkeypatch):
    """Each sentence's BLEU statistics, counted chunk by chunk by the compiled part or by
    Python and NumPy, are sacrebleu's (hypothesis and closest reference lengths, matches
    and totals of each order), for each of three systems against two references."""
    from sacrebleu.metrics import BLEU

    if compiled:
        require_compiled()
    monkeypatch.setenv("BLEUSUITE_NATIVE", "1" if compiled else "0")
    _chunked(monkeypatch, 6000)
    lowercase = tokenizer in ("intl", "none")
    texts = _texts(TOKENIZERS.index(tokenizer), 300, 2, 3)
    systems, references = texts[:3], texts[3:]
    options = _options("-tok", tokenizer, *(["-lc"] if lowercase else []))
    ours = statistics.text_statistics(texts, 3, options, _no_bar())
    metric = BLEU(tokenize=tokenizer, lowercase=lowercase, references=references)
    for system, counted in zip(systems, ours, strict=True):
        theirs = metric._extract_corpus_statistics(system, None)
        table = np.asarray(counted["bleu"])
        # [hyp_len, ref_len, matches (4), totals (4)]; then the totals clamped at 1
        assert table[:, :10].tolist() == [list(row) for row in theirs]


@pytest.mark.parametrize("seed", range(4))
def test_compiled_and_python_count_alike_in_any_chunks(seed, monkeypatch):
    """BLEU of 5 orders and GLEU (matches per reference) of 1-3 systems against 1-3
    references: the compiled part and Python and NumPy, in chunks or in one call, give the
    same statistics."""
    rng = np.random.default_rng(seed)
    references, systems = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    texts = _texts(seed, int(rng.integers(1, 120)), references, systems)
    options = _options("-m", "bleu", "gleu", "-s", "method5", *(["-lc"] if seed % 2 else []))
    tokenizer = load_tokenizer("13a")
    results = []
    for native_setting, chars in [("0", 1 << 21), ("0", 900), ("", 1 << 21), ("", 900)]:
        monkeypatch.setenv("BLEUSUITE_NATIVE", native_setting)
        _chunked(monkeypatch, chars)
        results.append(statistics.text_statistics(texts, systems, options, _no_bar()))
    whole = statistics.systems_statistics(encode_texts(texts, tokenizer, options.lowercase),
                                          systems, options)
    for result in [*results, whole]:
        assert len(result) == systems
        for got, expected in zip(result, results[0], strict=True):
            assert got.keys() == expected.keys() == {"bleu", "gleu"}
            for metric in expected:
                np.testing.assert_array_equal(got[metric], expected[metric], err_msg=metric)



# ------------------------------------------------------------------------- chrF

CHRF_CASES = {  # mode -> the metric flags and the format of each cell
    "one system": [(["-m", "chrf"], "text"), (["-m", "bleu", "chrf"], "json"),
                   (["-m", "chrf", "--chrf-word-order", "2"], "text")],
    "three systems": [(["-m", "chrf", "bleu"], "text"), (["-m", "chrf", "-cw", "2"], "latex"),
                      (["-m", "chrf"], "json")],
    "confidence": [(["-m", "chrf", "bleu"], "text"), (["-m", "chrf", "-cw", "2"], "json")],
    # (sacrebleu's -f json fails on chrF's float32 bootstrap means: text and LaTeX here, and
    # test_cli_sacrebleu checks bleusuite's JSON against its text)
    "paired bootstrap": [(["-m", "chrf", "bleu"], "text"), (["-m", "chrf", "-cw", "2"], "text"),
                         (["-m", "bleu", "chrf"], "latex")],
    "paired randomization": [(["-m", "chrf"], "json"), (["-m", "bleu", "chrf", "-cw", "2"],
                                                        "text")],
    "sentence level": [(["-m", "chrf"], "text"), (["-m", "chrf", "-cw", "2", "--chrf-lowercase"],
                                                  "text")],
}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("corpus", CORPORA)
def test_chrf_output_is_sacrebleus(corpora, corpus, mode):
    """``-m chrf`` (alone, with BLEU, chrF++ with ``-cw 2``): the whole output of every mode
    and format, byte for byte but for the version, as ``python -m sacrebleu``."""
    flags, several = MODES[mode]
    for metrics, output in CHRF_CASES[mode]:
        args = [*_files(corpora, corpus, several), *flags, *metrics, "-f", output,
                "-w", "4" if output == "latex" else "12"]
        theirs, ours = both(args)
        assert theirs.returncode == 0, theirs.stderr
        assert ours.returncode == 0, ours.stderr
        confidence = "-ci" in flags
        assert _sacrebleus_part(ours.stdout.decode(), confidence) == \
            _sacrebleus_part(theirs.stdout.decode(), False), args
