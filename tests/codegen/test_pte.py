from __future__ import annotations

import struct
from pathlib import Path

import pytest

from selective_build.codegen.errors import InputError
from selective_build.codegen.model import KernelKey, OperatorName
from selective_build.codegen.pte import read_flatbuffer_region, read_model_ops
from selective_build.codegen.selection import Selection
from tests.conftest import EXAMPLE_MODELS, example_pte

EXAMPLES = sorted(path.name for path in EXAMPLE_MODELS.iterdir() if path.is_dir())
FLOAT_2D = "6;0,1"


@pytest.mark.usefixtures("kernel_call_reader")
def test_add_mul_operators_and_keys() -> None:
    ops = read_model_ops(example_pte("add_mul"))
    key = KernelKey.parse("v1/" + "|".join([FLOAT_2D] * 4))
    assert ops.methods == ("forward",)
    assert ops.delegates == ()
    assert ops.operators == {
        OperatorName("aten", "add", "out"): frozenset({key}),
        OperatorName("aten", "mul", "out"): frozenset({key}),
    }


@pytest.mark.usefixtures("kernel_call_reader")
def test_mlp_bias_is_one_dimensional_in_the_addmm_key() -> None:
    ops = read_model_ops(example_pte("mlp"))
    addmm = ops.operators[OperatorName("aten", "addmm", "out")]
    assert {str(key) for key in addmm} == {"v1/6;0|6;0,1|6;0,1|6;0,1|6;0,1"}


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.usefixtures("kernel_call_reader")
def test_selection_equals_executorch_gen_oplist(name: str) -> None:
    """Byte-equal to what ExecuTorch's gen_oplist wrote for the same file."""
    ours = Selection.from_model(read_model_ops(example_pte(name)), f"{name}.pte").to_yaml()
    assert ours == (EXAMPLE_MODELS / name / "selected_operators.yaml").read_text()


@pytest.mark.usefixtures("kernel_call_reader")
def test_reader_stops_at_the_flatbuffer_region(tmp_path: Path) -> None:
    """Segment data behind program_size is never read."""
    original = example_pte("mlp").read_bytes()
    assert original[8:12] == b"eh00"
    program_size = struct.unpack_from("<Q", original, 16)[0]
    assert len(read_flatbuffer_region(example_pte("mlp"))) == program_size
    # Corrupting every segment byte changes nothing the reader sees.
    corrupted = tmp_path / "mlp.pte"
    corrupted.write_bytes(original[:program_size] + b"\xff" * (len(original) - program_size))
    assert read_model_ops(corrupted) == read_model_ops(example_pte("mlp"))


@pytest.mark.parametrize("name", ["add_mul", "mlp"])
@pytest.mark.usefixtures("kernel_call_reader")
def test_truncation_at_every_byte_is_one_clean_error(tmp_path: Path, name: str) -> None:
    data = example_pte(name).read_bytes()
    path = tmp_path / f"{name}.pte"
    for length in range(len(data)):
        path.write_bytes(data[:length])
        try:
            read_model_ops(path)
        except InputError as error:
            assert str(error).startswith(f"{path}: ")
            assert "\n" not in str(error)
        # A prefix may still parse when the cut falls in padding: that is fine too.


def test_not_a_pte(tmp_path: Path) -> None:
    path = tmp_path / "notes.pte"
    path.write_bytes(b"hello world, this is not a program")
    with pytest.raises(InputError, match=r"not a \.pte file: identifier b'o wo' is not 'ET12'"):
        read_model_ops(path)


def test_other_version_is_named(tmp_path: Path) -> None:
    data = bytearray(example_pte("add_mul").read_bytes())
    data[4:8] = b"ET11"
    path = tmp_path / "old.pte"
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="unsupported .pte version ET11"):
        read_model_ops(path)


@pytest.mark.usefixtures("kernel_call_reader")
def test_root_offset_outside_the_file(tmp_path: Path) -> None:
    data = bytearray(example_pte("add_mul").read_bytes())
    data[0:4] = struct.pack("<I", 10_000_000)
    path = tmp_path / "far.pte"
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="malformed program: root table vtable offset at byte"):
        read_model_ops(path)


def test_program_size_larger_than_file(tmp_path: Path) -> None:
    data = bytearray(example_pte("mlp").read_bytes())
    data[16:24] = struct.pack("<Q", len(data) + 1)
    path = tmp_path / "big.pte"
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="truncated: header says the program is"):
        read_model_ops(path)


@pytest.mark.usefixtures("kernel_call_reader")
def test_every_single_byte_corruption_is_handled(tmp_path: Path) -> None:
    """Flipping any byte of the flatbuffer gives a result or one clean error, never a crash."""
    data = example_pte("add_mul").read_bytes()
    path = tmp_path / "flipped.pte"
    for index in range(len(data)):
        corrupted = bytearray(data)
        corrupted[index] ^= 0xFF
        path.write_bytes(bytes(corrupted))
        try:
            read_model_ops(path)
        except InputError as error:
            assert "\n" not in str(error)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="absent.pte: does not exist$"):
        read_model_ops(tmp_path / "absent.pte")


@pytest.mark.usefixtures("kernel_call_reader")
def test_invalid_operator_name_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad_name.pte"
    data = example_pte("add_mul").read_bytes()
    assert data.count(b"aten::add") == 1
    path.write_bytes(data.replace(b"aten::add", b"aten::a;d"))
    with pytest.raises(InputError) as caught:
        read_model_ops(path)
    assert str(caught.value) == (
        f"{path}: malformed program: operator 'aten::a;d.out' is not a valid "
        "ns::name.overload identifier"
    )


@pytest.mark.usefixtures("kernel_call_reader")
def test_vector_length_past_the_end_is_bounded(tmp_path: Path) -> None:
    """A huge claimed length is refused before anything is allocated for it."""
    data = bytearray(example_pte("add_mul").read_bytes())
    index = data.find(b"aten::add") - 4  # the string's length prefix
    data[index : index + 4] = struct.pack("<I", 0xFFFFFFF0)
    path = tmp_path / "long.pte"
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="claims 4294967280 elements, past the end"):
        read_model_ops(path)
