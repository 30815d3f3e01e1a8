#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

// Our pool splits the work (parallel.h); Eigen's own threads stay off. Shapes are checked
// before any product, so Eigen's assertions are compiled out.
#define EIGEN_DONT_PARALLELIZE
#define EIGEN_NO_DEBUG
#include <Eigen/Core>

#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"
#include "kernels/optimized/window.h"
#include "kernels/portable/util/nn_conv.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

// Float convolution in three fast shapes, each over NCHW-like tensors whose pixels are dense
// (any batch and channel strides, as a contiguous tensor or a channel slice has):
// - depthwise (one input channel per group): a direct loop per output row whose inner
//   loop runs along the output width with no bounds test (the valid range is computed
//   first), so the compiler vectorises it;
// - 1x1, stride 1, no padding: per batch and group, out[Cout, H*W] = weight[Cout, Cin] x
//   input[Cin, H*W], one GEMM read straight from the tensors;
// - everything else: im2col into a per-thread scratch tile, then one GEMM per tile.
// What none of them covers (transposed convolution, pixels not dense, a permuted weight)
// runs portable's reference loops (kernels/portable/util/nn_conv.h): correct, slow.
namespace optimized {
namespace {

constexpr const char* kOp = "aten::convolution.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::DtypeSet::of(rt::ScalarType::Float).bits(), kSelected.bits()>;

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstRows = Eigen::Map<const RowMatrix, Eigen::Unaligned, Eigen::OuterStride<>>;
using Rows = Eigen::Map<RowMatrix, Eigen::Unaligned, Eigen::OuterStride<>>;
using StridedArray = Eigen::Map<const Eigen::ArrayXf, Eigen::Unaligned, Eigen::InnerStride<>>;

// im2col tiles hold at most this many floats (256 KiB, about an L2) unless a tile of the
// minimum width needs more; the tile width depends only on the layer, never on the thread
// count, so every tile's GEMM (and its rounding) is the same however tiles are shared out.
constexpr int64_t kTileFloats = 64 * 1024;
constexpr int64_t kMinTileWidth = 64;
// Output columns per GEMM of the 1x1 path (no copy, so only the split matters).
constexpr int64_t kDirectTileWidth = 512;

// True when dims `first`..3 of `v` are laid out densely in that order (size-1 dims have
// any stride): the pixels of a channel are one run of memory.
bool dense_from(const portable::View4& v, int first) {
  int64_t expected = 1;
  for (int d = 3; d >= first; --d) {
    if (v.size[d] != 1 && v.stride[d] != expected) return false;
    expected *= v.size[d];
  }
  return true;
}

struct Layer {
  int64_t batch, groups, cin_g, cout_g;
  int64_t in_h, in_w, k_h, k_w, out_h, out_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int64_t x_n, x_c, y_n, y_c, w_row;  // strides: batch and channel of input and out, weight row
  int64_t bias_stride;

