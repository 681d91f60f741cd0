"""Ctrl-C stops a long compiled call (issue 46, item 7).

The compiled loops run with the GIL released; they poll for signals themselves (on the main
thread, every 20 ms at most) and for :func:`bleusuite._native.stop_calls` (the helper
threads of an interrupted call), free what they hold and raise in their own thread.

Each case runs in a subprocess whose work would take minutes uninterrupted: the SIGINT sent
after a second must end it with KeyboardInterrupt long before the subprocess's timeout (a
call that only noticed the signal at its end would run into the timeout). The subprocess
prints how long the interrupt took to arrive. tracemalloc (which sees the C part's
``PyMem_Raw*`` scratch) checks that an interrupted call leaves nothing allocated.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from compiled_part import require_compiled

#: a call's inputs and the call (``run()``), each far longer than TIMEOUT uninterrupted
CASES = {
    "sentence_ter": """
words = [f"w{rng.randrange(3000)}" for _ in range(20000)]
hyp = [w if rng.random() < 0.8 else f"v{rng.randrange(3000)}" for w in words]
hyp = hyp[5000:] + hyp[:5000]
hyps, refs = [" ".join(hyp)] * 12, [[" ".join(words)]] * 12
def run():
    bleusuite.sentence_ter(hyps, refs)
def warm_up():
    bleusuite.sentence_ter([hyps[0][:2000]], [[refs[0][0][:2000]]])
""",
    "rougeLsum": """
def document():
    return "\\n".join(" ".join(f"w{rng.randrange(3000)}" for _ in range(12))
                     for _ in range(20000))
docs, refs = [document() for _ in range(8)], [[document()] for _ in range(8)]
def run():
    bleusuite.sentence_rouge(docs, refs, rouge_type="rougeLsum")
def warm_up():
    bleusuite.sentence_rouge([docs[0][:5000]], [[refs[0][0][:5000]]], rouge_type="rougeLsum")
""",
    "eed": """
from bleusuite.scores.eed import reference_scores
hyps = ["".join(rng.choice("ab c") for _ in range(100000)) for _ in range(12)]
refs = ["".join(rng.choice("ab c") for _ in range(100000)) for _ in range(12)]
def run():
    reference_scores(hyps, refs)
def warm_up():
    reference_scores([hyps[0][:500]], [refs[0][:500]])
""",
    # the images' sums of CIDEr-D (on helper threads with 2): a long hypothesis met by
    # many references, image after image
    "cider": """
from bleusuite.scores.cider.compiled_sums import compiled_cider_text_scores
hyp = " ".join(f"w{rng.randrange(3000)}" for _ in range(10000))
hyps, refs = [[hyp] for _ in range(600)], [["w1"] * 1000 for _ in range(600)]
def run():
    compiled_cider_text_scores(hyps, refs, max_order=4, sigma=6.0)
def warm_up():
    compiled_cider_text_scores(hyps[:2], refs[:2], max_order=4, sigma=6.0)
""",
}

# a process started in the background by a shell without job control (``cmd &``) inherits
# SIGINT ignored, and Python then installs no handler for it: each script installs Python's
# own, so that the test does not depend on how the test run was started
SCRIPT = """
import gc, os, random, signal, sys, threading, time, tracemalloc
signal.signal(signal.SIGINT, signal.default_int_handler)
import bleusuite
rng = random.Random(7)
{case}
def interrupt(delay, sent):
    time.sleep(delay)
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)

tracemalloc.start()
warm_up()  # the caches a first call fills (tokenizers, numbering tables)
for attempt in range(2):
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    sent = []
    threading.Thread(target=interrupt, args=(1.0, sent), daemon=True).start()
    try:
        run()
        print("finished")
        sys.exit(1)
    except KeyboardInterrupt:
        latency = time.monotonic() - sent[0]
    gc.collect()
    left = tracemalloc.get_traced_memory()[0] - before
    print(f"interrupted after {{latency:.3f}} s, {{left}} bytes left")
"""

TIMEOUT = 60


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_stops_a_long_compiled_call(case, threads):
    require_compiled()
    environment = {"BLEUSUITE_NUM_THREADS": threads, "BLEUSUITE_NATIVE": "1"}
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(case=CASES[case])],
                            capture_output=True, timeout=TIMEOUT, text=True,
                            env={**os.environ, **environment})
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.split("\n")[:-1]
    assert len(lines) == 2 and all(line.startswith("interrupted after") for line in lines), \
        result.stdout
    for line in lines:  # the scratch of the call (hundreds of MB for TER) is freed
        assert int(line.split(", ")[1].split()[0]) < 2**20, line


IN_ORDER = """
import os, random, signal, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)
import bleusuite
from bleusuite import threads
rng = random.Random(7)
words = [f"w{rng.randrange(3000)}" for _ in range(20000)]
hyp = [w if rng.random() < 0.8 else f"v{rng.randrange(3000)}" for w in words]
hyp = hyp[5000:] + hyp[:5000]
def work(item):
    return bleusuite.sentence_ter([" ".join(hyp)] * 12, [[" ".join(words)]] * 12)
def interrupt():
    time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=interrupt, daemon=True).start()
order = threads.InOrder(work)
order.add(0)
order.add(1)
try:
    order.results()
    print("finished")
except KeyboardInterrupt:
    # the thread's compiled call was stopped: it ends at once (uninterrupted, it would run
    # on for a minute)
    helpers = [t for t in threading.enumerate() if t.name == "bleusuite-in-order"]
    for helper in helpers:
        helper.join(timeout=20)
    print("interrupted", [t.name for t in helpers if t.is_alive()])
"""


def test_ctrl_c_stops_work_run_in_order_beside_the_caller():
    """:class:`bleusuite.threads.InOrder`: the caller waits in ``results()`` while its thread
    runs a long compiled call; Ctrl-C stops that call too, and the thread has ended when
    the interrupt reaches the caller."""
    require_compiled()
    result = subprocess.run([sys.executable, "-c", IN_ORDER], capture_output=True,
                            timeout=TIMEOUT, text=True,
                            env={**os.environ, "BLEUSUITE_NUM_THREADS": "1"})
    assert result.stdout == "interrupted []\n", result.stdout + result.stderr
