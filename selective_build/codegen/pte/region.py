"""The flatbuffer region of a `.pte` file: its identifier, extended header and bounds.

Only the flatbuffer is read (the extended header says where it ends), so the cost does not
grow with the weights stored in the segments behind it.
"""

from __future__ import annotations

import mmap
import os
import struct
from pathlib import Path

from selective_build.codegen.errors import InputError
from selective_build.codegen.paths import require_regular_file
from selective_build.codegen.pte.table import Readable

FILE_IDENTIFIER = b"ET12"
EXTENDED_HEADER_MAGIC = b"eh00"
# Bytes needed to see the identifier and the whole extended header.
_HEAD_BYTES = 40
# Flatbuffers up to this size are read; larger ones are memory-mapped.
_READ_LIMIT = 1 << 20


def read_flatbuffer_region(path: Path) -> Readable:
    """The bytes of the flatbuffer (headers included), without the segment data.

    A large file is memory-mapped rather than read: without an extended header nothing
    says where the flatbuffer ends, and its offsets bound what is read, so only the pages
    they reach are ever loaded (a multi-gigabyte file costs what its flatbuffer costs).
    """
    require_regular_file(path)
    try:
        with path.open("rb") as file:
            file_size = os.fstat(file.fileno()).st_size
            head = file.read(_HEAD_BYTES)
            if len(head) < 8:
                raise InputError(path, f"not a .pte file: only {len(head)} bytes")
            identifier = head[4:8]
            if identifier != FILE_IDENTIFIER:
                if identifier[:2] == b"ET" and identifier[2:].isdigit():
                    raise InputError(
                        path, f"unsupported .pte version {identifier.decode()} (expected ET12)"
                    )
                raise InputError(path, f"not a .pte file: identifier {identifier!r} is not 'ET12'")
            region = file_size
            if head[8:12] == EXTENDED_HEADER_MAGIC:
                if len(head) < _HEAD_BYTES:
                    raise InputError(path, "truncated: the extended header is incomplete")
                header_length = struct.unpack_from("<I", head, 12)[0]
                region = struct.unpack_from("<Q", head, 16)[0]
                if header_length < 24 or region < _HEAD_BYTES:
                    raise InputError(path, "malformed extended header (length or program size)")
                if region > file_size:
                    raise InputError(
                        path,
                        f"truncated: header says the program is {region} bytes, "
                        f"the file has {file_size}",
                    )
            if region <= _READ_LIMIT:
                file.seek(0)
                return file.read(region)
            mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            return memoryview(mapping)[:region]
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror or error}") from None