  int64_t k() const { return cin_g * k_h * k_w; }
  int64_t pixels() const { return out_h * out_w; }
};

Layer layer_of(const portable::ConvCall& c) {
  Layer l;
  l.batch = c.y.size[0];
  l.groups = c.groups;
  l.cin_g = c.w.size[1];
  l.cout_g = c.y.size[1] / c.groups;
  l.in_h = c.x.size[2];
  l.in_w = c.x.size[3];
  l.k_h = c.w.size[2];
  l.k_w = c.w.size[3];
  l.out_h = c.y.size[2];
  l.out_w = c.y.size[3];
  l.stride_h = c.stride[0];
  l.stride_w = c.stride[1];
  l.pad_h = c.padding[0];
  l.pad_w = c.padding[1];
  l.dil_h = c.dilation[0];
  l.dil_w = c.dilation[1];
  l.x_n = c.x.stride[0];
  l.x_c = c.x.stride[1];
  l.y_n = c.y.stride[0];
  l.y_c = c.y.stride[1];
  l.w_row = c.w.size[0] == 1 ? l.k() : c.w.stride[0];
  l.bias_stride = c.bias_stride;
  return l;
}

// dst[0, count) = value with Eigen's vector stores: GCC leaves std::fill scalar at -O2, and
// the fill before each GEMM writes every output once (a tenth of MobileNetV2's time as a
// scalar loop).
void fill(float* dst, int64_t count, float value) {
  Eigen::Map<Eigen::ArrayXf>(dst, count).setConstant(value);
}

// Out rows [0, rows) of one pixel block start as bias[oc0 + r] (or 0): the GEMM adds to them.
void start_with_bias(const Layer& l, const float* bias, int64_t oc0, float* y, int64_t rows,
                     int64_t width) {
  for (int64_t r = 0; r < rows; ++r)
    fill(y + r * l.y_c, width, bias != nullptr ? bias[(oc0 + r) * l.bias_stride] : 0.0f);
}

// Output columns [a, b) of one tap: input columns ox * stride + offset of `in_row`, as an
// Eigen array expression (vectorised whatever the -O level when kUnit: stride 1).
template <bool kUnit>
auto tap_columns(const float* in_row, int64_t a, int64_t b, int64_t offset, int64_t stride) {
  const float* first = in_row + (a * stride + offset);
  if constexpr (kUnit) {
    return Eigen::Map<const Eigen::ArrayXf>(first, b - a);
  } else {
    return StridedArray(first, b - a, Eigen::InnerStride<>(stride));
  }
}

// The columns [a, b) of one output row where every tap of a 3-wide kernel is inside the
// input, from `taps[ky][kx]`, the input under column a of each tap (rows outside the input
// are nullptr; consecutive columns are consecutive floats): one fused vectorised pass per
// kernel row (or one for all nine taps), not a read-modify-write pass per tap.
void depthwise_row3(int64_t k_h, const float* const (*taps)[3], const float* w, float b, int64_t a,
                    int64_t e, float* row) {
  Eigen::Map<Eigen::ArrayXf> dst(row + a, e - a);
  auto tap = [&](int64_t ky, int kx) {
    return Eigen::Map<const Eigen::ArrayXf>(taps[ky][kx], e - a);
  };
  if (k_h == 3 && taps[0][0] != nullptr && taps[1][0] != nullptr && taps[2][0] != nullptr) {
    dst = b + w[0] * tap(0, 0) + w[1] * tap(0, 1) + w[2] * tap(0, 2) + w[3] * tap(1, 0) +
          w[4] * tap(1, 1) + w[5] * tap(1, 2) + w[6] * tap(2, 0) + w[7] * tap(2, 1) +
          w[8] * tap(2, 2);
    return;
  }
  dst = b;
  for (int64_t ky = 0; ky < k_h; ++ky) {
    if (taps[ky][0] == nullptr) continue;
    const float* wk = w + ky * 3;
    dst += wk[0] * tap(ky, 0) + wk[1] * tap(ky, 1) + wk[2] * tap(ky, 2);
  }
}

// Eight floats with the compiler's vector extensions (SSE, AVX or NEON shuffles, whichever
// the toolchain targets), loaded and stored unaligned.
typedef float Vec8 __attribute__((vector_size(32)));
inline Vec8 load8(const float* src) {
  Vec8 v;
  std::memcpy(&v, src, sizeof v);
  return v;
}
inline void store8(float* dst, const Vec8& v) { std::memcpy(dst, &v, sizeof v); }

// Even and odd columns of a row into two rows, eight pairs at a time: the phases of stride 2,
// the common strided layer. Returns the columns of each written.
int64_t split_pairs(const float* src, int64_t count, float* even, float* odd) {
  int64_t j = 0;
  for (; 2 * j + 16 <= count; j += 8) {
    const Vec8 a = load8(src + 2 * j), b = load8(src + 2 * j + 8);
    store8(even + j, __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14));
    store8(odd + j, __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15));
  }
  return j;
}

