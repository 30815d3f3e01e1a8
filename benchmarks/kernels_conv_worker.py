"""Times torch eager (one thread) for `kernels_conv.py`: a convolution layer or a model.

Runs under the dev-only environment (torch + executorch), driven by `kernels_conv.py`: one
JSON request per line on stdin, ``{"key": K, "inputs": [x.npy, w.npy, b.npy], "layer":
[stride, padding, groups], "iterations": N}`` or ``{"key": K, "model": NAME, "iterations":
N}``; one line back, ``{"times_us": [...]}``, one entry per run (a first, warm-up run of
each key is not timed).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))

Run = Callable[[], object]


def prepare(request: dict[str, Any]) -> Run:
    if "layer" in request:
        x, w, b = (torch.from_numpy(np.load(p)) for p in request["inputs"])
        stride, padding, groups = request["layer"]
        return lambda: F.conv2d(x, w, b, stride, padding, 1, groups)
    import latency_models

    module, inputs = latency_models.eager(request["model"])
    return lambda: module(*inputs)


def main() -> int:
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    prepared: dict[str, Run] = {}
    for line in sys.stdin:
        request = json.loads(line)
        with torch.inference_mode():
            if request["key"] not in prepared:
                prepared[request["key"]] = prepare(request)
                prepared[request["key"]]()  # warm-up
            run = prepared[request["key"]]
            times = []
            for _ in range(request["iterations"]):
                start = time.perf_counter_ns()
                run()
                times.append((time.perf_counter_ns() - start) / 1000.0)
        print(json.dumps({"times_us": times}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
