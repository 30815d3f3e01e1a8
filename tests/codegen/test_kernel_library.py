from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.kernel_library import read_kernel_library
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.scalar_type import ScalarType

DATA = Path(__file__).parent / "data" / "kernels"

ADD = (
    "- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
)
MUL = "- func: mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
DIV = "- func: div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"


def test_reads_default_specialised_and_custom_kernels() -> None:
    library = read_kernel_library("testlib", DATA / "functions.yaml", DATA)
    rows = [(str(k.op), str(k.key), k.function, k.source.name) for k in library.kernels]
    assert rows == [
        ("aten::add.out", "default", "testlib::add_out", "op_add.cpp"),
        ("aten::mul.out", "default", "testlib::mul_out", "op_mul.cpp"),
        (
            "aten::mul.out",
            "v1/6;0,1|6;0,1|6;0,1|6;0,1",
            "testlib::fast::mul_out_float",
            "op_mul.cpp",
        ),
        (
            "aten::mul.out",
            "v1/7;0,1|7;0,1|7;0,1|7;0,1",
            "testlib::fast::mul_out_float",
            "op_mul.cpp",
        ),
        ("custom::scale.out", "default", "testlib::scale_out", "op_scale.cpp"),
    ]
    assert library.operators() == {
        OperatorName.parse("aten::add.out"),
        OperatorName.parse("aten::mul.out"),
        OperatorName.parse("custom::scale.out"),
    }


@pytest.mark.parametrize(
    ("yaml_text", "problem"),
    [
        (ADD, "entry 0: aten::add.out: 'kernels' must be a non-empty list"),
        (
            DIV + "  kernels: [{arg_meta: null, kernel_name: x::div_out}]\n",
            "entry 0: aten::div.out: kernel source {dir}/op_div.cpp does not exist",
        ),
        (
            ADD + "  kernels: [{arg_meta: null, kernel_name: add_out}]\n",
            "entry 0: aten::add.out: kernel_name 'add_out' is not a C++ qualified name",
        ),
        (
            # Issue 22, item 9: raw linker output before (the generated registry's symbol).
            ADD + "  kernels: [{arg_meta: null, kernel_name: rt::selected_kernels}]\n",
            "entry 0: aten::add.out: kernel_name 'rt::selected_kernels' is in namespace rt, "
            "which belongs to the runtime and the code generated for each build (the registry "
            "is rt::selected_kernels): a kernel there collides with its names; put it in a "
            "namespace of the library's own",
        ),
        (
            ADD + "  kernels: [{arg_meta: null, kernel_name: std::plus}]\n",
            "entry 0: aten::add.out: kernel_name 'std::plus' is in namespace std, which "
            "belongs to the C++ standard library: a kernel there collides with its names; put "
            "it in a namespace of the library's own",
        ),
        (ADD + "  colour: red\n  kernels: []\n", "entry 0: unknown keys ['colour']"),
        (
            "- func: 'add.out;mul.out(Tensor self) -> Tensor'\n  kernels: []\n",
            "entry 0: operator 'aten::add.out;mul.out' has an invalid overload name",
        ),
        (
            "- op: add.out\n  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: needs 'func:', the operator's schema",
        ),
        (
            "- func: add.out(Tensor self, Tensr other) -> Tensor\n  kernels: []\n",
            "entry 0: schema 'add.out(Tensor self, Tensr other) -> Tensor': unknown type 'Tensr'",
        ),
        ("{op: add.out}\n", "expected a list of operator entries"),
        (
            ADD + "  kernels: [{arg_meta: null, kernel_name: a::b}, "
            "{arg_meta: null, kernel_name: a::c}]\n",
            "aten::add.out has two kernels for key default",
        ),
        ("- [\n", "invalid YAML"),
        (  # a name longer than a file name may be: not found, not an OSError
            f"- func: {'a' * 300}.out(Tensor self) -> Tensor\n"
            "  kernels: [{arg_meta: null, kernel_name: x::y}]\n",
            f"entry 0: aten::{'a' * 300}.out: kernel source {{dir}}/op_{'a' * 300}.cpp does not",
        ),
        (
            ADD + "  dtypes: [Float, Flaot]\n  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'dtypes': unknown dtype 'Flaot'; did you mean 'Float'?"
            " (known: Byte, ",
        ),
        (
            ADD + "  dtypes: []\n  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'dtypes' must be a non-empty list of dtype names",
        ),
        (
            ADD + "  dtypes: Float\n  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'dtypes' must be a non-empty list of dtype names",
        ),
        (
            ADD + "  dtypes: [Float]\n  type_alias: {T0: [Float, Long]}\n"
            "  dim_order_alias: {D0: [0]}\n"
            "  kernels: [{arg_meta: {self: [T0, D0]}, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: kernel key v1/4;0 uses dtypes Long not in 'dtypes'",
        ),
        (
            ADD + "  argument_dtypes: {out: [Bool]}\n"
            "  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'argument_dtypes' needs 'dtypes' (the other arguments')",
        ),
        (
            ADD + "  dtypes: [Float]\n  argument_dtypes: {alpha: [Long]}\n"
            "  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'argument_dtypes': 'alpha' is not a tensor argument of the "
            "schema (those are self, other, out)",
        ),
        (
            ADD + "  dtypes: [Float]\n  argument_dtypes: [out]\n"
            "  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'argument_dtypes' must map argument names to dtype lists",
        ),
        (
            ADD + "  dtypes: [Float]\n  argument_dtypes: {out: []}\n"
            "  kernels: [{arg_meta: null, kernel_name: a::b}]\n",
            "entry 0: aten::add.out: 'argument_dtypes.out' must be a non-empty list of dtype names",
        ),
    ],
)
def test_bad_library_yaml(tmp_path: Path, yaml_text: str, problem: str) -> None:
    (tmp_path / "op_add.cpp").write_text("")
    path = tmp_path / "functions.yaml"
    path.write_text(yaml_text)
    with pytest.raises(InputError) as caught:
        read_kernel_library("lib", path, tmp_path)
    assert str(caught.value).startswith(f"{path}: " + problem.format(dir=tmp_path))


