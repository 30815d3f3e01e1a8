#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::nonzero.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

template <typename T>
bool is_nonzero(const rt::Tensor& self, int64_t i) {
  return rt::value_cast<double>(self.data_as<const T>()[self.offset_of(i)]) != 0;
}

}  // namespace

// nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// out (int64) gets one row per nonzero element of self, in row-major order: its
// coordinates. How many rows depends on the values, so the program plans out with an
// upper bound (a dynamic shape) and the kernel resizes it, as ExecuTorch's does.
rt::Tensor& nonzero_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (out.dtype() != rt::ScalarType::Long) {
    in.fail("out must be int64");
    return out;
  }
  bool (*nonzero)(const rt::Tensor&, int64_t) = nullptr;
  if (!Dtypes::run(context, kOp, self.dtype(),
                   [&](auto t) { nonzero = &is_nonzero<typename decltype(t)::type>; })) {
    return out;
  }
  int64_t count = 0;
  for (int64_t i = 0; i < self.numel(); ++i) count += nonzero(self, i) ? 1 : 0;
  if (count > INT32_MAX) {
    in.fail("self has too many nonzero elements");
    return out;
  }
  const int32_t sizes[2] = {static_cast<int32_t>(count), static_cast<int32_t>(self.dim())};
  if (!resize_out(in, out, sizes, 2)) return out;
  int64_t* rows = out.data_as<int64_t>();
  int64_t row = 0;
  for (int64_t i = 0; i < self.numel(); ++i) {
    if (!nonzero(self, i)) continue;
    int64_t rest = i;
    for (int d = self.dim() - 1; d >= 0; --d) {
      rows[out.offset_of(row * self.dim() + d)] = rest % self.size(d);
      rest /= self.size(d);
    }
    ++row;
  }
  return out;
}

}  // namespace portable
