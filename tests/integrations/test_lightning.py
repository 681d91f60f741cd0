"""``bleusuite.torchmetrics`` inside a real ``lightning.Trainer``: DDP on the CPU with two gloo
processes, each with its own share of the data in batches of its own sizes (and, in
validation, its own number of batches). The logged epoch scores must be the corpus score of
all the data (``bleusuite.corpus_bleu`` / ``corpus_gleu``) to 1e-12, not one process's.

Lightning's DDP launcher starts the second process by running the script again, so the
trainer runs in a script of its own (written below), started once per test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import bleusuite

pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
pytest.importorskip("lightning")

ROOT = Path(__file__).resolve().parents[2]

#: the sentences: token ids (training, padded tensors) and text (validation)
SEED = 11


def _data() -> tuple[list[list[int]], list[list[list[int]]], list[str], list[list[str]]]:
    rng = np.random.default_rng(SEED)
    size = 53
    hyps = [rng.integers(2, 7, rng.integers(0, 12)).tolist() for _ in range(size)]
    refs = [[rng.integers(2, 7, rng.integers(1, 12)).tolist()
             for _ in range(rng.integers(1, 4))] for _ in range(size)]
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "."]
    text = [" ".join(rng.choice(words, rng.integers(0, 9))) for _ in range(size)]
    text_refs = [[" ".join(rng.choice(words, rng.integers(1, 9)))
                  for _ in range(rng.integers(1, 3))] for _ in range(size)]
    return hyps, refs, text, text_refs


SCRIPT = textwrap.dedent('''
    import json, sys
    import torch
    import lightning as L
    from lightning.pytorch.strategies import DDPStrategy
    from bleusuite.torchmetrics import BLEUScore, GLEUScore
    from test_lightning import _data

    HYPS, REFS, TEXT, TEXT_REFS = _data()
    SPLIT = 30  # rank 0 takes the first 30 sentences, rank 1 the other 23

    def padded(rows, width):
        out = torch.zeros((len(rows), width), dtype=torch.int64)  # 0 is padding
        for i, row in enumerate(rows):
            out[i, : len(row)] = torch.tensor(row, dtype=torch.int64)
        return out

    class Shard:
        """One process's sentences, in batches of its own size: no sampler, no repeats."""

        def __init__(self, rank, size, count, text):
            lo, hi = (0, SPLIT) if rank == 0 else (SPLIT, len(HYPS))
            self.rows = list(range(lo, hi))
            self.size, self.count, self.text = size, count, text

        def __len__(self):
            return self.count

        def __iter__(self):
            for k in range(self.count):
                rows = self.rows[k * self.size : (k + 1) * self.size] if k < self.count - 1 \\
                    else self.rows[k * self.size :]
                if self.text:
                    yield [TEXT[i] for i in rows], [TEXT_REFS[i] for i in rows]
                else:
                    refs = [REFS[i] + [[]] * (3 - len(REFS[i])) for i in rows]
                    yield (padded([HYPS[i] for i in rows], 12),
                           torch.stack([padded(r, 12) for r in refs]))

    class Module(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.layer = torch.nn.Linear(1, 1)
            self.train_bleu = BLEUScore(smooth=True, pad_id=0)
            self.val_bleu = BLEUScore(tokenize="13a")
            self.val_gleu = GLEUScore(tokenize="13a")

        def training_step(self, batch, index):
            hyp, refs = batch
            self.train_bleu.update(hyp, refs)
            self.log("train_bleu", self.train_bleu, on_step=False, on_epoch=True,
                     batch_size=len(hyp))
            return self.layer(torch.ones(1, 1)).sum()

        def validation_step(self, batch, index):
            preds, target = batch
            self.val_bleu.update(preds, target)
            self.val_gleu.update(preds, target)
            self.log("val_bleu", self.val_bleu, batch_size=len(preds))
            self.log("val_gleu", self.val_gleu, batch_size=len(preds))

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.0)

    if __name__ == "__main__":
        trainer = L.Trainer(accelerator="cpu", devices=2,
                            strategy=DDPStrategy(process_group_backend="gloo"),
                            max_epochs=1, num_sanity_val_steps=0, logger=False,
                            enable_checkpointing=False, enable_progress_bar=False,
                            enable_model_summary=False, use_distributed_sampler=False)
        rank = trainer.global_rank
        # training: the same number of batches (DDP syncs gradients each step), not the same
        # sizes; validation: 3 batches of 10 against 6 of 4
        train = Shard(rank, 8 if rank == 0 else 6, 4, text=False)
        val = Shard(rank, 10 if rank == 0 else 4, 3 if rank == 0 else 6, text=True)
        model = Module()
        trainer.fit(model, train_dataloaders=train, val_dataloaders=val)
        logged = {k: float(v) for k, v in trainer.callback_metrics.items()}
        dtypes = {k: str(v.dtype) for k, v in trainer.callback_metrics.items()}
        if rank == 0:
            json.dump({"logged": logged, "dtypes": dtypes}, open(sys.argv[1], "w"))
''')


def test_lightning_ddp_logs_the_exact_corpus_scores(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT, encoding="utf-8")
    out = tmp_path / "logged.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parent),
                                                        str(ROOT / "tests"), str(ROOT)]),
           "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, str(script), str(out)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text(encoding="utf-8"))
    logged, dtypes = result["logged"], result["dtypes"]
    hyps, refs, text, text_refs = _data()
    expected = {
        "train_bleu": bleusuite.corpus_bleu(hyps, refs, smooth="torchmetrics_smooth",
                                            ref_length="closest_first"),
        # torchmetrics' BLEUScore: no smoothing (text alone would take sacrebleu's exp)
        "val_bleu": bleusuite.corpus_bleu(text, text_refs, tokenize="13a", smooth="no_smooth",
                                          ref_length="closest_first"),
        "val_gleu": bleusuite.corpus_gleu(text, text_refs, tokenize="13a"),
    }
    for name, value in expected.items():
        assert abs(logged[name] - float(value)) <= 1e-12, (name, logged[name], float(value))
        assert dtypes[name] == "torch.float64"
    # one process's share alone gives another number: the states were summed
    first = bleusuite.corpus_bleu(hyps[:30], refs[:30], smooth="torchmetrics_smooth",
                                  ref_length="closest_first")
    assert abs(logged["train_bleu"] - float(first)) > 1e-6
