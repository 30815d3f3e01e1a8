#pragma once

// The quantized Linear and convolution of Note [Quantized calls at load]
// (runtime/executor/quantize_calls.h) on the int8 GEMM (qgemm.h). Their entries are defined
// here, weak (as declared in runtime/kernel/quantized_calls.h), and this header is included
// by the matrix products' and the convolution's sources: a runner that links any of them has
// the entries once, one that links none has none; a runner without Note [Quantized calls at
// load] compiled in refers to none, and the linker drops them (--gc-sections). The other
// entries, the quantized library's loops at this library's width, come with them
// (kernels/quantized/add_call.h).
//
// A convolution is one GEMM per image and group, W @ A: the group's weight packed at load as
// rows, the input's windows packed per call kQNR pixels at a time (depth the weight's
// [in / groups][kh][kw], or [kh][kw][in / groups] when taken tap by tap: see Window; the
// input's zero point where the window leaves the image, which is a float 0), each tile's rows stored as runs of the out's planes (Note [Channel-major
// convolution], qgemm.h). A convolution with fewer than kMinGroupChannels output channels per
// group is left to the float path unless it is depthwise (Note [int8 depthwise]).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "kernels/optimized/qgemm.h"
#include "kernels/quantized/add_call.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/quantized_calls.h"

namespace optimized {
namespace quantized_calls {

constexpr const char* kOp = "quantized layer (a dequantize, linear or convolution, quantize chain)";
constexpr int64_t kMinGroupChannels = 4;

// What prepare makes, followed by `groups` PackedB (a Linear) or PackedRows (a convolution)
// and Requantize, then the packed weights and the per-column constants.
struct alignas(64) Plan {
  rt::quantized_calls::Prepared prepared;  // first, as the runtime reads it
  int64_t groups, cols;                    // cols: per group
  int64_t kernel[2], stride[2], padding[2], dilation[2];
  int32_t input_zero_point;
  bool depthwise;  // groups == channels, one input channel each: Note [int8 depthwise]
  bool tap_major;  // the depth's order is [kh][kw][in], not [in][kh][kw]: see Window
  int64_t depth;   // per group: the weight's values per output channel
  union {
    const opt::qgemm::PackedB* b;        // a Linear's
    const opt::qgemm::PackedRows* rows;  // a convolution's, per group; none if depthwise
  };
  const opt::qgemm::Requantize* requantize;  // per group; one for a depthwise layer
  const int8_t* taps;                        // a depthwise layer's weight, [channel][kh][kw]
};

inline bool eight_bit(int64_t low, int64_t high) { return low >= -128 && high <= 255; }

// The stored zero point of `x` (Note [int8 GEMM]).
inline int32_t stored_zero(const Plan& plan, bool byte_in) {
  namespace q = opt::qgemm;
  return plan.input_zero_point +
         (byte_in ? q::stored_offset<uint8_t>() : q::stored_offset<int8_t>());
}

// c = requantize(a @ b) into out of the dtype of `out`.
inline void product(const Plan& plan, int64_t g, const opt::qgemm::AValue* a, int64_t rows,
                    int32_t a_zero, rt::Tensor& out, int64_t offset, int64_t c_row, int64_t c_col) {
  if (out.dtype() == rt::ScalarType::Byte) {
    opt::qgemm::gemm(a, rows, plan.b[g], a_zero, plan.requantize[g],
                     out.data_as<uint8_t>() + offset, c_row, c_col);
  } else {
    opt::qgemm::gemm(a, rows, plan.b[g], a_zero, plan.requantize[g], out.data_as<int8_t>() + offset,
                     c_row, c_col);
  }
}

// The values a pixel's window reads (Note [Channel-major convolution]): depth p is the
// weight's (in, kh, kw) order, the input's zero point where the window leaves the image.
struct Window {
  int64_t channels, h, w, ow;
  bool pointwise;  // 1x1, stride 1, no padding: depth p is channel p of the same pixel
  // A k x k layer of a multiple of 4 channels per group (Plan::tap_major) reads its windows
  // from a copy of the input as panel values in quad planes: for each 4 channels, a plane
  // of h * w + 1 pixels (the last one the zero point) of their 4 values side by side. A
  // depth step's 4 values (4 channels of one tap) are then one 32-bit word of one pixel,
  // and an output row's pixels at stride 1 consecutive words (one vector load for 16).
  opt::qgemm::PanelValue* quads;
};

#if defined(__SSE4_1__)
// The panel's group of 4 depth steps for kQNR pixels of 4 channel rows (`stride` apart):
// the rows' bytes interleaved, each + panel_offset (a flip of its top bit, or nothing).
template <typename In>
inline void interleave_rows(const In* x, int64_t stride, opt::qgemm::PanelValue* to) {
  namespace q = opt::qgemm;
  __m128i row[4];
#pragma GCC unroll 4  // (else GCC 12 keeps the rows in memory)
  for (int k = 0; k < 4; ++k) {
    row[k] = q::kQNR == 16 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + k * stride))
                           : _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + k * stride));
    if (q::panel_offset<In>() != 0) row[k] = _mm_xor_si128(row[k], _mm_set1_epi8(-128));
  }
  const __m128i low01 = _mm_unpacklo_epi8(row[0], row[1]),
                low23 = _mm_unpacklo_epi8(row[2], row[3]);
  __m128i* out = reinterpret_cast<__m128i*>(to);
  _mm_storeu_si128(out, _mm_unpacklo_epi16(low01, low23));      // pixels 0-3
  _mm_storeu_si128(out + 1, _mm_unpackhi_epi16(low01, low23));  // 4-7
  if (q::kQNR == 16) {
    const __m128i high01 = _mm_unpackhi_epi8(row[0], row[1]);
    const __m128i high23 = _mm_unpackhi_epi8(row[2], row[3]);
    _mm_storeu_si128(out + 2, _mm_unpacklo_epi16(high01, high23));  // 8-11
    _mm_storeu_si128(out + 3, _mm_unpackhi_epi16(high01, high23));  // 12-15
  }
}
#endif

// x (channels, h, w) into at.quads (Window): 4 channels' 16 pixels interleaved at once
// (interleave_rows), then each quad plane's zero point pixel.
template <typename In>
void copy_quads(const Plan& plan, const Window& at, const In* x) {
  namespace q = opt::qgemm;
  const int64_t plane = at.h * at.w;
  for (int64_t c = 0; c < at.channels; c += q::kQK) {
    q::PanelValue* to = at.quads + c * (plane + 1);  // quad c / 4's plane
    const In* from = x + c * plane;
    int64_t i0 = 0;
#if defined(__SSE4_1__)
    for (; i0 + q::kQNR <= plane; i0 += q::kQNR)
      interleave_rows(from + i0, plane, to + i0 * q::kQK);
#endif
    for (int64_t i = i0; i < plane; ++i) {
      for (int64_t k = 0; k < q::kQK; ++k)
        to[i * q::kQK + k] =
            static_cast<q::PanelValue>(int32_t(from[k * plane + i]) + q::panel_offset<In>());
    }
    for (int64_t k = 0; k < q::kQK; ++k)
      to[plane * q::kQK + k] =
          static_cast<q::PanelValue>(plan.input_zero_point + q::panel_offset<In>());
  }
}