// dst[j] = src[2 j] for j in [0, count): a stride-2 im2col row (the stems of ResNet and
// MobileNetV2 spent most of their time in this copy as a scalar loop). Reads only src[0]
// to src[2 (count - 1)]: the vector loop stops while a load's last lane is inside.
void take_even(const float* src, int64_t count, float* dst) {
  int64_t j = 0;
  for (; 2 * j + 16 <= 2 * count - 1; j += 8) {
    const Vec8 a = load8(src + 2 * j), b = load8(src + 2 * j + 8);
    store8(dst + j, __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14));
  }
  for (; j < count; ++j) dst[j] = src[2 * j];
}

// A plane split by the remainders of its rows and columns modulo the strides: phase
// (qy, qx) holds rows qy, qy + stride_h, ... and of them columns qx, qx + stride_w, ...
// The inputs of one tap over consecutive outputs of a strided convolution are then
// consecutive floats of one phase, and consecutive output rows consecutive phase rows.
struct Phases {
  const float* data;
  int64_t width;  // columns per phase row (the longest phase's)
  int64_t rows;   // rows per phase (the longest phase's)

  static int64_t floats(const Layer& l) {
    return l.stride_h * l.stride_w * ((l.in_h + l.stride_h - 1) / l.stride_h) *
           ((l.in_w + l.stride_w - 1) / l.stride_w);
  }
  static Phases split(const Layer& l, const float* plane, float* scratch) {
    const Phases p{scratch, (l.in_w + l.stride_w - 1) / l.stride_w,
                   (l.in_h + l.stride_h - 1) / l.stride_h};
    for (int64_t iy = 0; iy < l.in_h; ++iy) {
      const float* src = plane + iy * l.in_w;
      int64_t done = 0;  // phase columns written
      if (l.stride_w == 2)
        done = split_pairs(src, l.in_w, scratch + p.offset(l, iy, 0), scratch + p.offset(l, iy, 1));
      for (int64_t qx = 0; qx < l.stride_w; ++qx) {
        float* dst = scratch + p.offset(l, iy, qx);
        for (int64_t j = done; j * l.stride_w + qx < l.in_w; ++j) dst[j] = src[j * l.stride_w + qx];
      }
    }
    return p;
  }
  // Where the input element at row iy, column col (both >= 0) is.
  int64_t offset(const Layer& l, int64_t iy, int64_t col) const {
    const int64_t phase = iy % l.stride_h * l.stride_w + col % l.stride_w;
    return (phase * rows + iy / l.stride_h) * width + col / l.stride_w;
  }
  const float* at(const Layer& l, int64_t iy, int64_t col) const {
    return data + offset(l, iy, col);
  }
};

// Kernel heights up to this take depthwise_plane's fused path (a tap table on the stack).
constexpr int64_t kMaxFusedRows = 16;

// The output columns [a, e) every tap of a row sees inside the input (those for the first
// tap and the last), and whether depthwise_plane fuses its taps there.
struct Interior {
  int64_t a, e;
  bool fused;

  explicit Interior(const Layer& l) {
    int64_t unused;
    opt::valid_outputs(-l.pad_w, l.stride_w, l.in_w, l.out_w, &a, &unused);
    opt::valid_outputs((l.k_w - 1) * l.dil_w - l.pad_w, l.stride_w, l.in_w, l.out_w, &unused, &e);
    if (e < a) e = a;
    fused = l.k_w == 3 && l.k_h <= kMaxFusedRows && e > a;
  }
};

