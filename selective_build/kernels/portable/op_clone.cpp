#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::clone.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// torch.memory_format values a program may pass (c10::MemoryFormat).
constexpr int64_t kContiguous = 0;
constexpr int64_t kPreserve = 1;

}  // namespace

// clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)
// out = self. out's layout is the program's and elements are copied by index, so
// memory_format may only ask for what any layout gives (none, contiguous, preserve).
rt::Tensor& clone_out(rt::KernelContext& context, const rt::Tensor& self,
                      rt::Optional<int64_t> memory_format, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (memory_format.has_value() && memory_format.value() != kContiguous &&
      memory_format.value() != kPreserve) {
    in.fail("memory_format must be contiguous_format or preserve_format");
    return out;
  }
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_same_shape(out, self);
  return out;
}

}  // namespace portable
