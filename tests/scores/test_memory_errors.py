"""An input too large for the memory: the library raises a ``MemoryError`` that names the
input, and the command reports it in one line (issue 46, item 6).

The subprocesses run with an address-space limit, so an allocation that cannot be had fails
at once on any machine (whatever its overcommit policy) instead of being killed later.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from compiled_part import require_compiled

#: the address space the subprocesses may have: enough for Python, NumPy and the inputs
LIMIT = 6 * 2**30
WORDS = 2_000_000


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


@pytest.fixture(scope="module")
def long_lines(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A reference line of 2,000,000 words and a shuffled hypothesis of the same words."""
    rng = random.Random(1)
    words = [f"w{rng.randrange(5000)}" for _ in range(WORDS)]
    folder = tmp_path_factory.mktemp("long")
    ref = folder / "ref.txt"
    ref.write_text(" ".join(words) + "\n", encoding="utf-8")
    rng.shuffle(words)
    hyp = folder / "hyp.txt"
    hyp.write_text(" ".join(words) + "\n", encoding="utf-8")
    return str(hyp), str(ref)


def test_sentence_ter_names_the_input_that_needs_the_memory(long_lines):
    require_compiled()
    hyp, ref = long_lines
    code = ("import bleusuite, sys\n"
            f"h = open({hyp!r}).read().strip(); r = open({ref!r}).read().strip()\n"
            "try:\n"
            "    bleusuite.sentence_ter([h], [[r]])\n"
            "except MemoryError as error:\n"
            "    print(error)\n"
            "    sys.exit(3)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300,
                            preexec_fn=_limited)
    assert result.returncode == 3, result.stderr.decode()
    message = result.stdout.decode()
    assert "hypothesis 0" in message and f"{WORDS} words" in message, message


@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_the_command_reports_running_out_of_memory_in_one_line(long_lines, unbuffered):
    require_compiled()
    hyp, ref = long_lines
    env = {"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": unbuffered,
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    result = subprocess.run([sys.executable, "-m", "bleusuite", "score", ref, "-i", hyp, "-m",
                             "ter"], capture_output=True, timeout=300, preexec_fn=_limited,
                            env=env)
    message = result.stderr.decode()
    assert result.returncode == 1, message
    assert result.stdout == b""
    assert message.count("\n") == 1 and "Traceback" not in message, message
    assert message.startswith("bleusuite score: error: out of memory: hypothesis 0"), message


def test_a_memory_error_without_a_message_is_one_line_too(monkeypatch, capsys, tmp_path):
    """Any MemoryError of the scoring, whoever raised it."""
    from bleusuite import cli
    from bleusuite.cli import score

    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\n", encoding="utf-8")
    monkeypatch.setattr(score, "text_statistics", exhausted)
    status = cli.main(["score", str(ref), "-i", str(ref)])
    captured = capsys.readouterr()
    assert status == 1 and captured.out == ""
    assert captured.err == "bleusuite score: error: out of memory\n"
