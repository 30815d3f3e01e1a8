"""The optimized library listed first falls back to the next library per operator and dtype
(Note [Dtype fallback chain], codegen/resolution.py): one target running the real
exporter's addmm program on Float and on Long tensors registers optimized's addmm for the
first and portable's for the second, and both verify against PyTorch's outputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from tests.workspace import REPO, doit

PROGRAM = REPO / "tests" / "conformance" / "programs" / "addmm"


def method_model(folder: Path, method: str) -> str:
    """A [models.*] table for one method of the addmm program, its arrays written as .npy."""
    folder.mkdir()
    with np.load(PROGRAM.with_suffix(".npz")) as data:
        for kind, count in (("in", 3), ("out", 1)):
            for index in range(count):
                np.save(folder / f"{kind}{index}.npy", data[f"{method}/run0/{kind}{index}"])
    inputs = ", ".join(f'"{folder / f"in{i}.npy"}"' for i in range(3))
    return (
        f"[models.addmm_{method}]\n"
        f'path = "{PROGRAM.with_suffix(".pte")}"\n'
        f'method = "{method}"\n'
        f"inputs = [{inputs}]\n"
        f'outputs = ["{folder / "out0.npy"}"]\n'
    )


def addmm_mask(folder: Path) -> int:
    """The dtype mask addmm.out is compiled with, from the selected_op_variants.h in `folder`."""
    text = (folder / "selected_op_variants.h").read_text()
    mask = re.search(r'\{"aten::addmm\.out", DtypeSet\((0x[0-9a-f]+)u\)\}', text)
    assert mask is not None, text
    return int(mask.group(1), 16)


def test_float_addmm_runs_optimized_and_long_addmm_portable(tmp_path: Path) -> None:
    manifest = tmp_path / "selective.toml"
    manifest.write_text(
        method_model(tmp_path / "f32", "f32")
        + method_model(tmp_path / "i64", "i64")
        + """
[targets.fallback]
models = ["addmm_f32", "addmm_i64"]
libraries = ["optimized", "portable"]
dtype_selective = true
"""
    )
    result = doit(REPO, f"manifest={manifest}", "build")
    assert result.returncode == 0, result.stdout + result.stderr
    target = tmp_path / "build" / "fallback"
    kernels = json.loads((target / "resolution.json").read_text())["kernels"]
    addmm = sorted(k["function"] for k in kernels if k["op"] == "aten::addmm.out")
    assert addmm == ["optimized::addmm_out", "portable::addmm_out"]
    registration = (target / "gen" / "selected_kernels.cpp").read_text()
    # One row for the operator, dispatching Float (bit 6) and Double (bit 7) to optimized.
    assert registration.count('{"aten::addmm.out", nullptr, &dispatch_aten__addmm_out') == 1
    assert (
        "if (tensor_dtypes_within(args, 0x000000c0u)) return unbox_optimized__addmm_out"
        in registration
    )
    # Each library's addmm compiles only the dtypes it serves (Note [Dtype fallback chain]):
    # Float and Double optimized's, the program's other dtypes portable's, none in both.
    masks = {
        library: addmm_mask(target / "gen" / "ops" / library / "op_addmm")
        for library in ("optimized", "portable")
    }
    assert masks["optimized"] == 0xC0 and masks["portable"] & 0xC0 == 0
    assert masks["optimized"] | masks["portable"] == addmm_mask(target / "gen")
    verify = json.loads((target / "verify.json").read_text())
    statuses = {name: result["status"] for name, result in verify["models"].items()}
    assert statuses == {"addmm_f32": "ok", "addmm_i64": "ok"}
