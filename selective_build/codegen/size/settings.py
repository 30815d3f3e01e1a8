"""The target's settings a size report records (size.json `config`), as a typed value.

They explain a change between two builds of the target (codegen.size.diff), and say
whether another report's kernel bytes are comparable for the estimate (Note [Size
estimate], codegen/size/estimate.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from selective_build.codegen.manifest import Target
from selective_build.codegen.size.fields import JsonValue, boolean, mapping, text, texts


@dataclass(frozen=True)
class TargetSettings:
    models: tuple[str, ...]  # by the names the manifest gives them
    libraries: tuple[str, ...]
    extra_ops: tuple[str, ...]
    op_dtypes: Mapping[str, tuple[str, ...]]
    include_all_operators: bool
    dtype_selective: bool
    toolchain: str
    runner: bool = True  # False: a library-only target (Note [Library-only size])

    @staticmethod
    def of(target: Target) -> TargetSettings:
        return TargetSettings(
            models=target.models,
            libraries=target.libraries,
            extra_ops=tuple(str(op) for op in target.extra_ops),
            op_dtypes=dict(sorted(target.op_dtypes.items())),
            include_all_operators=target.include_all_operators,
            dtype_selective=target.dtype_selective,
            toolchain=target.toolchain,
            runner=target.runner,
        )

    def to_dict(self) -> dict[str, JsonValue]:
        """The JSON form; `runner` only for a library-only target, so that a runner's
        settings read as they always have."""
        library_only: dict[str, JsonValue] = {} if self.runner else {"runner": False}
        return library_only | {
            "models": list(self.models),
            "libraries": list(self.libraries),
            "extra_ops": list(self.extra_ops),
            "op_dtypes": {op: list(items) for op, items in self.op_dtypes.items()},
            "include_all_operators": self.include_all_operators,
            "dtype_selective": self.dtype_selective,
            "toolchain": self.toolchain,
        }

    @staticmethod
    def from_dict(raw: object) -> TargetSettings:
        """The settings of their JSON form (TypeError or KeyError when they are not)."""
        fields = mapping(raw)
        return TargetSettings(
            models=texts(fields["models"]),
            libraries=texts(fields["libraries"]),
            extra_ops=texts(fields["extra_ops"]),
            op_dtypes={
                text(op): texts(items) for op, items in mapping(fields["op_dtypes"]).items()
            },
            include_all_operators=boolean(fields["include_all_operators"]),
            dtype_selective=boolean(fields["dtype_selective"]),
            toolchain=text(fields["toolchain"]),
            runner=boolean(fields.get("runner", True)),
        )
