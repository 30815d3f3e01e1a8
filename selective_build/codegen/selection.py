"""What a target selects: operators with their kernel keys and who needs each key.

A `Selection` is built from each source (a model's operators, explicit operators), merged
with `|`, and kept in our own stage file (`to_json` / `from_json`: every key's sources
survive, which the codegen stage needs to name the models that need a missing kernel).
ExecuTorch's `selected_operators.yaml` is an export derived from it (`to_yaml`, the bytes
`gen_oplist` writes), whose `debug_info` says only who selected an operator, not with which
key; so it is written for others and read only when a user hands one in. Merging is
deterministic: flags are OR-ed, keys and sources are unioned and written sorted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName, TensorMeta
from selective_build.codegen.provenance import Provenance
from selective_build.codegen.pte import ModelOps
from selective_build.codegen.scalar_type import ScalarType
from selective_build.codegen.stage_file import dump_json, member, parse_json, read_json
from selective_build.codegen.yaml_io import dump_yaml, expect, load_yaml, strings

WHAT = "a selection file"


@dataclass(frozen=True)
class SelectedOperator:
    """One selected operator, the keys it is called with and where it came from.

    `debug_info` names every source (model file, manifest entry) that selected the
    operator; `key_sources` names, per kernel key, the sources that call it with that key.
    A key given no sources came from every source in `debug_info` (all a YAML written by
    someone else can say); `key_sources` is completed so on construction.
    """

    name: OperatorName
    kernel_keys: frozenset[KernelKey]
    debug_info: frozenset[str]
    include_all_overloads: bool = False
    is_root_operator: bool = True
    is_used_for_training: bool = True
    key_sources: Mapping[KernelKey, frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # One form per value, so equal selections compare equal however they were made.
        complete = {
            key: frozenset(self.key_sources.get(key, self.debug_info))
            for key in sorted(self.kernel_keys)
        }
        object.__setattr__(self, "key_sources", complete)

    def sources_of(self, key: KernelKey) -> frozenset[str]:
        """Which models or manifest entries need this operator with `key`."""
        return self.key_sources[key]

    def __or__(self, other: SelectedOperator) -> SelectedOperator:
        keys = self.kernel_keys | other.kernel_keys
        empty: frozenset[str] = frozenset()
        return SelectedOperator(
            name=self.name,
            kernel_keys=keys,
            debug_info=self.debug_info | other.debug_info,
            key_sources={
                key: self.key_sources.get(key, empty) | other.key_sources.get(key, empty)
                for key in keys
            },
            include_all_overloads=self.include_all_overloads or other.include_all_overloads,
            is_root_operator=self.is_root_operator or other.is_root_operator,
            is_used_for_training=self.is_used_for_training or other.is_used_for_training,
        )


@dataclass(frozen=True)
class Selection:
    """The union of everything a target needs."""

    operators: Mapping[OperatorName, SelectedOperator] = field(default_factory=dict)
    include_all_operators: bool = False

    @classmethod
    def from_model(cls, ops: ModelOps, source: str) -> Selection:
        """Every operator of a model, with the keys its calls use."""
        return cls(
            {
                name: SelectedOperator(name, keys, frozenset({source}))
                for name, keys in ops.operators.items()
            }
        )

    @classmethod
    def from_operators(cls, names: Iterable[OperatorName], source: str) -> Selection:
        """Operators asked for by name: every dtype (`default` key)."""
        return cls(
            {
                name: SelectedOperator(name, frozenset({KernelKey.default()}), frozenset({source}))
                for name in names
            }
        )

    @classmethod
    def from_op_dtypes(cls, entries: Mapping[str, Iterable[str]], source: str) -> Selection:
        """The `--ops_dict` form: operator -> dtype names or kernel keys to keep; an empty
        list keeps every dtype. A dtype name stands for that dtype in any dim order
        (`Float` -> `v1/6;`). ValueError names the bad entry."""
        operators = {}
        for text, items in entries.items():
            name = OperatorName.parse(text)
            keys = frozenset(
                _key_or_dtype(expect(item, str, f"{text!r}[{index}]"))
                for index, item in enumerate(items)
            )
            keys = keys or frozenset({KernelKey.default()})
            operators[name] = SelectedOperator(name, keys, frozenset({source}))
        return cls(dict(sorted(operators.items())))

    def __or__(self, other: Selection) -> Selection:
        merged = dict(self.operators)
        for name, op in other.operators.items():
            merged[name] = merged[name] | op if name in merged else op
        return Selection(
            dict(sorted(merged.items())),
            self.include_all_operators or other.include_all_operators,
        )

    def provenance(self) -> Provenance:
        """Operator -> kernel key -> the sources that need it, for reports."""
        return Provenance({name: op.key_sources for name, op in self.operators.items()})

    def to_json(self) -> str:
        """Our stage file: everything the selection holds, every key's sources included."""
        return dump_json(
            {
                "include_all_operators": self.include_all_operators,
                "operators": {
                    str(name): {
                        "debug_info": sorted(op.debug_info),
                        "include_all_overloads": op.include_all_overloads,
                        "is_root_operator": op.is_root_operator,
                        "is_used_for_training": op.is_used_for_training,
                        "kernel_keys": {
                            str(key): sorted(sources) for key, sources in op.key_sources.items()
                        },
                    }
                    for name, op in sorted(self.operators.items())
                },
            }
        )

    @staticmethod
    def from_json(text: str, source: str | Path) -> Selection:
        return parse_json(text, source, WHAT, _selection_from_json)

    @staticmethod
    def read(path: Path) -> Selection:
        """Read our selection stage file; InputError naming `path` when it is not one."""
        return read_json(path, WHAT, _selection_from_json)

    def to_yaml(self) -> str:
        """The `selected_operators.yaml` text, byte-for-byte deterministic."""
        document = {
            "build_features": [],
            "custom_classes": [],
            "et_kernel_metadata": {
                str(name): sorted(str(key) for key in op.kernel_keys)
                for name, op in sorted(self.operators.items())
                if op.kernel_keys
            },
            "include_all_non_op_selectives": False,
            "include_all_operators": self.include_all_operators,
            "kernel_metadata": {},
            "operators": {
                str(name): {
                    "debug_info": sorted(op.debug_info),
                    "include_all_overloads": op.include_all_overloads,
                    "is_root_operator": op.is_root_operator,
                    "is_used_for_training": op.is_used_for_training,
                }
                for name, op in sorted(self.operators.items())
            },
        }
        return dump_yaml(document)


