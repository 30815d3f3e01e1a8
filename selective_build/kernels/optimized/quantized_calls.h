#pragma once

// The quantized Linear and convolution of Note [Quantized calls at load]
// (runtime/executor/quantize_calls.h) on the int8 GEMM (qgemm.h). Their entries are defined
// here, weak (as declared in runtime/kernel/quantized_calls.h), and this header is included
// by the matrix products' and the convolution's sources: a runner that links any of them has
// the entries once, one that links none has none; a runner without Note [Quantized calls at
// load] compiled in refers to none, and the linker drops them (--gc-sections).
//
// A convolution is one GEMM per image and group: a = its im2col (rows the output pixels,
// depth the window's [kh][kw][in / groups], the input's zero point where the window leaves
// the image, which is a float 0), b = the group's weight reordered to that depth at load,
// c the group's channels of out (NCHW: row i of c is pixel i, column j channel j, HW apart). A convolution with fewer than
// kMinGroupChannels output channels per group (a depthwise one) is left to the float path:
// its columns would be mostly the panel's padding.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "kernels/optimized/qgemm.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/quantized_calls.h"

namespace optimized {
namespace quantized_calls {

constexpr const char* kOp = "quantized layer (a dequantize, linear or convolution, quantize chain)";
constexpr int64_t kMinGroupChannels = 4;

// What prepare makes, followed by `groups` PackedB and Requantize, then the packed weights
// and the per-column constants.
struct alignas(64) Plan {
  rt::quantized_calls::Prepared prepared;  // first, as the runtime reads it
  int64_t groups, cols;                    // cols: per group
  int64_t kernel[2], stride[2], padding[2], dilation[2];
  int32_t input_zero_point;
  bool depthwise;  // groups == channels, one input channel each: Note [int8 depthwise]
  int64_t depth;   // per group: the weight's values per output channel
  const opt::qgemm::PackedB* b;              // per group; none for a depthwise layer
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

// `bytes` (a multiple of 8) from `from` to `to`, 8 at a time: the copies are a few dozen
// bytes, where a call of memcpy costs more than the copy.
inline void copy_words(void* to, const void* from, size_t bytes) {
  for (size_t k = 0; k < bytes; k += 8) {
    uint64_t word;
    std::memcpy(&word, static_cast<const char*>(from) + k, 8);
    std::memcpy(static_cast<char*>(to) + k, &word, 8);
  }
}

// Bytes of slack after the scratch's buffers: copy_words rounds a copy up to 8 bytes.
constexpr size_t kSlack = 8;

#if defined(__SSE4_1__)
// 8 values of In (the low bytes of `bytes`) stored as AValues (Note [int8 GEMM]) at `to`.
template <typename In>
inline void store_pixel(__m128i bytes, opt::qgemm::AValue* to) {
  namespace q = opt::qgemm;
  if constexpr (sizeof(q::AValue) == 2) {  // widened: the value itself
    const __m128i wide =
        std::is_signed<In>::value ? _mm_cvtepi8_epi16(bytes) : _mm_cvtepu8_epi16(bytes);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to), wide);
  } else {  // u8: a Char value + 128 flips its top bit
    const __m128i stored =
        q::stored_offset<In>() == 128 ? _mm_xor_si128(bytes, _mm_set1_epi8(-128)) : bytes;
    _mm_storel_epi64(reinterpret_cast<__m128i*>(to), stored);
  }
}
#endif

// One image's group of x (channels, h, w), stored (Note [int8 GEMM]) channels-last into
// `pixels` (h * w rows of `channels`), then as a's rows, one per output pixel: for each
// (u, v) of the window, the pixel's channels (one copy) or the zero point off the image.
// A 1x1 window of stride 1 without padding has a = pixels: written there directly.
template <typename In>
void im2col(const Plan& plan, const In* x, int64_t channels, int64_t h, int64_t w, int64_t oh,
            int64_t ow, opt::qgemm::AValue* pixels, opt::qgemm::AValue* a) {
  namespace q = opt::qgemm;
  const int64_t padded = plan.b[0].padded_depth, kh = plan.kernel[0], kw = plan.kernel[1];
  const int64_t rows = oh * ow;
  const bool pointwise = kh == 1 && kw == 1 && plan.stride[0] == 1 && plan.stride[1] == 1 &&
                         plan.padding[0] == 0 && plan.padding[1] == 0;
  const int64_t pixel_stride = pointwise ? padded : channels;
  q::AValue* to_pixels = pointwise ? a : pixels;
  // In tiles of 16 pixels: a run of 16 bytes read per channel, the tile's rows in L1.
  const int64_t plane = h * w;
  for (int64_t i0 = 0; i0 < plane; i0 += 16) {
    const int64_t end = i0 + 16 < plane ? i0 + 16 : plane;
    int64_t c = 0;
#if defined(__SSE4_1__)
    // 8 channels' 16 pixels transposed at once (opt::qgemm::transpose_8x16).
    for (; end - i0 == 16 && c + 8 <= channels; c += 8) {
      __m128i rows[8], columns[8];
      for (int k = 0; k < 8; ++k)
        rows[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + (c + k) * plane + i0));
      q::transpose_8x16(rows, columns);
      for (int k = 0; k < 16; ++k)
        store_pixel<In>(q::column_of(columns, k), to_pixels + (i0 + k) * pixel_stride + c);
    }
#endif
    for (; c < channels; ++c) {
      const In* from = x + c * plane;
      for (int64_t i = i0; i < end; ++i)
        to_pixels[i * pixel_stride + c] =
            static_cast<q::AValue>(int32_t(from[i]) + q::stored_offset<In>());
    }
  }
  if (pointwise) {
    // The depth's padding (none where the channels are a multiple of kQK), then the rows
    // past the last up to a whole tile.
    for (int64_t i = 0; channels < padded && i < rows; ++i) {
      for (int64_t p = channels; p < padded; ++p) a[i * padded + p] = 0;
    }
    std::memset(a + rows * padded, 0,
                sizeof(q::AValue) * (q::round_up(rows, q::kQMR) - rows) * padded);
    return;
  }
  const q::AValue zero = static_cast<q::AValue>(plan.input_zero_point + q::stored_offset<In>());
  const size_t bytes = (sizeof(q::AValue) * channels + 7) / 8 * 8;
  for (int64_t i = 0; i < q::round_up(rows, q::kQMR); ++i) {
    q::AValue* row = a + i * padded;
    if (i >= rows) {
      std::memset(row, 0, sizeof(q::AValue) * padded);
      continue;
    }
    const int64_t y0 = (i / ow) * plan.stride[0] - plan.padding[0];
    const int64_t x0 = (i % ow) * plan.stride[1] - plan.padding[1];
    q::AValue* to = row;
    for (int64_t u = 0; u < kh; ++u) {
      const int64_t y = y0 + u * plan.dilation[0];
      for (int64_t v = 0; v < kw; ++v, to += channels) {
        const int64_t xx = x0 + v * plan.dilation[1];
        if (y < 0 || y >= h || xx < 0 || xx >= w) {
          for (int64_t c = 0; c < channels; ++c) to[c] = zero;
        } else {
          copy_words(to, pixels + (y * w + xx) * channels, bytes);  // the rest is overwritten
        }
      }
    }
    for (q::AValue* end = row + padded; to < end; ++to) *to = 0;
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
// order of the exact integer sums. The plan keeps the taps as bytes, [channel][kh][kw], and
// one multiplier and bias per channel: 17 bytes a 3x3 channel.

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
  for (int64_t y = 0; y < h; ++y)
    std::memcpy(padded + (y + ph) * pitch + pw, image + y * w, static_cast<size_t>(w));
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

// The sums of one channel's plane for a K x K window of column stride S without dilation
// (MobileNetV2's 3x3 layers), as depthwise_vector's: the taps broadcast once per channel,
// each sum started at -zero * (the taps' sum) instead of subtracting the zero point at every
// tap (the same integers), and two output rows at a time, whose sums are independent.
template <typename In, int K, int S>
void depthwise_plane(const In* padded, int64_t pitch, int64_t row_stride, int64_t oh, int64_t ow,
                     const int8_t* taps, int32_t zero, int32_t* plane) {
  namespace q = opt::qgemm;
  __m512i tap[K * K];
  int32_t tap_sum = 0;
  for (int k = 0; k < K * K; ++k) {
    tap[k] = _mm512_set1_epi32(taps[k]);
    tap_sum += taps[k];
  }
  const __m512i start = _mm512_set1_epi32(-zero * tap_sum);
  int64_t i = 0;
  for (; i + 2 <= oh; i += 2) {
    const In* top = padded + i * row_stride * pitch;
    const In* next = top + row_stride * pitch;
    // Rows i and i + 1 into plane; a row's last vector stores only what is in the row (the
    // next row's start may be written already).
    for (int64_t j = 0; j < ow; j += q::kQNR) {
      const __mmask16 in_row = ow - j >= q::kQNR ? 0xFFFF : (1u << (ow - j)) - 1;
      __m512i first = start, second = start;
#pragma GCC unroll 5
      for (int u = 0; u < K; ++u) {
#pragma GCC unroll 5
        for (int v = 0; v < K; ++v) {
          const int64_t at = u * pitch + j * S + v;
          first = _mm512_add_epi32(
              first, _mm512_mullo_epi32(tap[u * K + v], row_values<In, S>(top + at)));
          second = _mm512_add_epi32(
              second, _mm512_mullo_epi32(tap[u * K + v], row_values<In, S>(next + at)));
        }
      }
      _mm512_mask_storeu_epi32(plane + i * ow + j, in_row, first);
      _mm512_mask_storeu_epi32(plane + (i + 1) * ow + j, in_row, second);
    }
  }
  for (; i < oh; ++i) {
    const In* top = padded + i * row_stride * pitch;
    for (int64_t j = 0; j < ow; j += q::kQNR) {
      __m512i sum = start;
#pragma GCC unroll 5
      for (int u = 0; u < K; ++u) {
#pragma GCC unroll 5
        for (int v = 0; v < K; ++v) {
          sum = _mm512_add_epi32(sum, _mm512_mullo_epi32(tap[u * K + v], row_values<In, S>(
                                                                             top + u * pitch +
                                                                             j * S + v)));
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
    if (square3 && s <= 2) {
      (s == 1 ? depthwise_plane<In, 3, 1> : depthwise_plane<In, 3, 2>)(
          padded, pitch, plan.stride[0], oh, ow, taps, zero, plane);
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
  const bool shared = x_at < out_at + out.nbytes() && out_at < x_at + x.nbytes();
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
  const int64_t packed = q::packed_b_bytes(depth, cols);
  const size_t per_group = sizeof(q::PackedB) + sizeof(q::Requantize) + packed +
                           static_cast<size_t>(padded_cols) * (sizeof(int32_t) + 2 * sizeof(float));
  const size_t size = sizeof(Plan) + static_cast<size_t>(groups) * (per_group + 8);
  *bytes = size;
  char* memory = static_cast<char*>(arena.allocate(size + 63));
  if (memory == nullptr) return nullptr;
  memory += (64 - reinterpret_cast<uintptr_t>(memory) % 64) % 64;
  Plan* plan = new (memory) Plan();
  q::PackedB* b = reinterpret_cast<q::PackedB*>(plan + 1);
  q::Requantize* requantize = reinterpret_cast<q::Requantize*>(b + groups);
  char* next = reinterpret_cast<char*>(requantize + groups);
  const float input_scale = static_cast<float>(layer.input_scale);
  const float zero = static_cast<float>(layer.out_zero_point);
  const float low = static_cast<float>(layer.out_min);
  // A convolution's weight [out][in][kh][kw] as [out][kh][kw][in], the depth order of im2col.
  const int64_t window = layer.convolution ? w.size(2) * w.size(3) : 1, in = depth / window;
  int8_t* reordered = static_cast<int8_t*>(arena.allocate(static_cast<size_t>(w.numel())));
  if (reordered == nullptr) return nullptr;
  const int8_t* from = w.data_as<const int8_t>();
  for (int64_t o = 0; o < channels; ++o) {
    for (int64_t c = 0; c < in; ++c) {
      for (int64_t k = 0; k < window; ++k)
        reordered[(o * window + k) * in + c] = from[(o * in + c) * window + k];
    }
  }
  for (int64_t g = 0; g < groups; ++g) {
    int8_t* panels = reinterpret_cast<int8_t*>(next);
    next += packed;
    next += (8 - reinterpret_cast<uintptr_t>(next) % 8) % 8;
    int32_t* sums = reinterpret_cast<int32_t*>(next);
    float* multiplier = reinterpret_cast<float*>(sums + padded_cols);
    float* bias = multiplier + padded_cols;  // zero-filled by the arena past cols
    next = reinterpret_cast<char*>(bias + padded_cols);
    q::pack_b(reordered + g * cols * depth, depth, cols, panels, sums);
    for (int64_t j = 0; j < cols; ++j) {
      const int64_t channel = g * cols + j;
      multiplier[j] = input_scale * layer.weight_scales[layer.per_channel ? channel : 0];
      if (layer.bias != nullptr) bias[j] = layer.bias->data_as<const float>()[channel];
    }
    b[g] = q::PackedB{depth, cols, q::round_up(depth, q::kQK), panels, sums};
    requantize[g] = q::Requantize{multiplier, bias,       1.0f / out_scale,
                                  zero,       low - zero, static_cast<float>(layer.out_max) - zero};
  }
  arena.release(reordered);
  optimized::quantized_calls::describe(layer, size, groups, cols, depth, plan);
  plan->b = b;
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
  const int64_t rows = size[0] * size[1], padded = plan->b[0].padded_depth;
  const int64_t one = q::round_up(rows, q::kQMR) * padded, channels = x.size(1) / groups;
  if (images == 0) return;
  // One image's group at a time: a is made, then its product written. x is read from a copy
  // when out shares its memory (x was dead after its dequantize: the planner may have given
  // out its bytes).
  const int64_t pixels = h * w * channels;
  const char* x_at = static_cast<const char*>(x.data());
  const char* out_at = static_cast<const char*>(out.data());
  const bool shared = x_at < out_at + out.nbytes() && out_at < x_at + x.nbytes();
  const size_t a_bytes =
      sizeof(q::AValue) * static_cast<size_t>(one + pixels) + optimized::quantized_calls::kSlack;
  char* scratch =
      static_cast<char*>(opt::thread_scratch().get(a_bytes + (shared ? x.nbytes() : 0)));
  if (scratch == nullptr) return in.fail("out of memory for the input's columns");
  if (shared) {
    std::memcpy(scratch + a_bytes, x_at, x.nbytes());
    x_at = scratch + a_bytes;
  }
  q::AValue* a = reinterpret_cast<q::AValue*>(scratch);
  q::AValue* channels_last = a + one;
  const int32_t a_zero = optimized::quantized_calls::stored_zero(*plan, byte_in);
  for (int64_t n = 0; n < images; ++n) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t at = (n * x.size(1) + g * channels) * h * w;
      if (byte_in) {
        optimized::quantized_calls::im2col(*plan, reinterpret_cast<const uint8_t*>(x_at) + at,
                                           channels, h, w, size[0], size[1], channels_last, a);
      } else {
        optimized::quantized_calls::im2col(*plan, reinterpret_cast<const int8_t*>(x_at) + at,
                                           channels, h, w, size[0], size[1], channels_last, a);
      }
      optimized::quantized_calls::product(*plan, g, a, rows, a_zero, out,
                                          (n * groups + g) * cols * rows, 1, rows);
    }
  }
}
