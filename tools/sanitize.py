"""Run the compiled part's tests under AddressSanitizer and UndefinedBehaviorSanitizer.

``tox -e sanitize`` runs this. It copies the package and its tests into a temporary
folder, builds ``bleusuite._native`` there with ``-fsanitize=address,undefined`` (every
undefined-behaviour report fatal), and runs the tests of the C entry points in that copy
with the ASan runtime preloaded (the interpreter itself is not instrumented) and Python's
allocator switched to ``malloc`` (so that ASan sees every ``PyMem_Malloc``). Any report of
either sanitizer fails the run. The working tree's own build is left alone.

Usage: ``python tools/sanitize.py [pytest arguments]`` (default: the C tests).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the tests that drive the C entry points (the fuzz test included)
TESTS = ["tests/native/test_native.py", "tests/native/test_native_fuzz.py",
         "tests/native/test_native_rouge.py", "tests/native/test_ter_fuzz.py",
         "tests/native/test_gather_fuzz.py", "tests/inputs/test_one_route.py",
         "tests/text/test_text.py", "tests/native/test_edits_fuzz.py",
         "tests/native/test_interrupt.py", "tests/native/test_alignment_objects.py",
         "tests/native/test_caption_rouge_fuzz.py", "tests/native/test_cider_sums_fuzz.py",
         "tests/native/test_edit_distance_fuzz.py", "tests/native/test_ragged_failures.py"]
FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer",
         "-g", "-O1"]


def _runtime(name: str) -> str:
    """The path of a sanitizer runtime library of the C compiler."""
    compiler = sysconfig.get_config_var("CC").split()[0] or "cc"
    found = subprocess.run([compiler, f"-print-file-name={name}"], capture_output=True,
                           text=True, check=True).stdout.strip()
    if not os.path.isabs(found):
        raise SystemExit(f"sanitize: the C compiler has no {name} (install its sanitizers)")
    return found


def main(arguments: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="bleusuite-sanitize-") as folder:
        tree = Path(folder)
        for part in ("bleusuite", "tests", "setup.py", "setup.cfg", "pyproject.toml",
                     "conftest.py"):
            source = ROOT / part
            if source.is_dir():
                shutil.copytree(source, tree / part, ignore=shutil.ignore_patterns(
                    "*.so", "*.pyd", "__pycache__"))
            else:
                shutil.copy2(source, tree / part)
        flags = " ".join(FLAGS)
        build = dict(os.environ, CFLAGS=flags, LDFLAGS=flags)
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree,
                       env=build, check=True)
        environment = dict(
            os.environ,
            LD_PRELOAD=" ".join([_runtime("libasan.so"), _runtime("libubsan.so")]),
            ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:verify_asan_link_order=0",
            UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
            PYTHONMALLOC="malloc",
            BLEUSUITE_NATIVE="1",
            PYTHONDONTWRITEBYTECODE="1",
        )
        # both cores: the workers inherit the sanitizers (LD_PRELOAD)
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "auto",
                   *(arguments or TESTS)]
        return subprocess.run(command, cwd=tree, env=environment, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
