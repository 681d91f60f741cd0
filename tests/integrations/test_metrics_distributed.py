"""``bleusuite.metrics`` across processes: two CPU processes (gloo, spawned by Ignite's
``idist.Parallel``) on uneven shards give the single-process result on all the data.

Every metric (Bleu with Ignite's, NLTK's and sacrebleu's smoothing, Gleu) in both averages
is run for two epochs in one spawn (spawning is the expensive part): in the first epoch
rank 0 gets three batches and rank 1 one batch, in different input forms (token-id tensors
and token lists); in the second, rank 1 gets nothing at all. Micro results must be equal
(summed integer statistics), macro results equal to 1e-12 (float64 sums in another order).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
idist = pytest.importorskip("ignite.distributed")

from parity import to_lists  # noqa: E402
from test_metrics import as_ids, make_cases  # noqa: E402

from bleusuite.metrics import Bleu, Gleu  # noqa: E402

WORLD_SIZE = 2

# name -> (class, constructor arguments)
CONFIGS: dict[str, tuple[type, dict[str, Any]]] = {
    f"{cls.__name__}-{smooth or 'gleu'}-{average}": (
        cls, {"average": average, **({"smooth": smooth} if smooth else {})}
    )
    for average in ("macro", "micro")
    for cls, smooth in (
        (Bleu, "no_smooth"), (Bleu, "smooth1"), (Bleu, "nltk_smooth2"), (Bleu, "smooth2"),
        (Bleu, "method3"), (Bleu, "exp"), (Gleu, None),
    )
}


def epoch_cases(epoch: int) -> list:
    return make_cases(4242 + epoch, 37)


def shards(epoch: int, rank: int) -> list:
    """This rank's batches: uneven, and empty for rank 1 in the second epoch."""
    cases = epoch_cases(epoch)
    if epoch == 0:
        cuts = [[(0, 5), (5, 17), (17, 20)], [(20, 37)]][rank]
    else:
        cuts = [[(0, 30), (30, 37)], []][rank]
    return [cases[a:b] for a, b in cuts]


def update(metric: Any, batch: list, k: int) -> None:
    """Alternate the input forms: padded token-id tensors, token lists."""
    if k % 2:
        metric.update(to_lists(batch))
    else:
        hyp, refs = as_ids(batch, k, pad_id=0)
        metric.update((torch.from_numpy(hyp), torch.from_numpy(refs)))


def run_epochs(rank: int) -> dict[str, float]:
    results = {}
    for name, (cls, kwargs) in CONFIGS.items():
        metric = cls(pad_id=0, **kwargs)
        for epoch in range(2):
            metric.reset()
            for k, batch in enumerate(shards(epoch, rank)):
                update(metric, batch, k + rank)
            results[f"{name}/epoch{epoch}"] = float(metric.compute())
    return results


def _worker(local_rank: int, out_dir: str) -> None:
    torch.set_num_threads(1)
    assert idist.get_world_size() == WORLD_SIZE
    rank = idist.get_rank()
    results = run_epochs(rank)
    Path(out_dir, f"rank{rank}.json").write_text(json.dumps(results))


def _gloo_available() -> bool:
    import torch.distributed as dist

    return dist.is_available() and dist.is_gloo_available()


@pytest.mark.skipif(not _gloo_available(), reason="torch.distributed with gloo is unavailable")
def test_two_gloo_processes_give_the_single_process_result(tmp_path: Path) -> None:
    with idist.Parallel(
        backend="gloo", nproc_per_node=WORLD_SIZE, init_method=f"file://{tmp_path}/store"
    ) as parallel:
        parallel.run(_worker, str(tmp_path))

    expected = {}
    for name, (cls, kwargs) in CONFIGS.items():
        metric = cls(**kwargs)
        for epoch in range(2):
            metric.reset()
            metric.update(to_lists(epoch_cases(epoch)))
            expected[f"{name}/epoch{epoch}"] = float(metric.compute())

    for rank in range(WORLD_SIZE):
        results = json.loads((tmp_path / f"rank{rank}.json").read_text())
        assert results.keys() == expected.keys()
        for key, value in expected.items():
            if "micro" in key:
                assert results[key] == value, f"rank {rank} {key}: {results[key]!r} != {value!r}"
            else:
                assert abs(results[key] - value) <= 1e-12, f"rank {rank} {key}"
    assert len({v for k, v in expected.items() if "Bleu" in k}) > 4  # not all 0 or 1
