"""From an operator's schema to its kernel's typed C++ signature and its unboxing.

Note [Kernel call layout]
A KernelCall of a `.pte` lists value indices in the order ExecuTorch's emitter writes them
(`exir/emit/_emitter.py`, `_emit_operator`, checked on programs of the 1.5.1 exporter):

1. every argument of the schema, in schema order, keyword-only and out arguments included;
   an absent optional argument is a None value, a defaulted one its default;
2. then one "return slot", when the schema has out arguments or returns anything:
   - one out argument: the same value again (`add.out`: self, other, alpha, out, out);
   - several out arguments (`max.dim_max`): one more TensorList value holding them;
   - a `Tensor(a!)[] out` (`split_with_sizes_copy.out`, `-> ()`): one more TensorList
     value holding the list's tensors;
   - an operator without out arguments: the value it returns (`sym_size.int` writes an Int
     there; `et_view` a Tensor), which the kernel fills in.
   A schema with neither (`et_copy_index.tensor`, whose written `copy_to` is positional,
   not an out argument) gets no return slot.

So a call has `len(arguments) + has_return_slot` values. The runtime checks every call
against this layout once, when the method is loaded (runtime/kernel/unboxing.cpp), and the
generated wrapper then converts the values without checking them again.
"""

from __future__ import annotations

from dataclasses import dataclass

from selective_build.codegen.schema import INT_TYPES, Argument, Schema, SchemaType

# One letter per value kind the load-time check knows, A to L in the order of the table in
# runtime/kernel/unboxing.cpp (which indexes it by the letter): upper case a required
# value, lower case one that may be None.
_KIND_CODES = {
    "Tensor": "A",
    "Tensor[]": "B",
    "Tensor?[]": "C",
    "Scalar": "D",
    "int": "E",
    "int[]": "F",
    "float": "G",
    "float[]": "H",
    "bool": "I",
    "bool[]": "J",
    "str": "K",
}
# A number the kernel writes (the return slot of a prim op): any Int, Double, Bool or None.
_RETURNED_NUMBER = "L"

# C++ type of a value kind, converter from an EValue* (runtime/kernel/kernel_args.h).
_CPP = {
    "Tensor": ("rt::Tensor", "rt::tensor_arg"),
    "Tensor[]": ("rt::TensorList", "rt::tensor_list_arg"),
    "Tensor?[]": ("rt::OptionalTensorList", "rt::optional_tensor_list_arg"),
    "Scalar": ("rt::Scalar", "rt::scalar_arg"),
    "int": ("int64_t", "rt::int_arg"),
    "int[]": ("rt::IntList", "rt::int_list_arg"),
    "float": ("double", "rt::double_arg"),
    "float[]": ("rt::DoubleList", "rt::double_list_arg"),
    "bool": ("bool", "rt::bool_arg"),
    "bool[]": ("rt::BoolList", "rt::bool_list_arg"),
    "str": ("rt::StringRef", "rt::string_arg"),
    "ScalarType": ("rt::ScalarType", "rt::scalar_type_arg"),
}
# Returned numbers: C++ return type and the EValue factory the wrapper stores it with.
_RETURNED = {
    "Scalar": ("rt::EValue", ""),
    "int": ("int64_t", "rt::EValue::from_int"),
    "float": ("double", "rt::EValue::from_double"),
    "bool": ("bool", "rt::EValue::from_bool"),
}


def _kind(type_: SchemaType) -> str:
    """The value kind of a type: `int` for every integer-valued base, `Tensor?[]`..."""
    base = type_.base
    if base in INT_TYPES - {"ScalarType"} or base in ("Generator", "SymBool"):
        base = "bool" if base == "SymBool" else "int"
    elif base == "SymFloat":
        base = "float"
    elif base == "ScalarType":
        base = "int" if type_.is_list else "ScalarType"
    kind = base + ("?" if type_.element_optional else "") + ("[]" if type_.is_list else "")
    if kind not in _CPP and kind != "ScalarType":
        raise ValueError(f"type {type_} has no unboxing")
    return kind