#if defined(__AVX512BW__) && defined(__BMI2__)
// The panel's pixels that lie in one output row: lanes [first, end), the first at column ox.
struct Run {
  int64_t first, end, oy, ox;
};

// Tap (u, v) for the panel's pixels laid out by `runs`: per output-row run inside the
// image, its lanes and the offset of lane 0 in a plane of at.h x at.w values (bytes of a
// channel for window_values, 4-byte words of a quad plane for a tap-major layer); returns
// their count, at most `count`.
struct TapLoad {
  uint32_t lanes;
  int64_t offset;  // lane j reads value offset + j * S
};
template <int S>
inline int tap_loads(const Plan& plan, const Window& at, const Run* runs, int count, int64_t u,
                     int64_t v, TapLoad* loads) {
  int m = 0;
  for (int k = 0; k < count; ++k) {
    const Run& run = runs[k];
    const int64_t y = run.oy * plan.stride[0] - plan.padding[0] + u * plan.dilation[0];
    const int64_t x0 = run.ox * S - plan.padding[1] + v * plan.dilation[1];  // lane first's
    if (y < 0 || y >= at.h || x0 + (run.end - 1 - run.first) * S < 0 || x0 >= at.w) continue;
    const int64_t low = run.first + (x0 < 0 ? (-x0 + S - 1) / S : 0);
    const int64_t high = std::min(run.end, run.first + (at.w - 1 - x0) / S + 1);
    loads[m++] = TapLoad{((1u << high) - 1) & ~((1u << low) - 1), y * at.w + x0 - run.first * S};
  }
  return m;
}

// The values of depth step (c, u, v) (c's plane at `channel`) for the panel's pixels, laid
// out by `runs`: per run one masked load of an input row at stride S (the lanes off the
// image are not read), the zero point elsewhere.
template <typename In, int S>
__m128i window_values(const Plan& plan, const Window& at, const In* channel, const Run* runs,
                      int count, int64_t u, int64_t v, In zero) {
  using Wide = std::conditional_t<S == 1, __m128i, __m256i>;
  Wide values;
  if constexpr (S == 1) {
    values = _mm_set1_epi8(static_cast<char>(zero));
  } else {
    values = _mm256_set1_epi8(static_cast<char>(zero));
  }
  TapLoad loads[opt::qgemm::kQNR];
  const int m = tap_loads<S>(plan, at, runs, count, u, v, loads);
  for (int k = 0; k < m; ++k) {
    // The masked lanes read nothing (lane 0's address may lie outside the row).
    const uintptr_t base =
        reinterpret_cast<uintptr_t>(channel) + static_cast<uintptr_t>(loads[k].offset);
    if constexpr (S == 1) {
      values = _mm_mask_loadu_epi8(values, loads[k].lanes, reinterpret_cast<const void*>(base));
    } else {
      values = _mm256_mask_loadu_epi8(values, _pdep_u32(loads[k].lanes, 0x55555555u),
                                      reinterpret_cast<const void*>(base));
    }
  }
  if constexpr (S == 1) {
    return values;
  } else {
    return _mm256_cvtepi16_epi8(values);  // the even bytes
  }
}

// The panel's pixels [j0, j0 + n) split at the ends of output rows (ow wide) into `runs`;
// returns their count.
inline int panel_runs(const Window& at, int64_t j0, int64_t n, Run* runs) {
  int count = 0;
  for (int64_t j = 0; j < n; ++count) {
    const int64_t oy = (j0 + j) / at.ow, ox = (j0 + j) % at.ow;
    const int64_t end = std::min(n, j + at.ow - ox);
    runs[count] = Run{j, end, oy, ox};
    j = end;
  }
  return count;
}

// The depth step (u, v, quad) from the quad's plane by `loads` (tap_loads): per load one
// masked load of 16 words (the masked lanes read nothing; at stride 2 two of the even words
// of 32 and a permute), the zero point elsewhere.
template <int S>
__attribute__((always_inline)) inline __m512i quad_values(const opt::qgemm::PanelValue* quad,
                                                          const TapLoad* loads, int count,
                                                          __m512i zero) {
  __m512i values = zero;
  for (int k = 0; k < count; ++k) {
    const __mmask16 lanes = static_cast<__mmask16>(loads[k].lanes);
    // Past the plane's start when lane 0 is off the image: an address, not read.
    const uintptr_t base = reinterpret_cast<uintptr_t>(quad) +
                           static_cast<uintptr_t>(loads[k].offset * opt::qgemm::kQK);
    if constexpr (S == 1) {
      values = _mm512_mask_loadu_epi32(values, lanes, reinterpret_cast<const void*>(base));
    } else {
      const uint32_t spread = _pdep_u32(loads[k].lanes, 0x55555555u);
      const __m512i low_words = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(spread & 0xFFFF),
                                                         reinterpret_cast<const void*>(base));
      const __m512i high_words = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(spread >> 16),
                                                          reinterpret_cast<const void*>(base + 64));
      const __m512i even =
          _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
      values = _mm512_mask_mov_epi32(values, lanes,
                                     _mm512_permutex2var_epi32(low_words, even, high_words));
    }
  }
  return values;
}
#endif

