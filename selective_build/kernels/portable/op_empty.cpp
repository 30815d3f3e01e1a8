#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/creation.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::empty.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)
// Only gives out its shape: the values are whatever its memory holds, as in torch.
// memory_format is ignored, as by ExecuTorch's kernel: out's dim order was fixed when
// the program was made.
rt::Tensor& empty_out(rt::KernelContext& context, rt::IntList size,
                      rt::Optional<int64_t> /*memory_format*/, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (Dtypes::check(context, kOp, out.dtype())) resize_to_size_arg(in, size, out);
  return out;
}

}  // namespace portable