def _code(type_: SchemaType) -> str:
    kind = _kind(type_)
    code = _KIND_CODES["int" if kind == "ScalarType" else kind]
    return code.lower() if type_.optional else code


@dataclass(frozen=True)
class Unboxing:
    """What codegen writes for one kernel function."""

    declaration: str  # the typed signature, `rt::Tensor& add_out(rt::KernelContext& context, ...)`
    call: str  # the wrapper's body: the typed call on `args`
    layout: str  # the load-time check's description of the call's values


def unboxing(schema: Schema, function: str) -> Unboxing:
    """The typed signature of `function` (a kernel of `schema`) and its unboxing.

    `function` is the qualified C++ name (`portable::add_out`); the declaration uses the
    unqualified name, for the namespace block it is declared in. ValueError: a type this
    runtime cannot pass (a Generator, say)."""
    try:
        return _unboxing(schema, function)
    except ValueError as error:
        raise ValueError(f"{schema.name}: {error}") from None


def _unboxing(schema: Schema, function: str) -> Unboxing:
    parameters = ["rt::KernelContext& context"]
    values = ["context"]
    layout = []
    for index, argument in enumerate(schema.arguments):
        parameters.append(f"{_parameter_type(argument)} {argument.name}")
        values.append(_value(argument.type, index))
        layout.append(f"{_code(argument.type)}{argument.name}")
    returned, store = _return(schema)
    slot = len(schema.arguments)
    if schema.has_return_slot:
        if not schema.out_arguments and returned == "rt::Tensor&":
            # A Tensor returned by an operator without out arguments is written into the
            # return slot: the kernel gets it as its last parameter.
            parameters.append("rt::Tensor& out")
            values.append(f"rt::tensor_arg(args[{slot}])")
        layout.append(_return_code(schema))
    name = function.rpartition("::")[2]
    call = f"{function}({', '.join(values)})"
    if store is not None:
        call = f"*args[{slot}] = {store}({call})" if store else f"*args[{slot}] = {call}"
    return Unboxing(
        declaration=f"{returned} {name}({', '.join(parameters)})",
        call=f"{call};",
        layout=" ".join(layout),
    )


def _parameter_type(argument: Argument) -> str:
    type_ = argument.type
    cpp, _ = _CPP[_kind(type_)]
    if type_.optional:
        return f"rt::Optional<{cpp}>"
    if cpp == "rt::Tensor":
        return "rt::Tensor&" if type_.mutable else "const rt::Tensor&"
    return cpp


def _value(type_: SchemaType, index: int) -> str:
    _, convert = _CPP[_kind(type_)]
    if type_.optional:
        return f"rt::optional_arg<{_CPP[_kind(type_)][0]}>(args[{index}], &{convert})"
    return f"{convert}(args[{index}])"


def _return(schema: Schema) -> tuple[str, str | None]:
    """The kernel's C++ return type, and for a returned number the factory the wrapper
    stores it with ("" when the kernel returns an EValue already); None: not stored."""
    if schema.out_arguments or not schema.returns:
        one = len(schema.returns) == 1 and schema.returns[0].type.base == "Tensor"
        return ("rt::Tensor&" if one and not schema.returns[0].type.is_list else "void"), None
    if len(schema.returns) != 1:
        raise ValueError("several values returned without out arguments")
    type_ = schema.returns[0].type
    if type_.base == "Tensor" and not type_.is_list and not type_.optional:
        return "rt::Tensor&", None
    kind = _kind(type_)
    if kind not in _RETURNED or type_.optional:
        raise ValueError(f"returns {type_}, which no kernel can return")
    return _RETURNED[kind]


def _return_code(schema: Schema) -> str:
    outs = schema.out_arguments
    if len(outs) == 1 and not outs[0].type.is_list:
        return _KIND_CODES["Tensor"]
    if outs:
        return _KIND_CODES["Tensor[]"]  # several outs, or a Tensor(a!)[]: one TensorList of them
    return _KIND_CODES["Tensor"] if schema.returns[0].type.base == "Tensor" else _RETURNED_NUMBER