// The panel of pixels [j0, j0 + n) of one image's group x (channels, h, w): Note
// [Channel-major convolution]; pixels past n and the depth's padding are 0 (the weights'
// padding is 0 too, and a pixel past n is not stored).
template <typename In>
void pack_panel(const Plan& plan, const Window& at, const In* x, int64_t j0, int64_t n,
                opt::qgemm::PanelValue* panel) {
  namespace q = opt::qgemm;
  const int64_t padded = plan.rows[0].padded_depth, plane = at.h * at.w;
  const int64_t kh = plan.kernel[0], kw = plan.kernel[1], window = kh * kw;
  const int32_t offset = q::panel_offset<In>();
  if (plan.tap_major) {  // depth (u, v, quad): each depth step one word of a quad plane
    const int64_t quads = at.channels / q::kQK, step = q::kQNR * q::kQK;
#if defined(__AVX512BW__) && defined(__BMI2__)
    if (q::kQNR == 16 && (plan.stride[1] == 1 || plan.stride[1] == 2)) {
      Run runs[q::kQNR];
      const int count = panel_runs(at, j0, n, runs);
      int32_t zero_word;
      std::memcpy(&zero_word, at.quads + plane * q::kQK, 4);  // the zero point pixel
      const __m512i zero = _mm512_set1_epi32(zero_word);
      const bool one = plan.stride[1] == 1;
      for (int64_t t = 0; t < window; ++t) {
        TapLoad loads[q::kQNR];
        const int m = one ? tap_loads<1>(plan, at, runs, count, t / kw, t % kw, loads)
                          : tap_loads<2>(plan, at, runs, count, t / kw, t % kw, loads);
        for (int64_t k = 0; k < quads; ++k) {
          const q::PanelValue* quad = at.quads + k * (plane + 1) * q::kQK;
          const __m512i values =
              one ? quad_values<1>(quad, loads, m, zero) : quad_values<2>(quad, loads, m, zero);
          _mm512_storeu_si512(panel + (t * quads + k) * step, values);
        }
      }
      return;
    }
#endif
    for (int64_t j = 0; j < q::kQNR; ++j) {
      const int64_t pixel = j0 + (j < n ? j : 0), oy = pixel / at.ow, ox = pixel % at.ow;
      for (int64_t t = 0; t < window; ++t) {
        const int64_t y = oy * plan.stride[0] - plan.padding[0] + (t / kw) * plan.dilation[0];
        const int64_t xx = ox * plan.stride[1] - plan.padding[1] + (t % kw) * plan.dilation[1];
        const bool inside = y >= 0 && y < at.h && xx >= 0 && xx < at.w;
        const int64_t from = (inside ? y * at.w + xx : plane) * q::kQK;
        for (int64_t k = 0; k < quads; ++k) {
          std::memcpy(panel + (t * quads + k) * step + j * q::kQK,
                      at.quads + k * (plane + 1) * q::kQK + from, q::kQK);
        }
      }
    }
    return;
  }
  int64_t p = 0;
  if (at.pointwise) {
#if defined(__SSE4_1__)
    for (; n == q::kQNR && p + 4 <= at.channels; p += 4)
      interleave_rows(x + p * plane + j0, plane, panel + p * q::kQNR);
#endif
    for (; p < padded; ++p) {
      q::PanelValue* to = panel + (p / q::kQK) * q::kQNR * q::kQK + p % q::kQK;
      for (int64_t j = 0; j < q::kQNR; ++j) {
        to[j * q::kQK] = static_cast<q::PanelValue>(
            p < at.channels && j < n ? int32_t(x[p * plane + j0 + j]) + offset : 0);
      }
    }
    return;
  }
  int64_t top[q::kQNR], left[q::kQNR];  // each pixel's window corner in the input
  for (int64_t j = 0; j < q::kQNR; ++j) {
    const int64_t pixel = j0 + (j < n ? j : 0);
    top[j] = (pixel / at.ow) * plan.stride[0] - plan.padding[0];
    left[j] = (pixel % at.ow) * plan.stride[1] - plan.padding[1];
  }
  const In zero = static_cast<In>(plan.input_zero_point);
#if defined(__AVX512BW__) && defined(__BMI2__)
  // Stride 1 or 2 along the rows: each depth step's values by masked loads (window_values).
  const bool masked = q::kQNR == 16 && (plan.stride[1] == 1 || plan.stride[1] == 2);
  Run runs[q::kQNR];
  const int count = panel_runs(at, j0, n, runs);
#endif
#if defined(__SSE4_1__)
  In rows[q::kQK][q::kQNR];  // 4 depth steps' values, interleaved into the panel
  using Slot = In;
  constexpr int32_t kAdd = 0;  // interleave_rows adds the offset
#else
  using Slot = q::PanelValue;
  const int32_t kAdd = offset;
#endif
  for (int64_t p0 = 0; p0 < padded; p0 += q::kQK) {
    for (int64_t k = 0; k < q::kQK; ++k) {
      const int64_t p = p0 + k;
#if defined(__SSE4_1__)
      In* to = rows[k];
      constexpr int64_t kStep = 1;
#else
      q::PanelValue* to = panel + p0 * q::kQNR + k;
      constexpr int64_t kStep = q::kQK;
#endif
      if (p >= plan.depth) {
        for (int64_t j = 0; j < q::kQNR; ++j) to[j * kStep] = 0;
        continue;
      }
      const int64_t c = p / window, u = (p % window) / kw, v = p % kw;
      const In* channel = x + c * plane;
#if defined(__AVX512BW__) && defined(__BMI2__)
      if (masked) {
        const __m128i values =
            plan.stride[1] == 1 ? window_values<In, 1>(plan, at, channel, runs, count, u, v, zero)
                                : window_values<In, 2>(plan, at, channel, runs, count, u, v, zero);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to), values);
        continue;
      }
#endif
      for (int64_t j = 0; j < q::kQNR; ++j) {
        const int64_t y = top[j] + u * plan.dilation[0], xx = left[j] + v * plan.dilation[1];
        const In value = y < 0 || y >= at.h || xx < 0 || xx >= at.w ? zero : channel[y * at.w + xx];
        to[j * kStep] = static_cast<Slot>(int32_t(value) + kAdd);
      }
    }
#if defined(__SSE4_1__)
    interleave_rows(&rows[0][0], q::kQNR, panel + p0 * q::kQNR);
#endif
  }
}

// One image's group of a convolution: x (its channels) -> out (its cols planes of `pixels`),
// kQNR pixels at a time, each panel used by every kQMR channels of W: Note [Channel-major
// convolution].
template <typename In, typename Out>
void convolve(const Plan& plan, int64_t g, const Window& at, const In* x, int64_t pixels,
              opt::qgemm::PanelValue* panel, Out* out) {
  namespace q = opt::qgemm;
  // Copies in locals: a store of an 8-bit out may alias anything, so GCC reloaded each
  // field through the plan after every run it stored.
  const q::PackedRows w = plan.rows[g];
  const q::Requantize r = plan.requantize[g];
  const int64_t groups = w.padded_depth / q::kQK;
  const int32_t zero = plan.input_zero_point + q::panel_offset<In>();
  if (plan.tap_major) copy_quads(plan, at, x);
  for (int64_t j0 = 0; j0 < pixels; j0 += q::kQNR) {
    const int64_t n = pixels - j0 < q::kQNR ? pixels - j0 : q::kQNR;
    pack_panel(plan, at, x, j0, n, panel);
    for (int64_t i0 = 0; i0 < w.rows; i0 += q::kQMR) {
      const auto finish = [&](int i, const auto& sums) {
        const int64_t channel = i0 + i;
        if (channel >= w.rows) return;
        q::requantize_run(sums, n, r.multiplier[channel], r.bias[channel], r,
                          out + channel * pixels + j0, zero * w.sums[channel]);
      };
      const q::RowValue* rows = w.values + i0 * w.padded_depth;
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
      if (n <= q::kQNR / 2) {
        q::channel_half_tile(groups, rows, w.padded_depth, panel, finish);
        continue;
      }
#endif
      q::channel_tile(groups, rows, w.padded_depth, panel, finish);
    }
  }
}