// One output channel plane of a depthwise convolution (its group's single input channel).
// Per output row: the columns every tap sees go through depthwise_row3 (3-wide kernels) or
// one vectorised pass per tap; the few border columns are summed one by one.
void depthwise_plane(const Layer& l, const Interior& in, const float* x, const Phases* phases,
                     const float* w, float b, float* y) {
  const float* rows[kMaxFusedRows];
  const float* taps[kMaxFusedRows][3];
  const int64_t a = in.a, e = in.e;
  // When a tap's inputs for consecutive output rows are one input (or phase) row apart and
  // rows are as long as the output's (stride 1 with out_w == in_w, or the phases of a
  // strided layer whose phase rows are out_w long), output pixel p of the flattened plane
  // reads a fixed offset from p for each tap: the rows [r0, r1) whose kernel rows are all
  // inside the input are one vectorised run from (r0, a) to (r1 - 1, e). The border columns
  // of those rows read a neighbouring row (wrong) and are redone below.
  int64_t r0 = 0, r1 = 0, unused;
  const bool flat_rows = phases != nullptr
                             ? phases->width == l.out_w
                             : l.stride_h == 1 && l.stride_w == 1 && l.out_w == l.in_w;
  if (in.fused && l.k_h == 3 && flat_rows) {
    opt::valid_outputs(-l.pad_h, l.stride_h, l.in_h, l.out_h, &r0, &unused);
    opt::valid_outputs(2 * l.dil_h - l.pad_h, l.stride_h, l.in_h, l.out_h, &unused, &r1);
  }
  if (r1 > r0) {
    const int64_t start = r0 * l.out_w + a;
    for (int64_t ky = 0; ky < 3; ++ky) {
      const int64_t iy = r0 * l.stride_h + ky * l.dil_h - l.pad_h;  // >= 0: r0 is inside
      for (int kx = 0; kx < 3; ++kx) {
        const int64_t col = a * l.stride_w + kx * l.dil_w - l.pad_w;  // >= 0: a is inside
        taps[ky][kx] = phases != nullptr ? phases->at(l, iy, col) : x + iy * l.in_w + col;
      }
    }
    depthwise_row3(3, taps, w, b, 0, (r1 - 1) * l.out_w + e - start, y + start);
  }
  for (int64_t oy = 0; oy < l.out_h; ++oy) {
    float* row = y + oy * l.out_w;
    for (int64_t ky = 0; ky < l.k_h && ky < kMaxFusedRows; ++ky) {
      const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
      rows[ky] = iy >= 0 && iy < l.in_h ? x + iy * l.in_w : nullptr;
    }
    if (in.fused) {
      const bool flat = oy >= r0 && oy < r1;  // interior columns done by the run above
      for (int64_t ky = 0; ky < l.k_h && !flat; ++ky) {
        const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
        for (int kx = 0; kx < 3; ++kx) {
          const int64_t col = a * l.stride_w + kx * l.dil_w - l.pad_w;  // >= 0: a is interior
          taps[ky][kx] = rows[ky] == nullptr ? nullptr
                         : phases != nullptr ? phases->at(l, iy, col)
                                             : rows[ky] + col;
        }
      }
      if (!flat) depthwise_row3(l.k_h, taps, w, b, a, e, row);
      // The border columns, each summed over its taps in the input.
      auto border = [&](int64_t ox) {
        float sum = b;
        for (int64_t ky = 0; ky < l.k_h; ++ky) {
          if (rows[ky] == nullptr) continue;
          for (int64_t kx = 0; kx < l.k_w; ++kx) {
            const int64_t ix = ox * l.stride_w - l.pad_w + kx * l.dil_w;
            if (ix >= 0 && ix < l.in_w) sum += w[ky * l.k_w + kx] * rows[ky][ix];
          }
        }
        row[ox] = sum;
      };
      for (int64_t ox = 0; ox < a; ++ox) border(ox);
      for (int64_t ox = e; ox < l.out_w; ++ox) border(ox);
      continue;
    }
    fill(row, l.out_w, b);
    for (int64_t ky = 0; ky < l.k_h; ++ky) {
      const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
      if (iy < 0 || iy >= l.in_h) continue;
      const float* in_row = x + iy * l.in_w;
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        const float weight = w[ky * l.k_w + kx];
        const int64_t offset = kx * l.dil_w - l.pad_w;
        int64_t lo, hi;
        opt::valid_outputs(offset, l.stride_w, l.in_w, l.out_w, &lo, &hi);
        if (hi <= lo) continue;
        Eigen::Map<Eigen::ArrayXf> dst(row + lo, hi - lo);
        if (l.stride_w == 1) {
          dst += weight * tap_columns<true>(in_row, lo, hi, offset, 1);
        } else {
          dst += weight * tap_columns<false>(in_row, lo, hi, offset, l.stride_w);
        }
      }
    }
  }
}

