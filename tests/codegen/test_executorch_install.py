"""Finding and checking the ExecuTorch install a target builds against."""

from __future__ import annotations

from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.executorch.install import (
    INSTALL_HINT,
    ExecutorchInstall,
    check_machine,
    find_executorch,
)
from tests.executorch_install import executorch_install

__all__ = ["executorch_install"]

# The first 20 bytes of a little-endian ELF file for e_machine 183 (aarch64), 62 (x86-64).
_ELF = {
    "aarch64": b"\x7fELF\x02\x01\x01" + bytes(11) + (183).to_bytes(2, "little"),
    "x86_64": b"\x7fELF\x02\x01\x01" + bytes(11) + (62).to_bytes(2, "little"),
}


def fake_install(
    folder: Path, version: str = "1.5.1+cpu", machine: str = "x86_64", libs: tuple[str, ...] = ()
) -> Path:
    """An install's layout: headers folder, libexecutorch.so's ELF header, version.py."""
    (folder / "include/executorch/runtime/core").mkdir(parents=True)
    (folder / "include/executorch/runtime/core/evalue.h").write_text("#pragma once\n")
    (folder / "lib").mkdir()
    (folder / "lib/libexecutorch.so").write_bytes(_ELF[machine])
    for name in libs:
        (folder / "lib" / name).write_bytes(_ELF[machine])
    (folder / "version.py").write_text(f'__version__ = "{version}"\ngit_version = "abc"\n')
    return folder


def test_a_named_folder_is_the_install(tmp_path: Path) -> None:
    folder = fake_install(
        tmp_path / "et", libs=("libexecutorch_backend_xnnpack.so", "libexecutorch_threadpool.so")
    )
    install = find_executorch(folder, "selective.toml:executorch")
    assert install.version == "1.5.1+cpu"
    assert install.backends == ("XnnpackBackend",)
    assert install.include_dirs[1] == folder / "include/executorch/runtime/core/portable_type/c10"
    assert install.backend_libraries("XnnpackBackend") == (
        folder / "lib/libexecutorch_backend_xnnpack.so",
        folder / "lib/libexecutorch_threadpool.so",
    )
    assert "-DC10_USING_CUSTOM_GENERATED_MACROS" in install.compile_flags()


def test_a_backend_missing_a_library_is_not_offered(tmp_path: Path) -> None:
    folder = fake_install(tmp_path / "et", libs=("libexecutorch_backend_xnnpack.so",))
    assert find_executorch(folder, "k").backends == ()


def test_a_folder_that_is_no_install_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as error:
        find_executorch(tmp_path, "selective.toml:executorch")
    assert str(error.value) == (
        f"selective.toml:executorch: {tmp_path} is not an ExecuTorch install (no "
        "include/executorch/runtime and lib/libexecutorch.so): name the executorch folder "
        f"of an installed or unpacked wheel, or {INSTALL_HINT}"
    )


def test_another_release_is_refused(tmp_path: Path) -> None:
    folder = fake_install(tmp_path / "et", version="1.4.0")
    with pytest.raises(InputError) as error:
        find_executorch(folder, "k")
    assert str(error.value) == (
        f"{folder}: ExecuTorch 1.4.0 is not supported (this build supports 1.5.1); "
        "install it with: pip install torch==2.13.0 executorch==1.5.1"
    )


def test_an_install_without_version_is_refused(tmp_path: Path) -> None:
    folder = fake_install(tmp_path / "et")
    (folder / "version.py").unlink()
    with pytest.raises(InputError, match="no version.py naming the ExecuTorch release"):
        find_executorch(folder, "k")


def test_no_importable_package_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(InputError) as error:
        find_executorch(None, "selective.toml:targets.t.executorch")
    message = str(error.value)
    assert message.startswith("executorch: ExecuTorch's runtime was not found: ")
    assert message.endswith(
        "cannot import the executorch package and the manifest names no install "
        f"(selective.toml:targets.t.executorch); {INSTALL_HINT}"
    )


def test_the_installed_package_is_found(executorch_install: ExecutorchInstall) -> None:
    """The wheel CI installs: a namespace package, found by its search path."""
    import executorch

    assert executorch.__file__ is None  # why the install is found through find_spec
    assert executorch_install.version.startswith("1.5.1")
    assert executorch_install.runtime_library.is_file()
    assert "XnnpackBackend" in executorch_install.backends
    assert (executorch_install.include_dirs[0] / "executorch/runtime/kernel").is_dir()


def test_a_cross_target_needs_an_install_for_its_processor(tmp_path: Path) -> None:
    install = find_executorch(fake_install(tmp_path / "et"), "k")
    check_machine(install, "x86_64", "t", "toolchains.host.executorch")
    with pytest.raises(InputError) as error:
        check_machine(install, "aarch64", "arm", "toolchains.arm64.executorch")
    assert str(error.value) == (
        f"target arm: the ExecuTorch at {install.root} is built for x86_64, the target's "
        "toolchain builds for aarch64: name an install built for aarch64 as "
        "toolchains.arm64.executorch (for aarch64, the wheel of the same release: pip "
        "download --platform "
        "manylinux_2_28_aarch64 --only-binary=:all: --no-deps executorch==1.5.1, unpacked)"
    )


def test_an_aarch64_install_fits_an_aarch64_toolchain(tmp_path: Path) -> None:
    install = find_executorch(fake_install(tmp_path / "et", machine="aarch64"), "k")
    check_machine(install, "aarch64", "arm", "toolchains.arm64.executorch")