// Note [int8 depthwise]
// A depthwise layer (one input channel per output channel) is no GEMM: each output is the
// sum of its window's kh * kw taps. Each channel's plane is first copied into a padded one
// (the input's zero point around it, so that a tap off the image adds 0, as the float
// chain's zero padding; rows wide enough for a vector's loads past the last output). Then,
// per output row, kQNR outputs at a time keep their int32 sums in registers over all the
// taps, each tap one vector load (one run at stride 1, every other value of two runs at
// stride 2; other strides one output at a time), with no bounds to test. The plane's sums
// are requantized as the GEMM's (requantize_channel), so the out is the same bits as any
// order of the exact integer sums. With VNNI a 3x3 stride-1 layer sums three taps per
// instruction: four input rows interleaved per column (four_rows) feed both rows of a
// pair. The plan keeps the taps as bytes, [channel][kh][kw], and one multiplier and bias
// per channel: 17 bytes a 3x3 channel.

// The padded plane's row pitch and its bytes, for x (h, w) and the output width ow.
inline int64_t padded_pitch(const Plan& plan, int64_t w, int64_t ow) {
  namespace q = opt::qgemm;
  const int64_t loads = q::round_up(ow, q::kQNR) * plan.stride[1] +
                        (plan.kernel[1] - 1) * plan.dilation[1] + q::kQNR * plan.stride[1];
  return std::max(loads, w + 2 * plan.padding[1]);
}
inline int64_t padded_bytes(const Plan& plan, int64_t h, int64_t w, int64_t ow) {
  return (h + 2 * plan.padding[0]) * padded_pitch(plan, w, ow);
}

// image (h, w) into the interior of `padded` (h + 2 * ph rows of `pitch`), whose border
// fill_border wrote: only the interior changes from channel to channel.
template <typename In>
void pad_plane(const In* image, int64_t h, int64_t w, int64_t ph, int64_t pw, int64_t pitch,
               In* padded) {
#if defined(__AVX512BW__)
  // Rows of 7 to 112 bytes: 64 at a time and a masked part, inline (a call of memcpy per
  // row was 4 % of MobileNetV2's samples).
  const int64_t whole = w / 64 * 64;
  const __mmask64 part = _bzhi_u64(~uint64_t{0}, static_cast<unsigned>(w - whole));
  for (int64_t y = 0; y < h; ++y) {
    const In* from = image + y * w;
    In* to = padded + (y + ph) * pitch + pw;
    for (int64_t x = 0; x < whole; x += 64)
      _mm512_storeu_si512(to + x, _mm512_loadu_si512(from + x));
    _mm512_mask_storeu_epi8(to + whole, part, _mm512_maskz_loadu_epi8(part, from + whole));
  }
#else
  for (int64_t y = 0; y < h; ++y)
    std::memcpy(padded + (y + ph) * pitch + pw, image + y * w, static_cast<size_t>(w));
#endif
}

template <typename In>
void fill_border(int64_t h, int64_t ph, int64_t pitch, In zero, In* padded) {
  std::memset(padded, static_cast<unsigned char>(zero), static_cast<size_t>((h + 2 * ph) * pitch));
}

// The sums of the kQNR outputs from j of the output row whose window starts at padded row
// `top`, into sums[0, kQNR).
template <typename In>
__attribute__((always_inline)) inline void depthwise_vector(const Plan& plan, const In* padded,
                                                            int64_t pitch, int64_t top, int64_t j,
                                                            const int8_t* taps, int32_t zero,
                                                            int32_t* sums) {
  namespace q = opt::qgemm;
  typedef In Bytes __attribute__((vector_size(q::kQNR)));
  typedef In Bytes2 __attribute__((vector_size(2 * q::kQNR)));
  typedef int32_t Ints __attribute__((vector_size(4 * q::kQNR)));
  const int64_t kh = plan.kernel[0], kw = plan.kernel[1], s = plan.stride[1];
  Ints acc = Ints{};
  for (int64_t u = 0; u < kh; ++u) {
    const In* line = padded + (top + u * plan.dilation[0]) * pitch + j * s;
    for (int64_t v = 0; v < kw; ++v) {
      const In* at = line + v * plan.dilation[1];
      Bytes bytes;
      if (s == 1) {
        std::memcpy(&bytes, at, sizeof bytes);
      } else {
        Bytes2 both;
        std::memcpy(&both, at, sizeof both);
#if defined(__AVX512BW__)
        bytes = __builtin_shufflevector(both, both, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24,
                                        26, 28, 30);
#else
        bytes = __builtin_shufflevector(both, both, 0, 2, 4, 6, 8, 10, 12, 14);
#endif
      }
      acc += int32_t(taps[u * kw + v]) * (__builtin_convertvector(bytes, Ints) - zero);
    }
  }
  std::memcpy(sums, &acc, sizeof acc);
}

#if defined(__AVX512BW__)
// kQNR values of a padded row from `at`, every S-th one, as int32 lanes.
template <typename In, int S>
__attribute__((always_inline)) inline __m512i row_values(const In* at) {
  constexpr bool kSigned = std::is_signed<In>::value;
  if constexpr (S == 1) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    return kSigned ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
  } else {  // the low byte of each of 16 words
    const __m512i words =
        _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
    return kSigned ? _mm512_srai_epi32(_mm512_slli_epi32(words, 24), 24)
                   : _mm512_and_si512(words, _mm512_set1_epi32(0xFF));
  }
}

#if defined(__AVX512VNNI__)
// Note [int8 depthwise]: the bytes of 16 columns of four padded rows from `at` (`pitch`
// apart) as vpdpbusd's unsigned operand, each 32-bit lane one column's four rows (+128
// for a Char input, panel_offset): the rows side by side, the 4 x 4 blocks of 32-bit words
// transposed across the 128-bit lanes, then the 4 x 4 bytes within each.
template <typename In>
__attribute__((always_inline)) inline __m512i four_rows(const In* at, int64_t pitch) {
  const auto row = [&](int k) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at + k * pitch));
  };
  __m512i rows = _mm512_castsi128_si512(row(0));
  rows = _mm512_inserti32x4(rows, row(1), 1);
  rows = _mm512_inserti32x4(rows, row(2), 2);
  rows = _mm512_inserti32x4(rows, row(3), 3);
  const __m512i words = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i bytes =
      _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
  const __m512i columns = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(words, rows), bytes);
  if constexpr (opt::qgemm::panel_offset<In>() != 0)
    return _mm512_xor_si512(columns, _mm512_set1_epi8(-128));
  return columns;
}
#endif

