"""Token copying with the differentiable BLEU / GLEU losses (Casas et al. 2018, appendix B).

The "model" is a free logits tensor of shape (batch, length, vocab). Its softmax is fed to
``GleuLoss`` / ``BleuLoss`` against a batch of random references, and Adam moves the logits
to copy them. Every few steps the argmax tokens are scored exactly (the soft score of their
one-hot vectors, which equals NLTK's corpus GLEU / ignite's micro BLEU).

The set-up follows the authors' toy script: references of random length in
[max(5, length // 4), length - 1) ending in eos (id 2) and padded with pad (id 0), only
eos_id given to the scorer (a pad is an ordinary token in the hypothesis), logits
initialised uniformly in [0, 1), Adam(betas=(0.9, 0.98)), the minibatch score and the loss
-log(score + 1e-7). To keep it short on a CPU it trains 8 references instead of 40, for 600
steps at lr 0.1 instead of 10000 steps at lr 0.01 (Adam moves each logit by about lr per
step, so both budgets move the logits about as far). ``--batch 40 --steps 10000 --lr
0.01`` is the authors' setting.

How long it takes depends on the machine and on what else runs on it: on the 2-core
development machine, quiet, the default 12 runs took 82 s in all (``--threads 1``, torch
2.13; 1 to 21 s a run, 42 s of it the two runs of length 50 with a vocabulary of 10000),
while a run reported in issue 24 took 11 minutes. The table's ``seconds`` column gives
each run's time.

None of the default runs copies its references perfectly (in the paper only GLEU at
length 10 with a vocabulary of 10000 did): the table gives the best score of the argmax
tokens and the first step at which it was reached.

    python examples/token_copy.py                  # 12 runs, writes token_copy.png
    python examples/token_copy.py --quick          # a few seconds: smoke test
    python examples/token_copy.py --steps 3000 --lengths 10 20 --vocabs 1000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch
from torch.nn.functional import one_hot

try:
    from bleusuite.losses import soft_bleu, soft_gleu
except ImportError:  # running from a source checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bleusuite.losses import soft_bleu, soft_gleu

PAD_ID, EOS_ID = 0, 2
SCORES: dict[str, Callable[..., torch.Tensor]] = {"gleu": soft_gleu, "bleu": soft_bleu}


@dataclass
class Run:
    """The trace of one training run."""

    loss: str
    length: int
    vocab: int
    steps: list[int] = field(default_factory=list)
    soft: list[float] = field(default_factory=list)  # the differentiable score trained on
    exact: list[float] = field(default_factory=list)  # exact score of the argmax tokens
    seconds: float = 0.0

    def best(self) -> tuple[float, int]:
        """The best exact score of the argmax tokens and the first step that reached it."""
        score = max(self.exact)
        return score, self.steps[self.exact.index(score)]


def make_references(
    batch: int, length: int, vocab: int, generator: torch.Generator
) -> torch.Tensor:
    """Random words (ids >= 3), then eos, then pads: as in the authors' toy script."""
    low = max(5, length // 4)
    high = max(low + 1, length - 1)
    lengths = torch.randint(low, high, (batch,), generator=generator)  # includes the eos
    refs = torch.randint(3, vocab, (batch, length), generator=generator)
    positions = torch.arange(length)
    refs[positions >= lengths[:, None] - 1] = PAD_ID
    refs[positions == lengths[:, None] - 1] = EOS_ID
    return refs


def train(loss: str, length: int, vocab: int, args: argparse.Namespace) -> Run:
    generator = torch.Generator().manual_seed(args.seed)
    refs = make_references(args.batch, length, vocab, generator)
    logits = torch.rand(args.batch, length, vocab, generator=generator).requires_grad_()
    optimizer = torch.optim.Adam([logits], lr=args.lr, betas=(0.9, 0.98), eps=1e-8)
    score_fn = SCORES[loss]
    run = Run(loss, length, vocab)
    start = time.perf_counter()
    for step in range(args.steps + 1):
        score = score_fn(logits.softmax(-1), refs, eos_id=EOS_ID, corpus=True)
        if step % args.eval_every == 0 or step == args.steps:
            with torch.no_grad():
                tokens = one_hot(logits.argmax(-1), vocab).to(logits.dtype)
                exact = score_fn(tokens, refs, eos_id=EOS_ID, corpus=True)
            run.steps.append(step)
            run.soft.append(score.item())
            run.exact.append(exact.item())
        if step == args.steps:
            break
        optimizer.zero_grad()
        (-torch.log(score + 1e-7)).backward()
        optimizer.step()
    run.seconds = time.perf_counter() - start
    return run


def plot(runs: list[Run], out: Path) -> bool:
    """Write the score curves to ``out``; False (and no file) without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    losses = sorted({r.loss for r in runs}, key=list(SCORES).index)
    fig, axes = plt.subplots(1, len(losses), figsize=(6.5 * len(losses), 4.5), squeeze=False)
    for ax, loss in zip(axes[0], losses, strict=True):
        for i, run in enumerate(r for r in runs if r.loss == loss):
            color = f"C{i}"
            label = f"length {run.length}, vocab {run.vocab}"
            ax.plot(run.steps, [100 * e for e in run.exact], color=color, label=label)
            ax.plot(run.steps, [100 * s for s in run.soft], color=color, linestyle=":")
        ax.set_title(f"trained on the {loss.upper()} loss (solid: argmax, dotted: soft)")
        ax.set_xlabel("step")
        ax.set_ylabel(f"{loss.upper()} x 100")
        ax.set_ylim(0, 102)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return True


def table(runs: list[Run]) -> str:
    lines = [
        "| loss | length | vocab | soft score (last) | argmax score (last) | argmax (best) "
        "| best at step | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        best, step = run.best()
        lines.append(
            f"| {run.loss} | {run.length} | {run.vocab} | {100 * run.soft[-1]:.1f} "
            f"| {100 * run.exact[-1]:.1f} | {100 * best:.1f} | {step} | {run.seconds:.1f} |"
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=600, help="Adam steps per run (paper: 10000)")
    parser.add_argument("--batch", type=int, default=8, help="references per run (paper: 40)")
    parser.add_argument("--lengths", type=int, nargs="+", default=[10, 20, 50])
    parser.add_argument("--vocabs", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--losses", nargs="+", choices=list(SCORES), default=list(SCORES))
    parser.add_argument("--lr", type=float, default=0.1, help="Adam learning rate (paper: 0.01)")
    parser.add_argument("--eval-every", type=int, default=10, help="steps between evaluations")
    parser.add_argument("--seed", type=int, default=312)
    parser.add_argument("--threads", type=int, default=None, help="torch CPU threads")
    parser.add_argument("--out", type=Path, default=Path("token_copy.png"), help="PNG path")
    parser.add_argument(
        "--quick", action="store_true", help="tiny smoke run: 20 steps, length 10, vocab 50"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.steps, args.batch, args.lengths, args.vocabs = 20, 2, [10], [50]
        args.eval_every = 5
    for name in ("steps", "batch", "eval_every"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1")
    if min(args.lengths) < 6 or min(args.vocabs) < 4:
        parser.error("--lengths must be >= 6 and --vocabs >= 4")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    runs = []
    for loss in args.losses:
        for length in args.lengths:
            for vocab in args.vocabs:
                run = train(loss, length, vocab, args)
                print(
                    f"{loss} length={length} vocab={vocab}: soft {run.soft[-1]:.3f}, "
                    f"argmax {run.exact[-1]:.3f} ({run.seconds:.1f} s)",
                    flush=True,
                )
                runs.append(run)
    print()
    print(table(runs))
    if plot(runs, args.out):
        print(f"\nplot written to {args.out}")
    else:
        print("\nmatplotlib is not installed: no plot (pip install matplotlib)")


if __name__ == "__main__":
    main()
