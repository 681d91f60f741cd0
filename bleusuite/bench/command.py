"""The ``bleusuite bench`` command: its options, and the run that prints the table."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from bleusuite.bench.measure import format_table, measure
from bleusuite.bench.peers import BACKEND_UNAVAILABLE, entries
from bleusuite.bench.plot import save_plot
from bleusuite.bench.tasks import BACKENDS, PEERS, TASKS, Inputs, missing, zipf_batch

__all__ = ["add_arguments", "main", "run"]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer; got {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``bleusuite bench`` (their ``dest`` names avoid the top-level
    command's)."""
    size = parser.add_argument_group("the batch")
    size.add_argument("--batch", type=_positive, default=64, metavar="B",
                      help="sentences in the batch (default: 64)")
    size.add_argument("--length", type=_positive, default=512, metavar="L",
                      help="token ids per sentence (default: 512)")
    size.add_argument("--refs", type=_positive, default=1, metavar="R",
                      help="references per sentence (default: 1)")
    size.add_argument("--vocab", type=_positive, default=50_000, metavar="V",
                      help="ids are drawn from a Zipf law folded into V values (default: 50000)")
    size.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    what = parser.add_argument_group("what to run")
    what.add_argument(
        "--backend", dest="bench_backends", action="append", choices=BACKENDS, metavar="NAME",
        help="bleusuite backend to time; repeat for several (default: numpy). "
        f"One of: {', '.join(BACKENDS)} ('torch' is a CPU tensor scored through NumPy "
        "views, 'torch-kernels' the same with torch's own CPU kernels, 'jax' jax.jit on "
        "JAX's default device with 64-bit types)",
    )
    what.add_argument(
        "--peer", dest="bench_peers", action="append", choices=(*PEERS, "none"),
        metavar="NAME",
        help=f"peer library; repeat for several (default: every one installed: "
        f"{', '.join(PEERS)}; 'none' for bleusuite alone)",
    )
    what.add_argument("--metric", dest="bench_metrics", action="append",
                      choices=("bleu", "gleu"), help="bleu or gleu (default: both)")
    what.add_argument("--scope", dest="bench_scopes", action="append",
                      choices=("sentence", "corpus"),
                      help="per-sentence or corpus scores (default: both)")
    what.add_argument("--repeat", type=_positive, default=3, metavar="N",
                      help="timed calls per implementation; the best is kept (default: 3)")
    output = parser.add_argument_group("output")
    output.add_argument("--plot", metavar="PATH", default=None,
                        help="also save a bar chart of the times (PNG, SVG, PDF: by suffix; "
                        "needs matplotlib)")
    output.add_argument("--no-progress", dest="bench_progress", action="store_false",
                        help="no progress bar (it is drawn on stderr only when stderr is a "
                        "terminal)")


def run(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``bleusuite bench`` with parsed ``args``; print the table on ``stdout``.

    Returns:
        0 when every score agrees, 1 when one does not, 2 when nothing can be run (a
        ``--backend`` that is not available here, or ``--plot`` without matplotlib).
    """
    out = sys.stdout if stdout is None else stdout
    chosen_backends = list(dict.fromkeys(args.bench_backends or ["numpy"]))
    for backend in chosen_backends:
        reason = BACKEND_UNAVAILABLE[backend]()
        if reason is not None:
            print(f"bleusuite bench: error: --backend {backend}: {reason}", file=sys.stderr)
            return 2
    if args.plot is not None and missing("matplotlib")() is not None:
        print("bleusuite bench: error: --plot needs matplotlib (pip install matplotlib)",
              file=sys.stderr)
        return 2
    peers = [] if "none" in (args.bench_peers or []) else (args.bench_peers or list(PEERS))
    metrics = args.bench_metrics or ["bleu", "gleu"]
    scopes = args.bench_scopes or ["sentence", "corpus"]
    tasks = [task for task in TASKS if task.metric in metrics and task.scope in scopes]
    hyp, refs = zipf_batch(args.batch, args.length, vocab=args.vocab, refs=args.refs,
                           seed=args.seed)
    inputs = Inputs(hyp, refs)
    # a bar is for a person watching: not into a pipe or a log file (as `bleusuite score`)
    progress = args.bench_progress and sys.stderr.isatty()
    measurements = measure(entries(tasks, chosen_backends, peers), inputs, args.repeat,
                           progress=progress)
    print(format_table(measurements, inputs, args.repeat), file=out)
    if args.plot is not None:
        title = (f"{args.batch} x {args.length} token ids, {args.refs} "
                 f"reference{'s' if args.refs > 1 else ''}")
        print(f"\nplot saved to {save_plot(measurements, args.plot, title)}", file=out)
    disagreeing = [m for m in measurements if not m.agrees]
    for m in disagreeing:
        print(f"bleusuite bench: {m.entry.task.label}, {m.entry.name}: scores differ from "
              f"bleusuite's by {m.max_diff:.3g} (allowed {m.entry.atol:g})", file=sys.stderr)
    return 1 if disagreeing else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bleusuite.bench [options]`` (or ``bleusuite.bench``): the same as
    ``bleusuite bench``."""
    parser = argparse.ArgumentParser(
        prog="bleusuite bench",
        description="Time bleusuite against the BLEU/GLEU libraries installed here "
        "(NLTK, sacrebleu, pytorch-ignite, torchmetrics) on one batch of random token ids, "
        "check that the scores agree, and print a table (ms, speedup over NLTK).",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))
