#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/window.h"
#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/unread_outs.h"

// Max pooling a plane at a time and an output row at a time: Float planes with dense rows in
// registers (Note [Max pool in registers]), channels-last Float tensors a vector of channels
// at a time (Note [Max pool over channels]); others per window tap, one pass along the output
// row over the columns that tap sees (bounds computed once per tap). Each output
// visits its window in portable's order (rows, then columns; the first maximum and the last
// NaN win), so values and indices are the same as portable's.
//
// Every real dtype, as portable's kernel, not Float alone: a call's indices are Long, and a
// library serves a call only when its declared dtypes hold every tensor argument's (Note
// [Dtype fallback chain], codegen/resolution.py), so an entry declaring [Float] was never
// chosen for a real max pool. A dtype-selective build compiles the dtypes its models use.
namespace optimized {
namespace {

constexpr const char* kOp = "aten::max_pool2d_with_indices.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Element strides of one plane's rows and columns for input, out and indices.
struct PlaneStrides {
  int64_t x_row, x_col, y_row, y_col, i_row, i_col;
};

// A block of L outputs: their values, their indices as 32-bit lanes, widened when stored.
template <int L>
struct PoolLanes {
  typedef float Values __attribute__((vector_size(4 * L)));
  typedef int32_t Indices __attribute__((vector_size(4 * L)));
  typedef int64_t Wide __attribute__((vector_size(8 * L)));
};

// Note [Max pool in registers]
// A Float plane with dense rows at column stride 1 or 2 (SqueezeNet's and ResNet's 3x3/2
// pools) is pooled a block of outputs at a time (16 with AVX-512, else 8; a row narrower
// than 16 takes blocks of 8): for outputs whose every window column lies in the input, the
// window's taps are visited in portable's order (rows, then columns) with the running
// maximum and its index in registers, and each is stored once. The first tap is taken
// whatever it is; a later one when it is greater or NaN: portable's decisions, so values
// and indices are the same. Indices are kept as 32-bit lanes (the plane has fewer than
// 2^31 elements) and widened when stored. A row's last block ends at its last inside
// output, overlapping the block before (its outputs are computed again, to the same
// values). Outputs whose window crosses an edge (padding, a ceil_mode tail) take the scalar
// loop, one window at a time, with the same decisions. The pool is bound by these compares
// and blends, not by memory (pooling SqueezeNet's planes twice per call took twice the
// time), so the wider blocks pay.
#if defined(__AVX512F__)
constexpr int kPoolLanes = 16;
#else
constexpr int kPoolLanes = 8;
#endif

template <int L, int64_t kStride>
typename PoolLanes<L>::Values load_taps(const float* src) {
  using V = typename PoolLanes<L>::Values;
  V v;
  std::memcpy(&v, src, sizeof v);
  if constexpr (kStride == 1) {
    return v;
  } else {
    // src[0, 2 L - 1): the even ones from src[0, L) and src[L - 1, 2 L - 1), never a float
    // past the tap.
    V u;
    std::memcpy(&u, src + L - 1, sizeof u);
    if constexpr (L == 8) {
      return __builtin_shufflevector(v, u, 0, 2, 4, 6, 9, 11, 13, 15);
    } else {
      return __builtin_shufflevector(v, u, 0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29,
                                     31);
    }
  }
}

// One output of a Float plane, its window clipped to the input.
inline void pool_one(const portable::PoolWindow& win, int64_t height, int64_t width, int64_t oy,
                     int64_t ox, const float* plane, float* y, int64_t* index) {
  float best = 0.0f;
  int64_t at = -1;
  for (int64_t ky = 0; ky < win.kernel[0]; ++ky) {
    const int64_t h = oy * win.stride[0] - win.padding[0] + ky * win.dilation[0];
    if (h < 0 || h >= height) continue;
    for (int64_t kx = 0; kx < win.kernel[1]; ++kx) {
      const int64_t w = ox * win.stride[1] - win.padding[1] + kx * win.dilation[1];
      if (w < 0 || w >= width) continue;
      const float v = plane[h * width + w];
      if (at < 0 || v > best || v != v) {
        best = v;
        at = h * width + w;
      }
    }
  }
  *y = best;
  *index = at;
}

// Outputs [at, at + L) of the output row whose windows start at input row `top` (window rows
// ky in [rows[0], rows[1]) inside the input, every window column inside): Note [Max pool in
// registers].
template <int L, int64_t kStride, bool kIndices>
inline void pool_block(const portable::PoolWindow& win, int64_t width, int64_t top,
                       const int64_t (&rows)[2], int64_t at, const float* plane, float* y_row,
                       int64_t* i_row) {
  using P = PoolLanes<L>;
  typename P::Indices lanes;
  for (int j = 0; j < L; ++j) lanes[j] = j * static_cast<int32_t>(kStride);
  typename P::Values best{};
  typename P::Indices index{};
  bool first = true;
  for (int64_t ky = rows[0]; ky < rows[1]; ++ky) {
    const int64_t h = top + ky * win.dilation[0];
    for (int64_t kx = 0; kx < win.kernel[1]; ++kx) {
      const int64_t w = at * kStride - win.padding[1] + kx * win.dilation[1];
      const typename P::Values v = load_taps<L, kStride>(plane + h * width + w);
      const typename P::Indices where = static_cast<int32_t>(h * width + w) + lanes;
      if (first) {
        best = v;
        if (kIndices) index = where;
        first = false;
        continue;
      }
      const typename P::Indices take = (v > best) | (v != v);
      best = take ? v : best;
      if (kIndices) index = take ? where : index;
    }
  }
  std::memcpy(y_row + at, &best, sizeof best);
  if (kIndices) {
    const typename P::Wide wide = __builtin_convertvector(index, typename P::Wide);
    std::memcpy(i_row + at, &wide, sizeof wide);
  }
}

// Output row oy of a Float plane with dense rows (Note [Max pool in registers]).
template <int64_t kStride, bool kIndices>
void pool_row_in_registers(const portable::PoolWindow& win, int64_t height, int64_t width,
                           int64_t out_w, int64_t oy, const float* plane, float* y_row,
                           int64_t* i_row) {
  // Outputs [lo, hi) see every window column inside the row.
  int64_t lo = 0, hi = out_w;
  for (int64_t kx = 0; kx < win.kernel[1]; ++kx) {
    int64_t a, b;
    opt::valid_outputs(kx * win.dilation[1] - win.padding[1], kStride, width, out_w, &a, &b);
    lo = std::max(lo, a);
    hi = std::min(hi, b);
  }
  int64_t rows[2] = {0, 0};  // the window rows inside the input: ky in [rows[0], rows[1])
  const int64_t top = oy * win.stride[0] - win.padding[0];
  opt::valid_outputs(top, win.dilation[0], height, win.kernel[0], &rows[0], &rows[1]);
  int64_t ox = 0;
  for (; ox < std::min(lo, out_w); ++ox)
    pool_one(win, height, width, oy, ox, plane, y_row + ox, i_row + ox);
  if (rows[0] < rows[1] && hi - ox >= kPoolLanes) {
    for (; ox + kPoolLanes <= hi; ox += kPoolLanes)
      pool_block<kPoolLanes, kStride, kIndices>(win, width, top, rows, ox, plane, y_row, i_row);
    if (ox < hi)
      pool_block<kPoolLanes, kStride, kIndices>(win, width, top, rows, hi - kPoolLanes, plane,
                                                y_row, i_row);
    ox = hi;
  }
  if (kPoolLanes > 8 && rows[0] < rows[1] && hi - ox >= 8) {
    for (; ox + 8 <= hi; ox += 8)
      pool_block<8, kStride, kIndices>(win, width, top, rows, ox, plane, y_row, i_row);
    if (ox < hi)
      pool_block<8, kStride, kIndices>(win, width, top, rows, hi - 8, plane, y_row, i_row);
    ox = hi;
  }
  for (; ox < out_w; ++ox) pool_one(win, height, width, oy, ox, plane, y_row + ox, i_row + ox);
}

// One output row: taps along the row, where the dense case (every column stride 1) lets the
// compiler keep the row in registers and drop the multiplications.
template <typename T, bool kDense>
void pool_row(const portable::PoolWindow& win, const PlaneStrides& s, int64_t width, int64_t out_w,
              int64_t h, const T* x_row, T* y_row, int64_t* i_row) {
  using M = portable::opmath_t<T>;  // compared as portable compares
  const int64_t xc = kDense ? 1 : s.x_col, yc = kDense ? 1 : s.y_col, ic = kDense ? 1 : s.i_col;
  for (int64_t kx = 0; kx < win.kernel[1]; ++kx) {
    const int64_t offset = kx * win.dilation[1] - win.padding[1];
    int64_t lo, hi;
    opt::valid_outputs(offset, win.stride[1], width, out_w, &lo, &hi);
    for (int64_t ox = lo; ox < hi; ++ox) {
      const int64_t w = ox * win.stride[1] + offset;
      const M v = static_cast<M>(x_row[w * xc]);
      T& best = y_row[ox * yc];
      int64_t& index = i_row[ox * ic];
      // index < 0: the window's first element in the input, which is taken whatever it is.
      if (v > static_cast<M>(best) || v != v || index < 0) {
        best = rt::value_cast<T>(v);  // exact: v is one of the inputs
        index = h * width + w;
      }
    }
  }
}

// Note [Max pool over channels]
// A Float call whose input and out (and indices, when read) have adjacent channels (channels
// last: Note [Channels last], runtime/executor/channels_last.h) is pooled kPoolLanes
// channels at once: per output pixel, its window's taps inside the input in portable's
// order (rows, then columns), each one load of the channels, with the running maximum and
// the tap's index (h * W + w, the same for every channel: PyTorch's meaning whatever the
// layout) in registers; the first tap is taken whatever it is, a later one when it is
// greater or NaN, as portable decides. A last vector of channels overlaps the one before
// (fewer channels than lanes: the plane loops below). The threads' work items are output
// rows; each output is computed the same way whatever the split.
template <bool kIndices>
void max_pool_over_channels(const portable::PoolWindow& win, const portable::Planes4& x,
                            const portable::Planes4& y, const portable::Planes4& ix,
                            const float* px, float* py, int64_t* pi) {
  using P = PoolLanes<kPoolLanes>;
  const int64_t height = x.size[2], width = x.size[3], channels = x.size[1];
  const int64_t out_h = y.size[2], out_w = y.size[3];
  opt::parallel_for(y.size[0] * out_h, 1, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t n = item / out_h, oy = item % out_h;
      const int64_t top = oy * win.stride[0] - win.padding[0];
      int64_t k0, k1;  // window rows inside the input
      opt::valid_outputs(top, win.dilation[0], height, win.kernel[0], &k0, &k1);
      for (int64_t ox = 0; ox < out_w; ++ox) {
        const int64_t left = ox * win.stride[1] - win.padding[1];
        int64_t j0, j1;  // window columns inside the input
        opt::valid_outputs(left, win.dilation[1], width, win.kernel[1], &j0, &j1);
        for (int64_t c = 0; c < channels; c += kPoolLanes) {
          const int64_t c0 = std::min(c, channels - kPoolLanes);
          typename P::Values best{};
          typename P::Indices index{};
          bool first = true;
          for (int64_t ky = k0; ky < k1; ++ky) {
            const int64_t h = top + ky * win.dilation[0];
            for (int64_t kx = j0; kx < j1; ++kx) {
              const int64_t w = left + kx * win.dilation[1];
              typename P::Values v;
              std::memcpy(&v, px + x.at(n, c0, h, w), sizeof v);
              const int32_t where = static_cast<int32_t>(h * width + w);
              if (first) {
                best = v;
                if (kIndices) index = typename P::Indices{} + where;
                first = false;
                continue;
              }
              const typename P::Indices take = (v > best) | (v != v);
              best = take ? v : best;
              if (kIndices) index = take ? typename P::Indices{} + where : index;
            }
          }
          std::memcpy(py + y.at(n, c0, oy, ox), &best, sizeof best);
          if (kIndices) {
            const typename P::Wide wide = __builtin_convertvector(index, typename P::Wide);
            std::memcpy(pi + ix.at(n, c0, oy, ox), &wide, sizeof wide);
          }
        }
      }
    }
  });
}

