from __future__ import annotations

from selective_build.codegen.hints import closest, did_you_mean


def test_a_typo_gets_the_closest_known_name() -> None:
    assert closest("portabel", ["optimized", "portable", "prim", "quantized"]) == "portable"
    assert closest("aten::sbu.out", ["aten::add.out", "aten::sub.out", "aten::sum.out"]) == (
        "aten::sub.out"
    )
    assert did_you_mean("mpl", ["mlp", "add_mul"]) == "; did you mean 'mlp'?"


def test_a_swap_of_neighbours_is_one_edit() -> None:
    assert closest("aten::sbu.out", ["aten::sum.out", "aten::sub.out"]) == "aten::sub.out"
    assert closest("Flaot", ["Float", "Bool"]) == "Float"


def test_nothing_close_is_offered_nothing() -> None:
    assert closest("zzz", ["portable", "prim"]) is None
    assert did_you_mean("zzz", ["portable"]) == ""
    assert did_you_mean("x", []) == ""
