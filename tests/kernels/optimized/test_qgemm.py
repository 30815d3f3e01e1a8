"""kernels/optimized/qgemm.h on its own, for every instruction set this machine runs (Note
[int8 GEMM]: the VNNI, AVX2 and plain C++ microkernels are different code): the int32 sums
of every shape around the tiles against numpy's, exactly, for Char and Byte inputs with
zero points; Note [Requantization] against numpy's float32 emulation of its formula,
exactly, with halves that round to even, clamps and a relu; and Note [Channel-major
convolution]'s tiles (weights as rows, panels of the input, requantize_run per row, part
panels stored masked, those of at most 8 pixels on the half tile with VNNI) giving the same
outs transposed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from selective_build.codegen.isa import isa_flags
from tests.kernels.optimized.drivers import levels_here
from tests.workspace import REPO

PROGRAM = r"""
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/optimized/qgemm.h"

namespace q = opt::qgemm;

static uint32_t state = 12345;
static int next(int low, int high) {  // uniform in [low, high]
  state = state * 1664525u + 1013904223u;
  return low + int((state >> 8) % uint32_t(high - low + 1));
}
static void put(const void* data, size_t bytes) { fwrite(data, 1, bytes, stdout); }

// One product: a (rows x depth, Char or Byte, zero point a_zero), w (cols x depth, Char).
// Writes the shape, a, w, then the sums from the microkernel, then the requantized out
// (Char) for the case's multipliers, bias and out parameters.
static void run(int rows, int depth, int cols, bool byte, int a_zero, float inv_scale,
                int zero_point, int lo, int hi, int mult_kind) {
  std::vector<uint8_t> a(size_t(rows) * depth);
  std::vector<int8_t> w(size_t(cols) * depth);
  for (auto& v : a) v = uint8_t(byte ? next(0, 255) : next(-128, 127));
  for (auto& v : w) v = int8_t(next(-127, 127));
  const int64_t padded = q::round_up(depth, q::kQK), padded_cols = q::round_up(cols, q::kQNR);
  std::vector<int8_t> panels(q::packed_b_bytes(depth, cols) + 1);
  std::vector<int32_t> col_sums(padded_cols);
  q::pack_b(w.data(), depth, cols, panels.data(), col_sums.data());
  std::vector<q::AValue> packed(q::round_up(rows, q::kQMR) * padded + 1);
  if (byte) {
    q::pack_a(a.data(), rows, depth, depth, 1, padded, packed.data());
  } else {
    q::pack_a(reinterpret_cast<const int8_t*>(a.data()), rows, depth, depth, 1, padded,
              packed.data());
  }
  const int32_t header[8] = {rows, depth, cols, byte, a_zero, zero_point, lo, hi};
  put(header, sizeof header);
  put(&inv_scale, sizeof inv_scale);
  put(a.data(), a.size());
  put(w.data(), w.size());
  std::vector<int32_t> sums(size_t(rows) * cols);
  const int32_t stored_zero =
      a_zero + (byte ? q::stored_offset<uint8_t>() : q::stored_offset<int8_t>());
  int32_t tile[q::kQMR][q::kQNR];
  for (int64_t i = 0; i < rows; i += q::kQMR) {
    for (int64_t j0 = 0; j0 < cols; j0 += q::kQNR) {
      q::microkernel(padded / q::kQK, packed.data() + i * padded, padded,
                     panels.data() + j0 * padded, tile);
      for (int64_t r = i; r < rows && r < i + q::kQMR; ++r) {
        for (int64_t j = j0; j < cols && j < j0 + q::kQNR; ++j)
          sums[r * cols + j] = tile[r - i][j - j0] - stored_zero * col_sums[j];
      }
    }
  }
  put(sums.data(), sizeof(int32_t) * sums.size());
  std::vector<float> mult(padded_cols), bias(padded_cols);
  for (int64_t j = 0; j < cols; ++j) {
    // 0: 0.5 and integer biases (halves to round to even), 1: small scales of their own.
    mult[j] = mult_kind == 0 ? 0.5f : 1e-3f * float(next(1, 1000));
    bias[j] = mult_kind == 0 ? float(next(-3, 3)) : 0.01f * float(next(-500, 500));
  }
  put(mult.data(), sizeof(float) * cols);
  put(bias.data(), sizeof(float) * cols);
  const q::Requantize r{mult.data(), bias.data(), inv_scale, float(zero_point),
                        float(lo - zero_point), float(hi - zero_point)};
  std::vector<int8_t> out(size_t(rows) * cols);
  q::gemm(packed.data(), rows, q::PackedB{depth, cols, padded, panels.data(), col_sums.data()},
          stored_zero, r, out.data(), cols, 1);
  put(out.data(), out.size());
  // Note [Channel-major convolution]: out transposed, as W @ a^T with w packed as rows and
  // a as panels of kQNR of its rows (each value + panel_offset), requantized per row.
  std::vector<q::RowValue> rows_of_w(q::packed_rows_bytes(depth, cols) / sizeof(q::RowValue));
  std::vector<int32_t> row_sums(cols);
  q::pack_rows(w.data(), depth, cols, rows_of_w.data(), row_sums.data());
  const int32_t offset = byte ? q::panel_offset<uint8_t>() : q::panel_offset<int8_t>();
  std::vector<q::PanelValue> panel(padded * q::kQNR);
  std::vector<int8_t> transposed(size_t(cols) * rows);
  for (int64_t j0 = 0; j0 < rows; j0 += q::kQNR) {
    const int64_t n = rows - j0 < q::kQNR ? rows - j0 : q::kQNR;
    for (int64_t p = 0; p < padded; ++p) {
      for (int64_t j = 0; j < q::kQNR; ++j) {
        const uint8_t raw = p < depth && j < n ? a[(j0 + j) * depth + p] : 0;
        const int32_t value = byte ? int32_t(raw) : int32_t(int8_t(raw));
        panel[(p / q::kQK) * q::kQNR * q::kQK + j * q::kQK + p % q::kQK] =
            q::PanelValue(p < depth && j < n ? value + offset : 0);
      }
    }
    for (int64_t i0 = 0; i0 < cols; i0 += q::kQMR) {
      const auto finish = [&](int i, const auto& row) {
        const int64_t k = i0 + i;
        if (k >= cols) return;
        q::requantize_run(row, n, mult[k], bias[k], r, transposed.data() + k * rows + j0,
                          (a_zero + offset) * row_sums[k]);
      };
      const q::RowValue* w_rows = rows_of_w.data() + i0 * padded;
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
      if (n <= q::kQNR / 2) {  // as a convolution's last part panel
        q::channel_half_tile(padded / q::kQK, w_rows, padded, panel.data(), finish);
        continue;
      }
#endif
      q::channel_tile(padded / q::kQK, w_rows, padded, panel.data(), finish);
    }
  }
  put(transposed.data(), transposed.size());
}

