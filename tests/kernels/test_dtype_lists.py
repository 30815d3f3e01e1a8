"""Each kernel's dtypes are one fact: `functions.yaml`'s `dtypes:` equals what the C++ dispatches.

Resolution trusts `dtypes:` to refuse a model key the kernel cannot run, and the size
estimate counts it; the kernel's `DtypeDispatch` lists decide what actually runs. This
holds the two equal for every entry with `dtypes:` of every library folder under
`kernels/` (a library added later is covered without editing this file); the dtypes of
arguments a kernel checks but never dispatches on are listed, each with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegen.kernel_library import KernelEntry, read_kernel_library
from codegen.manifest import BUILTIN_KERNELS, builtin_libraries
from tests.kernels.dtype_lists import (
    DtypeNames,
    dispatched_dtypes,
    evaluate,
    included_headers,
    named_sets,
)

REPOSITORY = BUILTIN_KERNELS.parent  # kernels include their headers by this root
DTYPE_SET_H = REPOSITORY / "runtime" / "kernel" / "dtype_set.h"


def _declared_entries() -> list[KernelEntry]:
    """One kernel per operator that declares `dtypes:`, over every built-in library."""
    entries: dict[tuple[str, str], KernelEntry] = {}
    for library in builtin_libraries(BUILTIN_KERNELS).values():
        for kernel in read_kernel_library(library.name, library.functions, library.sources).kernels:
            if kernel.dtypes is not None:
                entries.setdefault((library.name, str(kernel.op)), kernel)
    return [entries[key] for key in sorted(entries)]


ENTRIES = _declared_entries()

# Dtypes an entry declares for arguments its kernel checks against a fixed dtype (or derives
# from another argument's) and never dispatches on: `dtypes:` is the union over every tensor
# argument (codegen/kernel_library.py), so they belong there, but no DtypeDispatch names
# them. Each is held to the kernel's text (test_undispatched_dtypes_are_named_by_the_kernel)
# and must not be dispatched already, so the list stays exact.
UNDISPATCHED: dict[str, tuple[frozenset[str], str]] = {
    "portable:aten::native_dropout.out": (frozenset({"Bool"}), "out1, the mask, is Bool"),
    "portable:aten::view_as_real_copy.out": (
        frozenset({"Half", "Float", "Double"}),
        "out holds self's real parts: its dtype follows self's (complex_part_type)",
    ),
    **{
        f"quantized:quantized_decomposed::{name}": (
            frozenset({"Double", "Long"}),
            "scale_out is Double and zero_point_out Long",
        )
        for name in ("choose_qparams.Tensor_out", "choose_qparams_per_token_asymmetric.out")
    },
    **{
        f"quantized:quantized_decomposed::{name}": (
            frozenset({"Long"}),
            "zero points are Long (or a dispatched Int); scales a dispatched float dtype",
        )
        for name in (
            "dequantize_per_channel.out",
            "dequantize_per_tensor.Tensor_out",
            "dequantize_per_token.out",
            "quantize_per_channel.out",
            "quantize_per_tensor.Tensor_out",
            "quantize_per_token.out",
        )
    },
    **{
        f"quantized:quantized_decomposed::embedding_{bits}.{overload}": (
            frozenset({"Byte", "Int", "Long"}),
            "weight is packed Byte; indices are Long or Int",
        )
        for bits in ("2bit", "4bit")
        for overload in ("out", "dtype_out")
    },
    **{
        f"quantized:quantized_decomposed::embedding_byte.{overload}": (
            frozenset({"Byte", "Char", "Long"}),
            "weight is Byte or Char; indices are Long",
        )
        for overload in ("out", "dtype_out")
    },
    **{
        f"quantized:quantized_decomposed::{name}": (frozenset({"Char"}), "weight is Char")
        for name in ("mixed_linear.out", "mixed_mm.out")
    },
}


def _key(kernel: KernelEntry) -> str:
    return f"{kernel.library}:{kernel.op}"


def test_some_entries_declare_dtypes() -> None:
    # The parametrised test below must have something to check.
    assert len(ENTRIES) >= 40


@pytest.mark.parametrize("kernel", ENTRIES, ids=_key)
def test_yaml_dtypes_equal_the_kernels_dispatch_lists(kernel: KernelEntry) -> None:
    assert kernel.dtypes is not None
    dispatched = dispatched_dtypes(kernel.source, named_sets(DTYPE_SET_H), REPOSITORY)
    op = str(kernel.op)
    assert op in dispatched, f"{kernel.source.name} has no DtypeDispatch selecting {op}"
    undispatched = UNDISPATCHED.get(_key(kernel), (frozenset(), ""))[0]
    assert not undispatched & dispatched[op], f"UNDISPATCHED lists a dispatched dtype of {op}"
    declared = frozenset(t.name for t in kernel.dtypes)
    checked = f" and checks {sorted(undispatched)}" if undispatched else ""
    assert dispatched[op] | undispatched == declared, (
        f"{kernel.source.name}: {op} dispatches {sorted(dispatched[op])}{checked}, "
        f"functions.yaml declares {sorted(declared)}"
    )


def test_every_undispatched_entry_is_a_kernel_of_a_library() -> None:
    assert set(UNDISPATCHED) <= {_key(kernel) for kernel in ENTRIES}


@pytest.mark.parametrize("key", sorted(UNDISPATCHED))
def test_undispatched_dtypes_are_named_by_the_kernel(key: str) -> None:
    # Spelled `ScalarType::<name>` in the kernel or a header it includes: where it is checked.
    kernel = next(k for k in ENTRIES if _key(k) == key)
    text = kernel.source.read_text() + "".join(included_headers(kernel.source, REPOSITORY))
    missing = UNDISPATCHED[key][0] - set(re.findall(r"ScalarType::(\w+)", text))
    assert not missing, f"{kernel.source.name} never names {sorted(missing)}"


def test_named_sets_are_read_from_dtype_set_h() -> None:
    names = named_sets(DTYPE_SET_H)
    assert names["kFloatingDtypes"] == {"Half", "Float", "Double", "BFloat16"}
    assert names["kRealAndBoolDtypes"] == names["kRealDtypes"] | {"Bool"}
    assert names["kRealDtypes"] == names["kIntegralDtypes"] | names["kFloatingDtypes"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(rt::kA | rt::DtypeSet::of(ScalarType::Bool)).bits()", {"Byte", "Float", "Bool"}),
        ("kA & rt::DtypeSet::of(rt::ScalarType::Float)", {"Float"}),
        ("rt::DtypeSet::of(ScalarType::Long) | kA & kB", {"Long", "Float"}),
    ],
)
def test_expressions_follow_cpp_precedence(text: str, expected: set[str]) -> None:
    names: dict[str, DtypeNames] = {"kA": frozenset({"Byte", "Float"}), "kB": frozenset({"Float"})}
    assert evaluate(text, names) == expected


@pytest.mark.parametrize(
    "text",
    ["kUnknown", "rt::DtypeSet::of(ScalarType::Nope)", "kA + kA", "someFunction(kA)"],
)
def test_unknown_forms_are_errors_not_guesses(text: str) -> None:
    with pytest.raises(ValueError):
        evaluate(text, {"kA": frozenset({"Float"})})


def test_a_dispatch_selecting_no_operator_is_an_error(tmp_path: Path) -> None:
    source = tmp_path / "op_x.cpp"
    source.write_text("using D = rt::DtypeDispatch<rt::kA.bits(), rt::DtypeSet::all().bits()>;\n")
    with pytest.raises(ValueError, match="op_x.cpp"):
        dispatched_dtypes(source, {"kA": frozenset({"Float"})})


def test_an_alias_template_serves_every_operator_it_is_instantiated_with(tmp_path: Path) -> None:
    source = tmp_path / "op_x.cpp"
    source.write_text(
        'constexpr const char* kOp = "aten::x.out";\n'
        'constexpr const char* kScalarOp = "aten::x.Scalar_out";\n'
        "template <const char* const* kName>\n"
        "using D = rt::DtypeDispatch<rt::kA.bits(), rt::selected_dtypes(*kName).bits()>;\n"
        "void f() { g<D<&kOp>>(); g<D<&kScalarOp>>(); }\n"
    )
    assert dispatched_dtypes(source, {"kA": frozenset({"Float"})}) == {
        "aten::x.out": {"Float"},
        "aten::x.Scalar_out": {"Float"},
    }


def _kernel_tree(tmp_path: Path, source: str, headers: dict[str, str]) -> Path:
    for name, text in headers.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "op_x.cpp").write_text(source)
    return tmp_path / "op_x.cpp"


def test_an_alias_template_and_a_named_set_in_an_included_header(tmp_path: Path) -> None:
    header = (
        "constexpr rt::DtypeSet kB = rt::DtypeSet::of(rt::ScalarType::Half) | kA;\n"
        "template <const char* const* kName>\n"
        "using Only = rt::DtypeDispatch<kB.bits(), rt::selected_dtypes(*kName).bits()>;\n"
    )
    source = _kernel_tree(
        tmp_path,
        '#include "kernels/lib/only.h"\n'
        'constexpr const char* kOp = "aten::x.out";\n'
        "void f() { g<Only<&kOp>>(); }\n",
        {"kernels/lib/only.h": header},
    )
    names = {"kA": frozenset({"Float"})}
    assert dispatched_dtypes(source, names, tmp_path) == {"aten::x.out": {"Half", "Float"}}
    assert dispatched_dtypes(source, names) == {}  # the header not followed


def test_a_template_over_selected_bits_serves_each_operator_it_is_given(tmp_path: Path) -> None:
    source = _kernel_tree(
        tmp_path,
        'constexpr const char* kOp = "aten::x.out";\n'
        'constexpr const char* kTensorOp = "aten::x.Tensor_out";\n'
        "template <uint32_t kSelectedBits>\n"
        "struct Dispatch {\n"
        "  using In = rt::DtypeDispatch<kA.bits(), kSelectedBits>;\n"
        "};\n"
        "using ScalarArgs = Dispatch<rt::selected_dtypes(kOp).bits()>;\n"
        "using TensorArgs = Dispatch<rt::selected_dtypes(kTensorOp).bits()>;\n",
        {},
    )
    assert dispatched_dtypes(source, {"kA": frozenset({"Byte"})}) == {
        "aten::x.out": {"Byte"},
        "aten::x.Tensor_out": {"Byte"},
    }


def test_an_operator_passed_on_through_a_function_template(tmp_path: Path) -> None:
    source = _kernel_tree(
        tmp_path,
        'constexpr const char* kOp = "aten::x.out";\n'
        'constexpr const char* kAllOp = "aten::x.all_out";\n'
        "template <const char* const* kName>\n"
        "using DtypesOf = rt::DtypeDispatch<kA.bits(), rt::selected_dtypes(*kName).bits()>;\n"
        "template <const char* const* kName>\n"
        "void run(rt::Tensor& out) { using Dtypes = DtypesOf<kName>; }\n"
        "void x(rt::Tensor& out) { run<&kOp>(out); }\n"
        "void all(rt::Tensor& out) { run<&kAllOp>(out); }\n",
        {},
    )
    assert dispatched_dtypes(source, {"kA": frozenset({"Int"})}) == {
        "aten::x.out": {"Int"},
        "aten::x.all_out": {"Int"},
    }


def test_a_check_dtype_call_names_its_operator_and_supported_set(tmp_path: Path) -> None:
    source = _kernel_tree(
        tmp_path,
        'constexpr const char* kOp = "aten::x.out";\n'
        "constexpr uint32_t kMaskBits = rt::DtypeSet::of(ScalarType::Bool).bits();\n"
        "bool f(rt::KernelContext& context, const rt::Tensor& t) {\n"
        "  return context.check_dtype(kOp, t.dtype(), kMaskBits,\n"
        "                             (kA & rt::selected_dtypes(kOp)).bits());\n"
        "}\n",
        {},
    )
    assert dispatched_dtypes(source, {"kA": frozenset({"Int"})}) == {"aten::x.out": {"Bool"}}


def test_a_template_of_the_source_that_serves_no_operator_is_an_error(tmp_path: Path) -> None:
    source = _kernel_tree(
        tmp_path,
        "template <const char* const* kName>\n"
        "using D = rt::DtypeDispatch<kA.bits(), rt::selected_dtypes(*kName).bits()>;\n",
        {},
    )
    with pytest.raises(ValueError, match="D is not instantiated with operator names"):
        dispatched_dtypes(source, {"kA": frozenset({"Float"})})
