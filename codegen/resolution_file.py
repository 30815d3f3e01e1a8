"""resolution.json as a typed value: what the codegen stage decided, for the stages after it.

The compile stage takes the kernel sources to build from it, the size stage each kernel's
library and source file (the bucket its bytes land in) and the counts. Each kernel's
source is the one its library named (codegen/kernel_library.py), never derived again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codegen.model import KernelKey, OperatorName
from codegen.resolution import Resolution
from codegen.stage_file import dump_json, member, parse_json, read_json
from codegen.yaml_io import expect

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
    """The kernels a target registers (in registry order) and its counts."""

    kernels: tuple[ResolvedKernel, ...]
    operators: int
    registry_slots: int

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
            operators=len(resolution.op_dtypes),
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
                "operators": self.operators,
                "registry_slots": self.registry_slots,
                # Derived from the kernels, written for a reader of the file.
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
    return ResolutionFile(
        kernels=tuple(kernels),
        operators=expect(member(top, "operators", "top level"), int, "operators"),
        registry_slots=expect(member(top, "registry_slots", "top level"), int, "registry_slots"),
    )


def _text(entry: dict[str, object], name: str, where: str) -> str:
    return expect(member(entry, name, where), str, f"{where}.{name}")
