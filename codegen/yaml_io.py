"""Reading and writing the YAML files of ExecuTorch's formats.

PyYAML is imported on first use: doit imports this package for every command, most of
which never read a YAML file (a no-op build among them).
"""

from __future__ import annotations

from pathlib import Path

from codegen.errors import InputError


def load_yaml(path: Path) -> object:
    """The document in `path`; InputError naming the file when it cannot be read."""
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise InputError(path, f"invalid YAML: {error}") from None


def dump_yaml(document: object) -> str:
    """Block-style YAML with sorted keys, as ExecuTorch's tools write it."""
    import yaml

    text: str = yaml.safe_dump(document, default_flow_style=False, sort_keys=True)
    return text
