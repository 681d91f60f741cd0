#!/usr/bin/env bash
# The GPU issue's device check (issue 43), one prepared run well inside 10 minutes on an
# H100/H200 machine (torch with Triton and CuPy): build the compiled part, run the GPU
# tests (the Triton counting strategy among them, compiled for the device, not
# interpreted) and the GPU benchmark with its triton column; every log goes to $OUT.
#   device run:  bash tools/gpu_check.sh
# Missing pure-Python test wheels (hypothesis, pytest-benchmark, ...) travel in a carried
# folder named by WHEELS (pip install --no-index --find-links "$WHEELS").
set -uo pipefail
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONHASHSEED=0
unset TRITON_INTERPRET
if [ -n "${WHEELS:-}" ]; then
    python -m pip install --quiet --no-index --find-links "$WHEELS" -r requirements/test.txt \
        2>&1 | tee "$OUT/pip.log"
fi
nvidia-smi 2>&1 | tee "$OUT/nvidia-smi.txt"
python setup.py -q build_ext --inplace 2>&1 | tee "$OUT/build.log"
export PYTHONPATH=$PWD
timeout 200 python -m pytest -m gpu -rs -q -p no:randomly 2>&1 | tee "$OUT/pytest-gpu.log"
BLEUSUITE_COUNTING=triton timeout 120 python -m pytest -q -p no:randomly \
    tests/counting/test_triton_counts.py 2>&1 | tee "$OUT/pytest-triton.log"
timeout 200 python -m pytest benchmarks/bench_gpu.py -p no:randomly -rs -s \
    2>&1 | tee "$OUT/bench-gpu.log"
