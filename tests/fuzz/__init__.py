"""A structure-aware fuzz harness for the `.pte` reader (Python, in-process) and the
all-operators runner built with AddressSanitizer and UBSan (programs and `.npy` inputs).

`tests/fuzz/test_fuzz.py` is the short run of the test suite; `python -m tests.fuzz` is
the long run (see its `--help`, and `benchmarks/RESULTS.md` for the figures).
"""
