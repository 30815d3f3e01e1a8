"""The kernel keys of an execution plan read by the C extension `codegen.pte._keys`.

Built by `pip install` from `codegen/pte/_keys.c` (setup.py); `MODULE` is None where it
was not built (no C compiler or Python headers), and the reader falls back to numpy
(`codegen.pte.batch`), which gives the same keys; a whole `gen_oplist` run on a large
program then takes 2-3.5 times as long (benchmarks/RESULTS.md).
"""

from __future__ import annotations

from types import ModuleType

from selective_build.codegen.model import TensorMeta
from selective_build.codegen.pte.table import Readable
from selective_build.codegen.pte.work import Work
from selective_build.codegen.scalar_type import ScalarType

MODULE: ModuleType | None
try:
    from selective_build.codegen.pte import _keys as MODULE
except ImportError:  # not built: the numpy reader serves
    MODULE = None

# A kernel call's key: its operator's index in the plan, its tensor arguments' metas.
CallKey = tuple[int, tuple[TensorMeta, ...]]


def plan_kernel_keys(
    module: ModuleType, data: Readable, plan: int, operators: int, work: Work
) -> set[CallKey]:
    """The distinct keys of the kernel calls of the plan table at byte `plan`, whose
    operators vector holds `operators` entries (`codegen.pte.batch.plan_kernel_keys`)."""
    raw_metas, raw_keys, work.done = module.kernel_keys(
        data, plan, operators, work.done, work.budget
    )
    # Each meta: its dtype number, then its dim order, one byte per dimension.
    metas = [TensorMeta(ScalarType.from_number(raw[0]), tuple(raw[1:])) for raw in raw_metas]
    keys: set[CallKey] = set()
    for raw in raw_keys:
        numbers = memoryview(raw).cast("i")  # native int32s, as the C code stored them
        keys.add((numbers[0], tuple(metas[number] for number in numbers[1:])))
    return keys
