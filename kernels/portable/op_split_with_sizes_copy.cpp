#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_split.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::split_with_sizes_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// split_with_sizes_copy.out(Tensor self, SymInt[] split_sizes, int dim=0, *, Tensor(a!)[] out) -> ()
void split_with_sizes_copy_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::IntListArg split_sizes = in.int_list(1, "split_sizes");
  const int64_t dim = in.int_value(2, "dim");
  rt::BoxedList outs{};
  if (!shape_tensor_list(in, args, 3, "out", &outs)) return;
  shape_split(in, Dtypes::kSupported.bits(), Dtypes::kEnabled.bits(), *self, dim, outs, &split_sizes, 0);
}

}  // namespace portable
