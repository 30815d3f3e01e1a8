"""The typed signatures and unboxing generated from schemas (Note [Kernel call layout])."""

from __future__ import annotations

import pytest

from selective_build.codegen.schema import parse_schema
from selective_build.codegen.unboxing import unboxing


def generated(schema: str, function: str) -> tuple[str, str, str]:
    result = unboxing(parse_schema(schema), function)
    return result.declaration, result.call, result.layout


def test_one_out_tensor_is_returned_and_listed_twice() -> None:
    declaration, call, layout = generated(
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "portable::add_out",
    )
    assert declaration == (
        "rt::Tensor& add_out(rt::KernelContext& context, const rt::Tensor& self, "
        "const rt::Tensor& other, rt::Scalar alpha, rt::Tensor& out)"
    )
    assert call == (
        "portable::add_out(context, rt::tensor_arg(args[0]), rt::tensor_arg(args[1]), "
        "rt::scalar_arg(args[2]), rt::tensor_arg(args[3]));"
    )
    assert layout == "Aself Aother Dalpha Aout A"


def test_several_outs_and_out_lists_return_a_tensor_list() -> None:
    declaration, _, layout = generated(
        "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
        "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
        "portable::max_dim_max",
    )
    assert declaration.startswith("void max_dim_max(")
    assert layout == "Aself Edim Ikeepdim Amax Amax_values B"
    declaration, _, layout = generated(
        "split_with_sizes_copy.out(Tensor self, SymInt[] split_sizes, int dim=0, *, "
        "Tensor(a!)[] out) -> ()",
        "portable::split_with_sizes_copy_out",
    )
    assert declaration == (
        "void split_with_sizes_copy_out(rt::KernelContext& context, const rt::Tensor& self, "
        "rt::IntList split_sizes, int64_t dim, rt::TensorList out)"
    )
    assert layout == "Aself Fsplit_sizes Edim Bout B"


def test_optional_and_list_arguments() -> None:
    declaration, call, layout = generated(
        "upsample_nearest2d.vec_out(Tensor input, SymInt[]? output_size, float[]? "
        "scale_factors, *, Tensor(a!) out) -> Tensor(a!)",
        "portable::upsample_nearest2d_vec_out",
    )
    assert "rt::Optional<rt::IntList> output_size, rt::Optional<rt::DoubleList>" in declaration
    assert "rt::optional_arg<rt::IntList>(args[1], &rt::int_list_arg)" in call
    assert layout == "Ainput foutput_size hscale_factors Aout A"
    declaration, _, layout = generated(
        "index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)",
        "portable::index_Tensor_out",
    )
    assert "rt::OptionalTensorList indices" in declaration
    assert layout == "Aself Cindices Aout A"
    declaration, _, layout = generated(
        "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
        "Tensor(a!) out) -> Tensor(a!)",
        "portable::sum_IntList_out",
    )
    assert "rt::Optional<rt::ScalarType> dtype" in declaration
    assert layout == "Aself fdim Ikeepdim edtype Aout A"


def test_returned_numbers_are_stored_in_the_return_slot() -> None:
    declaration, call, layout = generated(
        "sym_size.int(Tensor self, int dim) -> SymInt", "prim::sym_size_int"
    )
    assert declaration == (
        "int64_t sym_size_int(rt::KernelContext& context, const rt::Tensor& self, int64_t dim)"
    )
    assert call == (
        "*args[2] = rt::EValue::from_int(prim::sym_size_int(context, rt::tensor_arg(args[0]), "
        "rt::int_arg(args[1])));"
    )
    assert layout == "Aself Edim L"
    declaration, call, _ = generated(
        "executorch_prim::add.Scalar(Scalar a, Scalar b) -> Scalar", "prim::add_Scalar"
    )
    assert declaration.startswith("rt::EValue add_Scalar(")
    assert call.startswith("*args[2] = prim::add_Scalar(")


def test_a_returned_tensor_of_an_op_without_outs_is_its_last_parameter() -> None:
    declaration, call, layout = generated(
        "executorch_prim::et_view.default(Tensor self, SymInt[] size) -> Tensor",
        "prim::et_view_default",
    )
    assert declaration.endswith("rt::IntList size, rt::Tensor& out)")
    assert call.endswith("rt::tensor_arg(args[2]));")
    assert layout == "Aself Fsize A"


def test_no_return_slot_without_outs_or_returns() -> None:
    _, call, layout = generated(
        "executorch_prim::et_copy_index.tensor(Tensor(a!) copy_to, Tensor copy_from, "
        "SymInt index) -> ()",
        "prim::et_copy_index_tensor",
    )
    assert layout == "Acopy_to Acopy_from Eindex"
    assert "args[3]" not in call


def test_a_type_no_kernel_can_take_is_named() -> None:
    with pytest.raises(
        ValueError, match=r"aten::sum\.dim_DimnameList: type Dimname\[1\] has no unboxing"
    ):
        unboxing(parse_schema("sum.dim_DimnameList(Tensor self, Dimname[1] dim) -> Tensor"), "p::f")
