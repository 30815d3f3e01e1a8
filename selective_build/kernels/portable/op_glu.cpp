#include <cmath>
#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_util.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::glu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// self split in halves a, b along a dim: outer x (2 * half) x inner positions.
struct GluCall {
  const rt::Tensor* self;
  rt::Tensor* out;
  int64_t outer, half, inner;
};

// out = a * sigmoid(b), computed at T's precision and stored as U: out may
// have another floating dtype than self, as ExecuTorch's kernel allows.
template <typename T, typename U>
void glu(const GluCall& c) {
  using M = opmath_t<T>;
  const T* x = c.self->data_as<const T>();
  U* y = c.out->data_as<U>();
  const ElementOffsets at_x(c.self), at_y(c.out);
  const int64_t block = c.half * c.inner;
  for (int64_t o = 0; o < c.outer; ++o) {
    for (int64_t i = 0; i < block; ++i) {
      const M a = static_cast<M>(x[at_x(2 * o * block + i)]);
      const M b = static_cast<M>(x[at_x(2 * o * block + block + i)]);
      y[at_y(o * block + i)] = rt::value_cast<U>(rt::value_cast<T>(a / (M(1) + std::exp(-b))));
    }
  }
}

}  // namespace

// glu.out(Tensor self, int dim=-1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& glu_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype()) || !Dtypes::check(context, kOp, out.dtype()))
    return out;
  if (self.dim() == 0) {
    in.fail("glu needs a tensor of at least one dim");
    return out;
  }
  const int64_t d = shape_wrap_dim(in, dim, self.dim(), false);
  if (d < 0) return out;
  if (self.size(static_cast<int>(d)) % 2 != 0) {
    in.fail("the halved dim must have an even size");
    return out;
  }
  GluCall c{&self, &out, 1, self.size(static_cast<int>(d)) / 2, 1};
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int i = 0; i < self.dim(); ++i) {
    sizes[i] = i == d ? static_cast<int32_t>(c.half) : self.size(i);
    if (i < d) c.outer *= self.size(i);
    if (i > d) c.inner *= self.size(i);
  }
  if (!resize_out(in, out, sizes, self.dim()) || out.numel() == 0) return out;
  Dtypes::run(context, kOp, self.dtype(), [&](auto t) {
    Dtypes::run(context, kOp, out.dtype(),
                [&](auto u) { glu<typename decltype(t)::type, typename decltype(u)::type>(c); });
  });
  return out;
}

}  // namespace portable
