#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_pool.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::max_pool2d_with_indices_backward.grad_input";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// grad_input = 0, then every grad_output element is added at the input
// position its index names (flat within its (n, c) plane), as torch does:
// overlapping windows add up, each addition rounded to T.
template <typename T>
void scatter(const Planes4& gi, const Planes4& go, const Planes4& ix, T* pgi, const T* pgo,
             const int64_t* pix) {
  using M = opmath_t<T>;
  const int64_t width = gi.size[3];
  for (int64_t n = 0; n < gi.size[0]; ++n) {
    for (int64_t c = 0; c < gi.size[1]; ++c) {
      for (int64_t h = 0; h < gi.size[2]; ++h) {
        for (int64_t w = 0; w < width; ++w) pgi[gi.at(n, c, h, w)] = T(0);
      }
      for (int64_t h = 0; h < go.size[2]; ++h) {
        for (int64_t w = 0; w < go.size[3]; ++w) {
          const int64_t index = pix[ix.at(n, c, h, w)];
          T& target = pgi[gi.at(n, c, index / width, index % width)];
          target =
              rt::value_cast<T>(static_cast<M>(target) + static_cast<M>(pgo[go.at(n, c, h, w)]));
        }
      }
    }
  }
}

bool same_sizes(const rt::Tensor& a, const rt::Tensor& b) {
  if (a.dim() != b.dim()) return false;
  for (int d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.size(d)) return false;
  }
  return true;
}

}  // namespace

// max_pool2d_with_indices_backward.grad_input(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride,
//     int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices, *, Tensor(a!) grad_input) -> Tensor(a!)
rt::Tensor& max_pool2d_with_indices_backward_grad_input(
    rt::KernelContext& context, const rt::Tensor& grad_output, const rt::Tensor& self,
    rt::IntList kernel_size, rt::IntList stride, rt::IntList padding, rt::IntList dilation,
    bool ceil_mode, const rt::Tensor& indices, rt::Tensor& grad_input) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return grad_input;
  if (grad_output.dtype() != self.dtype() || grad_input.dtype() != self.dtype()) {
    in.fail("grad_output and grad_input must have self's dtype");
    return grad_input;
  }
  if (indices.dtype() != rt::ScalarType::Long) {
    in.fail("indices must be int64");
    return grad_input;
  }
  // The forward pooling's shape, found by the forward's own checks on a
  // shape-only tensor that any pooled shape fits (it has no data).
  rt::Tensor pooled{};
  int32_t bound[4] = {1, 1, 1, 1};
  uint8_t order[4] = {0, 1, 2, 3};
  for (int d = 0; d < self.dim() && d < 4; ++d) bound[d] = 2 * self.size(d) + 2;
  if (self.dim() > 4 ||
      !pooled.init(rt::ScalarType::Byte, bound, order, self.dim(), rt::ShapeDynamism::DynamicBound)
           .ok()) {
    in.fail("self must be 3-D or 4-D with nonzero height and width");
    return grad_input;
  }
  PoolWindow win;
  rt::Tensor* const outs[] = {&pooled};
  if (!plan_pool2d(in, self, kernel_size, stride, padding, &dilation, ceil_mode, outs, 1, &win))
    return grad_input;
  if (!same_sizes(grad_output, pooled) || !same_sizes(indices, pooled)) {
    in.fail("grad_output and indices must have the pooled shape");
    return grad_input;
  }
  if (!resize_out(in, grad_input, self.sizes().data(), self.dim()) || grad_input.numel() == 0)
    return grad_input;
  // Every index must name a position of its plane: they come from the program.
  const Planes4 gi(grad_input), go(grad_output), ix(indices);
  const int64_t plane = gi.size[2] * gi.size[3];
  const int64_t* pix = indices.data_as<const int64_t>();
  for (int64_t k = 0; k < indices.numel(); ++k) {
    const int64_t index = pix[indices.offset_of(k)];
    if (index < 0 || index >= plane) {
      in.fail("an index is outside its input plane");
      return grad_input;
    }
  }
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    scatter<T>(gi, go, ix, grad_input.data_as<T>(), grad_output.data_as<const T>(), pix);
  });
  return grad_input;
}

}  // namespace portable
