"""Per-target toolchains and a compiler launcher, in a real build: two toolchains in one
manifest, one of them a compiler of its own behind a launcher (as ccache or distcc would
be), each with its own objects, both runners verified; a new version of a compiler
rebuilds what it made."""

from __future__ import annotations

import stat
from pathlib import Path

from tests.workspace import (
    ADD_MUL_MODEL,
    PORTABLE_LIBRARY,
    all_verified,
    copy_repository,
    doit,
    executed,
)

# Stands in for ccache/sccache/distcc: logs the command it is given, then runs it.
LAUNCHER = """#!/bin/sh
echo "$*" >> launcher.log
exec "$@"
"""
# Stands in for a cross compiler.
COMPILER = """#!/bin/sh
exec c++ "$@"
"""
MANIFEST = """
[toolchains.device]
compiler = "./device-c++"
launcher = "./log-launcher"
cflags = ["-O2", "-DRT_TEST_DEVICE=1"]
"""
MANIFEST += PORTABLE_LIBRARY + ADD_MUL_MODEL
MANIFEST += """
[targets.on_host]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true

[targets.on_device]
models = ["add_mul"]
libraries = ["portable"]
dtype_selective = true
toolchain = "device"
"""


def test_each_target_builds_with_its_toolchain(tmp_path: Path) -> None:
    workdir = copy_repository(tmp_path)
    for name, text in (("log-launcher", LAUNCHER), ("device-c++", COMPILER)):
        (workdir / name).write_text(text)
        (workdir / name).chmod((workdir / name).stat().st_mode | stat.S_IXUSR)
    (workdir / "toolchains.toml").write_text(MANIFEST)
    result = doit(workdir, "-n", "2", "manifest=toolchains.toml", "build")
    assert result.returncode == 0, result.stdout + result.stderr
    for target in ("on_host", "on_device"):
        assert any(
            line.startswith(f"{target}: 2 operators") and all_verified(line, 1)
            for line in result.stdout.splitlines()
        ), result.stdout

    # Every object of the device target, and its link, went through the launcher with the
    # device's flags; nothing of the host target did.
    log = (workdir / "launcher.log").read_text().splitlines()
    assert log and all(line.startswith("./device-c++ ") for line in log)
    assert all("-DRT_TEST_DEVICE=1" in line for line in log)
    # Objects are written as `<object>.<pid>.tmp` and renamed (tasks/engine/actions.py).
    compiled = {
        line.split(" -o ")[1].split()[0].rsplit(".", 2)[0] for line in log if " -c " in line
    }
    objects = {str(p.relative_to(workdir)) for p in (workdir / "build").rglob("*.o")}
    device = {o for o in objects if o.startswith(("build/.obj/device-", "build/on_device/"))}
    host = objects - device
    assert compiled == device
    assert host and not any("/on_device/" in o or "/.obj/device-" in o for o in host)
    assert any(" -c " not in line and "build/on_device/runner" in line for line in log)  # link

    # Two builds of the same runtime: objects never shared across toolchains.
    shared = sorted(p.name for p in (workdir / "build" / ".obj").iterdir())
    assert [name.split("-")[0] for name in shared] == ["device", "host"]
    host_runner = (workdir / "build" / "on_host" / "runner").read_bytes()
    assert host_runner != (workdir / "build" / "on_device" / "runner").read_bytes()

    # A new version of the device compiler recompiles and relinks the device target only.
    (workdir / "device-c++").write_text(COMPILER + "# version 2\n")
    again = doit(workdir, "manifest=toolchains.toml", "build")
    assert again.returncode == 0, again.stdout + again.stderr
    ran = executed(again.stdout)
    assert {t for t in ran if t.startswith("compile:")} == {f"compile:{o}" for o in device}
    assert "link:on_device" in ran and not [t for t in ran if t.endswith(":on_host")]
