"""A script run as evaluate's users run it offline: a fresh process with the hub and the
datasets server off and empty caches (the evaluate modules' tests of loading)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_offline(script: str, tmp_path: Path) -> Any:
    """What ``script`` writes as JSON to the file named by its first argument, run in a
    fresh process offline, with its caches under ``tmp_path``."""
    out = tmp_path / "out.json"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "HF_EVALUATE_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf"),
           "HF_MODULES_CACHE": str(tmp_path / "modules"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", script, str(out)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))
