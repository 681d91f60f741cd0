"""The paired tests' first call in a fresh process (issue 15), as ``bleusuite score`` makes it.

``bleusuite score ... --paired-bs`` calls :func:`bleusuite.significance.paired_bootstrap`
once, so its first call in a process is what the command pays: NumPy's random module is
imported then, and every buffer, BLAS work area and Python float is new. This script
computes the per-sentence BLEU statistics of the benchmark's corpus once (12 systems x
3,000 sentences, as ``bench_paired.py``), then times one call in each of ``--runs`` fresh
processes (and a second call in the same process, for comparison), for this checkout and,
with ``--other PATH``, for another one side by side (alternating, since the machine's load
changes). The results of the two checkouts must be equal. Not collected by pytest::

    python benchmarks/paired_first_call.py --runs 9 --other /path/to/old/checkout
    python benchmarks/paired_first_call.py --test ar --n 10000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

_CHILD = """
import json, pickle, sys, time
import numpy as np
from bleusuite import backends, significance  # loaded before the call, as in the command
backends.get_backend(np.zeros(1))
tables = list(np.load(sys.argv[1]))
test = (significance.paired_bootstrap if sys.argv[2] == "bs"
        else significance.paired_approximate_randomization)
times = []
for _ in range(2):
    start = time.perf_counter()
    results = test(tables[0], tables[1:], int(sys.argv[3]), 12345)
    times.append(time.perf_counter() - start)
print(json.dumps({"times": times, "results": [r.as_dict() for r in results]}))
"""


def _statistics(path: Path, lines: int, systems: int) -> None:
    # the generated corpus of the tests (this script runs outside pytest's pythonpath)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from workloads import make_corpus, write_corpus

    from bleusuite.cli.io import read_lines
    from bleusuite.cli.options import ScoreOptions
    from bleusuite.cli.parser import build_parser
    from bleusuite.cli.statistics import systems_statistics
    from bleusuite.text import encode_texts
    from bleusuite.text.tokenizers import load_tokenizer

    hyp, streams = make_corpus(lines, systems, seed=3, vocab_size=20_000)
    _, paths = write_corpus(path.parent, hyp, streams)
    reference, outputs = paths[0], [write_corpus(path.parent / "base", hyp, [])[0], *paths[1:]]
    texts = [read_lines(str(p), "hypothesis") for p in outputs]
    token_ids = encode_texts([*texts, [*read_lines(str(reference), "reference")]],
                             load_tokenizer("13a"), False)
    options = ScoreOptions.from_args(build_parser().parse_args(
        ["score", str(reference), "-i", *map(str, outputs)]))
    stats = systems_statistics(token_ids, len(outputs), options)
    np.save(path, np.stack([np.asarray(s["bleu"]) for s in stats]))


def _run(checkout: str, stats: Path, test: str, n: int) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=checkout)
    out = subprocess.run([sys.executable, "-c", _CHILD, str(stats), test, str(n)], env=env,
                         cwd=checkout, capture_output=True, check=True, text=True).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--test", choices=["bs", "ar"], default="bs")
    parser.add_argument("--n", type=int, default=1000, help="resamples or trials")
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--systems", type=int, default=12)
    parser.add_argument("--other", help="another checkout to time side by side")
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parents[1])
    checkouts = {"this": here} | ({"other": args.other} if args.other else {})
    with tempfile.TemporaryDirectory() as folder:
        stats = Path(folder) / "stats.npy"
        _statistics(stats, args.lines, args.systems)
        first: dict[str, list[float]] = {name: [] for name in checkouts}
        second: dict[str, list[float]] = {name: [] for name in checkouts}
        outputs = {}
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                result = _run(checkout, stats, args.test, args.n)
                times = result["times"]
                assert isinstance(times, list)
                first[name].append(times[0])
                second[name].append(times[1])
                outputs[name] = result["results"]
    if args.other and outputs["this"] != outputs["other"]:
        raise SystemExit("the two checkouts give different results")
    print(f"paired {args.test}, {args.systems} systems x {args.lines} sentences, {args.n} "
          f"draws; {args.runs} fresh processes each (milliseconds)")
    for name in checkouts:
        print(f"  {name:6s} first call: median {1e3 * statistics.median(first[name]):6.1f}  "
              f"min {1e3 * min(first[name]):6.1f}   second call: median "
              f"{1e3 * statistics.median(second[name]):6.1f}")


if __name__ == "__main__":
    main()
