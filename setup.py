"""The C reader of kernel calls (codegen/pte/_keys.c); everything else is in pyproject.toml.

Optional: where it cannot be compiled (no C compiler or Python headers) the install goes
on and the reader uses numpy instead (codegen/pte/native.py), with the same results.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "selective_build.codegen.pte._keys",
            ["selective_build/codegen/pte/_keys.c"],
            # Generated from codegen/pte/slots.py (codegen/pte/slot_headers.py).
            depends=["selective_build/codegen/pte/_slots.h"],
            optional=True,
        )
    ]
)
