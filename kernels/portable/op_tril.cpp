#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_triangle.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::tril.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
void tril_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const int64_t diagonal = in.int_value(1, "diagonal");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok() || !shape_same_dtype<Dtypes>(in, *self, *out)) return;
  shape_triangle(in, *self, *out, diagonal, true);
}

}  // namespace portable
