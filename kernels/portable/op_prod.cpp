#include <cstdint>

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
using DtypesIntOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedIntOut.bits()>;
using DtypesOut = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelectedOut.bits()>;

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
void prod(const rt::ArgReader& in, const rt::Tensor& self, uint32_t mask, bool keepdim, int64_t dtype,
          rt::Tensor& out) {
  if (!Dtypes::check(in.context(), in.op(), self.dtype())) return;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out.dtype())) return in.fail("out must have the dtype asked for");
  ReducePlan plan;
  if (!plan_reduce(in, self, mask, keepdim, out, &plan)) return;
  Dtypes::run(in.context(), in.op(), out.dtype(), [&](auto tag) {
    accumulate_reduce<Dtypes, Prod, typename decltype(tag)::type>(in.context(), in.op(), self, plan, out);
  });
}

}  // namespace

// prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out)
void prod_int_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kIntOut, args, 6);
  const rt::Tensor* self = in.tensor(0, "self");
  in.int_value(1, "dim");
  const bool keepdim = in.bool_value(2, "keepdim");
  const int64_t dtype = optional_dtype_arg(in, args, 3);
  rt::Tensor* out = in.tensor(4, "out");
  uint32_t mask = 0;
  if (!in.ok() || !reduce_dims_arg(in, args, 1, *self, false, &mask)) return;
  prod<DtypesIntOut>(in, *self, mask, keepdim, dtype, *out);
}

// prod.out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
void prod_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOut, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const int64_t dtype = optional_dtype_arg(in, args, 1);
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok()) return;
  prod<DtypesOut>(in, *self, self->dim() > 0 ? (1u << self->dim()) - 1 : 0, false, dtype, *out);
}

}  // namespace portable
