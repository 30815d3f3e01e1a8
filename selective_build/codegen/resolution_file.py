"""resolution.json as a typed value: what the codegen stage decided, for the stages after it.

The compile stage takes the kernel sources to build from it (and our runtime whether an
operator keeps Bool: Note [Bool constants] in runtime/loader/values.cpp), the size stage
each kernel's library and source file (the bucket its bytes land in) and the counts. Each
kernel's source is the one its library named (codegen/kernel_library.py), never derived
again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.resolution import Resolution
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.stage_file import dump_json, member, parse_json, read_json
from selective_build.codegen.yaml_io import expect, strings

WHAT = "a resolution file"


@dataclass(frozen=True)
class ResolvedKernel:
    """One registered kernel: what it serves, the C++ function, where it comes from."""

    op: OperatorName
    key: KernelKey
    function: str
    library: str
    source: Path


@dataclass(frozen=True)
class ResolutionFile:
    """The kernels a target registers (in registry order), the dtypes each operator keeps
    (`Resolution.op_dtypes`: None for every dtype) and the registry's size."""

    kernels: tuple[ResolvedKernel, ...]
    op_dtypes: Mapping[OperatorName, frozenset[ScalarType] | None]
    registry_slots: int

    @property
    def operators(self) -> int:
        return len(self.op_dtypes)

    def keeps(self, dtype: ScalarType) -> bool:
        """Whether an operator keeps `dtype` (a dtype-selective build compiles it in)."""
        return any(dtypes is None or dtype in dtypes for dtypes in self.op_dtypes.values())

    @property
    def sources(self) -> tuple[Path, ...]:
        """Every kernel source to compile, once each, sorted."""
        return tuple(Path(text) for text in sorted({str(k.source) for k in self.kernels}))

    @staticmethod
    def of(resolution: Resolution) -> ResolutionFile:
        return ResolutionFile(
            kernels=tuple(
                ResolvedKernel(k.op, k.key, k.function, k.library, k.source)
                for k in resolution.kernels
            ),
            op_dtypes=dict(sorted(resolution.op_dtypes.items())),
            registry_slots=resolution.registry_slots,
        )

    def to_json(self) -> str:
        return dump_json(
            {
                "kernels": [
                    {
                        "op": str(k.op),
                        "key": str(k.key),
                        "function": k.function,
                        "library": k.library,
                        "source": str(k.source),
                    }
                    for k in self.kernels
                ],
                "op_dtypes": {
                    str(op): None if dtypes is None else _names(dtypes)
                    for op, dtypes in self.op_dtypes.items()
                },
                "registry_slots": self.registry_slots,
                # Derived, written for a reader of the file.
                "operators": self.operators,
                "sources": [str(source) for source in self.sources],
            }
        )

    @staticmethod
    def from_json(text: str, source: str | Path) -> ResolutionFile:
        return parse_json(text, source, WHAT, _resolution_file)

    @staticmethod
    def read(path: Path) -> ResolutionFile:
        return read_json(path, WHAT, _resolution_file)


def _resolution_file(document: object) -> ResolutionFile:
    top = expect(document, dict, "top level")
    kernels = []
    for index, item in enumerate(expect(member(top, "kernels", "top level"), list, "kernels")):
        where = f"kernels[{index}]"
        entry = expect(item, dict, where)
        kernels.append(
            ResolvedKernel(
                op=OperatorName.parse(_text(entry, "op", where)),
                key=KernelKey.parse(_text(entry, "key", where)),
                function=_text(entry, "function", where),
                library=_text(entry, "library", where),
                source=Path(_text(entry, "source", where)),
            )
        )
    op_dtypes: dict[OperatorName, frozenset[ScalarType] | None] = {}
    listed = expect(member(top, "op_dtypes", "top level"), dict, "op_dtypes")
    for name, dtypes in listed.items():
        op_dtypes[OperatorName.parse(name)] = (
            None if dtypes is None else _dtypes(strings(dtypes, f"op_dtypes.{name}"), name)
        )
    return ResolutionFile(
        kernels=tuple(kernels),
        op_dtypes=op_dtypes,
        registry_slots=expect(member(top, "registry_slots", "top level"), int, "registry_slots"),
    )


def _dtypes(names: list[str], op: str) -> frozenset[ScalarType]:
    try:
        return frozenset(ScalarType.from_name(name) for name in names)
    except ValueError as error:
        raise ValueError(f"op_dtypes.{op}: {error}") from None


def _names(dtypes: frozenset[ScalarType]) -> list[str]:
    return [dtype.name for dtype in sorted(dtypes, key=lambda dtype: dtype.number)]


def _text(entry: dict[str, object], name: str, where: str) -> str:
    return expect(member(entry, name, where), str, f"{where}.{name}")
