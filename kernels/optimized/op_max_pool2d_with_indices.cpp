#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/vec8.h"
#include "kernels/optimized/window.h"
#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

// Max pooling a plane at a time and an output row at a time: per window tap, one pass along
// the output row over the columns that tap sees (bounds computed once per tap). Each output
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

// Outputs [lo, hi) of one tap of a dense Float row at column stride 1 or 2, eight at a time:
// the scalar loop's compares and selects (pool_row) as vector masks, each output taking the
// same decisions in the same order. Returns the first output left to the scalar loop.
int64_t pool_tap8(const float* x_row, int64_t stride, int64_t offset, int64_t lo, int64_t hi,
                  int64_t base, float* y_row, int64_t* i_row) {
  typedef int32_t Mask8 __attribute__((vector_size(32)));
  typedef int64_t Index8 __attribute__((vector_size(64)));
  const Index8 lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  int64_t ox = lo;
  // At stride 2 the second load ends one float past the eighth input: one output more must
  // be inside, so the load stays in the row.
  for (; ox + 8 + (stride - 1) <= hi; ox += 8) {
    const int64_t w = ox * stride + offset;
    conv::Vec8 v = conv::load8(x_row + w);
    if (stride == 2) {
      const conv::Vec8 next = conv::load8(x_row + w + 8);
      v = __builtin_shufflevector(v, next, 0, 2, 4, 6, 8, 10, 12, 14);
    }
    const conv::Vec8 best = conv::load8(y_row + ox);
    Index8 index;
    std::memcpy(&index, i_row + ox, sizeof index);
    // index < 0: the window's first element in the input, which is taken whatever it is.
    const Index8 take = __builtin_convertvector((v > best) | (v != v), Index8) | (index < 0);
    index = take ? base + w + lanes * stride : index;
    conv::store8(y_row + ox, __builtin_convertvector(take, Mask8) ? v : best);
    std::memcpy(i_row + ox, &index, sizeof index);
  }
  return ox;
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
    int64_t ox = lo;
    if constexpr (kDense && std::is_same<T, float>::value) {
      if (win.stride[1] <= 2)
        ox = pool_tap8(x_row, win.stride[1], offset, lo, hi, h * width, y_row, i_row);
    }
    for (; ox < hi; ++ox) {
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

template <typename T>
void max_pool(const portable::PoolWindow& win, const portable::Planes4& x,
              const portable::Planes4& y, const portable::Planes4& ix, const T* px, T* py,
              int64_t* pi) {
  const int64_t height = x.size[2], width = x.size[3], channels = y.size[1];
  const PlaneStrides s{x.stride[2], x.stride[3],  y.stride[2],
                       y.stride[3], ix.stride[2], ix.stride[3]};
  const bool dense = s.x_col == 1 && s.y_col == 1 && s.i_col == 1;
  opt::parallel_for(y.size[0] * channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t n = plane / channels, c = plane % channels;
      const T* xp = px + x.at(n, c, 0, 0);
      for (int64_t oy = 0; oy < y.size[2]; ++oy) {
        T* y_row = py + y.at(n, c, oy, 0);
        int64_t* i_row = pi + ix.at(n, c, oy, 0);
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

}  // namespace

// max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//     int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices)
void max_pool2d_with_indices_out(rt::KernelContext& context, const rt::Tensor& self,
                                 rt::IntList kernel_size, rt::IntList stride, rt::IntList padding,
                                 rt::IntList dilation, bool ceil_mode, rt::Tensor& out,
                                 rt::Tensor& indices) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return;
  if (out.dtype() != self.dtype()) return in.fail("out must have self's dtype");
  if (indices.dtype() != rt::ScalarType::Long) return in.fail("indices must be int64");
  portable::PoolWindow win;
  rt::Tensor* const outs[] = {&out, &indices};
  if (!portable::plan_pool2d(in, self, kernel_size, stride, padding, &dilation, ceil_mode, outs, 2,
                             &win))
    return;
  if (out.numel() == 0) return;
  const portable::Planes4 x(self), y(out), ix(indices);
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    max_pool<T>(win, x, y, ix, self.data_as<const T>(), out.data_as<T>(),
                indices.data_as<int64_t>());
  });
}

}  // namespace optimized
