"""kernels/optimized/gemm_packed.h on its own, for every instruction set this machine runs
(Note [sgemm microkernel]: AVX-512, AVX2 and the 4-lane kernel are different code): every
product shape around the microkernel's tiles and the depth block, operands packed per call,
prepared (packed once) or read in place, transposed layouts, and each epilogue, against a
plain loop; the same bits on one thread and on three (Note [Packed GEMM]) and in row panels
of every compiled height (Note [Balanced row panels])."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kernels.optimized.drivers import levels_here, run_driver

PROGRAM = r"""
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "kernels/optimized/gemm_packed.h"

// Values -3..3 (exact sums) or uniform in [-1, 1).
static float value(uint32_t* state, bool exact) {
  *state = *state * 1664525u + 1013904223u;
  const uint32_t bits = *state >> 8;
  return exact ? float(int(bits % 7) - 3) : float(bits) / float(1u << 23) - 1.0f;
}

static uint64_t hash = 1469598103934665603ull;
static void mix(const float* data, size_t count) {
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < count * sizeof(float); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
}

// One product n x k x m: `mode` 0 packs both per call, 1 has a prepared, 2 b prepared;
// `a_t`, `b_t` store a, b transposed; `epilogue` 0 none, 1 column shift, 2 row scale and
// shift, 3 clamp to [-2, 5], 4 column shift then hardswish, 5 column shift then SiLU, 6 row
// shift then relu (the fused activations of Note [Fused epilogue]). Returns the mismatches.
static int check(int n, int k, int m, int mode, bool a_t, bool b_t, int epilogue, bool exact) {
  uint32_t state = uint32_t(n * 131 + k * 17 + m * 7 + mode + epilogue * 1000);
  std::vector<float> a(size_t(n) * k), b(size_t(k) * m), c(size_t(n) * m, 99.0f);
  for (float& x : a) x = value(&state, exact);
  for (float& x : b) x = value(&state, exact);
  std::vector<float> scale(n > m ? n : m), shift(n > m ? n : m);
  for (size_t i = 0; i < scale.size(); ++i) {
    scale[i] = float(i % 3) - 1.0f;
    shift[i] = float(i % 5) - 2.0f;
  }
  const opt::Matrix<const float> ma = a_t ? opt::Matrix<const float>{a.data(), n, k, 1, n}
                                          : opt::Matrix<const float>{a.data(), n, k, k, 1};
  const opt::Matrix<const float> mb = b_t ? opt::Matrix<const float>{b.data(), k, m, 1, k}
                                          : opt::Matrix<const float>{b.data(), k, m, m, 1};
  const opt::Matrix<float> mc{c.data(), n, m, m, 1};
  opt::Epilogue e;
  if (epilogue == 1) e.shift = shift.data();
  if (epilogue == 2) e.scale = scale.data(), e.shift = shift.data(), e.by_rows = true;
  if (epilogue == 3) e.active = rt::Epilogue{rt::EpilogueKind::Clamp, -2.0f, 5.0f};
  if (epilogue == 4) e.shift = shift.data(), e.active = {rt::EpilogueKind::Hardswish, 0, 0};
  if (epilogue == 5) e.shift = shift.data(), e.active = {rt::EpilogueKind::Silu, 0, 0};
  if (epilogue == 6) e.shift = shift.data(), e.by_rows = true, e.active = {rt::EpilogueKind::Relu};
  std::vector<float> pa(opt::packed_a_floats(n, k)), pb(opt::packed_b_floats(k, m));
  if (mode == 1) opt::pack_a(ma, pa.data());
  if (mode == 2) opt::pack_b(mb, pb.data());
  if (!opt::gemm(ma, mode == 1 ? pa.data() : nullptr, mb, mode == 2 ? pb.data() : nullptr, mc, e))
    return 1;
  mix(c.data(), c.size());
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      double sum = 0, size = 0;
      for (int p = 0; p < k; ++p) {
        sum += double(ma.at(i, p)) * mb.at(p, j);
        size += std::fabs(double(ma.at(i, p)) * mb.at(p, j));
      }
      const float want = opt::finish_scalar(float(sum), e, e.by_rows ? i : j);
      const float got = c[size_t(i) * m + j];
      const bool ok = exact ? got == want
                            : std::fabs(got - want) <= 1e-5 * (size + 1) * (1 + std::fabs(want));
      if (!ok && bad++ == 0)
        printf("%dx%dx%d mode %d a_t %d b_t %d epilogue %d: c[%d][%d] = %g, want %g\n", n, k, m,
               mode, a_t, b_t, epilogue, i, j, got, want);
    }
  }
  return bad;
}

