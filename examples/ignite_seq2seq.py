"""Evaluate a small seq2seq model with Ignite and ``bleusuite.metrics``.

A tiny GRU encoder-decoder learns a toy "translation" (reverse the sentence and map every
word through a fixed permutation of the vocabulary) for a few seconds on the CPU; after
each training epoch an evaluator Engine decodes a validation set greedily and reports BLEU
and GLEU (macro and micro) computed directly on the padded token-id tensors: the metrics
drop everything from the first ``EOS`` on and ignore ``PAD``, so no detokenisation and no
Python lists are needed.

    python examples/ignite_seq2seq.py            # about 15 s on one CPU core
    python examples/ignite_seq2seq.py --quick    # a few seconds (used by the tests)

Needs torch, pytorch-ignite and tqdm (for Ignite's ProgressBar).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import torch
from ignite.engine import Engine, Events
from ignite.handlers import ProgressBar
from torch import nn

from bleusuite.metrics import Bleu, Gleu

PAD, BOS, EOS = 0, 1, 2
VOCAB = 24  # ids 3..23 are words
MIN_LEN, MAX_LEN = 3, 9


def make_pairs(count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Source and target ids (count, MAX_LEN + 1): words, then EOS, then PAD."""
    words = torch.randperm(VOCAB - 3, generator=torch.Generator().manual_seed(0)) + 3
    mapping = torch.arange(VOCAB)
    mapping[3:] = words  # the "translation" of word w is mapping[w]
    lengths = torch.randint(MIN_LEN, MAX_LEN + 1, (count,), generator=generator)
    src = torch.full((count, MAX_LEN + 1), PAD, dtype=torch.int64)
    tgt = torch.full((count, MAX_LEN + 1), PAD, dtype=torch.int64)
    for i, n in enumerate(lengths.tolist()):
        sentence = torch.randint(3, VOCAB, (n,), generator=generator)
        src[i, :n], src[i, n] = sentence, EOS
        tgt[i, :n], tgt[i, n] = mapping[sentence.flip(0)], EOS
    return src, tgt


class Seq2Seq(nn.Module):
    """A GRU encoder and a GRU decoder that sees the encoder's last state."""

    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, hidden, padding_idx=PAD)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.decoder = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def encode(self, src: torch.Tensor) -> torch.Tensor:
        _, state = self.encoder(self.embed(src))
        return state

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        """Teacher-forced logits (B, T, VOCAB) for the target ``tgt`` (B, T)."""
        bos = torch.full((tgt.shape[0], 1), BOS, dtype=tgt.dtype)
        inputs = torch.cat([bos, tgt[:, :-1]], dim=1)
        hidden, _ = self.decoder(self.embed(inputs), self.encode(src))
        logits: torch.Tensor = self.out(hidden)
        return logits

    @torch.no_grad()
    def greedy(self, src: torch.Tensor, steps: int) -> torch.Tensor:
        """Greedy decoding: token ids (B, steps); the metrics cut each row at its EOS."""
        state = self.encode(src)
        token = torch.full((src.shape[0], 1), BOS, dtype=torch.int64)
        outputs = []
        for _ in range(steps):
            hidden, state = self.decoder(self.embed(token), state)
            token = self.out(hidden).argmax(dim=-1)
            outputs.append(token)
        return torch.cat(outputs, dim=1)


def batches(src: torch.Tensor, tgt: torch.Tensor, size: int) -> list[tuple[Any, Any]]:
    return [(src[i : i + size], tgt[i : i + size]) for i in range(0, len(src), size)]


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds of training")
    parser.add_argument("--epochs", type=int, default=None)
    args = parser.parse_args(argv)
    epochs = args.epochs or (2 if args.quick else 8)
    train_size, valid_size = (768, 128) if args.quick else (4096, 512)

    torch.manual_seed(0)
    torch.set_num_threads(1)  # a model this small is fastest on one core
    generator = torch.Generator().manual_seed(1)
    train = batches(*make_pairs(train_size, generator), size=64)
    valid = batches(*make_pairs(valid_size, generator), size=128)

    model = Seq2Seq()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    loss_fn = nn.CrossEntropyLoss(ignore_index=PAD)

    def train_step(engine: Engine, batch: tuple[torch.Tensor, torch.Tensor]) -> float:
        model.train()
        src, tgt = batch
        optimizer.zero_grad()
        loss = loss_fn(model(src, tgt).reshape(-1, VOCAB), tgt.reshape(-1))
        loss.backward()
        optimizer.step()
        return loss.item()

    def eval_step(engine: Engine, batch: tuple[torch.Tensor, torch.Tensor]) -> dict[str, Any]:
        model.eval()
        src, tgt = batch
        return {"y_pred": model.greedy(src, steps=MAX_LEN + 1), "y": tgt}

    trainer, evaluator = Engine(train_step), Engine(eval_step)
    # the same four metrics an ignite.metrics.Bleu user would attach, but on token ids
    Bleu(ngram=4, smooth="smooth1", pad_id=PAD, eos_id=EOS).attach(evaluator, "bleu_macro")
    Bleu(ngram=4, average="micro", pad_id=PAD, eos_id=EOS).attach(evaluator, "bleu_micro")
    Gleu(pad_id=PAD, eos_id=EOS).attach(evaluator, "gleu_macro")
    Gleu(average="micro", pad_id=PAD, eos_id=EOS).attach(evaluator, "gleu_micro")
    ProgressBar(persist=False).attach(trainer, output_transform=lambda loss: {"loss": loss})
    ProgressBar(persist=False, desc="evaluating").attach(evaluator)

    @trainer.on(Events.EPOCH_COMPLETED)
    def evaluate(engine: Engine) -> None:
        evaluator.run(valid)
        scores = " ".join(f"{k}={float(v):.4f}" for k, v in evaluator.state.metrics.items())
        print(f"epoch {engine.state.epoch}: {scores}", flush=True)

    start = time.perf_counter()
    trainer.run(train, max_epochs=epochs)
    print(f"done in {time.perf_counter() - start:.1f} s")
    return {k: float(v) for k, v in evaluator.state.metrics.items()}


if __name__ == "__main__":
    main()
