#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_split.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::split_copy.Tensor_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out) -> ()
void split_copy_Tensor_out(rt::KernelContext& context, const rt::Tensor& self, int64_t split_size,
                           int64_t dim, rt::TensorList out) {
  const rt::OpContext in(context, kOp);
  shape_split(in, Dtypes::kSupported.bits(), Dtypes::kEnabled.bits(), self, dim, out.boxed(),
              nullptr, split_size);
}

}  // namespace portable