// c of an n x k x m product, a packed in panels of `height` rows, b packed.
static std::vector<float> in_panels(int n, int k, int m, int64_t height) {
  uint32_t state = uint32_t(n * 7 + k * 3 + m);
  std::vector<float> a(size_t(n) * k), b(size_t(k) * m), c(size_t(n) * m);
  for (float& x : a) x = value(&state, false);
  for (float& x : b) x = value(&state, false);
  std::vector<float> pa(opt::packed_a_floats(n, k, height)), pb(opt::packed_b_floats(k, m));
  opt::pack_a(opt::Matrix<const float>{a.data(), n, k, k, 1}, pa.data(), height);
  opt::pack_b(opt::Matrix<const float>{b.data(), k, m, m, 1}, pb.data());
  opt::gemm_packed(k, opt::PanelsA{pa.data(), height}, opt::PanelsB::packed(pb.data(), k),
                   opt::Matrix<float>{c.data(), n, m, m, 1}, opt::Epilogue{});
  return c;
}

// A b read in place whose last float is the last of a readable page (the next one is
// not): its narrow last panel must not be read past its end (Note [Masked b loads]).
// Returns the wrong outputs.
static int at_a_page_end(int n, int k, int m) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  char* two = static_cast<char*>(
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (two == MAP_FAILED || mprotect(two + page, page, PROT_NONE) != 0) return 1;
  float* b = reinterpret_cast<float*>(two + page) - size_t(k) * m;
  std::vector<float> a(size_t(n) * k), c(size_t(n) * m);
  uint32_t state = 5;
  for (float& x : a) x = value(&state, true);
  for (int i = 0; i < k * m; ++i) b[i] = value(&state, true);
  const opt::Matrix<const float> mb{b, k, m, m, 1};
  opt::gemm(opt::Matrix<const float>{a.data(), n, k, k, 1}, nullptr, mb, nullptr,
            opt::Matrix<float>{c.data(), n, m, m, 1}, opt::Epilogue{});
  int bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float want = 0;
      for (int p = 0; p < k; ++p) want += a[size_t(i) * k + p] * mb.at(p, j);
      bad += c[size_t(i) * m + j] != want;
    }
  munmap(two, 2 * page);
  return bad;
}

int main() {
  const int at_end = at_a_page_end(1, 3, 5) + at_a_page_end(9, 20, 37) + at_a_page_end(2, 7, 70);
  printf("%d wrong outputs from a b at a page's end\n", at_end);
  // Rows and columns around the panel heights (6; 8, 12, 14) and kNR (8, 16, 32) and the
  // tiles; depths around the block of 256; one row (in place b, several panels at once),
  // a few, many.
  const int shapes[][3] = {{1, 1, 1},   {1, 5, 1},   {3, 4, 2},    {1, 300, 33}, {2, 7, 70},
                           {5, 17, 9},  {6, 256, 16}, {7, 257, 17}, {13, 33, 31}, {14, 64, 32},
                           {15, 1, 65}, {29, 513, 47}, {97, 33, 129}, {120, 40, 300},
                           {0, 3, 4},   {4, 0, 5},   {300, 64, 7},  {16, 70, 40}, {24, 9, 33},
                           {9, 300, 64}, {1, 513, 300}, {1, 40, 128}};
  // Each height gives every output the same bits (one FMA chain in order of p).
  const int heights[][3] = {{16, 300, 40}, {24, 513, 70}, {41, 20, 33}, {160, 64, 9}};
  int unequal = 0;
  for (const auto& s : heights) {
    const std::vector<float> first = in_panels(s[0], s[1], s[2], opt::kPanelHeights[0]);
    for (const int height : opt::kPanelHeights)
      unequal += in_panels(s[0], s[1], s[2], height) != first;
  }
  printf("%d products whose bits depend on the panel height\n", unequal);
  int bad = 0, checks = 0;
  for (const auto& s : shapes) {
    for (int mode = 0; mode < 3; ++mode) {
      for (int layout = 0; layout < 4; ++layout) {
        for (int epilogue = 0; epilogue < 7; ++epilogue) {
          for (int exact = 0; exact < 2; ++exact) {
            bad += check(s[0], s[1], s[2], mode, layout & 1, layout & 2, epilogue, exact) != 0;
            ++checks;
          }
        }
      }
    }
  }
  printf("%d of %d products wrong, hash %016llx\n", bad, checks, (unsigned long long)hash);
  return bad != 0 || unequal != 0 || at_end != 0;
}
"""


@pytest.mark.parametrize("isa", levels_here())
def test_gemm_matches_a_plain_loop_with_the_same_bits_on_any_thread_count(
    tmp_path: Path, isa: str
) -> None:
    one = run_driver(tmp_path, "gemm", PROGRAM, isa, 1)
    assert one.startswith("0 of 3696 products wrong"), one
    assert run_driver(tmp_path, "gemm", PROGRAM, isa, 2) == one
    assert run_driver(tmp_path, "gemm", PROGRAM, isa, 3) == one


EPILOGUE_PROGRAM = r"""
#include <cmath>
#include <cstdio>
#include <cstring>

