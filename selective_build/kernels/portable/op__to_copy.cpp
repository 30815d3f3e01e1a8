#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/dim_order_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_to_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// torch.memory_format values a program may pass (c10::MemoryFormat).
constexpr int64_t kContiguous = 0;
constexpr int64_t kPreserve = 1;

}  // namespace

// _to_copy.out(Tensor self, *, bool non_blocking=False, MemoryFormat? memory_format=None, Tensor(a!) out)
//     -> Tensor(a!)
// out = self converted to out's dtype (the program gives out the dtype `to` asked for).
// out's layout is the program's: elements are copied by index, so memory_format may only
// ask for what any layout gives (none, contiguous, preserve); ExecuTorch's kernel also
// refuses non_blocking.
rt::Tensor& _to_copy_out(rt::KernelContext& context, const rt::Tensor& self, bool non_blocking,
                         rt::Optional<int64_t> memory_format, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (non_blocking) {
    in.fail("non_blocking copies are not supported");
    return out;
  }
  if (memory_format.has_value() && memory_format.value() != kContiguous &&
      memory_format.value() != kPreserve) {
    in.fail("memory_format must be contiguous_format or preserve_format");
    return out;
  }
  return copy_into<Dtypes>(in, self, out);
}

}  // namespace portable
