"""Times ExecuTorch's runtime (alone and with XNNPACK) and torch eager for `latency.py`,
one thread each.

Runs in the dev-only environment (torch + executorch), as one long-lived process that
`latency.py` drives, so rounds can be interleaved with our runner without paying Python's
and torch's start-up per round. Protocol: one JSON request per line on stdin,
``{"model": NAME, "pte": PATH, "inputs": [NPY...], "engine": "executorch"|"xnnpack"|"torch",
"iterations": N}``, one JSON line back: ``{"times_us": [...], "cpu_us": C}`` (execution
alone, one entry per iteration, and the process's CPU time per iteration; loading and the
first, warm-up run excluded) or ``{"error": "..."}``. ``xnnpack`` runs the model's program
lowered with XnnpackPartitioner (``latency_models.xnnpack_program``, made on first use).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

Run = Callable[[], object]
_prepared: dict[tuple[str, str], Run] = {}


def _xnnpack(model: str, inputs: list[torch.Tensor]) -> Run:
    import latency_models

    return _executorch(str(latency_models.xnnpack_program(model)), inputs)


def _executorch(pte: str, inputs: list[torch.Tensor]) -> Run:
    from executorch.extension.pybindings import portable_lib
    from executorch.runtime import Runtime

    # One thread: the wheel's optimized kernels and XNNPACK would otherwise use a pool sized
    # to the cores.
    portable_lib._unsafe_reset_threadpool(1)
    # Registers the quantized_decomposed kernels PT2E programs call (nothing else changes).
    import executorch.kernels.quantized  # noqa: F401

    method = Runtime.get().load_program(Path(pte)).load_method("forward")
    if method is None:
        raise RuntimeError(f"{pte}: no forward method")
    return lambda: method.execute(inputs)


def _torch(model: str, inputs: list[torch.Tensor]) -> Run:
    import latency_models

    module, _ = latency_models.eager(model)

    def run() -> object:
        with torch.inference_mode():
            return module(*inputs)

    return run


def _prepare(request: dict[str, Any]) -> Run:
    key = (request["model"], request["engine"])
    if key not in _prepared:
        inputs = [torch.from_numpy(np.load(path)) for path in request["inputs"]]
        if request["engine"] == "executorch":
            run = _executorch(request["pte"], inputs)
        elif request["engine"] == "xnnpack":
            run = _xnnpack(request["model"], inputs)
        elif request["engine"] == "torch":
            run = _torch(request["model"], inputs)
        else:
            raise ValueError(f"unknown engine {request['engine']!r}")
        run()  # warm-up: first-call allocations and lazy initialisation are not timed
        _prepared[key] = run
    return _prepared[key]


def _time(run: Run, iterations: int) -> dict[str, Any]:
    times = []
    cpu_start = time.process_time_ns()
    for _ in range(iterations):
        start = time.perf_counter_ns()
        run()
        times.append((time.perf_counter_ns() - start) / 1000.0)
    cpu = (time.process_time_ns() - cpu_start) / 1000.0 / max(iterations, 1)
    return {"times_us": times, "cpu_us": cpu}


def main() -> int:
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply: dict[str, Any] = _time(_prepare(request), request["iterations"])
        except Exception as error:  # any failure becomes the table's "fails: ..." cell
            reply = {"error": f"{type(error).__name__}: {error}".splitlines()[0]}
        print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