// The sums of one channel's plane for a K x K window of stride S (both ways) without
// dilation (MobileNetV2's 3x3 layers), as depthwise_vector's: the taps broadcast once per
// channel, each sum started at -zero * (the taps' sum) instead of subtracting the zero point
// at every tap (the same integers), and two output rows at a time, whose sums are
// independent (at stride 1 they share K - 1 input rows, loaded once).
template <typename In, int K, int S>
void depthwise_plane(const In* padded, int64_t pitch, int64_t oh, int64_t ow, const int8_t* taps,
                     int32_t zero, int32_t* plane) {
  namespace q = opt::qgemm;
  __m512i tap[K * K];
  int32_t tap_sum = 0;
  for (int k = 0; k < K * K; ++k) {
    tap[k] = _mm512_set1_epi32(taps[k]);
    tap_sum += taps[k];
  }
  const __m512i start = _mm512_set1_epi32(-zero * tap_sum);
  int64_t i = 0;
#if defined(__AVX512VNNI__)
  if constexpr (K == 3 && S == 1) {
    // Rows i and i + 1 from the same four input rows (four_rows): per tap column one
    // vpdpbusd each, row i's taps [t0 t1 t2 0] and row i + 1's [0 t0 t1 t2], instead of
    // three multiplies and three adds each.
    __m512i upper[K], lower[K];
    for (int v = 0; v < K; ++v) {
      const auto tap = [&](int u) {
        return static_cast<uint32_t>(static_cast<uint8_t>(taps[u * K + v]));
      };
      upper[v] = _mm512_set1_epi32(static_cast<int32_t>(tap(0) | tap(1) << 8 | tap(2) << 16));
      lower[v] = _mm512_set1_epi32(static_cast<int32_t>(tap(0) << 8 | tap(1) << 16 | tap(2) << 24));
    }
    const __m512i biased = _mm512_set1_epi32(-(zero + q::panel_offset<In>()) * tap_sum);
    for (; i + 2 <= oh; i += 2) {
      const In* top = padded + i * pitch;
      for (int64_t j = 0; j < ow; j += q::kQNR) {
        const __mmask16 in_row = ow - j >= q::kQNR ? 0xFFFF : (1u << (ow - j)) - 1;
        __m512i first = biased, second = biased;
#pragma GCC unroll 3
        for (int v = 0; v < K; ++v) {
          const __m512i columns = four_rows(top + j + v, pitch);
          first = q::dpbusd(first, columns, upper[v]);
          second = q::dpbusd(second, columns, lower[v]);
        }
        _mm512_mask_storeu_epi32(plane + i * ow + j, in_row, first);
        _mm512_mask_storeu_epi32(plane + (i + 1) * ow + j, in_row, second);
      }
    }
  }
#endif
  for (; i + 2 <= oh; i += 2) {
    const In* top = padded + i * S * pitch;
    // Rows i and i + 1 into plane; a row's last vector stores only what is in the row (the
    // next row's start may be written already). Row i reads input rows [0, K) from top,
    // row i + 1 rows [S, S + K): each loaded once.
    for (int64_t j = 0; j < ow; j += q::kQNR) {
      const __mmask16 in_row = ow - j >= q::kQNR ? 0xFFFF : (1u << (ow - j)) - 1;
      __m512i first = start, second = start;
#pragma GCC unroll 5
      for (int v = 0; v < K; ++v) {
        __m512i values[K + S];
#pragma GCC unroll 7
        for (int row = 0; row < K + S; ++row)
          values[row] = row_values<In, S>(top + row * pitch + j * S + v);
#pragma GCC unroll 5
        for (int u = 0; u < K; ++u) {
          first = _mm512_add_epi32(first, _mm512_mullo_epi32(tap[u * K + v], values[u]));
          second = _mm512_add_epi32(second, _mm512_mullo_epi32(tap[u * K + v], values[S + u]));
        }
      }
      _mm512_mask_storeu_epi32(plane + i * ow + j, in_row, first);
      _mm512_mask_storeu_epi32(plane + (i + 1) * ow + j, in_row, second);
    }
  }
  for (; i < oh; ++i) {
    const In* top = padded + i * S * pitch;
    for (int64_t j = 0; j < ow; j += q::kQNR) {
      __m512i sum = start;
#pragma GCC unroll 5
      for (int u = 0; u < K; ++u) {
#pragma GCC unroll 5
        for (int v = 0; v < K; ++v) {
          sum = _mm512_add_epi32(
              sum,
              _mm512_mullo_epi32(tap[u * K + v], row_values<In, S>(top + u * pitch + j * S + v)));
        }
      }
      _mm512_storeu_si512(plane + i * ow + j, sum);
    }
  }
}
#endif

// One image of a depthwise convolution: x (channels, h, w) -> out (channels, oh, ow);
// `padded` room for padded_bytes, `plane` for oh * ow + kQNR int32 sums.
template <typename In, typename Out>
void depthwise(const Plan& plan, const In* x, int64_t channels, int64_t h, int64_t w, int64_t oh,
               int64_t ow, In* padded, int32_t* plane, Out* out) {
  namespace q = opt::qgemm;
  const int64_t kh = plan.kernel[0], kw = plan.kernel[1], s = plan.stride[1];
  const int64_t pitch = padded_pitch(plan, w, ow);
  const int32_t zero = plan.input_zero_point;
  const q::Requantize& r = plan.requantize[0];
  fill_border(h, plan.padding[0], pitch, static_cast<In>(zero), padded);
  [[maybe_unused]] const bool square3 =
      kh == 3 && kw == 3 && plan.dilation[0] == 1 && plan.dilation[1] == 1;
  for (int64_t c = 0; c < channels; ++c) {
    pad_plane(x + c * h * w, h, w, plan.padding[0], plan.padding[1], pitch, padded);
    const int8_t* taps = plan.taps + c * kh * kw;
#if defined(__AVX512BW__)
    if (square3 && s <= 2 && plan.stride[0] == s) {
      (s == 1 ? depthwise_plane<In, 3, 1> : depthwise_plane<In, 3, 2>)(padded, pitch, oh, ow, taps,
                                                                       zero, plane);
      q::requantize_channel(plane, oh * ow, r.multiplier[c], r.bias[c], r, out + c * oh * ow);
      continue;
    }
#endif
    for (int64_t i = 0; i < oh; ++i) {
      const int64_t top = i * plan.stride[0];
      int32_t* row = plane + i * ow;  // a vector past the row's end is the next row's start
      if (s <= 2) {
        for (int64_t j = 0; j < ow; j += q::kQNR)
          depthwise_vector(plan, padded, pitch, top, j, taps, zero, row + j);
        continue;
      }
      for (int64_t j = 0; j < ow; ++j) {
        int32_t sum = 0;
        for (int64_t u = 0; u < kh; ++u) {
          const In* line = padded + (top + u * plan.dilation[0]) * pitch + j * s;
          for (int64_t v = 0; v < kw; ++v)
            sum += int32_t(taps[u * kw + v]) * (int32_t(line[v * plan.dilation[1]]) - zero);
        }
        row[j] = sum;
      }
    }
    q::requantize_channel(plane, oh * ow, r.multiplier[c], r.bias[c], r, out + c * oh * ow);
  }
}