template <typename T, bool kIndices>
void max_pool(const portable::PoolWindow& win, const portable::Planes4& x,
              const portable::Planes4& y, const portable::Planes4& ix, const T* px, T* py,
              int64_t* pi) {
  const int64_t height = x.size[2], width = x.size[3], channels = y.size[1];
  const PlaneStrides s{x.stride[2], x.stride[3],  y.stride[2],
                       y.stride[3], ix.stride[2], ix.stride[3]};
  const bool dense = s.x_col == 1 && s.y_col == 1 && s.i_col == 1;
  const bool in_registers = std::is_same<T, float>::value && dense && s.x_row == width &&
                            win.stride[1] <= 2 && height * width < (int64_t{1} << 31);
  if constexpr (std::is_same<T, float>::value) {
    // Note [Max pool over channels].
    if (x.stride[1] == 1 && y.stride[1] == 1 && (!kIndices || ix.stride[1] == 1) &&
        channels >= kPoolLanes && height * width < (int64_t{1} << 31)) {
      max_pool_over_channels<kIndices>(win, x, y, ix, px, py, pi);
      return;
    }
  }
  opt::parallel_for(y.size[0] * channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t n = plane / channels, c = plane % channels;
      const T* xp = px + x.at(n, c, 0, 0);
      for (int64_t oy = 0; oy < y.size[2]; ++oy) {
        T* y_row = py + y.at(n, c, oy, 0);
        int64_t* i_row = pi + ix.at(n, c, oy, 0);
        if constexpr (std::is_same<T, float>::value) {
          if (in_registers && win.stride[1] == 1) {
            pool_row_in_registers<1, kIndices>(win, height, width, y.size[3], oy, xp, y_row, i_row);
            continue;
          }
          if (in_registers) {
            pool_row_in_registers<2, kIndices>(win, height, width, y.size[3], oy, xp, y_row, i_row);
            continue;
          }
        }
        for (int64_t ox = 0; ox < y.size[3]; ++ox) {
          // Overwritten by each window's first element (index < 0 takes it).
          y_row[ox * s.y_col] = T(0);
          i_row[ox * s.i_col] = -1;
        }
        for (int64_t ky = 0; ky < win.kernel[0]; ++ky) {
          const int64_t h = oy * win.stride[0] - win.padding[0] + ky * win.dilation[0];
          if (h < 0 || h >= height) continue;
          if (dense) {
            pool_row<T, true>(win, s, width, y.size[3], h, xp + h * s.x_row, y_row, i_row);
          } else {
            pool_row<T, false>(win, s, width, y.size[3], h, xp + h * s.x_row, y_row, i_row);
          }
        }
      }
    }
  });
}

