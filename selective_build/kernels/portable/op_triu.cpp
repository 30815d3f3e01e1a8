#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_triangle.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::triu.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& triu_out(rt::KernelContext& context, const rt::Tensor& self, int64_t diagonal,
                     rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  shape_triangle(in, self, out, diagonal, false);
  return out;
}

}  // namespace portable
