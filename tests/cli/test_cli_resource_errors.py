"""``bleusuite score`` when the system refuses a resource: memory (while scoring or while
writing the output), a file it may not read, too many open files. Each is one line on
standard error with status 1 (docs/cli.md, "Progress and errors"), never a traceback, with
Python's output buffered or not (issue 46, item 6; the library's own ``MemoryError`` of a
too-long TER line is tests/scores/test_memory_errors.py's)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleusuite import cli
from bleusuite.cli import score

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ref(tmp_path: Path) -> str:
    path = tmp_path / "ref.txt"
    path.write_text("a b c\nd e f\n", encoding="utf-8")
    return str(path)


def _raising(error: BaseException):  # type: ignore[no-untyped-def]
    def fail(*args: object, **kwargs: object) -> None:
        raise error

    return fail


def _one_error_line(captured: pytest.CaptureResult[str]) -> str:
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert captured.err.startswith("bleusuite score: error: "), captured.err
    return captured.err


@pytest.mark.parametrize("error, expected", [
    (MemoryError("hypothesis 3: 2000000 words\n(the edit matrix)"),
     "bleusuite score: error: out of memory: hypothesis 3: 2000000 words (the edit matrix)\n"),
    (OSError(errno.EMFILE, "Too many open files"),
     "bleusuite score: error: Too many open files\n"),
    (PermissionError(errno.EACCES, "Permission denied", "/models/spm.model"),
     "bleusuite score: error: Permission denied: /models/spm.model\n"),
    (OSError(errno.ENOMEM, "Cannot allocate memory"),
     "bleusuite score: error: Cannot allocate memory\n"),
], ids=["memory-two-lines", "open-files", "permission", "enomem"])
def test_a_resource_failure_while_scoring_is_one_line(monkeypatch, capsys, ref, error, expected):
    monkeypatch.setattr(score, "text_statistics", _raising(error))
    status = cli.main(["score", ref, "-i", ref, "-m", "ter"])
    assert status == 1
    assert _one_error_line(capsys.readouterr()) == expected


def test_running_out_of_memory_while_writing_is_one_line(monkeypatch, capsys, ref):
    """The output is encoded whole before it is written: a very large one can need more
    memory than is left."""
    from bleusuite.cli import io

    monkeypatch.setattr(io, "write_output", _raising(MemoryError()))
    status = cli.main(["score", ref, "-i", ref, "-m", "ter", "-sl"])
    assert status == 1
    assert _one_error_line(capsys.readouterr()) == \
        "bleusuite score: error: out of memory: writing the output\n"


#: the command in a fresh process, one of its functions replaced by one that fails
_PATCHED_RUN = """
import errno, sys
from bleusuite.cli import io, score

def fail(*args, **kwargs):
    raise {error}

setattr({module}, {name!r}, fail)
from bleusuite.cli import command
sys.argv = ["bleusuite", "score", {ref!r}, "-i", {ref!r}, "-m", "ter", "chrf"]
command()
"""


@pytest.mark.parametrize("unbuffered", ["1", ""])
@pytest.mark.parametrize("module, name, error, message", [
    ("score", "text_statistics", "MemoryError('hypothesis 0: 2000000 words')",
     "out of memory: hypothesis 0: 2000000 words"),
    ("io", "write_output", "MemoryError()", "out of memory: writing the output"),
    ("score", "text_statistics", "OSError(errno.EMFILE, 'Too many open files')",
     "Too many open files"),
], ids=["scoring", "writing", "open-files"])
def test_the_process_reports_one_line_and_status_1(ref, unbuffered, module, name, error,
                                                   message):
    """The same in a process of its own (the console script's path, ``SystemExit``), with
    ``PYTHONUNBUFFERED`` set and unset: nothing on standard output, one line on standard
    error."""
    code = _PATCHED_RUN.format(module=module, name=name, error=error, ref=ref)
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120,
                            env=env)
    assert result.returncode == 1, result.stderr.decode()
    assert result.stdout == b""
    assert result.stderr.decode() == f"bleusuite score: error: {message}\n"


def test_no_thread_to_draw_ahead_gives_the_same_output(monkeypatch, capsys, tmp_path):
    """``-ci`` draws its resamples on a thread while the text is counted; where the system
    gives no thread (a process limit), the resampling draws as it sums: the same numbers,
    not a traceback."""
    import threading

    lines = [f"w{k} the cat sat on the mat {k % 3}" for k in range(30)]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    hyp.write_text("".join(f"{line.replace('cat', 'dog', k % 2)}\n"
                           for k, line in enumerate(lines)), encoding="utf-8")
    args = ["score", str(ref), "-i", str(hyp), "-m", "bleu", "chrf", "-ci", "-cin", "40"]
    assert cli.main(args) == 0
    expected = capsys.readouterr().out
    start = threading.Thread.start

    def refused(self: threading.Thread) -> None:
        if self.name == "bleusuite-in-order":
            raise RuntimeError("can't start new thread")
        start(self)

    monkeypatch.setattr(threading.Thread, "start", refused)
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    assert captured.out == expected and captured.err == ""