// The call's values, and its indices too when `with_indices` (else only where a window
// takes the scalar loop: Note [Unread outs], runtime/kernel/unread_outs.h).
void max_pool2d(rt::KernelContext& context, const rt::Tensor& self, rt::IntList kernel_size,
                rt::IntList stride, rt::IntList padding, rt::IntList dilation, bool ceil_mode,
                rt::Tensor& out, rt::Tensor& indices, bool with_indices) {
  const rt::OpContext in(context, kOp);
  portable::PoolWindow win;
  if (!portable::plan_max_pool2d_with_indices<Dtypes>(in, self, kernel_size, stride, padding,
                                                      dilation, ceil_mode, out, indices, &win) ||
      out.numel() == 0) {
    return;
  }
  const portable::Planes4 x(self), y(out), ix(indices);
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (with_indices) {
      max_pool<T, true>(win, x, y, ix, self.data_as<const T>(), out.data_as<T>(),
                        indices.data_as<int64_t>());
    } else {
      max_pool<T, false>(win, x, y, ix, self.data_as<const T>(), out.data_as<T>(),
                         indices.data_as<int64_t>());
    }
  });
}

}  // namespace

// max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//     int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices)
void max_pool2d_with_indices_out(rt::KernelContext& context, const rt::Tensor& self,
                                 rt::IntList kernel_size, rt::IntList stride, rt::IntList padding,
                                 rt::IntList dilation, bool ceil_mode, rt::Tensor& out,
                                 rt::Tensor& indices) {
  max_pool2d(context, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices, true);
}

}  // namespace optimized

// Note [Unread outs]: the values of max_pool2d_with_indices.out, as the exporter lays out its
// call (self, kernel_size, stride, padding, dilation, ceil_mode, out, indices, [out, indices]).
void rt::fused::max_pool2d_values(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  optimized::max_pool2d(context, args[0]->to_tensor(), rt::IntList(args[1]->to_list()),
                        rt::IntList(args[2]->to_list()), rt::IntList(args[3]->to_list()),
                        rt::IntList(args[4]->to_list()), args[5]->to_bool(), args[6]->to_tensor(),
                        args[7]->to_tensor(), false);
}

bool rt::fused::max_pool2d_values_accepts(rt::Span<rt::EValue* const> args) {
  return args[0]->is_tensor() && optimized::Dtypes::kEnabled.contains(args[0]->to_tensor().dtype());
}
