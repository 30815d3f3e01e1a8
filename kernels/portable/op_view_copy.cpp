#include <cstdint>

#include "kernels/common/view_sizes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::view_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::DtypeSet::all().bits(), kSelected.bits()>;

}  // namespace

// view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
void view_copy_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::IntListArg size = in.int_list(1, "size");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok() || !shape_same_dtype<Dtypes>(in, *self, *out)) return;
  int32_t sizes[rt::Tensor::kMaxDims];
  if (!kernels::view_sizes(in, size, self->numel(), sizes)) return;
  if (!resize_out(in, *out, sizes, static_cast<int>(size.size()))) return;
  copy_reshape(*out, *self);
}

}  // namespace portable
