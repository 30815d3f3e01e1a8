"""XNNPACK's time per operator on a model's XNNPACK-lowered program, from ExecuTorch's own
event tracer (ETDump): the side of benchmarks/call_profile.py that needs torch and ExecuTorch.

Usage (with a Python that has torch 2.13 and ExecuTorch 1.5.1)::

    python benchmarks/xnnpack_ops.py PROGRAM.xnnpack.pte INPUT.npy... --iterations N

Loads the program with ETDump enabled (``_load_for_executorch(..., enable_etdump=True)``),
runs it N times on one thread (its pool reset to one) after one run to warm up, and prints
one JSON object: the delegate's operators in execution order, each
``{"name": "Convolution (NHWC, F32) IGEMM #3", "median_us": ..., "min_us": ...}`` over the N
runs (XNNPACK's own timing of each operator, wall time), and the whole method's median.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any


def profile(program: Path, inputs: list[Path], iterations: int) -> dict[str, Any]:
    import numpy as np
    import torch
    from executorch.devtools import Inspector
    from executorch.extension.pybindings import portable_lib

    torch.set_num_threads(1)
    # One thread, as our runner's: XNNPACK's pool is otherwise sized to the machine.
    portable_lib._unsafe_reset_threadpool(1)
    method = portable_lib._load_for_executorch(str(program), enable_etdump=True)
    tensors = [torch.from_numpy(np.load(path)) for path in inputs]
    for _ in range(iterations + 1):
        method.forward(tensors)
    with tempfile.TemporaryDirectory() as scratch:
        dump = Path(scratch) / "etdump.etdp"
        method.write_etdump_result_to_file(str(dump))
        frame = Inspector(etdump_path=str(dump)).to_dataframe()
    operators, method_us = [], 0.0
    for _, row in frame[frame.event_block_name == "Execute"].iterrows():
        runs = [1000.0 * float(t) for t in row["raw"]][1:]  # the warm-up run left out
        if not runs:
            continue
        median = sorted(runs)[len(runs) // 2]
        if row.event_name == "Method::execute":
            method_us = median
        elif row.is_delegated_op:
            operators.append({"name": row.event_name, "median_us": median, "min_us": min(runs)})
    return {"operators": operators, "method_us": method_us}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("program", type=Path)
    parser.add_argument("inputs", type=Path, nargs="+")
    parser.add_argument("--iterations", type=int, default=50)
    options = parser.parse_args(argv)
    print(json.dumps(profile(options.program, options.inputs, options.iterations)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
