"""Every option of the plain command and of ``bleusuite score`` is reflected in the numbers.

For each option the command is run with the option changed, and the printed numbers must
be what the library (or sacrebleu, for its own settings) predicts for the same setting. A
new option without a check here fails ``test_every_option_has_a_check``: an option the
report ignores (as ``--max-order`` once was) cannot slip in unnoticed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bleusuite
from bleusuite import cli
from bleusuite.cli.io import progress_bar, read_lines
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.parser import build_parser
from bleusuite.cli.scoring import confidences
from bleusuite.cli.statistics import systems_statistics
from bleusuite.significance.bootstrap import Confidence
from bleusuite.text import encode_texts, load_tokenizer

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402
from test_cli import tokenize_like_sacrebleu  # noqa: E402
from workloads import make_corpus, write_corpus  # noqa: E402

TOLERANCE = 1e-9  # 0-100 scale, with --width 13


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("options")
    hyp, refs = make_corpus(80, 2, seed=11)
    other_hyp, _ = make_corpus(80, 1, seed=12)
    hyp_path, ref_paths = write_corpus(folder, hyp, refs)
    other_path = folder / "other.txt"
    other_path.write_text("".join(line + "\n" for line in other_hyp), encoding="utf-8")
    return {"hyp": hyp, "refs": refs, "other": other_hyp, "hyp_path": hyp_path,
            "ref_paths": ref_paths, "other_path": str(other_path)}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = cli.main(list(args))
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def split(lines: list[str]) -> list[list[str]]:
    return [line.split() for line in lines]


def by_sentence(refs: list[list[str]]) -> list[list[list[str]]]:
    """Reference streams -> NLTK form (one list of token lists per sentence)."""
    return [list(r) for r in zip(*(split(stream) for stream in refs), strict=True)]


# ------------------------------------------------------------------- the plain command


def plain_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(run(capsys, *args, "--format", "json"))
    return out


def check_plain_files(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """--hyp and --ref (repeated): the score is the library's on those files (its default
    smoothing, exp)."""
    for hyp, refs, paths in (
        (texts["hyp"], texts["refs"][:1], texts["ref_paths"][:1]),
        (texts["other"], texts["refs"][:1], texts["ref_paths"][:1]),
        (texts["hyp"], texts["refs"], texts["ref_paths"]),
    ):
        hyp_path = texts["hyp_path"] if hyp is texts["hyp"] else texts["other_path"]
        args = ["--hyp", hyp_path]
        for path in paths:
            args += ["--ref", path]
        report = plain_json(capsys, *args)
        expected = bleusuite.corpus_bleu(split(hyp), by_sentence(refs), smooth="exp")
        assert report["bleu"]["score"] == pytest.approx(100 * float(expected), abs=TOLERANCE)
        gleu = bleusuite.corpus_gleu(split(hyp), by_sentence(refs))
        assert report["gleu"]["score"] == pytest.approx(100 * float(gleu), abs=TOLERANCE)


def check_plain_max_order(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    hyps, refs = split(texts["hyp"]), by_sentence(texts["refs"][:1])
    scores = []
    for order in (1, 2, 4, 7):
        report = plain_json(capsys, "--hyp", texts["hyp_path"], "--ref", texts["ref_paths"][0],
                            "--max-order", str(order), "--smooth", "exp")
        expected = bleusuite.corpus_bleu(hyps, refs, max_order=order, smooth="exp")
        assert report["bleu"]["score"] == pytest.approx(100 * float(expected), abs=TOLERANCE)
        sentence = bleusuite.sentence_bleu(hyps, refs, max_order=order, smooth="exp",
                                           effective_order=True)
        assert report["mean_sentence_bleu"] == pytest.approx(100 * float(np.mean(sentence)),
                                                             abs=TOLERANCE)
        assert len(report["bleu"]["precisions"]) == order
        scores.append(report["bleu"]["score"])
    assert len(set(scores)) == len(scores)


def check_plain_smooth(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    hyps, refs = split(texts["hyp"][:6]), by_sentence([r[:6] for r in texts["refs"][:1]])
    folder = Path(texts["hyp_path"]).parent
    (folder / "few-hyp.txt").write_text("\n".join(texts["hyp"][:6]) + "\n", encoding="utf-8")
    (folder / "few-ref.txt").write_text("\n".join(texts["refs"][0][:6]) + "\n",
                                        encoding="utf-8")
    for smooth in bleusuite.SMOOTHING_NAMES:
        report = plain_json(capsys, "--hyp", str(folder / "few-hyp.txt"), "--ref",
                            str(folder / "few-ref.txt"), "--max-order", "6", "--smooth", smooth)
        expected = bleusuite.corpus_bleu(hyps, refs, max_order=6, smooth=smooth)
        assert report["bleu"]["score"] == pytest.approx(100 * float(expected), abs=TOLERANCE)
        assert report["bleu"]["smooth"] == smooth


def check_plain_format(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    args = ("--hyp", texts["hyp_path"], "--ref", texts["ref_paths"][0], "--max-order", "3")
    report = plain_json(capsys, *args)
    text = run(capsys, *args, "--format", "text")
    assert f"BLEU = {report['bleu']['score']:.2f} " in text
    assert f"GLEU = {report['gleu']['score']:.2f} " in text
    assert f"BP = {report['bleu']['brevity_penalty']:.3f}" in text


# ----------------------------------------------------------------------- score command


def score_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    return json.loads(run(capsys, "score", *args, "-f", "json", "-w", "13"))


def sacrebleu_score(hyp: list[str], refs: list[list[str]], **kwargs: Any) -> float:
    return float(BLEU(**kwargs).corpus_score(hyp, refs).score)


def check_refs(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    for count in (1, 2):
        out = score_json(capsys, *texts["ref_paths"][:count], "-i", texts["hyp_path"])
        expected = sacrebleu_score(texts["hyp"], texts["refs"][:count])
        assert out["score"] == pytest.approx(expected, abs=TOLERANCE)
        assert out["nrefs"] == str(count)


def check_input(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    out = score_json(capsys, *texts["ref_paths"], "-i", texts["other_path"])
    assert out["score"] == pytest.approx(sacrebleu_score(texts["other"], texts["refs"]),
                                         abs=TOLERANCE)


def check_metrics(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    bleu, gleu = score_json(capsys, *texts["ref_paths"], "-i", texts["hyp_path"], "-m", "bleu",
                            "gleu")
    hyps = tokenize_like_sacrebleu(texts["hyp"])
    refs = [list(r) for r in zip(*(tokenize_like_sacrebleu(s) for s in texts["refs"]),
                                 strict=True)]
    assert gleu["name"] == "GLEU"
    assert gleu["score"] == pytest.approx(100 * float(bleusuite.corpus_gleu(hyps, refs)),
                                          abs=TOLERANCE)
    assert bleu["score"] == pytest.approx(sacrebleu_score(texts["hyp"], texts["refs"]),
                                          abs=TOLERANCE)


def check_sentence_level(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    out = run(capsys, "score", *texts["ref_paths"], "-i", texts["hyp_path"], "-sl", "-b", "-w",
              "13")
    metric = BLEU(effective_order=True)
    expected = [metric.sentence_score(h, list(r)).score
                for h, r in zip(texts["hyp"], zip(*texts["refs"], strict=True), strict=True)]
    np.testing.assert_allclose([float(x) for x in out.split()], expected, rtol=0,
                               atol=TOLERANCE)


def check_tokenize(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    from bleusuite import text
    from bleusuite.text.tokenizers import SACREBLEU_TOKENIZERS as TOKENIZERS
    from bleusuite.text.tokenizers import SPM_MODELS

    for name in TOKENIZERS:
        if name in SPM_MODELS:  # tests/text/test_spm.py, on a model it trains
            continue
        try:
            text.load_tokenizer(name)
        except ImportError:  # ja-mecab / ko-mecab without their MeCab packages
            continue
        out = score_json(capsys, *texts["ref_paths"], "-i", texts["hyp_path"], "-tok", name)
        expected = sacrebleu_score(texts["hyp"], texts["refs"], tokenize=name)
        assert out["score"] == pytest.approx(expected, abs=TOLERANCE), name


def check_lowercase(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    out = score_json(capsys, *texts["ref_paths"], "-i", texts["hyp_path"], "-lc")
    expected = sacrebleu_score(texts["hyp"], texts["refs"], lowercase=True)
    assert out["score"] == pytest.approx(expected, abs=TOLERANCE)
    assert out["case"] == "lc"


def check_smoothing(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """-s and -sv: sacrebleu's numbers for its names, the library's for the others."""
    hyp, refs = texts["hyp"][:5], [r[:5] for r in texts["refs"]]
    folder = Path(texts["hyp_path"]).parent
    hyp_path, ref_paths = write_corpus(folder / "few", hyp, refs)
    hyps = tokenize_like_sacrebleu(hyp)
    token_refs = [list(r) for r in zip(*(tokenize_like_sacrebleu(s) for s in refs), strict=True)]
    for smooth in bleusuite.SMOOTHING_NAMES:
        values: list[float | None] = [None]
        if smooth in ("floor", "add-k", "method1"):
            values += [0.01, 0.5]
        for value in values:
            extra = [] if value is None else ["-sv", str(value)]
            out = score_json(capsys, *ref_paths, "-i", hyp_path, "-s", smooth, *extra)
            if smooth in ("none", "floor", "add-k", "exp"):
                expected = sacrebleu_score(hyp, refs, smooth_method=smooth, smooth_value=value)
            else:
                expected = 100 * float(bleusuite.corpus_bleu(hyps, token_refs, smooth=smooth,
                                                             smooth_value=value))
            assert out["score"] == pytest.approx(expected, abs=TOLERANCE), (smooth, value)


def check_format(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    args = ("score", *texts["ref_paths"], "-i", texts["hyp_path"], "-w", "6")
    out = json.loads(run(capsys, *args, "-f", "json"))
    text = run(capsys, *args, "-f", "text")
    assert f" = {out['score']:.6f} " in text
    assert out["verbose_score"] in text


def check_width(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    expected = sacrebleu_score(texts["hyp"], texts["refs"])
    for width in (0, 1, 4, 9):
        out = run(capsys, "score", *texts["ref_paths"], "-i", texts["hyp_path"], "-b", "-w",
                  str(width)).strip()
        assert out == f"{expected:.{width}f}"


def check_score_only(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    out = run(capsys, "score", *texts["ref_paths"], "-i", texts["hyp_path"], "-b", "-m", "bleu",
              "gleu", "-w", "13")
    full = score_json(capsys, *texts["ref_paths"], "-i", texts["hyp_path"], "-m", "bleu", "gleu")
    assert json.loads(out) == [entry["score"] for entry in full]  # sacrebleu's JSON list


def check_short(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    args = ("score", *texts["ref_paths"], "-i", texts["hyp_path"], "-f", "text")
    long_line, short_line = run(capsys, *args), run(capsys, *args, "-sh")
    assert "nrefs:2|" in long_line and "#:2|" in short_line
    assert long_line.split(" = ")[1] == short_line.split(" = ")[1]


def _bootstrap(texts: dict[str, Any], n: int, seed: int) -> Confidence:
    options = ScoreOptions.from_args(build_parser().parse_args(
        ["score", *texts["ref_paths"], "-i", texts["hyp_path"]]))
    paths = [texts["hyp_path"], *texts["ref_paths"]]
    token_ids = encode_texts([read_lines(p, "text") for p in paths], load_tokenizer("13a"), False)
    stats = systems_statistics(token_ids, 1, options)[0]
    return confidences(stats, dataclasses.replace(options, confidence_n=n, seed=seed),
                       progress_bar(0, "", enabled=False))["bleu"]


def check_confidence(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """-ci, -cin and --seed: the interval is the bootstrap of the same resamples."""
    for n, seed in ((50, 3), (50, 4), (80, 3)):
        out = score_json(capsys, *texts["ref_paths"], "-i", texts["hyp_path"], "-ci", "-cin",
                         str(n), "--seed", str(seed))
        expected = _bootstrap(texts, n, seed)
        assert out["confidence_mean"] == pytest.approx(expected.mean, abs=TOLERANCE)
        assert out["confidence_low"] == pytest.approx(expected.low, abs=TOLERANCE)
        assert out["confidence_high"] == pytest.approx(expected.high, abs=TOLERANCE)
        assert out["bs"] == str(n) and out["seed"] == str(seed)


def check_chrf(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """--chrf-*: each setting gives sacrebleu's chrF with that setting, and its signature, of
    the lines as the sacrebleu command reads them (``rstrip()``: the corpus has lines that end
    in whitespace, which --chrf-whitespace would otherwise count)."""
    from sacrebleu.metrics import CHRF

    assert any(line != line.rstrip() for line in texts["hyp"])
    hyp = [line.rstrip() for line in texts["hyp"]]
    refs = [[line.rstrip() for line in stream] for stream in texts["refs"]]
    args = (*texts["ref_paths"], "-i", texts["hyp_path"], "-m", "chrf")
    for flags, settings in (([], {}), (["-cc", "4"], {"char_order": 4}),
                            (["-cw", "2"], {"word_order": 2}), (["--chrf-beta", "3"], {"beta": 3}),
                            (["--chrf-beta", "0"], {"beta": 0}),
                            (["--chrf-whitespace"], {"whitespace": True}),
                            (["--chrf-lowercase"], {"lowercase": True}),
                            (["--chrf-eps-smoothing"], {"eps_smoothing": True})):
        out = score_json(capsys, *args, *flags)
        metric = CHRF(**settings)
        expected = metric.corpus_score(hyp, refs)
        assert out["score"] == float(f"{expected.score:.13f}"), flags
        assert out["name"] == expected.name
        theirs = metric.get_signature().format().rsplit("|", 1)[0]
        assert out["signature"].rsplit("|", 1)[0] == theirs, flags


def check_ter(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """--ter-*: each setting gives sacrebleu's TER with that setting, and its signature."""
    from sacrebleu.metrics import TER

    args = (*texts["ref_paths"], "-i", texts["hyp_path"], "-m", "ter", "-w", "13")
    for flags, settings in (([], {}),
                            (["--ter-normalized", "--ter-asian-support"],
                             {"normalized": True, "asian_support": True}),
                            (["--ter-no-punct", "--ter-case-sensitive"],
                             {"no_punct": True, "case_sensitive": True})):
        out = score_json(capsys, *args, *flags)
        metric = TER(**settings)
        expected = metric.corpus_score(texts["hyp"], texts["refs"])
        assert out["score"] == float(f"{expected.score:.13f}"), flags
        theirs = metric.get_signature().format().rsplit("|", 1)[0]
        assert out["signature"].rsplit("|", 1)[0] == theirs, flags