int main() {
  // Rows around kQMR (4, 8) and the row block, depths around kQK (4), columns around kQNR
  // (8, 16); one row over 5 panels (VNNI's one-row path: 4 panels at a time, then a part
  // one); full-range values: sums up to 255 * 127 * depth.
  const int shapes[][3] = {{1, 1, 1},    {1, 3, 5},     {3, 4, 8},     {4, 5, 9},
                           {5, 8, 16},   {7, 13, 17},   {8, 64, 10},   {9, 63, 33},
                           {16, 256, 64}, {33, 100, 7}, {130, 31, 40}, {3, 4095, 3},
                           {2, 2000, 20}, {1, 99, 70}};
  for (const auto& s : shapes) {
    for (int byte = 0; byte < 2; ++byte) {
      const int a_zero = byte ? next(0, 255) : next(-128, 127);
      run(s[0], s[1], s[2], byte, a_zero, 1.0f, next(-5, 5), -128, 127, 0);
      run(s[0], s[1], s[2], byte, a_zero, 1.0f / 0.37f, next(-128, 127), -128, 127, 1);
      run(s[0], s[1], s[2], byte, a_zero, 1.0f / 0.05f, -20, -20, 127, 1);  // relu at -20
    }
  }
  return 0;
}
"""


def results(tmp_path: Path, isa: str) -> bytes:
    source, program = tmp_path / "qgemm.cpp", tmp_path / f"qgemm-{isa}"
    source.write_text(PROGRAM)
    subprocess.run(
        ["c++", "-std=c++17", "-O2", "-fno-exceptions", *isa_flags(isa), f"-I{REPO}"]
        + [str(source), "-o", str(program)],
        check=True,
        timeout=600,
    )
    result = subprocess.run([str(program)], capture_output=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def requantized(
    sums: np.ndarray, mult: np.ndarray, bias: np.ndarray, header: list[int], inv_scale: np.float32
) -> np.ndarray:
    """Note [Requantization] in float32, one rounding per operation, as the C++ does."""
    zero_point, lo, hi = header[5], header[6], header[7]
    y = sums.astype(np.float32) * mult + bias
    v = np.clip(inv_scale * y, np.float32(lo - zero_point), np.float32(hi - zero_point))
    return (np.rint(v) + np.float32(zero_point)).astype(np.int8)


def check_all(data: bytes) -> tuple[int, int]:
    """(cases, ties seen), asserting every case's sums and outs."""
    at, cases, ties = 0, 0, 0

    def take(dtype: type, count: int) -> np.ndarray:
        nonlocal at
        array = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += array.nbytes
        return array

    while at < len(data):
        header = [int(v) for v in take(np.int32, 8)]
        rows, depth, cols, byte, a_zero = header[:5]
        inv_scale = take(np.float32, 1)[0]
        a = take(np.uint8 if byte else np.int8, rows * depth).reshape(rows, depth)
        w = take(np.int8, cols * depth).reshape(cols, depth)
        sums = take(np.int32, rows * cols).reshape(rows, cols)
        want = (a.astype(np.int64) - a_zero) @ w.astype(np.int64).T
        np.testing.assert_array_equal(sums, want, err_msg=f"sums of {header}")
        mult, bias = take(np.float32, cols), take(np.float32, cols)
        out = take(np.int8, rows * cols).reshape(rows, cols)
        np.testing.assert_array_equal(
            out, requantized(want, mult, bias, header, inv_scale), err_msg=f"outs of {header}"
        )
        transposed = take(np.int8, cols * rows).reshape(cols, rows)
        np.testing.assert_array_equal(transposed.T, out, err_msg=f"channel-major {header}")
        y = want.astype(np.float32) * mult + bias
        ties += int(np.count_nonzero(np.abs(inv_scale * y % 1 - 0.5) == 0))
        cases += 1
    return cases, ties