// False when the scratch for a strided layer's phases cannot be had.
bool depthwise(const Layer& l, const float* x, const float* w, const float* bias, float* y) {
  const int64_t channels = l.groups * l.cout_g;
  const Interior interior(l);
  // A strided fused layer reads each plane through its phases: one copy of the plane per
  // output channel, paid back by vectorised taps.
  const bool phased = (l.stride_h > 1 || l.stride_w > 1) && interior.fused;
  const int64_t phase_floats = Phases::floats(l);
  bool ok = true;
  opt::parallel_for(l.batch * channels, 1, [&](int64_t begin, int64_t end) {
    float* scratch = nullptr;
    if (phased) {
      scratch = static_cast<float*>(
          opt::thread_scratch().get(static_cast<size_t>(phase_floats) * sizeof(float)));
      if (scratch == nullptr) {
        ok = false;  // every writer stores false: no ordering needed
        return;
      }
    }
    for (int64_t item = begin; item < end; ++item) {
      const int64_t n = item / channels, oc = item % channels;
      const float b = bias != nullptr ? bias[oc * l.bias_stride] : 0.0f;
      const float* plane = x + n * l.x_n + oc / l.cout_g * l.x_c;
      const Phases phases = phased ? Phases::split(l, plane, scratch) : Phases{};
      depthwise_plane(l, interior, plane, phased ? &phases : nullptr, w + oc * l.w_row, b,
                      y + n * l.y_n + oc * l.y_c);
    }
  });
  return ok;
}

// Columns [p0, p0 + width) of the im2col matrix of one batch and group: row k = (ic, ky,
// kx) holds the input pixel each output pixel multiplies with that weight (0 in padding).
void im2col(const Layer& l, const float* x, int64_t p0, int64_t width, float* col) {
  for (int64_t ic = 0; ic < l.cin_g; ++ic) {
    const float* plane = x + ic * l.x_c;
    for (int64_t ky = 0; ky < l.k_h; ++ky) {
      for (int64_t kx = 0; kx < l.k_w; ++kx) {
        float* dst = col + ((ic * l.k_h + ky) * l.k_w + kx) * width;
        const int64_t offset = kx * l.dil_w - l.pad_w;
        int64_t lo, hi;
        opt::valid_outputs(offset, l.stride_w, l.in_w, l.out_w, &lo, &hi);
        // Walk the tile an output row at a time.
        for (int64_t p = p0; p < p0 + width;) {
          const int64_t oy = p / l.out_w, first = p % l.out_w;
          const int64_t last = std::min(l.out_w, first + (p0 + width - p));
          float* out = dst + (p - p0);  // out[i] is column ox = first + i
          const int64_t count = last - first;
          const int64_t iy = oy * l.stride_h - l.pad_h + ky * l.dil_h;
          if (iy < 0 || iy >= l.in_h) {
            fill(out, count, 0.0f);
          } else {
            const int64_t a = std::max(first, lo), b = std::max(a, std::min(last, hi));
            fill(out, a - first, 0.0f);
            // Input column of ox: ox * stride + offset, inside the row for ox in [a, b).
            const float* in_row = plane + iy * l.in_w;
            if (l.stride_w == 1) {
              std::memcpy(out + (a - first), in_row + (a + offset),
                          static_cast<size_t>(b - a) * sizeof(float));
            } else if (l.stride_w == 2) {
              take_even(in_row + (2 * a + offset), b - a, out + (a - first));
            } else {
              for (int64_t ox = a; ox < b; ++ox) out[ox - first] = in_row[ox * l.stride_w + offset];
            }
            fill(out + (b - first), count - (b - first), 0.0f);
          }
          p += count;
        }
      }
    }
  }
}

