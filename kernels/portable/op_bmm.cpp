#include "kernels/portable/util/nn_matmul.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::bmm.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealDtypes.bits(), kSelected.bits()>;

}  // namespace

// bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
void bmm_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::Tensor* mat2 = in.tensor(1, "mat2");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok() || !Dtypes::check(context, kOp, out->dtype())) return;
  MatmulShape shape;
  if (!plan_matmul(in, *self, *mat2, *out, 3, &shape)) return;
  Dtypes::run(context, kOp, out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    matmul<T>(shape, self->data_as<const T>(), mat2->data_as<const T>(), out->data_as<T>());
  });
}

}  // namespace portable
