"""`python -m selective_build.codegen.gen_oplist` and the model reader start fast: neither
numpy nor PyYAML is imported on their path (each costs more than reading a 100,000-call
program in C)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from selective_build.codegen.pte import native
from tests.conftest import example_pte

REPO = Path(__file__).resolve().parents[2]


def modules_after(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_gen_oplist_imports_neither_numpy_nor_yaml(tmp_path: Path) -> None:
    assert native.MODULE is not None, "the C reader was not built"
    output = tmp_path / "selected.yaml"
    modules = modules_after(
        "from selective_build.codegen.gen_oplist import main\n"
        f"assert main(['--model_file_path', {str(example_pte('mlp'))!r}, "
        f"'--output_path', {str(output)!r}]) == 0"
    )
    assert "selective_build.codegen.pte._keys" in modules
    assert not {"numpy", "yaml"} & modules
    assert output.read_text().startswith("build_features: []\n")


def test_without_the_c_reader_numpy_reads_the_same(tmp_path: Path) -> None:
    """With the C module hidden, the fallback is imported and gives the same YAML."""
    outputs = []
    for hide in (False, True):
        output = tmp_path / f"{hide}.yaml"
        hidden = "import selective_build.codegen.pte.native as n; n.MODULE = None\n"
        prelude = hidden if hide else ""
        modules = modules_after(
            f"{prelude}from selective_build.codegen.gen_oplist import main\n"
            f"assert main(['--model_file_path', {str(example_pte('mlp'))!r}, "
            f"'--output_path', {str(output)!r}]) == 0"
        )
        assert ("numpy" in modules) == hide
        outputs.append(output.read_bytes())
    assert outputs[0] == outputs[1]