def check_language_pair(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """-l: its target language picks BLEU's tokenizer where -tok does not (sacrebleu's)."""
    args = (*texts["ref_paths"], "-i", texts["hyp_path"])
    zh = score_json(capsys, *args, "-l", "en-zh")
    assert zh["score"] == pytest.approx(sacrebleu_score(texts["hyp"], texts["refs"],
                                                        tokenize="zh"), abs=TOLERANCE)
    assert zh["tok"] == "zh"
    assert score_json(capsys, *args, "-l", "en-zh", "-tok", "intl")["tok"] == "intl"
    assert score_json(capsys, *args, "-l", "de-en") == score_json(capsys, *args)


def check_test_sets(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """--list, --citation and -t print sacrebleu's table of test sets (no download);
    --detail without a test set is sacrebleu's text output with its note."""
    from sacrebleu.dataset import DATASETS

    listed = run(capsys, "score", "--list").splitlines()
    assert listed[0] == "The available test sets are:" and len(listed) == len(DATASETS) + 1
    assert run(capsys, "score", "--list", "-l", "en-de").startswith(
        "The available test sets for en-de are:")
    assert run(capsys, "score", "-t", "wmt14", "--citation").strip() == \
        DATASETS["wmt14"].citation.strip()
    detailed = run(capsys, "score", *texts["ref_paths"], "-i", texts["hyp_path"], "-d")
    assert detailed.startswith("BLEU|") and detailed.rstrip().endswith(
        "Consider using --origlang argument.")


def check_quiet(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    args = (*texts["ref_paths"], "-i", texts["hyp_path"])
    assert score_json(capsys, *args, "-q") == score_json(capsys, *args)


def _same_as_sacrebleu(args: list[str], env: dict[str, str] | None = None) -> str:
    from test_cli_sacrebleu import assert_same_output

    return assert_same_output(args, env)


def check_paired(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """--paired-bs/-n, --paired-ar/-n, --paired-jobs: sacrebleu's tables, and the number of
    resamples or trials changes the numbers as it does in sacrebleu."""
    systems = [texts["hyp_path"], texts["other_path"]]
    for flag, count_flag in (("--paired-bs", "--paired-bs-n"), ("--paired-ar", "--paired-ar-n")):
        outputs = [_same_as_sacrebleu([*texts["ref_paths"], "-i", *systems, "-f", "json", flag,
                                       count_flag, count]) for count in ("30", "70")]
        assert outputs[0] != outputs[1]
    jobs = _same_as_sacrebleu([*texts["ref_paths"], "-i", *systems, "-f", "json", "--paired-ar",
                               "--paired-ar-n", "30", "--paired-jobs", "2"])
    assert '"p_value"' in jobs


def check_num_refs(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """-nr 2 with both references tab-separated in one file: sacrebleu's command's score."""
    folder = Path(texts["hyp_path"]).parent
    # lines whose references are both non-empty (an empty last field is no field)
    keep = [i for i, (a, b) in enumerate(zip(*texts["refs"], strict=True)) if a and b]
    hyp = [texts["hyp"][i] for i in keep]
    refs = [[stream[i] for i in keep] for stream in texts["refs"]]
    tabbed, hyp_path = folder / "tabbed-refs.txt", folder / "tabbed-hyp.txt"
    tabbed.write_text("".join(f"{a}\t{b}\n" for a, b in zip(*refs, strict=True)),
                      encoding="utf-8")
    hyp_path.write_text("".join(f"{line}\n" for line in hyp), encoding="utf-8")
    # the sacrebleu command's numbers (it reads the fields as its own command does), and
    # two references score differently from the tab-joined line read as one
    _same_as_sacrebleu([str(tabbed), "-nr", "2", "-i", str(hyp_path)])
    two = score_json(capsys, str(tabbed), "-nr", "2", "-i", str(hyp_path))
    one = score_json(capsys, str(tabbed), "-i", str(hyp_path))
    assert two["score"] != one["score"] and two["nrefs"] == "2"


def check_encoding(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """-e utf-16: the files decode to the same text, so the same score as UTF-8."""
    folder = Path(texts["hyp_path"]).parent
    paths = []
    for path in (texts["hyp_path"], *texts["ref_paths"]):
        encoded = folder / f"utf16-{Path(path).name}"
        encoded.write_bytes(Path(path).read_text(encoding="utf-8").encode("utf-16"))
        paths.append(str(encoded))
    out = score_json(capsys, *paths[1:], "-i", paths[0], "-e", "utf-16")
    assert out["score"] == pytest.approx(sacrebleu_score(texts["hyp"], texts["refs"]),
                                         abs=TOLERANCE)


def check_force_and_no_color(capsys: pytest.CaptureFixture[str], texts: dict[str, Any]) -> None:
    """--force silences the warning on tokenised input (as sacrebleu), -nc changes nothing
    in a non-terminal output; the numbers are sacrebleu's either way."""
    folder = Path(texts["hyp_path"]).parent
    tokenised = folder / "tokenised.txt"
    tokenised.write_text("".join(f"{line} .\n" for line in texts["hyp"] * 2), encoding="utf-8")
    refs = [str(folder / f"double-ref{i}.txt") for i in range(len(texts["refs"]))]
    for path, stream in zip(refs, texts["refs"], strict=True):
        Path(path).write_text("".join(f"{line}\n" for line in stream * 2), encoding="utf-8")
    for extra in ([], ["--force"], ["-nc"]):
        _same_as_sacrebleu([*refs, "-i", str(tokenised), *extra])
        status = cli.main(["score", *refs, "-i", str(tokenised), *extra])
        captured = capsys.readouterr()
        assert status == 0
        assert ("tokenized period" in captured.err) == ("--force" not in extra)


Check = Callable[[pytest.CaptureFixture[str], dict[str, Any]], None]

#: option (its argparse ``dest``) -> the check that it changes the numbers as predicted
PLAIN_CHECKS: dict[str, Check] = {
    "hyp": check_plain_files,
    "ref": check_plain_files,
    "max_order": check_plain_max_order,
    "smooth": check_plain_smooth,
    "format": check_plain_format,
}
SCORE_CHECKS: dict[str, Check] = {
    "refs": check_refs,
    "input": check_input,
    "metrics": check_metrics,
    "sentence_level": check_sentence_level,
    "tokenize": check_tokenize,
    "lowercase": check_lowercase,
    "smooth_method": check_smoothing,
    "smooth_value": check_smoothing,
    "output_format": check_format,
    "width": check_width,
    "score_only": check_score_only,
    "short": check_short,
    "confidence": check_confidence,
    "confidence_n": check_confidence,
    "seed": check_confidence,
    "chrf_char_order": check_chrf,
    "chrf_word_order": check_chrf,
    "chrf_beta": check_chrf,
    "chrf_whitespace": check_chrf,
    "chrf_lowercase": check_chrf,
    "chrf_eps_smoothing": check_chrf,
    "ter_case_sensitive": check_ter,
    "ter_asian_support": check_ter,
    "ter_no_punct": check_ter,
    "ter_normalized": check_ter,
    "langpair": check_language_pair,
    "test_set": check_test_sets,
    "list": check_test_sets,
    "citation": check_test_sets,
    "detail": check_test_sets,
    "quiet": check_quiet,
    "paired_bs": check_paired,
    "paired_bs_n": check_paired,
    "paired_ar": check_paired,
    "paired_ar_n": check_paired,
    "paired_jobs": check_paired,
    "num_refs": check_num_refs,
    "encoding": check_encoding,
    "force": check_force_and_no_color,
    "no_color": check_force_and_no_color,
}
# not scoring settings: --help, --version, the subcommand itself
IGNORED = {"help", "version", "command"}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    """The scoring options (sacrebleu's flags that bleusuite refuses are hidden from the
    help, and tested in test_cli_sacrebleu.py)."""
    return {action.dest for action in parser._actions
            if not isinstance(action, argparse._SubParsersAction)
            and action.help != argparse.SUPPRESS} - IGNORED


def _score_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices["score"]  # type: ignore[no-any-return]
    raise AssertionError("no score subcommand")


def test_every_option_has_a_check():
    assert _options(build_parser()) == set(PLAIN_CHECKS)
    assert _options(_score_parser()) == set(SCORE_CHECKS)


@pytest.mark.parametrize("check", sorted(set(PLAIN_CHECKS.values()), key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_plain_option(capsys, texts, check):
    check(capsys, texts)


@pytest.mark.parametrize("check", sorted(set(SCORE_CHECKS.values()), key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_score_option(capsys, texts, check):
    check(capsys, texts)


def test_resamples_drawn_ahead_are_those_drawn_later(monkeypatch):
    """``-ci`` and ``--paired-bs`` draw their resamples on a thread while the command
    counts: the same draws as the resampling makes itself, none above the size cap, and
    none for runs that do not resample."""
    from bleusuite.cli import scoring
    from bleusuite.significance.draws import DrawnResamples

    parse = build_parser().parse_args
    paired = ScoreOptions.from_args(parse(["score", "r", "-i", "a", "b", "--paired-bs",
                                           "-pbsn", "30"]))
    drawn = scoring.draw_ahead(paired, 2, 17)()
    assert drawn is not None
    np.testing.assert_array_equal(drawn.weights, DrawnResamples.draw(17, 30, paired.seed).weights)
    confidence = ScoreOptions.from_args(parse(["score", "r", "-i", "a", "-ci", "-cin", "20"]))
    assert scoring.draw_ahead(confidence, 1, 5)().n_resamples == 20
    plain = ScoreOptions.from_args(parse(["score", "r", "-i", "a"]))
    assert scoring.draw_ahead(plain, 1, 5)() is None
    assert scoring.draw_ahead(confidence, 2, 5)() is None  # -ci of several: unused
    monkeypatch.setattr(scoring, "DRAW_AHEAD_MAX", 99)
    assert scoring.draw_ahead(confidence, 1, 5)() is None  # 20 x 5 > 99