// The general and 1x1 paths: per (batch, group, pixel tile), out = weight x columns.
// False when the scratch cannot be had.
bool gemm_conv(const Layer& l, bool one_by_one, const float* x, const float* w, const float* bias,
               float* y) {
  const int64_t k = l.k(), pixels = l.pixels();
  const int64_t tile = one_by_one ? kDirectTileWidth : std::max(kMinTileWidth, kTileFloats / k);
  const int64_t tiles = (pixels + tile - 1) / tile;
  bool ok = true;
  opt::parallel_for(l.batch * l.groups * tiles, 1, [&](int64_t begin, int64_t end) {
    float* col = nullptr;
    if (!one_by_one) {
      const size_t bytes = static_cast<size_t>(k * std::min(tile, pixels)) * sizeof(float);
      col = static_cast<float*>(opt::thread_scratch().get(bytes));
      if (col == nullptr) {
        ok = false;  // every writer stores false: no ordering needed
        return;
      }
    }
    for (int64_t item = begin; item < end; ++item) {
      const int64_t t = item % tiles, g = item / tiles % l.groups, n = item / tiles / l.groups;
      const int64_t p0 = t * tile, width = std::min(tile, pixels - p0);
      const float* xg = x + n * l.x_n + g * l.cin_g * l.x_c;
      float* yg = y + n * l.y_n + g * l.cout_g * l.y_c + p0;
      const ConstRows weight(w + g * l.cout_g * l.w_row, l.cout_g, k,
                             Eigen::OuterStride<>(l.w_row));
      Rows out(yg, l.cout_g, width, Eigen::OuterStride<>(l.y_c));
      start_with_bias(l, bias, g * l.cout_g, yg, l.cout_g, width);
      if (one_by_one) {
        out.noalias() += weight * ConstRows(xg + p0, k, width, Eigen::OuterStride<>(l.x_c));
      } else {
        im2col(l, xg, p0, width, col);
        out.noalias() += weight * ConstRows(col, k, width, Eigen::OuterStride<>(width));
      }
    }
  });
  return ok;
}

void convolve(const rt::OpContext& in, const portable::ConvCall& c, const float* x, const float* w,
              const float* bias, float* y) {
  const Layer l = layer_of(c);
  const bool fast =
      !c.transposed && l.k() > 0 && dense_from(c.x, 2) && dense_from(c.y, 2) && dense_from(c.w, 1);
  if (!fast) {
    if (c.transposed) {
      portable::transposed_convolution<float>(c, x, w, bias, y);
    } else {
      portable::convolution<float>(c, x, w, bias, y);
    }
    return;
  }
  if (l.groups > 1 && l.cin_g == 1) {
    if (!depthwise(l, x, w, bias, y)) in.fail("out of memory for the depthwise scratch");
    return;
  }
  const bool one_by_one = l.k_h == 1 && l.k_w == 1 && l.stride_h == 1 && l.stride_w == 1 &&
                          l.pad_h == 0 && l.pad_w == 0;
  if (!gemm_conv(l, one_by_one, x, w, bias, y)) in.fail("out of memory for the im2col scratch");
}

}  // namespace

// convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding,
//                 SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
rt::Tensor& convolution_out(rt::KernelContext& context, const rt::Tensor& input,
                            const rt::Tensor& weight, rt::Optional<rt::Tensor> bias_arg,
                            rt::IntList stride, rt::IntList padding, rt::IntList dilation,
                            bool transposed, rt::IntList output_padding, int64_t groups,
                            rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::Tensor* bias = bias_arg.get();
  if (!Dtypes::check(context, kOp, input.dtype())) return out;
  portable::ConvCall c;
  if (!portable::plan_convolution(in, input, weight, bias, stride, padding, dilation, transposed,
                                  output_padding, groups, out, &c)) {
    return out;
  }
  if (out.numel() == 0) return out;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    static_assert(std::is_same<T, float>::value, "only Float is claimed");
    convolve(in, c, input.data_as<const float>(), weight.data_as<const float>(),
             bias != nullptr ? bias->data_as<const float>() : nullptr, out.data_as<float>());
  });
  return out;
}

}  // namespace optimized
