"""Corpus BLEU of a Ray Data job (issue 29): rows per second with 1 and 2 workers, the
overhead against the same work in one process, and the peak memory of each worker.

The data: ``BLEUSUITE_BENCH_RAY_ROWS`` (default 1,000,000) MT-like rows of text, a
hypothesis and a reference (``workloads.make_corpus`` in ``tests/``: perturbed Zipf
sentences with punctuation, numbers, mixed case and CJK), written once as 16 Parquet files.
Each measurement runs in a fresh process, with a fresh local cluster for the Ray ones (its
start is not timed): one untimed run (every worker imports and runs everything once), then
the best of ``BLEUSUITE_BENCH_RAY_REPEAT`` (default 3) runs.

Two settings: the rows in memory (Arrow tables in one process; Ray's object store, through
``ray.data.from_arrow``, for the Ray runs), and the rows in the Parquet files (read with
``pyarrow.parquet.read_table`` in one process, ``ray.data.read_parquet`` by Ray).

* **one process, same work**: each batch of ``batch_size`` rows counted by the function the
  Ray tasks run, one after the other, on one thread: what Ray distributes, without Ray;
* **one process, the library**: ``bleusuite.corpus_bleu_result`` on the lines (Python
  lists), on every core;
* **Ray, 1 and 2 workers**: ``bleusuite.ray.corpus_scores``, tasks of one CPU, at most 1 or
  2 at a time (``compute=ray.data.TaskPoolStrategy(size=n)``);
* **peak memory per worker**: the largest private resident memory (``RssAnon``, sampled
  every 20 ms; not the object store's shared pages a worker maps) of the cluster's worker
  processes during a job on rows in the object store (Ray's Parquet reader keeps memory of
  its own, which grows with the files a worker reads), for a quarter of the rows and all of
  them (the same batch size), for 8x smaller batches, and for Ray alone (a map that only
  counts rows): the peak follows the batch, not the dataset.

Every run's BLEU must equal the library's to the last digit. Run with ``pytest
benchmarks/bench_ray.py -s`` (or ``tox -e bench`` where Ray is installed); the table is
printed in the run's summary. ``python benchmarks/bench_ray.py run ...`` is one
measurement (the subprocess).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import add_summary_table

ROWS = int(os.environ.get("BLEUSUITE_BENCH_RAY_ROWS", "1000000"))
REPEAT = int(os.environ.get("BLEUSUITE_BENCH_RAY_REPEAT", "3"))
FILES = 16
BATCH_ROWS = 65536  # corpus_scores' default
#: Ray's own processes, not workers of the job
_SYSTEM = ("DashboardAgent", "RuntimeEnvAgent", "_StatsActor", "AutoscalingCoordinator",
           "ActorLocationTracker", "dashboard", "log_monitor")


def write_parquet(folder: Path, rows: int) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    from workloads import make_corpus

    hyp, refs = make_corpus(rows, 1, seed=0, vocab_size=20_000)
    table = pa.table({"line": np.arange(rows), "hyp": hyp, "ref": refs[0]})
    folder.mkdir(parents=True, exist_ok=True)
    step = -(-rows // FILES)
    for k in range(FILES):
        pq.write_table(table.slice(k * step, step), folder / f"part-{k:02d}.parquet")


def _workers(driver: int) -> list[int]:
    """The worker processes of the cluster this driver started (its descendants named
    ``ray::...``, less Ray's own actors and agents)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            parent = next(line.split()[1] for line in status.splitlines()
                          if line.startswith("PPid:"))
            children.setdefault(int(parent), []).append(int(entry.name))
    workers, frontier = [], [driver]
    while frontier:
        for child in children.get(frontier.pop(), []):
            frontier.append(child)
            try:
                name = Path(f"/proc/{child}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if name.startswith("ray::") and not any(word in name for word in _SYSTEM):
                workers.append(child)
    return workers


def _private_bytes(pid: int) -> int:
    """The memory a process holds of its own (``RssAnon``: not the object store's shared
    pages it maps, which ``VmHWM`` counts too)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) * 1024 for line in status.splitlines()
                 if line.startswith("RssAnon:")), 0)


class _PeakSampler(threading.Thread):
    """Samples the private memory of every worker every 20 ms; ``peak``: the largest."""

    def __init__(self, driver: int) -> None:
        super().__init__(daemon=True)
        self.driver, self.peak, self.done = driver, 0, threading.Event()

    def run(self) -> None:
        workers: list[int] = []
        rounds = 0
        while not self.done.is_set():
            if rounds % 25 == 0:  # new workers, twice a second
                workers = _workers(self.driver)
            self.peak = max([self.peak, *map(_private_bytes, workers)])
            rounds += 1
            time.sleep(0.02)


def _best(work: Callable[[], tuple[int, float]], repeat: int) -> dict[str, Any]:
    """``work()`` (rows, BLEU) ``repeat`` times after one untimed run: the best time."""
    rows, bleu = work()  # a warm-up: every worker has imported and run everything once
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        rows, bleu = work()
        best = min(best, time.perf_counter() - start)
    return {"seconds": best, "rows": rows, "bleu": bleu}


def measure(mode: str, folder: str, workers: int, batch_rows: int, files: int) -> dict[str, Any]:
    """One measurement (in its own process): seconds, rows, the BLEU result's score."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = sorted(Path(folder).glob("*.parquet"))[:files]
    start = time.perf_counter()
    tables = [pq.read_table(path) for path in paths]
    read_seconds = time.perf_counter() - start
    if mode == "library":
        import bleusuite

        hyp = [line for t in tables for line in t.column("hyp").to_pylist()]
        refs = [[line] for t in tables for line in t.column("ref").to_pylist()]
        return _best(lambda: (len(hyp), bleusuite.corpus_bleu_result(
            hyp, refs, tokenize="13a", smooth="exp").score), REPEAT)
    if mode == "same-work":
        from bleusuite.ray.columns import read_columns
        from bleusuite.ray.plan import make_plan
        from bleusuite.ray.statistics import block_statistics
        from bleusuite.scores import registry

        plan = make_plan("bleu", {})

        def same_work() -> tuple[int, float]:
            total, rows = np.zeros(14, dtype=np.int64), 0
            for table in tables:
                for begin in range(0, table.num_rows, batch_rows):
                    columns = read_columns(table.slice(begin, batch_rows), ["hyp"], ["ref"])
                    total += block_statistics(columns, plan, 1).tables["bleu"][0].sum(axis=0)
                    rows += columns.rows
            return rows, registry.result("bleu", total, plan.settings("text", "bleu"), "1").score

        return {**_best(same_work, REPEAT), "read_seconds": read_seconds}
    import ray

    from bleusuite.ray import corpus_scores

    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
             logging_level="error")
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    # Ray Data splits a small cluster's CPUs between its operators: on 2 CPUs it ran one
    # task at a time (a CPU-bound control map took as long with 2 workers as with 1)
    context.op_resource_reservation_enabled = False
    if mode == "ray":
        dataset = ray.data.read_parquet([str(p) for p in paths])
    else:  # the rows in the object store already: a worker's memory is its own work's
        table = pa.concat_tables(tables)
        dataset = ray.data.from_arrow([table.slice(begin, BATCH_ROWS)
                                       for begin in range(0, table.num_rows, BATCH_ROWS)])

    def ray_alone() -> tuple[int, float]:  # a map that returns the batch's row count
        batches = dataset.map_batches(lambda batch: {"rows": np.array([batch.num_rows])},
                                      batch_format="pyarrow", batch_size=batch_rows,
                                      compute=ray.data.TaskPoolStrategy(size=workers)
                                      ).iter_batches(batch_size=None)
        return sum(int(batch["rows"].sum()) for batch in batches), float("nan")

    def scored() -> tuple[int, float]:
        scores = corpus_scores(dataset, hypotheses="hyp", references=["ref"],
                               batch_size=batch_rows, map_batches_args={
                                   "compute": ray.data.TaskPoolStrategy(size=workers)})
        return scores.rows, scores["hyp"]["bleu"].score

    sampler = _PeakSampler(os.getpid())
    sampler.start()
    result = _best(ray_alone if mode == "memory-ray-only" else scored, REPEAT)
    sampler.done.set()
    sampler.join()
    ray.shutdown()
    return {**result, "peak_worker_bytes": sampler.peak}


