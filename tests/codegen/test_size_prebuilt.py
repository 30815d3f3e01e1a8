"""The prebuilt part of an ExecuTorch target's size report, and the non-selective
alternative it is compared with."""

from __future__ import annotations

from codegen.executorch.install import ALL_KERNELS_LIBRARY, ExecutorchInstall
from codegen.size.prebuilt import (
    PrebuiltFigures,
    PrebuiltLibrary,
    measure_prebuilt,
    prebuilt_markdown,
)
from tests.executorch_install import executorch_install

__all__ = ["executorch_install"]

FIGURES = PrebuiltFigures(
    (PrebuiltLibrary("libexecutorch.so", 437_345, 381_928, 4_872, 182_144),),
    43_661,
    PrebuiltLibrary(ALL_KERNELS_LIBRARY, 10_706_688, 10_673_193, 23_752, 11_272),
)


def test_what_the_target_adds_leaves_out_the_runner_and_what_no_object_names() -> None:
    buckets = {"kernel:portable/op_add": 1000, "registration": 50, "adapter": 300}
    buckets |= {"runner": 8000, "libc": 90, "unnamed": 700, "overhead": 20000, "core": 100}
    assert measure_prebuilt((), None, buckets) == PrebuiltFigures((), 1450, None)


def test_figures_round_trip_through_their_json_form() -> None:
    assert PrebuiltFigures.from_dict(FIGURES.to_dict()) == FIGURES


def test_the_section_prices_the_target_against_the_all_operators_library() -> None:
    text = prebuilt_markdown(FIGURES)
    assert "| libexecutorch.so | 437,345 | 386,800 |\n| **total** | **437,345** | |" in text
    assert "**43,661 B** of code and data" in text
    assert (
        "Without selective build the app would link libexecutorch_kernels_optimized.so "
        "instead: 10,696,945 B of code and data (10,706,688 B file); this target's kernels "
        "are 0.41% of that."
    ) in text


def test_the_installed_libraries_are_measured(executorch_install: ExecutorchInstall) -> None:
    figures = measure_prebuilt(
        (executorch_install.runtime_library,),
        executorch_install.lib_dir / ALL_KERNELS_LIBRARY,
        {"kernel:portable/op_add": 1},
    )
    (runtime,) = figures.libraries
    assert runtime.name == "libexecutorch.so"
    assert runtime.file == executorch_install.runtime_library.stat().st_size
    assert 0 < runtime.code_and_data < runtime.file
    assert figures.alternative is not None and figures.alternative.text > 10 * runtime.text