// Every image of a depthwise convolution, x read from a copy when out shares its memory (x
// was dead after its dequantize: the planner may have given out its bytes).
inline void depthwise_images(const Plan& plan, const rt::OpContext& in, const rt::Tensor& x,
                             rt::Tensor& out, const int64_t (&size)[2]) {
  namespace q = opt::qgemm;
  const int64_t channels = x.size(1), h = x.size(2), w = x.size(3);
  const size_t sums_bytes = sizeof(int32_t) * static_cast<size_t>(size[0] * size[1] + q::kQNR);
  const size_t pad_bytes = static_cast<size_t>(padded_bytes(plan, h, w, size[1]) + 8) / 8 * 8;
  const char* x_at = static_cast<const char*>(x.data());
  const char* out_at = static_cast<const char*>(out.data());
  // Planes are read (into the padded plane) in order, each before its out plane is written:
  // x is copied only if writing plane k of out can reach a plane of x after k, i.e. unless
  // out starts at most (k + 1) * (in plane - out plane) bytes after x for every k.
  const int64_t in_plane = h * w, out_plane = size[0] * size[1];
  const int64_t planes = x.size(0) * channels;
  const int64_t ahead = reinterpret_cast<intptr_t>(out_at) - reinterpret_cast<intptr_t>(x_at);
  const bool overlap = x_at < out_at + out.nbytes() && out_at < x_at + x.nbytes();
  const bool shared = overlap && ahead > (in_plane >= out_plane ? in_plane - out_plane
                                                                : planes * (in_plane - out_plane));
  char* scratch = static_cast<char*>(
      opt::thread_scratch().get(sums_bytes + pad_bytes + (shared ? x.nbytes() : 0)));
  if (scratch == nullptr) return in.fail("out of memory for the depthwise sums");
  int32_t* sums = reinterpret_cast<int32_t*>(scratch);
  std::memset(sums, 0, sums_bytes);  // requantize_channel reads whole vectors
  char* padded = scratch + sums_bytes;
  if (shared) {
    std::memcpy(padded + pad_bytes, x_at, x.nbytes());
    x_at = padded + pad_bytes;
  }
  const int64_t per_image = channels * h * w, out_image = channels * size[0] * size[1];
  const bool byte_in = x.dtype() == rt::ScalarType::Byte;
  const bool byte_out = out.dtype() == rt::ScalarType::Byte;
  for (int64_t n = 0; n < x.size(0); ++n) {
    const int64_t at = n * per_image, to = n * out_image;
    if (byte_in && byte_out) {
      depthwise(plan, reinterpret_cast<const uint8_t*>(x_at) + at, channels, h, w, size[0], size[1],
                reinterpret_cast<uint8_t*>(padded), sums, out.data_as<uint8_t>() + to);
    } else if (byte_in) {
      depthwise(plan, reinterpret_cast<const uint8_t*>(x_at) + at, channels, h, w, size[0], size[1],
                reinterpret_cast<uint8_t*>(padded), sums, out.data_as<int8_t>() + to);
    } else if (byte_out) {
      depthwise(plan, reinterpret_cast<const int8_t*>(x_at) + at, channels, h, w, size[0], size[1],
                reinterpret_cast<int8_t*>(padded), sums, out.data_as<uint8_t>() + to);
    } else {
      depthwise(plan, reinterpret_cast<const int8_t*>(x_at) + at, channels, h, w, size[0], size[1],
                reinterpret_cast<int8_t*>(padded), sums, out.data_as<int8_t>() + to);
    }
  }
}

// The plan's size and the layer's shape: `groups` of `cols` outputs, `depth` weights each.
inline void describe(const rt::QuantizedLayer& layer, size_t size, int64_t groups, int64_t cols,
                     int64_t depth, Plan* plan) {
  plan->prepared.bytes = size;
  plan->groups = groups;
  plan->cols = cols;
  for (int d = 0; d < 2; ++d) {
    plan->kernel[d] = layer.convolution ? layer.weight->size(2 + d) : 1;
    plan->stride[d] = layer.stride[d];
    plan->padding[d] = layer.padding[d];
    plan->dilation[d] = layer.dilation[d];
  }
  plan->input_zero_point = static_cast<int32_t>(layer.input_zero_point);
  plan->depth = depth;
}

// prepare's plan of a depthwise layer (checked by prepare): Note [int8 depthwise].
inline const void* prepare_depthwise(const rt::QuantizedLayer& layer, rt::Arena& arena,
                                     size_t* bytes) {
  namespace q = opt::qgemm;
  const rt::Tensor& w = *layer.weight;
  const int64_t channels = w.size(0), window = w.size(2) * w.size(3);
  const size_t taps = static_cast<size_t>(q::round_up(channels * window, 8));
  const size_t size = sizeof(Plan) + sizeof(q::Requantize) + taps +
                      2 * sizeof(float) * static_cast<size_t>(channels);
  *bytes = size;
  char* memory = static_cast<char*>(arena.allocate(size + 63));
  if (memory == nullptr) return nullptr;
  memory += (64 - reinterpret_cast<uintptr_t>(memory) % 64) % 64;
  Plan* plan = new (memory) Plan();
  q::Requantize* requantize = reinterpret_cast<q::Requantize*>(plan + 1);
  int8_t* weights = reinterpret_cast<int8_t*>(requantize + 1);
  float* multiplier = reinterpret_cast<float*>(weights + taps);
  float* bias = multiplier + channels;  // zero-filled by the arena without a bias
  std::memcpy(weights, w.data(), static_cast<size_t>(channels * window));
  const float input_scale = static_cast<float>(layer.input_scale);
  for (int64_t c = 0; c < channels; ++c) {
    multiplier[c] = input_scale * layer.weight_scales[layer.per_channel ? c : 0];
    if (layer.bias != nullptr) bias[c] = layer.bias->data_as<const float>()[c];
  }
  const float zero = static_cast<float>(layer.out_zero_point);
  *requantize = q::Requantize{multiplier,
                              bias,
                              1.0f / static_cast<float>(layer.out_scale),
                              zero,
                              static_cast<float>(layer.out_min) - zero,
                              static_cast<float>(layer.out_max) - zero};
  describe(layer, size, channels, 1, window, plan);
  plan->depthwise = true;
  plan->requantize = requantize;
  plan->taps = weights;
  return plan;
}

}  // namespace quantized_calls
}  // namespace optimized

