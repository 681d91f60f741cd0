#!/usr/bin/env bash
# The device check of the GPU work (issues 43 and 45), one prepared run well inside 10
# minutes on an H100/H200 machine (torch with Triton and CuPy): build the compiled part, run
# CIDEr-D's device tests and its GPU benchmark first, then every GPU test (the Triton
# counting strategy among them, compiled for the device, not interpreted) and the BLEU GPU
# benchmark with its triton column; every log goes to $OUT.
#   device run:  bash tools/gpu_check.sh
# Test wheels missing there (nltk, pytorch-ignite, jiwer, ...) travel in a carried folder
# named by WHEELS (installed with --no-deps into /tmp/site); SITE names a carried folder of
# plain packages put on the path (pycocoevalcap without its jars).
set -uo pipefail
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONHASHSEED=0
# the xdist workers share one GPU: JAX must not take 75% of its memory in each
export XLA_PYTHON_CLIENT_PREALLOCATE=false
unset TRITON_INTERPRET
# every step's time limit is cut to what is left of BUDGET seconds (default 540)
end=$((SECONDS + ${BUDGET:-540}))
limit() { local left=$((end - SECONDS)); echo $(( left < $1 ? (left > 1 ? left : 1) : $1 )); }
extra=""
if [ -n "${WHEELS:-}" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site "$WHEELS"/*.whl 2>&1 | tail -3
    extra=/tmp/site
fi
[ -n "${SITE:-}" ] && extra="$extra:$PWD/$SITE"
{ nvidia-smi; python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"; } \
    > "$OUT/00-machine.txt" 2>&1
python3 setup.py -q build_ext --inplace -j 16 > "$OUT/01-build.log" 2>&1 || \
    python3 setup.py -q build_ext --inplace >> "$OUT/01-build.log" 2>&1
export PYTHONPATH=$PWD${extra:+:$extra}
timeout $(limit 120) python3 -m pytest -q -rs -p no:randomly tests/captioning/test_cider_device.py \
    > "$OUT/02-cider-tests.log" 2>&1
timeout $(limit 150) python3 -m pytest benchmarks/bench_gpu_cider.py -p no:randomly -rs -s \
    > "$OUT/03-cider-bench.log" 2>&1
timeout $(limit 200) python3 -m pytest -m gpu -rs -q -p no:randomly -n 8 tests \
    > "$OUT/04-gpu-tests.log" 2>&1
BLEUSUITE_COUNTING=triton timeout $(limit 90) python3 -m pytest -q -p no:randomly \
    tests/counting/test_triton_counts.py > "$OUT/05-triton-tests.log" 2>&1
timeout $(limit 200) python3 -m pytest benchmarks/bench_gpu.py -p no:randomly -rs -s \
    > "$OUT/06-bleu-bench.log" 2>&1
tail -n 3 "$OUT"/0[2-6]*.log
