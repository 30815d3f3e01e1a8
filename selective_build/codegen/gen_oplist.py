"""A drop-in for ExecuTorch's `gen_oplist` command line, writing the same YAML.

    python -m selective_build.codegen.gen_oplist --output_path OUT [--model_file_path X.pte]...
        [--ops_schema_yaml_path functions.yaml]... [--root_ops "a,b"] [--ops_dict JSON]
        [--include_all_operators]

Every source is unioned. Operators and `et_kernel_metadata` equal ExecuTorch's for the
same inputs; `debug_info` lists every source that selected the operator (ExecuTorch keeps
only the last one processed). Unlike ExecuTorch's, bad input never crashes: one line
naming the file and the fault, exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import OperatorName
from selective_build.codegen.pte import read_model_ops
from selective_build.codegen.selection import Selection
from selective_build.codegen.writer import write_if_changed

OUTPUT_NAME = "selected_operators.yaml"


def parse_root_ops(text: str) -> list[OperatorName]:
    """Comma-separated when there is a comma, else whitespace-separated (as ExecuTorch)."""
    names = text.split(",") if "," in text else text.split()
    try:
        return [OperatorName.parse(name.strip()) for name in names if name.strip()]
    except ValueError as error:
        raise InputError("--root_ops", str(error)) from None


def parse_ops_dict(text: str) -> Selection:
    """`{op: [dtype name | kernel key, ...]}`; an empty list means every dtype."""
    import json  # here: most runs have no --ops_dict, and every import is start-up time

    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError("--ops_dict", f"invalid JSON: {error}") from None
    if not isinstance(document, dict) or not all(
        isinstance(items, list) for items in document.values()
    ):
        raise InputError("--ops_dict", "expected a JSON object {operator: [dtypes or keys]}")
    try:
        return Selection.from_op_dtypes(document, "ops_dict")
    except ValueError as error:
        raise InputError("--ops_dict", str(error)) from None


def gen_oplist(
    models: Sequence[Path],
    schema_yamls: Sequence[Path],
    root_ops: str | None,
    ops_dict: str | None,
    include_all_operators: bool,
) -> Selection:
    """The union of every source, as ExecuTorch's gen_oplist computes it."""
    selection = Selection(include_all_operators=include_all_operators)
    if root_ops is not None:
        selection = selection | Selection.from_operators(parse_root_ops(root_ops), "root_ops")
    if ops_dict is not None:
        selection = selection | parse_ops_dict(ops_dict)
    for model in models:
        selection = selection | Selection.from_model(read_model_ops(model), str(model))
    if schema_yamls:
        # Imported only for schema files: it brings the schema parser and PyYAML, more than
        # reading a large program costs (benchmarks/RESULTS.md).
        from selective_build.codegen.kernel_library import read_schema_operators

    for schema in schema_yamls:
        selection = selection | Selection.from_operators(read_schema_operators(schema), str(schema))
    return selection


def output_file(path: Path) -> Path:
    return path / OUTPUT_NAME if path.is_dir() else path


def refuse_overwriting_an_input(output: Path, inputs: Sequence[Path]) -> None:
    """InputError when `output` is one of `inputs` (by any name): writing it loses the input."""
    for source in inputs:
        try:
            same = os.path.samefile(output, source)
        except OSError:  # either does not exist (yet): not the same file
            same = False
        if same:
            raise InputError(output, f"--output_path is the input {source}: it would be replaced")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m selective_build.codegen.gen_oplist", description=__doc__
    )
    parser.add_argument(
        "--output_path",
        required=True,
        type=Path,
        help="the YAML to write, or a directory to write selected_operators.yaml in",
    )
    parser.add_argument(
        "--model_file_path",
        action="append",
        default=[],
        type=Path,
        help="an ExecuTorch program (.pte); may be repeated",
    )
    parser.add_argument(
        "--ops_schema_yaml_path",
        action="append",
        default=[],
        type=Path,
        help="a functions.yaml or custom_ops.yaml; may be repeated",
    )
    parser.add_argument("--root_ops", help="operators to keep with every dtype, comma-separated")
    parser.add_argument("--ops_dict", help='JSON {"ns::op.overload": ["Float", "v1/6;0,1|..."]}')
    parser.add_argument(
        "--include-all-operators",
        "--include_all_operators",
        dest="include_all_operators",
        action="store_true",
        help="select every operator (not a selective build)",
    )
    args = parser.parse_args(argv)
    try:
        selection = gen_oplist(
            args.model_file_path,
            args.ops_schema_yaml_path,
            args.root_ops,
            args.ops_dict,
            args.include_all_operators,
        )
        output = output_file(args.output_path)
        refuse_overwriting_an_input(output, [*args.model_file_path, *args.ops_schema_yaml_path])
        write_if_changed(output, selection.to_yaml())
    except InputError as error:
        print(f"gen_oplist: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(
            f"gen_oplist: error: {args.output_path}: cannot write: {error.strerror}",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
