"""Size reports of a real build: the diff after a manifest edit, explain on the example
models, and size.html rendered by headless Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from selective_build.codegen.size.elf import SHF_EXECINSTR, read_sections
from tests.workspace import copy_repository, doit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = copy_repository(tmp_path_factory.mktemp("size"))
    result = doit(workdir, "target:add_mul")
    assert result.returncode == 0, result.stdout + result.stderr
    return workdir


def test_buckets_cover_the_runner_sections(built: Path) -> None:
    size = json.loads((built / "build" / "add_mul" / "size.json").read_text())
    runner = built / "build" / "add_mul" / "runner"
    assert size["file"] == runner.stat().st_size
    # Overhead is whatever the other buckets leave, so their sum says nothing; check the
    # named buckets against the runner's section headers: every byte of its code and data
    # sections, and nothing outside its allocated sections (headers, padding).
    sections = [s for s in read_sections(runner) if s.allocated and s.in_file]
    content = sum(s.size for s in sections if s.name in (".text", ".rodata", ".data"))
    overhead = next(b["bytes"] for b in size["buckets"] if b["name"] == "overhead")
    assert content <= size["file"] - overhead <= sum(s.size for s in sections)
    text = next(s.size for s in sections if s.name == ".text")
    code = sum(b["code"] for b in size["buckets"])
    assert text <= code <= sum(s.size for s in sections if s.flags & SHF_EXECINSTR)
    names = {b["name"] for b in size["buckets"]}
    assert {"loader", "executor", "registry", "registration", "overhead"} <= names
    assert {"kernel:portable/op_add", "kernel:portable/op_mul"} <= names
    assert size["registry_bytes"] == 32 * size["registry_slots"]


def test_explain_answers_for_the_example_model(built: Path) -> None:
    result = doit(
        built, "explain", "--op", "aten::add.out", "--dtype", "Float", "--target", "add_mul"
    )
    assert result.returncode == 0, result.stderr
    assert (
        "add_mul: aten::add.out is selected by add_mul; kernel portable::add_out from "
        "library portable; costs " in result.stdout
    )
    assert "add_mul: aten::add.out for Float: " in result.stdout
    model = doit(built, "explain", "--model", "add_mul", "--target", "add_mul")
    assert "add_mul: dropping add_mul would save about " in model.stdout
    assert "(operators only it selects: aten::add.out, aten::mul.out)" in model.stdout
    unknown = doit(built, "explain", "--op", "aten::add.out", "--target", "nosuch")
    assert unknown.returncode != 0
    assert "error: selective.toml: unknown target 'nosuch' (defined: " in unknown.stderr


def test_html_report_renders_its_chart_in_chromium(built: Path, tmp_path: Path) -> None:
    assert CHROMIUM is not None, "Debian's chromium is needed: .ci/run installs it"
    page = built / "build" / "add_mul" / "size.html"
    size = json.loads((built / "build" / "add_mul" / "size.json").read_text())
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        page.resolve().as_uri(),
    ]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
    assert f'data-rendered="{len(size["buckets"])}"' in dom
    assert dom.count('class="bucket"') == len(size["buckets"])
    assert 'data-bucket="kernel:portable/op_add"' in dom


def test_diff_names_the_bucket_that_grew_after_a_manifest_edit(built: Path) -> None:
    manifest = built / "selective.toml"
    manifest.write_text(
        manifest.read_text()
        .replace(
            'models = ["add_mul"]\n', 'models = ["add_mul"]\nextra_ops = ["aten::sub.out"]\n', 1
        )
        .replace('size_budget = "24 KiB"', 'size_budget = "64 KiB"', 1)
    )
    result = doit(built, "target:add_mul")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "size: target add_mul: runner " in result.stdout
    assert "  kernel:portable/op_sub grew by " in result.stdout
    assert (
        "  because aten::sub.out is now selected by selective.toml:targets.add_mul.extra_ops"
        in result.stdout
    )