// Note [int8 GEMM]: each group's weight packed as b, with multipliers a_scale * b_scale[j]
// and the bias, padded to whole panels.
__attribute__((weak)) const void* rt::quantized_calls::prepare(const rt::QuantizedLayer& layer,
                                                               rt::Arena& arena, size_t* bytes) {
  using optimized::quantized_calls::Plan;
  namespace q = opt::qgemm;
  *bytes = 0;
  const rt::Tensor& w = *layer.weight;
  const int dims = layer.convolution ? 4 : 2;
  if (w.dtype() != rt::ScalarType::Char || w.dim() != dims || !w.is_contiguous()) return nullptr;
  const int64_t groups = layer.convolution ? layer.groups : 1;
  if (groups < 1 || w.size(0) % groups != 0) return nullptr;
  const int64_t channels = w.size(0), cols = channels / groups;
  const int64_t depth = w.numel() / (channels > 0 ? channels : 1);
  const float out_scale = static_cast<float>(layer.out_scale);
  // Exact int32 sums (Note [int8 GEMM]), 8-bit outs, a positive out scale (so that the range
  // is a clamp of the rounded value), and a GEMM worth its panels.
  if (depth >= (int64_t{1} << 16) || cols == 0 || depth == 0 ||
      (layer.convolution && cols < optimized::quantized_calls::kMinGroupChannels &&
       !(cols == 1 && w.size(1) == 1)) ||
      !optimized::quantized_calls::eight_bit(layer.out_min, layer.out_max) ||
      layer.out_min > layer.out_max || !(out_scale > 0.0f) || std::isinf(1.0f / out_scale) ||
      layer.input_zero_point < -128 || layer.input_zero_point > 255)
    return nullptr;
  if (layer.convolution) {
    for (int d = 0; d < 2; ++d) {
      if (layer.stride[d] < 1 || layer.padding[d] < 0 || layer.dilation[d] < 1) return nullptr;
    }
  }
  if (layer.bias != nullptr && (layer.bias->dtype() != rt::ScalarType::Float ||
                                layer.bias->numel() != channels || !layer.bias->is_contiguous()))
    return nullptr;
  if (layer.convolution && cols == 1 && w.size(1) == 1)
    return optimized::quantized_calls::prepare_depthwise(layer, arena, bytes);
  const int64_t padded_cols = q::round_up(cols, q::kQNR);
  const int64_t packed =
      layer.convolution ? q::packed_rows_bytes(depth, cols) : q::packed_b_bytes(depth, cols);
  static_assert(sizeof(q::PackedB) == sizeof(q::PackedRows), "one size for either");
  const size_t per_group = sizeof(q::PackedB) + sizeof(q::Requantize) + packed +
                           static_cast<size_t>(padded_cols) * (sizeof(int32_t) + 2 * sizeof(float));
  const size_t size = sizeof(Plan) + static_cast<size_t>(groups) * (per_group + 8);
  *bytes = size;
  char* memory = static_cast<char*>(arena.allocate(size + 63));
  if (memory == nullptr) return nullptr;
  memory += (64 - reinterpret_cast<uintptr_t>(memory) % 64) % 64;
  Plan* plan = new (memory) Plan();
  q::PackedB* b = reinterpret_cast<q::PackedB*>(plan + 1);
  q::PackedRows* rows = reinterpret_cast<q::PackedRows*>(plan + 1);  // the same place
  q::Requantize* requantize = reinterpret_cast<q::Requantize*>(b + groups);
  char* next = reinterpret_cast<char*>(requantize + groups);
  const float input_scale = static_cast<float>(layer.input_scale);
  const float zero = static_cast<float>(layer.out_zero_point);
  const float low = static_cast<float>(layer.out_min);
  const int8_t* weight = w.data_as<const int8_t>();  // [out][in][kh][kw]: the depth's order
  // A k x k convolution of a multiple of 4 input channels per group takes its depth tap by
  // tap (Window): its weight reordered to [out][kh][kw][in].
  const int64_t window = layer.convolution ? w.size(2) * w.size(3) : 1, in = depth / window;
  const bool tap_major = window > 1 && in % q::kQK == 0;
  int8_t* reordered = nullptr;
  if (tap_major) {
    reordered = static_cast<int8_t*>(arena.allocate(static_cast<size_t>(w.numel())));
    if (reordered == nullptr) return nullptr;
    for (int64_t o = 0; o < channels; ++o) {
      for (int64_t c = 0; c < in; ++c) {
        for (int64_t k = 0; k < window; ++k)
          reordered[(o * window + k) * in + c] = weight[(o * in + c) * window + k];
      }
    }
    weight = reordered;
  }
  for (int64_t g = 0; g < groups; ++g) {
    char* values = next;
    next += packed;
    next += (8 - reinterpret_cast<uintptr_t>(next) % 8) % 8;
    int32_t* sums = reinterpret_cast<int32_t*>(next);
    float* multiplier = reinterpret_cast<float*>(sums + padded_cols);
    float* bias = multiplier + padded_cols;  // zero-filled by the arena past cols
    next = reinterpret_cast<char*>(bias + padded_cols);
    const int64_t padded_depth = q::round_up(depth, q::kQK);
    if (layer.convolution) {
      q::RowValue* row_values = reinterpret_cast<q::RowValue*>(values);
      q::pack_rows(weight + g * cols * depth, depth, cols, row_values, sums);
      rows[g] = q::PackedRows{depth, cols, padded_depth, row_values, sums};
    } else {
      int8_t* panels = reinterpret_cast<int8_t*>(values);
      q::pack_b(weight + g * cols * depth, depth, cols, panels, sums);
      b[g] = q::PackedB{depth, cols, padded_depth, panels, sums};
    }
    for (int64_t j = 0; j < cols; ++j) {
      const int64_t channel = g * cols + j;
      multiplier[j] = input_scale * layer.weight_scales[layer.per_channel ? channel : 0];
      if (layer.bias != nullptr) bias[j] = layer.bias->data_as<const float>()[channel];
    }
    requantize[g] = q::Requantize{multiplier, bias,       1.0f / out_scale,
                                  zero,       low - zero, static_cast<float>(layer.out_max) - zero};
  }
  if (reordered != nullptr) arena.release(reordered);
  optimized::quantized_calls::describe(layer, size, groups, cols, depth, plan);
  plan->tap_major = tap_major;
  if (layer.convolution) {
    plan->rows = rows;
  } else {
    plan->b = b;
  }
  plan->requantize = requantize;
  return plan;
}