def test_reads_declared_dtypes(tmp_path: Path) -> None:
    (tmp_path / "op_add.cpp").write_text("")
    (tmp_path / "op_mul.cpp").write_text("")
    path = tmp_path / "functions.yaml"
    path.write_text(
        ADD + "  dtypes: [Float, double, Bool]\n"
        "  kernels: [{arg_meta: null, kernel_name: a::add_out}]\n"
        + MUL
        + "  kernels: [{arg_meta: null, kernel_name: a::mul_out}]\n"
    )
    add, mul = read_kernel_library("lib", path, tmp_path).kernels
    assert add.dtypes == {ScalarType.Float, ScalarType.Double, ScalarType.Bool}
    assert mul.dtypes is None
    assert add.supports(KernelKey.parse("v1/6;0|11;0"))
    assert not add.supports(KernelKey.parse("v1/6;0|4;0"))
    assert mul.supports(KernelKey.parse("v1/6;0|4;0"))


def test_an_argument_with_dtypes_of_its_own(tmp_path: Path) -> None:
    """Note [Declared dtypes]: `dtypes:` for every tensor argument `argument_dtypes:` does
    not name; a model's key is checked against the union."""
    (tmp_path / "op_add.cpp").write_text("")
    path = tmp_path / "functions.yaml"
    path.write_text(
        ADD + "  dtypes: [Float, Double]\n  argument_dtypes: {other: [Long], out: [Bool]}\n"
        "  kernels: [{arg_meta: null, kernel_name: a::add_out}]\n"
    )
    (add,) = read_kernel_library("lib", path, tmp_path).kernels
    assert add.declared is not None
    assert add.declared.dtypes == {ScalarType.Float, ScalarType.Double}
    assert add.declared.of("self") == {ScalarType.Float, ScalarType.Double}
    assert add.declared.of("out") == {ScalarType.Bool}
    assert add.dtypes == {ScalarType.Float, ScalarType.Double, ScalarType.Long, ScalarType.Bool}
    assert add.supports(KernelKey.parse("v1/6;0|4;0|11;0"))
    assert not add.supports(KernelKey.parse("v1/6;0|3;0|11;0"))
