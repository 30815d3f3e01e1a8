#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_distance.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_pdist_forward.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// out holds the distance of every row pair i < j of self, row-major
// (Note [p-norm distances]).
template <typename T>
void pdist(const rt::Tensor& self, rt::Tensor& out, double p) {
  const T* x = self.data_as<const T>();
  T* y = out.data_as<T>();
  const int64_t n = self.size(0), m = self.size(1);
  const int64_t rs = self.stride(0), cs = self.stride(1);
  const NormKind kind = norm_kind(p);
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j) {
      y[k++ * out.stride(0)] =
          rt::value_cast<T>(row_distance(x + i * rs, cs, x + j * rs, cs, m, kind, p));
    }
  }
}

}  // namespace

// _pdist_forward.out(Tensor self, float p=2., *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _pdist_forward_out(rt::KernelContext& context, const rt::Tensor& self, double p,
                               rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return out;
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  if (self.dim() != 2) {
    in.fail("self must have 2 dims (rows, features)");
    return out;
  }
  if (!(p >= 0)) {
    in.fail("p must be a non-negative number");
    return out;
  }
  const int64_t n = self.size(0);
  const int64_t pairs = n * (n - 1) / 2;
  if (pairs > INT32_MAX) {
    in.fail("self has too many rows");
    return out;
  }
  const int32_t size[1] = {static_cast<int32_t>(pairs)};
  if (!resize_out(in, out, size, 1) || pairs == 0) return out;
  Dtypes::run(context, kOp, self.dtype(),
              [&](auto tag) { pdist<typename decltype(tag)::type>(self, out, p); });
  return out;
}

}  // namespace portable
