"""The runtime's side of the ScalarType table is generated from `codegen/scalar_type.py` and
committed (`runtime/core/scalar_types.h`); the runtime prints the names it packs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from selective_build.codegen import scalar_type_header
from selective_build.codegen.scalar_type import ScalarType
from tests.workspace import REPO


def test_the_committed_header_is_what_the_table_generates() -> None:
    for path, text in scalar_type_header.generated().items():
        assert (REPO / path).read_text() == text, (
            f"{path} is stale: run `python -m selective_build.codegen.scalar_type_header`"
        )


def test_the_header_holds_each_type_s_number_and_size() -> None:
    header = scalar_type_header.scalar_types_h()
    for line in ("  BFloat16 = 15,", "  UInt64 = 29,", "constexpr int kNumScalarTypes = 30;"):
        assert line in header
    assert "    16,  // ComplexDouble\n" in header


def test_the_runtime_names_every_type_and_an_unknown_number(tmp_path: Path) -> None:
    program = tmp_path / "names.cpp"
    program.write_text(
        '#include <cstdio>\n#include "runtime/core/scalar_type.h"\n'
        "int main() {\n"
        "  for (int i = 0; i <= rt::kNumScalarTypes; ++i)\n"
        '    std::printf("%s %zu\\n", rt::scalar_type_name(static_cast<rt::ScalarType>(i)),\n'
        "                rt::element_size(static_cast<rt::ScalarType>(i)));\n"
        "}\n"
    )
    binary = tmp_path / "names"
    source = REPO / "runtime" / "core" / "scalar_type.cpp"
    command = ["c++", "-std=c++17", f"-I{REPO}", str(program), str(source), "-o", str(binary)]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    result = subprocess.run([str(binary)], check=True, capture_output=True, text=True, timeout=60)
    expected = [f"{t.name} {t.size}" for t in ScalarType] + ["Unknown 0"]
    assert result.stdout.splitlines() == expected
