"""Export conv nets with channels-last activations (Note [Channels last],
runtime/executor/channels_last.h) into benchmarks/models/ (git-ignored), for
benchmarks/call_profile.py and benchmarks/latency.py (`--models mobilenet_v2_cl`).

    python benchmarks/channels_last_models.py [NAME ...]    (default: mobilenet_v2)

NAME: mobilenet_v2, resnet, squeezenet, efficientnet_b0.

Each `<name>_cl` is the benchmark model `<name>` (the same weights and input) moved to
`memory_format=torch.channels_last`, its input too (latency_models.eager), so the exporter
writes its activations in dim order (0, 2, 3, 1). Not checked on ExecuTorch's runtime: its
portable batch norm refuses channels-last inputs; eager's output is saved as the reference.
Its XNNPACK program (for `call_profile.py --xnnpack`) is the NCHW model's, lowered if not
cached yet.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "examples"))
import latency_models  # noqa: E402
from export_models import save_arrays  # noqa: E402

CACHE = HERE / "models"


def export(name: str) -> Path:
    from executorch.exir import to_edge

    module, inputs = latency_models.eager(f"{name}_cl")
    with torch.no_grad():
        outputs = module(*inputs)
    program = to_edge(torch.export.export(module, inputs)).to_executorch()
    folder = CACHE / f"{name}_cl"
    folder.mkdir(parents=True, exist_ok=True)
    pte = folder / f"{name}_cl.pte"
    pte.write_bytes(program.buffer)
    save_arrays(folder, tuple(t.contiguous() for t in inputs), [outputs.contiguous()])
    # XNNPACK's partitioner refuses a channels-last model (its ChannelsLastTaggedReshapePass
    # fails); it lays the NCHW model's activations out NHWC itself, so that model's lowered
    # program is the one to compare with (call_profile.py --xnnpack).
    shutil.copyfile(latency_models.xnnpack_program(name), folder / f"{name}_cl.xnnpack.pte")
    return pte


def main(argv: list[str]) -> int:
    torch.set_num_threads(1)
    for name in argv or ["mobilenet_v2"]:
        print(export(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
