#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/reduce_accumulate.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kIntOut = "aten::prod.int_out";
constexpr const char* kOut = "aten::prod.out";
constexpr rt::DtypeSet kSelectedIntOut = rt::selected_dtypes(kIntOut);
constexpr rt::DtypeSet kSelectedOut = rt::selected_dtypes(kOut);
using DtypesIntOut =
    rt::DtypeDispatch<kernels::declared_dtypes(kIntOut).bits(), kSelectedIntOut.bits()>;
using DtypesOut = rt::DtypeDispatch<kernels::declared_dtypes(kOut).bits(), kSelectedOut.bits()>;

struct Prod {
  template <typename M>
  static M init() {
    return M(1);
  }
  template <typename M>
  static M apply(M acc, M x) {
    return op_mul(acc, x);
  }
  template <typename M>
  static M finish(M acc, int64_t) {
    return acc;
  }
};

// The product over `mask` (a dim, or every dim) in out's dtype.
template <typename Dtypes>
void prod(const rt::OpContext& in, const rt::Tensor& self, uint32_t mask, bool keepdim,
          int64_t dtype, rt::Tensor& out) {
  if (!Dtypes::check(in.context(), in.op(), self.dtype())) return;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out.dtype()))
    return in.fail("out must have the dtype asked for");
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return;
  Dtypes::run(in.context(), in.op(), out.dtype(), [&](auto tag) {
    accumulate_reduce<Dtypes, Prod, typename decltype(tag)::type>(in.context(), in.op(), self, plan,
                                                                  out);
  });
}

}  // namespace

// prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
rt::Tensor& prod_int_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                         bool keepdim, rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kIntOut);
  const int64_t dtype = optional_dtype_arg(dtype_arg);
  uint32_t mask = 0;
  if (!reduce_dims_arg(in, rt::Optional<int64_t>(dim), self, &mask)) return out;
  prod<DtypesIntOut>(in, self, mask, keepdim, dtype, out);
  return out;
}

// prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& prod_out(rt::KernelContext& context, const rt::Tensor& self,
                     rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kOut);
  const int64_t dtype = optional_dtype_arg(dtype_arg);
  prod<DtypesOut>(in, self, self.dim() > 0 ? (1u << self.dim()) - 1 : 0, false, dtype, out);
  return out;
}

}  // namespace portable
