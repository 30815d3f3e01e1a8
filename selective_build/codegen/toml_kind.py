"""How an error message names the TOML type of a value ("got an array"): one vocabulary for
the manifest parser and the `build` key's early reader (codegen/build_key.py)."""

_NAMES = {
    dict: "a table",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a float",
}


def kind(value: object) -> str:
    """How a message names the TOML type of `value`."""
    return _NAMES.get(type(value), type(value).__name__)
