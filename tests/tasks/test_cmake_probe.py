from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from doit.doit_cmd import reset_vars

from selective_build.codegen.manifest.cmake_toolchain import VARIABLES
from selective_build.tasks import cmake_probe


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    before = os.getcwd()
    os.chdir(tmp_path)
    reset_vars()
    (tmp_path / "selective.toml").write_text("")
    (tmp_path / "t.cmake").write_text("# a toolchain\n")
    calls: list[Path] = []

    def probe(file: Path) -> dict[str, str]:
        calls.append(file)
        return {name: f"value of {name}" for name in VARIABLES}

    monkeypatch.setattr(cmake_probe, "run_probe", probe)
    monkeypatch.setattr(cmake_probe, "CALLS", calls, raising=False)
    yield tmp_path
    os.chdir(before)


def test_cmake_runs_once_per_content(project: Path) -> None:
    file = project / "t.cmake"
    calls = cmake_probe.CALLS  # type: ignore[attr-defined]
    assert cmake_probe.cached_probe(file) == cmake_probe.cached_probe(file)
    assert len(calls) == 2  # no build folder yet: nothing is written (list, info)
    (project / "build").mkdir()
    cmake_probe.cached_probe(file)
    cmake_probe.cached_probe(file)
    assert len(calls) == 3
    assert len(list((project / "build" / ".toolchains").iterdir())) == 1
    file.write_text("# edited\n")
    cmake_probe.cached_probe(file)
    assert len(calls) == 4
