"""The prebuilt part of an ExecuTorch target's size report, and the non-selective
alternative it is compared with."""

from __future__ import annotations

from selective_build.codegen.executorch.install import ALL_KERNELS_LIBRARY, ExecutorchInstall
from selective_build.codegen.size.prebuilt import NonSelective, non_selective, prebuilt_markdown
from tests.executorch_install import executorch_install

__all__ = ["executorch_install"]

ALTERNATIVE = NonSelective(ALL_KERNELS_LIBRARY, 10_706_688, 10_696_945, 43_661)


def test_the_section_prices_the_target_against_the_all_operators_library() -> None:
    text = prebuilt_markdown([("libexecutorch.so", 437_345)], ALTERNATIVE)
    assert "| libexecutorch.so | 437,345 |\n| **total** | **437,345** |" in text
    assert "**43,661 B** of code and data" in text
    assert (
        "Without selective build the app would link libexecutorch_kernels_optimized.so "
        "instead: 10,696,945 B of code and data (10,706,688 B file); this target's kernels "
        "are 0.41% of that."
    ) in text


def test_without_an_alternative_the_section_lists_the_libraries_alone() -> None:
    text = prebuilt_markdown([("a.so", 1), ("b.so", 2)], None)
    assert "| **total** | **3** |" in text and "Without selective build" not in text


def test_the_alternative_round_trips_through_its_json_form() -> None:
    raw = {"name": ALL_KERNELS_LIBRARY, "file": 10_706_688}
    raw |= {"code_and_data": 10_696_945, "added": 43_661}
    assert NonSelective.from_dict(raw) == ALTERNATIVE


def test_what_the_target_adds_leaves_out_the_runner_and_what_no_object_names(
    executorch_install: ExecutorchInstall,
) -> None:
    buckets = {"kernel:portable/op_add": 1000, "registration": 50, "adapter": 300}
    buckets |= {"runner": 8000, "libc": 90, "unnamed": 700, "overhead": 20000, "core": 100}
    library = executorch_install.lib_dir / ALL_KERNELS_LIBRARY
    figures = non_selective(library, buckets)
    assert figures.added == 1450
    assert figures.name == ALL_KERNELS_LIBRARY and figures.file == library.stat().st_size
    assert 10 * executorch_install.runtime_library.stat().st_size < figures.code_and_data