ISAS = levels_here() + (
    ["native"] if re.search(r"\bavx512_vnni\b", Path("/proc/cpuinfo").read_text()) else []
)


@pytest.mark.parametrize("isa", ISAS)
def test_int8_gemm_sums_and_requantizes_as_numpy(tmp_path: Path, isa: str) -> None:
    cases, ties = check_all(results(tmp_path, isa))
    assert cases == 14 * 2 * 3
    assert ties > 100  # halves that round to even were among them


PROBE = """#include "kernels/optimized/qgemm.h"
namespace q = opt::qgemm;
void tile(int64_t groups, const q::AValue* a, const int8_t* b, int32_t (&sums)[q::kQMR][q::kQNR]) {
  q::microkernel(groups, a, 4, b, sums);
}
"""


def microkernel_instructions(tmp_path: Path, isa: str) -> str:
    """The disassembly of the microkernel compiled for `isa`."""
    probe, obj = tmp_path / "probe.cpp", tmp_path / f"probe-{isa}.o"
    probe.write_text(PROBE)
    subprocess.run(
        [
            "c++",
            "-std=c++17",
            "-O2",
            "-c",
            *isa_flags(isa),
            f"-I{REPO}",
            str(probe),
            "-o",
            str(obj),
        ],
        check=True,
        timeout=120,
    )
    disassembly = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(obj)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return disassembly.stdout


def test_the_vnni_kernel_is_the_one_native_compiles_here(tmp_path: Path) -> None:
    # The parametrised test above ran the VNNI path only if native compiles it: the
    # instruction is in native's microkernel, and in no level's (none of them has VNNI).
    if "native" not in ISAS:
        pytest.skip("this processor has no AVX-512 VNNI")
    assert "vpdpbusd" in microkernel_instructions(tmp_path, "native")
    for level in levels_here():
        code = microkernel_instructions(tmp_path, level)
        assert "vpmaddwd" in code or level != "x86-64-v4", level
        assert "vpdpbusd" not in code, level
