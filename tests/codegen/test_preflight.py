from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.manifest.builtins import builtin_libraries
from selective_build.codegen.manifest.model import Model, Target
from selective_build.codegen.model import OperatorName
from selective_build.codegen.model_info import MethodSignature, ModelInfo
from selective_build.codegen.preflight import check_model_references, check_operator_names
from tests.workspace import REPO

MANIFEST = Path("selective.toml")
PORTABLE = builtin_libraries(REPO / "kernels")["portable"]
INFO = ModelInfo((MethodSignature("forward", 2, 1),), ())


def target(**fields: object) -> Target:
    defaults: dict[str, object] = dict(
        name="t",
        models=(),
        libraries=("portable",),
        extra_ops=(),
        op_dtypes={},
        op_schemas=(),
        selections=(),
        include_all_operators=False,
        dtype_selective=False,
        size_budget=None,
        toolchain="host",
    )
    return Target(**{**defaults, **fields})  # type: ignore[arg-type]


def test_a_misspelled_operator_gets_the_library_s_closest() -> None:
    right = target(extra_ops=(OperatorName.parse("aten::sub.out"),))
    check_operator_names(MANIFEST, right, [PORTABLE])
    typo = target(extra_ops=(OperatorName.parse("aten::sbu.out"),))
    with pytest.raises(InputError) as raised:
        check_operator_names(MANIFEST, typo, [PORTABLE])
    assert str(raised.value) == (
        "selective.toml: targets.t.extra_ops[0]: aten::sbu.out is implemented by none of the"
        " target's libraries (portable); did you mean 'aten::sub.out'?"
    )
    with pytest.raises(InputError, match=r"targets.t.op_dtypes.'aten::mull.out': "):
        check_operator_names(MANIFEST, target(op_dtypes={"aten::mull.out": ()}), [PORTABLE])


def test_operators_of_the_libraries_pass() -> None:
    named = target(
        extra_ops=(OperatorName.parse("aten::sub.out"),), op_dtypes={"aten::add.out": ()}
    )
    check_operator_names(MANIFEST, named, [PORTABLE])


def model(inputs: tuple[Path, ...], outputs: tuple[Path, ...], method: str = "forward") -> Model:
    return Model("m", Path("m.pte"), method, inputs, outputs)


def test_reference_counts_are_those_of_the_method(tmp_path: Path) -> None:
    a, b, c = (Path(f"{name}.npy") for name in "abc")
    check_model_references(MANIFEST, model((a, b), (c,)), INFO)
    check_model_references(MANIFEST, model((), ()), INFO)  # not verified: not run
    with pytest.raises(InputError) as raised:
        check_model_references(MANIFEST, model((a,), (c,)), INFO)
    assert str(raised.value) == (
        "selective.toml: models.m.inputs: 1 file for the 2 inputs of method 'forward' of m.pte"
    )
    with pytest.raises(InputError, match="models.m.outputs: 2 files for the 1 output of"):
        check_model_references(MANIFEST, model((a, b), (c, c)), INFO)
    archive = tmp_path / "m.npz"
    np.savez(archive, in0=np.zeros(1), out0=np.zeros(1))
    with pytest.raises(InputError, match="models.m.inputs: m.npz holds 1 input array for the 2"):
        check_model_references(MANIFEST, model((archive,), (archive,)), INFO)


def test_an_unknown_method_is_named_with_the_program_s() -> None:
    with pytest.raises(InputError) as raised:
        check_model_references(MANIFEST, model((), (Path("c.npy"),), "froward"), INFO)
    assert str(raised.value) == (
        "selective.toml: models.m.method: m.pte has no method 'froward' (its methods:"
        " forward); did you mean 'forward'?"
    )