#include "kernels/optimized/gemm_packed.h"

// Note [Epilogue in registers]: the microkernel's store, for every kind it finishes in
// registers, every shift it takes, on values where the choices differ (signed zeros, the
// bounds, infinities, NaN, subnormals), against finish_scalar (the unfused kernels' way):
// the same bits, but for which of two NaNs a sum of two keeps (the compiler's operand order,
// in either way).
int main() {
  using Kind = rt::EpilogueKind;
  const float inf = INFINITY, nan = NAN, tiny = 1e-40f;
  const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 6.0f, 6.5f, 5.0f, -2.0f, -2.5f,
                          inf, -inf, nan, -nan, tiny, -tiny, 3.0f, 0.5f, -0.5f};
  const float shifts[] = {0.0f, -0.0f, 1.0f, -6.0f, inf, nan};
  const rt::Epilogue kinds[] = {{Kind::None, 0, 0},           {Kind::Relu, 0, 0},
                                {Kind::Clamp, 0.0f, 6.0f},    {Kind::Clamp, -0.0f, 0.0f},
                                {Kind::Clamp, -2.0f, 5.0f},   {Kind::Clamp, 3.0f, 1.0f},
                                {Kind::Clamp, -inf, inf},     {Kind::Clamp, 0.0f, -0.0f}};
  constexpr int n = int(sizeof(values) / sizeof(float));
  int bad = 0, checks = 0;
  for (const rt::Epilogue& kind : kinds)
    for (int mode = 0; mode < 3; ++mode)  // no shift, one per column, one per row
      for (const float shift_value : shifts)
        for (int at = 0; at < n; ++at) {
          float column_shift[opt::kNR], row_shift[opt::kMR];
          for (float& s : column_shift) s = shift_value;
          for (float& s : row_shift) s = shift_value;
          opt::Epilogue e;
          e.active = kind;
          if (mode == 1) e.shift = column_shift;
          if (mode == 2) e.shift = row_shift, e.by_rows = true;
          const opt::sgemm::TileEpilogue tile{nullptr, e.shift, e.by_rows,
                                              e.activates() ? &e.active : nullptr, true};
          const opt::sgemm::RegisterEpilogue f = opt::sgemm::registers_of(tile);
          for (int v = 0; v < opt::sgemm::kVecs; ++v) {
            float lanes[opt::sgemm::kLanes];
            for (int l = 0; l < opt::sgemm::kLanes; ++l) lanes[l] = values[(at + l) % n];
            const opt::sgemm::Vec got =
                opt::sgemm::finish_in_registers(opt::sgemm::load(lanes), f, 1, v);
            for (int l = 0; l < opt::sgemm::kLanes; ++l) {
              const float want = opt::finish_scalar(lanes[l], e, 1);
              const float g = got[l];
              ++checks;
              const bool same = std::memcmp(&g, &want, sizeof(float)) == 0 ||
                                (std::isnan(g) && std::isnan(want));
              if (!same && bad++ < 5)
                printf("kind %d [%g, %g] mode %d shift %g: %g gives %g, want %g\n",
                       int(kind.kind), kind.lo, kind.hi, mode, shift_value, lanes[l], g, want);
            }
          }
        }
  printf("%d of %d wrong\n", bad, checks);
  return bad != 0;
}
"""


@pytest.mark.parametrize("isa", levels_here())
def test_epilogue_in_registers_gives_the_unfused_bits(tmp_path: Path, isa: str) -> None:
    output = run_driver(tmp_path, "epilogue", EPILOGUE_PROGRAM, isa, 1)
    assert output.startswith("0 of "), output
