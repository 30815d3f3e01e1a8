#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::relu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealDtypes.bits(), kSelected.bits()>;

struct Relu {
  static constexpr bool kHasScalar = false;
  // max(x, 0), letting NaN through as torch does.
  template <typename M>
  static M apply(M x, M, M) {
    return x > M(0) || x != x ? x : M(0);
  }
  static const char* check(ScalarType, const rt::Scalar&) { return nullptr; }
};

}  // namespace

// relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
void relu_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 3);
  const rt::Tensor* self = in.tensor(0, "self");
  rt::Tensor* out = in.tensor(1, "out");
  if (in.ok()) unary_op<Dtypes, Relu>(in, self, out);
}

}  // namespace portable