def _run(mode: str, folder: Path, workers: int = 1, batch_rows: int = BATCH_ROWS,
         files: int = FILES) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "run", mode, str(folder), str(workers), str(batch_rows),
         str(files)], capture_output=True, text=True, check=True,
        env={**os.environ, "RAY_DEDUP_LOGS": "0"})
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_rows_per_second_and_memory(tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest.importorskip("ray.data")
    folder = tmp_path_factory.mktemp("bench_ray") / "rows"
    write_parquet(folder, ROWS)
    library = _run("library", folder)
    same = _run("same-work", folder)
    parquet = {n: _run("ray", folder, workers=n) for n in (1, 2)}
    stored = {n: _run("memory", folder, workers=n) for n in (1, 2)}
    memory = {
        "Ray alone (a map that counts rows)": _run("memory-ray-only", folder, workers=2),
        "corpus_scores, a quarter of the rows": _run("memory", folder, 2, files=FILES // 4),
        "corpus_scores, all the rows": stored[2],
        f"corpus_scores, batches of {BATCH_ROWS // 8} rows":
            _run("memory", folder, 2, batch_rows=BATCH_ROWS // 8),
    }
    for run in (same, *parquet.values(), *stored.values()):
        assert run["bleu"] == library["bleu"] and run["rows"] == ROWS
    from_parquet = {"seconds": same["seconds"] + same["read_seconds"], "rows": ROWS}

    def line(name: str, run: dict[str, Any], baseline: dict[str, Any]) -> str:
        return (f"    {name:38s} {run['seconds']:7.2f} s {run['rows'] / run['seconds']:10,.0f} "
                f"rows/s {baseline['seconds'] / run['seconds']:6.2f}x")

    add_summary_table(f"bleusuite.ray: corpus BLEU of {ROWS:,} MT-like rows (text, 1 ref)", [
        "rows in memory (Arrow tables; Ray: in its object store, from_arrow)",
        line("one process, same work, 1 thread", same, same),
        line("one process, corpus_bleu_result (lists)", library, same),
        line("Ray, 1 worker", stored[1], same),
        line("Ray, 2 workers", stored[2], same),
        "from 16 Parquet files (pyarrow.parquet.read_table; Ray: read_parquet)",
        line("one process, same work, 1 thread", from_parquet, from_parquet),
        line("Ray, 1 worker", parquet[1], from_parquet),
        line("Ray, 2 workers", parquet[2], from_parquet),
        "peak private memory of a worker (RssAnon), rows in the object store, 2 workers",
        *(f"    {name:46s} {run['rows']:>9,} rows {run['peak_worker_bytes'] / 2**20:6.0f} MiB"
          for name, run in memory.items()),
    ])


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        mode, folder, workers, batch_rows, files = sys.argv[2:7]
        print(json.dumps(measure(mode, folder, int(workers), int(batch_rows), int(files))))
    else:
        raise SystemExit("usage: python benchmarks/bench_ray.py run MODE FOLDER WORKERS "
                         "BATCH_ROWS FILES (or: pytest benchmarks/bench_ray.py -s)")
