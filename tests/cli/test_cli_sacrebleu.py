"""``bleusuite score`` against the real ``sacrebleu`` command, output for output.

Both commands run in subprocesses on the same files: the WMT sample shipped in
``bleusuite/data`` and systems made from it by seeded edits. Every printed line must be the
same, the version in the signatures aside (``version:2.6.0`` against
``version:bleusuite-X``): tables of several systems (text, LaTeX, JSON), paired bootstrap
and approximate randomization with sacrebleu's default seed and another (``SACREBLEU_SEED``),
``-nr``, ``-e``, ``-f latex``, ``SACREBLEU_FORMAT``, tab-separated systems on standard
input, and the exit status of errors.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("sacrebleu")
pytest.importorskip("tabulate")

DATA = resources.files("bleusuite") / "data"
VERSION = re.compile(r'(version|v)(:|": ")(2\.6\.0|bleusuite-[0-9.]+)')


def _edited(lines: list[str], seed: int) -> list[str]:
    """A system made from the sample by seeded edits: words dropped, swapped, replaced."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = [w for w in line.split() if rng.random() > 0.12]
        words = [rng.choice(words) if rng.random() < 0.08 else w for w in words]
        if words and rng.random() < 0.1:
            words[0] = words[0].upper()
        out.append(" ".join(words))
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("sacre")
    hyp = (DATA / "sample-hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    ref = (DATA / "sample-ref.txt").read_text(encoding="utf-8").split("\n")[:-1]
    texts = {"base": hyp, "ref": ref, "ref2": _edited(ref, 99), "same": list(hyp),
             "empty-lines": ["" if i % 3 else line for i, line in enumerate(hyp)]}
    texts.update({f"sys{k}": _edited(hyp, k) for k in range(3)})
    paths = {}
    for name, lines in texts.items():
        paths[name] = str(folder / f"{name}.txt")
        Path(paths[name]).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    paths["tabbed"] = str(folder / "tabbed.txt")  # both references in one file
    Path(paths["tabbed"]).write_text(
        "".join(f"{a}\t{b}\n" for a, b in zip(ref, texts["ref2"], strict=True)), encoding="utf-8")
    paths["columns"] = str(folder / "columns.txt")  # three systems on standard input
    Path(paths["columns"]).write_text("".join(
        f"{a}\t{b}\t{c}\n" for a, b, c in zip(hyp, texts["sys0"], texts["sys1"], strict=True)),
        encoding="utf-8")
    for name in ("base", "ref", "sys0"):  # another encoding
        paths[f"{name}-cp1251"] = str(folder / f"{name}-cp1251.txt")
        Path(paths[f"{name}-cp1251"]).write_bytes(Path(paths[name]).read_bytes().decode(
            "utf-8").encode("cp1251", errors="replace"))
    return paths


def _run(module: list[str], args: list[str], env: dict[str, str] | None = None,
         stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("SACREBLEU_SEED", "SACREBLEU_FORMAT")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", *module, *args], capture_output=True,
                          input=stdin, timeout=300, env=environ)


def both(args: list[str], env: dict[str, str] | None = None, stdin: bytes = b"",
         ) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    """(sacrebleu, bleusuite score) on the same arguments."""
    return _run(["sacrebleu"], args, env, stdin), _run(["bleusuite", "score"], args, env, stdin)


def assert_same_output(args: list[str], env: dict[str, str] | None = None,
                       stdin: bytes = b"") -> str:
    theirs, ours = both(args, env, stdin)
    assert theirs.returncode == 0, theirs.stderr
    assert ours.returncode == 0, ours.stderr
    expected = VERSION.sub(r"\1\2X", theirs.stdout.decode())
    got = VERSION.sub(r"\1\2X", ours.stdout.decode())
    assert got == expected
    return got


def _systems(files: dict[str, str]) -> list[str]:
    return [files["base"], files["sys0"], files["sys1"], files["sys2"]]


@pytest.mark.parametrize("output", ["text", "json", "latex"])
def test_several_systems(files, output):
    out = assert_same_output([files["ref"], "-i", *_systems(files), "-f", output])
    assert "sys2.txt" in out


def test_several_systems_and_metrics_width_short(files):
    assert_same_output([files["ref"], files["ref2"], "-i", *_systems(files)[:3], "-f", "text",
                        "-w", "3", "--short", "-lc"])


@pytest.mark.parametrize("output", ["text", "json", "latex"])
@pytest.mark.parametrize("seed", [None, "7"])
def test_paired_bootstrap(files, output, seed):
    env = None if seed is None else {"SACREBLEU_SEED": seed}
    out = assert_same_output([files["ref"], "-i", *_systems(files), "-f", output,
                              "--paired-bs", "--paired-bs-n", "60"], env)
    assert f"seed:{seed or 12345}" in out or output == "json"


@pytest.mark.parametrize("output", ["text", "json", "latex"])
@pytest.mark.parametrize("seed", [None, "3"])
def test_paired_approximate_randomization(files, output, seed):
    env = None if seed is None else {"SACREBLEU_SEED": seed}
    assert_same_output([files["ref"], "-i", *_systems(files), "-f", output, "--paired-ar",
                        "--paired-ar-n", "80", "--paired-jobs", "2"], env)


def test_paired_with_two_references_smoothing_and_repeated_baseline(files):
    assert_same_output([files["ref"], files["ref2"], "-i", files["base"], files["sys1"],
                        files["base"], "-pbs", "-pbsn", "50", "-s", "floor", "-sv", "0.3",
                        "-w", "4", "-f", "json"])


@pytest.mark.parametrize("test", [["-pbs", "-pbsn", "45"], ["-par", "-parn", "45"]])
def test_paired_edge_cases(files, test):
    """A system identical to the baseline (every difference 0), one with two lines in three
    empty, and a reference used as a system (BLEU 100)."""
    assert_same_output([files["ref"], "-i", files["base"], files["same"], files["empty-lines"],
                        files["ref"], *test, "-f", "json"])
    assert_same_output([files["ref"], "-i", files["base"], files["same"], files["empty-lines"],
                        *test, "-f", "text", "-w", "4"])


def test_num_refs_reads_tab_separated_references(files):
    single = assert_same_output([files["tabbed"], "-nr", "2", "-i", files["base"], "-w", "4"])
    assert '"nrefs": "2"' in single
    separate = _run(["bleusuite", "score"], [files["ref"], files["ref2"], "-i", files["base"],
                                             "-w", "4"])
    assert VERSION.sub(r"\1\2X", separate.stdout.decode()) == single
    assert_same_output([files["tabbed"], "-nr", "2", "-i", *_systems(files), "-pbs", "-pbsn",
                        "40", "-f", "text"])


def test_encoding(files):
    out = assert_same_output([files["ref-cp1251"], "-i", files["base-cp1251"], "-e", "cp1251"])
    assert '"score": 23.2' in out
    assert_same_output([files["ref-cp1251"], "-i", files["base-cp1251"], files["sys0-cp1251"],
                        "-e", "cp1251", "-f", "text"])


def test_latex_and_text_for_one_system(files):
    assert_same_output([files["ref"], "-i", files["base"], "-f", "latex"])
    assert_same_output([files["ref"], "-i", files["base"], "-f", "text", "-m", "bleu"])


@pytest.mark.parametrize("shown", ["text", "latex", "json", "TEXT", "yaml"])
def test_sacrebleu_format_environment_variable(files, shown):
    env = {"SACREBLEU_FORMAT": shown}
    assert_same_output([files["ref"], "-i", files["base"]], env)
    assert_same_output([files["ref"], "-i", *_systems(files)[:2], "-f", "json"], env)


def test_systems_on_standard_input(files):
    data = Path(files["columns"]).read_bytes()
    assert_same_output([files["ref"], "-f", "text"], stdin=data)
    assert_same_output([files["ref"], "-f", "json", "-pbs", "-pbsn", "30"], stdin=data)


def test_ignored_smooth_value_and_version(files):
    assert_same_output([files["ref"], "-i", files["base"], "-s", "exp", "-sv", "0.2"])
    assert_same_output([files["ref"], "-i", files["base"], "-s", "none", "-sv", "0.2", "-w",
                        "5"])
    ours = _run(["bleusuite", "score"], ["-V"])
    assert ours.returncode == 0 and ours.stdout.startswith(b"bleusuite ")


def test_tokenised_input_warning(files, tmp_path):
    tokenised = tmp_path / "tokenised.txt"
    lines = Path(files["base"]).read_text(encoding="utf-8").split("\n")[:-1]
    tokenised.write_text("".join(f"{line.rstrip(' .')} .\n" for line in lines), encoding="utf-8")
    theirs, ours = both([files["ref"], "-i", str(tokenised), "-q"])
    assert theirs.returncode == ours.returncode == 0
    assert b"That's 100 lines that end in a tokenized period" in theirs.stderr
    assert b"That's 100 lines that end in a tokenized period" in ours.stderr
    forced = _run(["bleusuite", "score"], [files["ref"], "-i", str(tokenised), "--force"])
    assert forced.stderr == b""


@pytest.mark.parametrize(
    "args",
    [
        ["{ref}", "-i", "{base}", "-pbs"],                       # paired test, one system
        ["{ref}", "-i", "{base}", "{sys0}", "-ci"],              # -ci with several systems
        ["{ref}", "-i", "{base}", "{sys0}", "{base}"],           # a name used twice
        ["{ref}", "{ref2}", "-nr", "2", "-i", "{base}"],         # -nr with several files
        ["{ref}", "-nr", "2", "-i", "{base}"],                   # -nr: one field only
        ["{ref}", "-i", "{base}", "{sys0}", "-sl"],              # sentence level, 2 systems
        ["{ref}", "-i", "{base}", "-pbs", "-par"],               # exclusive options
        ["{ref}", "-i", "{base}", "-f", "xml"],                  # usage error
        ["-i", "{base}"],                                        # no reference
    ],
    ids=["paired-one-system", "ci-several", "same-name", "nr-files", "nr-fields",
         "sentence-several", "exclusive", "format", "no-reference"],
)
def test_exit_status_is_sacrebleus(files, args):
    argv = [arg.format(**files) for arg in args]
    theirs, ours = both(argv)
    assert ours.returncode == theirs.returncode != 0, (theirs.stderr, ours.stderr)
    message = ours.stderr.decode()
    assert "Traceback" not in message and message.count("\n") == 1, message


def test_tab_count_mismatch_on_standard_input(files):
    stdin = b"a b\tc d\n" + b"e f\n" * 99
    theirs, ours = both([files["ref"]], stdin=stdin)
    assert ours.returncode == theirs.returncode == 17


# ------------------------------------------------------------------------------ start-up


def test_a_plain_score_imports_only_what_it_needs(files):
    """No sacrebleu at all (13a is bleusuite's own), no torch, no bench module, nothing of
    resampling or of the plain command."""
    result = _run(["bleusuite", "score"], [files["ref"], "-i", files["base"]])
    assert result.returncode == 0

    def imports(*argv: str) -> set[str]:
        traced = subprocess.run([sys.executable, "-X", "importtime", *argv],
                                capture_output=True, timeout=120, check=True)
        return {line.split("|")[-1].strip() for line in traced.stderr.decode().splitlines()
                if line.startswith("import time:")}

    # what the interpreter loads before any command (site hooks, such as an editable
    # install's finder, which imports pathlib) is not the command's doing
    imported = imports("-m", "bleusuite", "score", files["ref"], "-i", files["base"])
    imported -= imports("-c", "pass")
    assert "bleusuite.cli.score" in imported
    assert not any(name.split(".")[0] == "sacrebleu" for name in imported)
    for heavy in ("torch", "bleusuite.bench", "bleusuite.bench", "portalocker", "tabulate",
                  "bleusuite.metrics", "bleusuite.significance.bootstrap",
                  "bleusuite.significance.paired", "bleusuite.cli.plain",
                  "numba", "gzip"):
        assert heavy not in imported, heavy


def test_sacrebleus_tokenizers_are_imported_as_sacrebleu_imports_them():
    """intl is sacrebleu's own object, imported the usual way (sacrebleu's package and all):
    nothing of sys.modules is changed behind its back; 13a is bleusuite's and imports none
    of it."""
    code = (
        "import sys\n"
        "from bleusuite.text.tokenizers import load_tokenizer\n"
        "load_tokenizer('13a')\n"
        "assert not any(m.split('.')[0] == 'sacrebleu' for m in sys.modules), sys.modules\n"
        "tokenize = load_tokenizer('intl').tokenize\n"
        "assert 'sacrebleu' in sys.modules and 'sacrebleu.metrics' in sys.modules\n"
        "import sacrebleu\n"
        "bleu = sacrebleu.corpus_bleu(['a b c d'], [['a b c d']]).score\n"
        "print(tokenize('a,b'), round(bleu, 6))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().split() == ["a", ",", "b", "100.0"]


# ------------------------------------------------------------------- bleusuite's extras


def _json(result: subprocess.CompletedProcess[bytes]) -> object:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_paired_gleu_column_and_bleu_as_sacrebleu(files):
    args = [files["ref"], "-i", *_systems(files)[:3], "-pbs", "-pbsn", "40", "-f", "json"]
    theirs = _json(_run(["sacrebleu"], args))
    ours = _json(_run(["bleusuite", "score"], [*args, "-m", "bleu", "gleu"]))
    assert [row["BLEU"] for row in ours] == [row["BLEU"] for row in theirs]
    assert ours[0]["GLEU"]["p_value"] is None
    for row in ours[1:]:
        assert 0 < row["GLEU"]["p_value"] <= 1 and row["GLEU"]["mean"] > 0


def test_seed_flag_overrides_the_environment(files):
    args = [files["ref"], "-i", *_systems(files)[:2], "-pbs", "-pbsn", "40", "-f", "json"]
    default = _run(["bleusuite", "score"], args)
    overridden = _run(["bleusuite", "score"], [*args, "--seed", "12345"],
                      {"SACREBLEU_SEED": "99"})
    other = _run(["sacrebleu"], args, {"SACREBLEU_SEED": "99"})
    ours_other = _run(["bleusuite", "score"], args, {"SACREBLEU_SEED": "99"})
    assert overridden.stdout == default.stdout
    assert ours_other.stdout == other.stdout != default.stdout


def test_progress_bar_of_a_long_paired_test(tmp_path):
    """On a terminal, a paired test of 1,000 resamples x 1,100 lines shows its bar."""
    lines = [f"w{i % 97} w{i % 89} w{i % 83} w{i % 79}" for i in range(2600)]
    paths = []
    for name, text in (("ref", lines), ("a", lines[::-1]), ("b", lines)):
        paths.append(tmp_path / f"{name}.txt")
        paths[-1].write_text("".join(f"{line}\n" for line in text), encoding="utf-8")
    from test_cli import run_with_terminal_stderr

    returncode, stdout, seen = run_with_terminal_stderr(
        "score", str(paths[0]), "-i", str(paths[1]), str(paths[2]), "-pbs")
    assert returncode == 0
    assert json.loads(stdout)[1]["BLEU"]["p_value"] > 0
    assert b"paired bs (BLEU)" in seen
    assert b"/1000 " in seen and b"/3000" not in seen  # resamples, not resamples x systems


def test_sentence_level_ignores_sacrebleu_format(files):
    assert_same_output([files["ref"], "-i", files["base"], "-sl", "-w", "3"],
                       {"SACREBLEU_FORMAT": "json"})


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_several_systems_all_digits(files, smooth):
    """15 decimals: the corpus scores of several systems are sacrebleu's floats."""
    assert_same_output([files["ref"], files["ref2"], "-i", *_systems(files), "-w", "15", "-f",
                        "json", "-s", smooth])


@pytest.mark.parametrize("seed", [None, "7"])
def test_confidence_interval_numbers_are_sacrebleus(files, seed):
    """``-ci``: sacrebleu's keys have sacrebleu's values (bleusuite adds the interval)."""
    env = None if seed is None else {"SACREBLEU_SEED": seed}
    args = [files["ref"], "-i", files["sys1"], "-ci", "-cin", "70", "-w", "12"]
    theirs, ours = both(args, env)
    theirs_json, ours_json = _json(theirs), _json(ours)
    assert isinstance(theirs_json, dict) and isinstance(ours_json, dict)
    for key, value in theirs_json.items():
        if key not in ("signature", "version"):
            assert ours_json[key] == value, key


# ------------------------------------- issue 35: trailing whitespace, -b, -w, chrF's beta

#: trailing whitespace of every kind that sacrebleu's ``line.rstrip()`` removes
TRAILING = [" ", "  ", "\t", "\r", "\u3000", "\x1c", "\x1d", "\x1e", "\x1f", "\u2029", "\u2028",
            "\x85", "\xa0", "\x0b", "\x0c", " \u3000\t\r"]
#: the interval's ends that bleusuite's JSON adds to sacrebleu's keys (docs/cli.md)
INTERVAL = re.compile(r'^ "confidence_(low|high)": -?[0-9.]+,\n', re.MULTILINE)


def _spaced(lines: list[str], rng: random.Random, blank: float = 0.1) -> list[str]:
    """Lines with trailing whitespace of every kind (a ``blank`` part of whitespace alone)."""
    return [(line if rng.random() >= blank else "") + rng.choice(TRAILING)
            if rng.random() < 0.8 else line for line in lines]


def _file(path: Path, lines: list[str], rng: random.Random) -> str:
    """``lines`` ended by ``\\n`` or ``\\r\\n`` at random, the last one by nothing."""
    path.write_bytes("".join(line + rng.choice(["\n", "\r\n"]) for line in lines[:-1]).encode()
                     + lines[-1].encode())
    return str(path)


@pytest.fixture(scope="module")
def spaced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """60 lines of the sample (and an edited system, a second reference) with trailing
    whitespace of every kind, CRLF line ends, tab-separated references and stdin columns."""
    rng = random.Random(35)
    folder = tmp_path_factory.mktemp("spaced")
    hyp = (DATA / "sample-hyp.txt").read_text(encoding="utf-8").split("\n")[:60]
    ref = (DATA / "sample-ref.txt").read_text(encoding="utf-8").split("\n")[:60]
    texts = {"hyp": _spaced(hyp, rng), "sys": _spaced(_edited(hyp, 5), rng, blank=0),
             "ref": _spaced(ref, rng), "ref2": _spaced(_edited(ref, 6), rng, blank=0)}
    paths = {name: _file(folder / f"{name}.txt", lines, rng) for name, lines in texts.items()}
    paths["tabbed"] = _file(folder / "tabbed.txt", [f"{a}\t{b}" for a, b in zip(
        texts["ref"], texts["ref2"], strict=True)], rng)
    paths["columns"] = _file(folder / "columns.txt", [f"{a}\t{b}" for a, b in zip(
        [line.replace("\t", " ") for line in texts["hyp"]], texts["sys"], strict=True)], rng)
    (folder / "issue-h.txt").write_text("the cat sat on the mat \n", encoding="utf-8")
    (folder / "issue-r.txt").write_text("the cat sat on a mat\n", encoding="utf-8")
    paths.update(issue_h=str(folder / "issue-h.txt"), issue_r=str(folder / "issue-r.txt"))
    return paths


def test_chrf_whitespace_of_the_issue(spaced):
    """sacrebleu ``rstrip()``s every line it reads: 78.2, not 77.3 (issue 35, item 1)."""
    out = assert_same_output([spaced["issue_r"], "-i", spaced["issue_h"], "-m", "chrf",
                              "--chrf-whitespace", "-b"])
    assert out == "78.2\n"


@pytest.mark.parametrize("args", [
    ["-m", "chrf", "--chrf-whitespace", "-cw", "2", "-w", "10"],
    ["-m", "bleu", "chrf", "--chrf-whitespace", "-b"],                   # a JSON list (item 2)
    ["-m", "bleu", "chrf", "--chrf-whitespace", "-b", "-f", "text"],
    ["-m", "chrf", "--chrf-whitespace", "-sl", "-w", "30"],               # -w above 20 (item 3)
    ["-m", "chrf", "bleu", "--chrf-whitespace", "--chrf-beta", "0", "-w", "100"],  # item 4
    ["-m", "chrf", "--chrf-whitespace", "--chrf-beta", "0", "-sl", "--chrf-eps-smoothing"],
    ["-m", "chrf", "--chrf-whitespace", "-ci", "-cin", "40", "-f", "text", "-w", "8"],
    ["-m", "bleu", "chrf", "--chrf-whitespace", "-ci", "-cin", "30", "-b"],
], ids=["corpus", "b-json", "b-text", "sl-w30", "beta0-w100", "beta0-sl-eps", "ci", "ci-b"])
def test_trailing_whitespace_b_w_and_beta_as_sacrebleu(spaced, args):
    """Files with trailing whitespace of every kind and CRLF ends: the same output, with the
    flags of items 1-4 of issue 35 (-ci: bleusuite's two JSON keys aside)."""
    theirs, ours = both([spaced["ref"], spaced["ref2"], "-i", spaced["hyp"], *args])
    assert theirs.returncode == ours.returncode == 0, ours.stderr
    expected = VERSION.sub(r"\1\2X", theirs.stdout.decode())
    assert INTERVAL.sub("", VERSION.sub(r"\1\2X", ours.stdout.decode())) == expected


def test_trailing_whitespace_in_tab_separated_references_systems_and_stdin(spaced):
    """``-nr``: the line is stripped, not its fields; several systems (-w 25); standard input
    (universal newlines), one system and tab-separated columns (whose first line's fields
    sacrebleu does not strip)."""
    chrf = ["-m", "chrf", "--chrf-whitespace", "-cw", "2"]
    assert_same_output([spaced["tabbed"], "-nr", "2", "-i", spaced["hyp"], *chrf, "-w", "12"])
    assert_same_output([spaced["ref"], "-i", spaced["hyp"], spaced["sys"], *chrf, "-w", "25",
                        "-f", "text"])
    def stdin(name: str) -> bytes:  # a lone \r ends a line there: only CRLF kept
        return re.sub(rb"\r(?!\n)", b"", Path(spaced[name]).read_bytes())

    assert_same_output([spaced["ref"], *chrf, "-w", "12"], stdin=stdin("hyp"))
    assert_same_output([spaced["ref"], *chrf, "-w", "12", "-f", "json"],
                       stdin=stdin("columns"))
# ------------------------------------------------------------------------------- TER


@pytest.fixture(scope="module")
def ter_files(files: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The lines of at most 22 words of the sample files (sacrebleu's TER takes milliseconds
    a line), with an odd line or two for the tercom options."""
    folder = tmp_path_factory.mktemp("ter")
    texts = {name: Path(files[name]).read_text(encoding="utf-8").split("\n")[:-1]
             for name in ("base", "ref", "ref2", "sys0", "sys1", "sys2")}
    keep = [i for i, line in enumerate(texts["ref"]) if len(line.split()) <= 22][:40]
    extra = {"base": ["It's\u00a0John's car.", "東京タワー。", "&quot;Hello&quot;, he said."],
             "ref": ["it's john's car", "東京 タワー", "\"Hello,\" he said!"]}
    paths = {}
    for name, lines in texts.items():
        chosen = [lines[i] for i in keep] + extra.get(name, extra["base"])
        paths[name] = str(folder / f"{name}.txt")
        Path(paths[name]).write_text("".join(f"{line}\n" for line in chosen), encoding="utf-8")
    return paths


@pytest.mark.parametrize("options", [
    ["-m", "ter"],
    ["-m", "ter", "--ter-no-punct", "--ter-case-sensitive", "-w", "15"],
    ["-m", "bleu", "chrf", "ter", "-f", "text", "-sh", "--ter-normalized",
     "--ter-asian-support"],
])
def test_ter_of_one_system(ter_files, options):
    assert_same_output([ter_files["ref"], "-i", ter_files["base"], *options])


def test_ter_with_two_references_and_at_sentence_level(ter_files):
    assert_same_output([ter_files["ref"], ter_files["ref2"], "-i", ter_files["sys0"], "-m",
                        "ter", "--ter-normalized", "-w", "15"])
    out = assert_same_output([ter_files["ref"], "-i", ter_files["sys1"], "-m", "ter", "-sl",
                              "-w", "4", "--ter-no-punct"])
    assert out.count("\n") == 43


def test_ter_confidence_interval_numbers_are_sacrebleus(ter_files):
    theirs, ours = both([ter_files["ref"], "-i", ter_files["sys1"], "-m", "ter", "-ci",
                         "-cin", "80", "-w", "12"])
    theirs_json, ours_json = _json(theirs), _json(ours)
    assert isinstance(theirs_json, dict) and isinstance(ours_json, dict)
    for key, value in theirs_json.items():
        if key not in ("signature", "version"):
            assert ours_json[key] == value, key


@pytest.mark.parametrize("test", [
    ["-m", "ter", "chrf", "-f", "text"],
    # sacrebleu's JSON of a paired bootstrap of TER or chrF fails (a float32 mean that json
    # cannot write): its text and LaTeX tables are compared
    ["--paired-bs", "--paired-bs-n", "60", "-m", "ter", "chrf", "-f", "text",
     "--ter-normalized"],
    ["--paired-ar", "--paired-ar-n", "60", "-m", "ter", "bleu", "-f", "json"],
])
def test_ter_of_several_systems_and_paired_tests(ter_files, test):
    systems = [ter_files["base"], ter_files["sys0"], ter_files["sys1"], ter_files["sys2"]]
    assert_same_output([ter_files["ref"], "-i", *systems, *test], {"SACREBLEU_SEED": "5"}
                       if "--paired-ar" in test else None)


# ------------------------------------------------------------- flags without a download


@pytest.mark.parametrize("flags", [["-l", "en-zh", "-f", "text"], ["-d", "-m", "bleu", "chrf"],
                                   ["--list", "-l", "en-de"], ["--list"]])
def test_flags_that_need_no_download(files, flags):
    """-l with one's own references (BLEU's tokenizer of the target language), --detail
    without a test set, --list; sacrebleu's --citation fails (a TypeError in 2.6.0), its
    citation is checked in test_cli_options.py."""
    files_args = [] if "--list" in flags else [files["ref"], "-i", files["sys0"]]
    assert_same_output([*files_args, *flags])


# ------------------------------------- issue 46: -ci's line, a zero mean, paired float64


def _lines(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Four one-word-triple references and systems whose resamples often score exactly 0
    (sacrebleu's chrF and TER then return Python floats: a float64 array of resamples)."""
    folder = tmp_path_factory.mktemp("tiny")
    return {
        "ref": _lines(folder / "ref.txt", ["a b c", "d e f", "g h i", "j k l"]),
        "s1": _lines(folder / "s1.txt", ["a b c", "x y z", "x y z", "x y z"]),
        "s2": _lines(folder / "s2.txt", ["a b x", "d e f", "x y z", "x y z"]),
        "s3": _lines(folder / "s3.txt", ["x y z", "x y z", "g h i", "x y z"]),
        "same": _lines(folder / "same.txt", ["a b c", "d e f", "g h i", "j k l"]),
        "none": _lines(folder / "none.txt", ["x y z w"] * 4),
        "empty-ref": _lines(folder / "empty-ref.txt", ["a b c", "", "g h i", ""]),
    }


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
@pytest.mark.parametrize("output", [["-f", "text"], ["-f", "text", "-b"], ["-f", "json"]])
def test_confidence_line_is_sacrebleus(files, metric, output):
    """``-ci``: sacrebleu's line ``= 95.1 (μ = 95.1 ± 0.6)``, nothing added inside it (issue
    46, item 1); the JSON's extra keys aside."""
    theirs, ours = both([files["ref"], "-i", files["sys1"], "-m", metric, "-ci", "-cin", "30",
                         *output])
    assert theirs.returncode == ours.returncode == 0, ours.stderr
    got = INTERVAL.sub("", VERSION.sub(r"\1\2X", ours.stdout.decode()))
    assert got == VERSION.sub(r"\1\2X", theirs.stdout.decode())
    assert "95% CI" not in ours.stdout.decode()


@pytest.mark.parametrize("case", [
    ["none", "-m", "bleu"], ["none", "-m", "chrf"], ["same", "-m", "ter"],
])
@pytest.mark.parametrize("output", [["-f", "text"], ["-f", "text", "-b"], ["-f", "json"],
                                    ["-f", "json", "-b"]])
def test_a_bootstrap_mean_of_zero_prints_no_confidence(tiny, case, output):
    """sacrebleu prints the bootstrap summary only where its mean is above 0: no
    ``(μ = 0.0 ± 0.0)`` and no ``confidence_*`` key (issue 46, item 2)."""
    hyp, *metric = case
    out = assert_same_output([tiny["ref"], "-i", tiny[hyp], *metric, "-ci", "-cin", "10",
                              *output])
    assert "μ" not in out and "confidence" not in out


@pytest.mark.parametrize("metric", ["chrf", "ter"])
@pytest.mark.parametrize("test", [["--paired-bs", "-pbsn", "100"],
                                  ["--paired-bs", "-pbsn", "37", "--chrf-eps-smoothing"],
                                  ["--paired-ar", "-parn", "50"]])
def test_paired_means_where_resamples_score_zero(tiny, metric, test):
    """``--paired-bs -m chrf`` / ``-m ter``: where some resamples score exactly 0 (chrF) or
    have empty references (TER), sacrebleu's resampled scores are a float64 array, its mean
    is float64's, to the last printed digit (issue 46, item 3)."""
    if metric == "ter" and "--chrf-eps-smoothing" in test:
        test = [*test[:-1], "--ter-normalized"]
    ref = tiny["empty-ref"] if metric == "ter" and "-pbsn" in test and "37" in test \
        else tiny["ref"]
    assert_same_output([ref, "-i", tiny["s1"], tiny["s2"], tiny["s3"], "-m", metric, "-w", "8",
                        "-f", "text", *test])


@pytest.mark.parametrize("seed", range(4))
def test_paired_bootstrap_of_generated_systems_with_zero_resamples(tmp_path, seed):
    """Generated short lines over a small vocabulary: resamples that score 0 in some systems
    and not in others; chrF, chrF with eps smoothing and TER print sacrebleu's digits."""
    rng = random.Random(seed)
    vocab = ["a", "b", "c", "d", "e", "f"]
    rows = rng.randint(3, 9)
    refs = [" ".join(rng.choice(vocab) for _ in range(rng.randint(0 if seed % 2 else 1, 4)))
            for _ in range(rows)]
    systems = []
    for k in range(3):
        lines = [" ".join(rng.choice(vocab[3 * (k % 2):]) for _ in range(rng.randint(1, 3)))
                 if rng.random() < 0.6 else ref for ref in refs]
        systems.append(_lines(tmp_path / f"s{k}.txt", lines))
    ref = _lines(tmp_path / "ref.txt", refs)
    for metric in (["-m", "chrf"], ["-m", "chrf", "--chrf-eps-smoothing"], ["-m", "ter"]):
        assert_same_output([ref, "-i", *systems, *metric, "--paired-bs", "-pbsn", "60", "-w",
                            "10", "-f", "text"])


def test_score_only_lines_of_several_metrics_are_aligned_as_sacrebleus(tiny, tmp_path):
    """``-b -ci`` with several metrics in text: sacrebleu aligns the lines on their first
    ``=`` (a shorter score gets a leading space: `` 0.6 (μ = ...``; issue 46, item 14)."""
    refs = [f"w{k} x{k} y{k} z{k} the cat sat on the mat" for k in range(20)]
    close = [line if k % 5 else line.replace("the", "a", 1) for k, line in enumerate(refs)]
    ref, hyp = _lines(tmp_path / "ref.txt", refs), _lines(tmp_path / "hyp.txt", close)
    out = assert_same_output([ref, "-i", hyp, "-m", "chrf", "ter", "-f", "text", "-b", "-ci",
                              "-cin", "50"])
    assert out.split("\n")[1].startswith(" ")
    # a line without "=" (a mean of 0 prints none) comes first, as sacrebleu prints it
    assert_same_output([tiny["ref"], "-i", tiny["same"], "-m", "chrf", "ter", "-f", "text",
                        "-b", "-ci", "-cin", "20"])
    assert_same_output([ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-f", "text", "-ci",
                        "-cin", "20"])


def test_score_only_lines_keep_each_score_where_sacrebleu_loses_one(tiny):
    """A documented difference (docs/cli.md): with ``-b -ci``, sacrebleu zips the widths of
    the lines that hold ``=`` with the first lines of all, so a mean-0 line before a line
    with a summary takes that line's place and its score is lost. bleusuite keeps sacrebleu's
    order and alignment and prints every score."""
    theirs, ours = both([tiny["ref"], "-i", tiny["none"], "-m", "bleu", "chrf", "ter", "-f",
                         "text", "-b", "-ci", "-cin", "10"])
    assert theirs.returncode == ours.returncode == 0, ours.stderr
    assert theirs.stdout.decode() == "0.0\n0.0\n     0.0\n"  # sacrebleu 2.6.0's
    assert ours.stdout.decode() == "0.0\n0.0\n133.3 (μ = 133.3 ± 0.0)\n"  # TER: 4 edits / 3
