#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/reduce_logical.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::any.out";
// A Bool self (a mask): a safe softmax asks whether any score of a row is kept.
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// Whether any of the n bytes at x is not 0, eight at a time.
bool any_byte(const uint8_t* x, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    memcpy(&word, x + i, sizeof word);
    if (word != 0) return true;
  }
  for (; i < n; ++i) {
    if (x[i] != 0) return true;
  }
  return false;
}

}  // namespace

// any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)
// portable's checks and plan (reduce_logical.h); a contiguous self reduced over its
// trailing dims (the last one, as masks are) is one scan per output, portable's walk
// otherwise.
rt::Tensor& any_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim, bool keepdim,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  uint32_t mask = 0;
  if (!portable::reduce_dims_arg(in, rt::Optional<int64_t>(dim), self, &mask)) return out;
  const uint32_t all = portable::all_dims_mask(self);
  const uint32_t lowest = mask & (~mask + 1u);
  const bool trailing = (mask & ~all) == 0 && ((mask + lowest) & all) == 0;
  if (!trailing || !self.is_contiguous() || !out.is_contiguous() ||
      self.dtype() != rt::ScalarType::Bool || out.dtype() != rt::ScalarType::Bool ||
      !Dtypes::kEnabled.contains(rt::ScalarType::Bool)) {
    portable::any_all<Dtypes>(in, self, mask, keepdim, out, false);
    return out;
  }
  portable::ReducePlan plan;
  if (!portable::plan_reduce(in, self, mask, keepdim, out, &plan)) return out;
  const uint8_t* x = self.data_as<const uint8_t>();
  uint8_t* y = out.data_as<uint8_t>();
  const int64_t inner = plan.inner_numel;
  for (int64_t r = 0; r < plan.outer_numel; ++r) y[r] = any_byte(x + r * inner, inner) ? 1 : 0;
  return out;
}

}  // namespace optimized
