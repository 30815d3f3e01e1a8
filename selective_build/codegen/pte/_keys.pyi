# The C extension built from _keys.c (see codegen/pte/native.py).
from selective_build.codegen.pte.table import Readable

def kernel_keys(
    buffer: Readable, plan: int, operators: int, work: int, budget: int, /
) -> tuple[list[bytes], list[bytes], int]: ...
