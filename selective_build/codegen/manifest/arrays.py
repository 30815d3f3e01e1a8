"""A model's `inputs` and `outputs` keys: a list of `.npy` files, or one `.npz` archive
(Note [Reference archives] in codegen/references.py, which reads the arrays they name)."""

from __future__ import annotations

from selective_build.codegen.manifest.key_path_reader import KeyPathReader

ARCHIVE_SUFFIX = ".npz"


def reference_strings(reader: KeyPathReader, value: object, key: str) -> tuple[str, ...]:
    """A model's `inputs` or `outputs` as the manifest writes them: a list of `.npy` files,
    or one `.npz` archive (a string, or a list holding only it)."""
    if isinstance(value, str) and value.endswith(ARCHIVE_SUFFIX):
        return (value,)
    if isinstance(value, str):
        raise reader.fail(key, "expected a list of .npy files or one .npz archive, got a string")
    items = reader.strings(value, key)
    archives = [index for index, item in enumerate(items) if item.endswith(ARCHIVE_SUFFIX)]
    if archives and len(items) > 1:
        raise reader.fail(
            f"{key}[{archives[0]}]", "an .npz archive holds every array of the list: name it alone"
        )
    return items