def _key_or_dtype(item: str) -> KernelKey:
    if item.startswith("v1") or item == "default":
        return KernelKey.parse(item)
    return KernelKey((TensorMeta(ScalarType.from_name(item), ()),))


def _selection_from_json(document: object) -> Selection:
    top = expect(document, dict, "top level")
    selected: dict[OperatorName, SelectedOperator] = {}
    for text, info in expect(member(top, "operators", "top level"), dict, "operators").items():
        key = f"operators.{text!r}"
        name = OperatorName.parse(text)
        info = expect(info, dict, key)
        keys = expect(member(info, "kernel_keys", key), dict, f"{key}.kernel_keys")
        sources = {
            KernelKey.parse(item): frozenset(strings(names, f"{key}.kernel_keys.{item!r}"))
            for item, names in keys.items()
        }
        selected[name] = SelectedOperator(
            name=name,
            kernel_keys=frozenset(sources),
            debug_info=frozenset(strings(member(info, "debug_info", key), f"{key}.debug_info")),
            include_all_overloads=_json_flag(info, "include_all_overloads", key),
            is_root_operator=_json_flag(info, "is_root_operator", key),
            is_used_for_training=_json_flag(info, "is_used_for_training", key),
            key_sources=sources,
        )
    include_all = member(top, "include_all_operators", "top level")
    return Selection(
        dict(sorted(selected.items())), expect(include_all, bool, "include_all_operators")
    )


def _json_flag(info: dict[str, object], name: str, key: str) -> bool:
    return expect(member(info, name, key), bool, f"{key}.{name}")


def read_selection(path: Path) -> Selection:
    """Read a `selected_operators.yaml` (ours or ExecuTorch's)."""
    document = load_yaml(path)
    if not isinstance(document, dict):
        raise InputError(path, "expected a mapping at the top level")
    try:
        return _selection_from_document(document)
    except ValueError as error:
        raise InputError(path, str(error)) from None


def _selection_from_document(document: dict[str, object]) -> Selection:
    metadata = expect(document.get("et_kernel_metadata") or {}, dict, "et_kernel_metadata")
    operators = expect(document.get("operators") or {}, dict, "operators")
    selected: dict[OperatorName, SelectedOperator] = {}
    for text, info in operators.items():
        key = f"operators.{text!r}"
        name = OperatorName.parse(expect(text, str, key))
        info = expect(info or {}, dict, key)
        keys = strings(metadata.get(text, ["default"]), f"et_kernel_metadata.{text!r}")
        selected[name] = SelectedOperator(
            name=name,
            kernel_keys=frozenset(KernelKey.parse(key) for key in keys),
            debug_info=frozenset(strings(info.get("debug_info") or [], f"{key}.debug_info")),
            # torchgen's default when the key is absent is true.
            include_all_overloads=_flag(info, "include_all_overloads", key),
            is_root_operator=_flag(info, "is_root_operator", key),
            is_used_for_training=_flag(info, "is_used_for_training", key),
        )
    for text in metadata:
        if text not in operators:
            raise ValueError(f"et_kernel_metadata.{text!r}: not in 'operators'")
    include_all = expect(
        document.get("include_all_operators", False), bool, "include_all_operators"
    )
    return Selection(dict(sorted(selected.items())), include_all)


def _flag(info: dict[str, object], name: str, key: str) -> bool:
    return expect(info.get(name, True), bool, f"{key}.{name}")