// [input, out, out]: out = requantize(input @ weight^T), Note [Requantization].
__attribute__((weak)) void rt::quantized_calls::linear(rt::KernelContext& context,
                                                       rt::Span<rt::EValue* const> args) {
  using optimized::quantized_calls::Plan;
  namespace q = opt::qgemm;
  const rt::OpContext in(context, optimized::quantized_calls::kOp);
  const Plan* plan = static_cast<const Plan*>(context.prepared());
  const rt::Tensor& x = args[0]->to_tensor();
  rt::Tensor& out = args[2]->to_tensor();
  const bool byte_in = x.dtype() == rt::ScalarType::Byte;
  if (plan == nullptr || (!byte_in && x.dtype() != rt::ScalarType::Char) || x.dim() != 2 ||
      x.size(1) != plan->b[0].depth || !x.is_contiguous())
    return in.fail("input must be a contiguous Char or Byte matrix of the weight's depth");
  if ((out.dtype() != rt::ScalarType::Char && out.dtype() != rt::ScalarType::Byte) ||
      !out.is_contiguous())
    return in.fail("out must be a contiguous Char or Byte tensor");
  const int32_t sizes[2] = {x.size(0), static_cast<int32_t>(plan->cols)};
  if (!rt::resize_out(in, out, sizes, 2)) return;
  const int64_t rows = x.size(0), depth = plan->b[0].depth, padded = plan->b[0].padded_depth;
  if (rows == 0) return;
  // All of the input is packed before out is written: the two may share planned memory.
  q::AValue* a = static_cast<q::AValue*>(
      opt::thread_scratch().get(sizeof(q::AValue) * q::round_up(rows, q::kQMR) * padded));
  if (a == nullptr) return in.fail("out of memory for the packed input");
  if (byte_in) {
    q::pack_a(x.data_as<const uint8_t>(), rows, depth, depth, 1, padded, a);
  } else {
    q::pack_a(x.data_as<const int8_t>(), rows, depth, depth, 1, padded, a);
  }
  optimized::quantized_calls::product(*plan, 0, a, rows,
                                      optimized::quantized_calls::stored_zero(*plan, byte_in), out,
                                      0, plan->cols, 1);
}

// [input, out, out]: out = requantize(conv(input, weight)), NCHW.
__attribute__((weak)) void rt::quantized_calls::convolution(rt::KernelContext& context,
                                                            rt::Span<rt::EValue* const> args) {
  using optimized::quantized_calls::Plan;
  namespace q = opt::qgemm;
  const rt::OpContext in(context, optimized::quantized_calls::kOp);
  const Plan* plan = static_cast<const Plan*>(context.prepared());
  const rt::Tensor& x = args[0]->to_tensor();
  rt::Tensor& out = args[2]->to_tensor();
  const bool byte_in = x.dtype() == rt::ScalarType::Byte;
  if (plan == nullptr || (!byte_in && x.dtype() != rt::ScalarType::Char) || x.dim() != 4 ||
      !x.is_contiguous() ||
      x.size(1) * plan->kernel[0] * plan->kernel[1] != plan->groups * plan->depth)
    return in.fail("input must be a contiguous Char or Byte NCHW tensor of the weight's channels");
  if ((out.dtype() != rt::ScalarType::Char && out.dtype() != rt::ScalarType::Byte) ||
      !out.is_contiguous())
    return in.fail("out must be a contiguous Char or Byte tensor");
  const int64_t h = x.size(2), w = x.size(3);
  int64_t size[2];
  for (int d = 0; d < 2; ++d) {
    const int64_t extent = d == 0 ? h : w;
    const int64_t span = plan->dilation[d] * (plan->kernel[d] - 1) + 1;
    size[d] = extent + 2 * plan->padding[d] < span
                  ? 0
                  : (extent + 2 * plan->padding[d] - span) / plan->stride[d] + 1;
  }
  if (size[0] == 0 || size[1] == 0) return in.fail("the kernel is larger than the padded input");
  const int64_t images = x.size(0), groups = plan->groups, cols = plan->cols;
  const int32_t sizes[4] = {x.size(0), static_cast<int32_t>(groups * cols),
                            static_cast<int32_t>(size[0]), static_cast<int32_t>(size[1])};
  if (!rt::resize_out(in, out, sizes, 4)) return;
  if (plan->depthwise) return optimized::quantized_calls::depthwise_images(*plan, in, x, out, size);
  const int64_t pixels = size[0] * size[1], channels = x.size(1) / groups;
  if (images == 0) return;
  // x is read from a copy when out shares its memory (x was dead after its dequantize: the
  // planner may have given out its bytes).
  const char* x_at = static_cast<const char*>(x.data());
  const char* out_at = static_cast<const char*>(out.data());
  const bool shared = x_at < out_at + out.nbytes() && out_at < x_at + x.nbytes();
  const size_t panel_bytes = static_cast<size_t>(plan->rows[0].padded_depth * q::kQNR);
  const size_t last_bytes = plan->tap_major ? static_cast<size_t>((h * w + 1) * channels) : 0;
  char* scratch = static_cast<char*>(
      opt::thread_scratch().get(panel_bytes + last_bytes + (shared ? x.nbytes() : 0)));
  if (scratch == nullptr) return in.fail("out of memory for the input's panel");
  if (shared) {
    std::memcpy(scratch + panel_bytes + last_bytes, x_at, x.nbytes());
    x_at = scratch + panel_bytes + last_bytes;
  }
  q::PanelValue* panel = reinterpret_cast<q::PanelValue*>(scratch);
  q::PanelValue* quads = reinterpret_cast<q::PanelValue*>(scratch + panel_bytes);
  const bool pointwise = plan->kernel[0] == 1 && plan->kernel[1] == 1 && plan->stride[0] == 1 &&
                         plan->stride[1] == 1 && plan->padding[0] == 0 && plan->padding[1] == 0;
  const optimized::quantized_calls::Window window{channels, h, w, size[1], pointwise, quads};
  const bool byte_out = out.dtype() == rt::ScalarType::Byte;
  for (int64_t n = 0; n < images; ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t at = (n * x.size(1) + g * channels) * h * w;
      const int64_t to = (n * groups + g) * cols * pixels;
      using optimized::quantized_calls::convolve;
      if (byte_in && byte_out) {
        convolve(*plan, g, window, reinterpret_cast<const uint8_t*>(x_at) + at, pixels, panel,
                 out.data_as<uint8_t>() + to);
      } else if (byte_in) {
        convolve(*plan, g, window, reinterpret_cast<const uint8_t*>(x_at) + at, pixels, panel,
                 out.data_as<int8_t>() + to);
      } else if (byte_out) {
        convolve(*plan, g, window, reinterpret_cast<const int8_t*>(x_at) + at, pixels, panel,
                 out.data_as<uint8_t>() + to);
      } else {
        convolve(*plan, g, window, reinterpret_cast<const int8_t*>(x_at) + at, pixels, panel,
                 out.data_as<int8_t>() + to);
      }
    }
  }
}
