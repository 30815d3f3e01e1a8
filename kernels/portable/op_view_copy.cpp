#include <cstdint>

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
  if (size.size() > static_cast<size_t>(rt::Tensor::kMaxDims)) return in.fail("size has too many dims");
  const int dim = static_cast<int>(size.size());
  int32_t sizes[rt::Tensor::kMaxDims];
  int inferred = -1;
  int64_t known = 1;
  for (int d = 0; d < dim; ++d) {
    const int64_t extent = size[d];
    if (extent == -1 && inferred < 0) {
      inferred = d;
      sizes[d] = 1;
      continue;
    }
    if (extent < 0 || extent > INT32_MAX) return in.fail("size has a negative or second -1 entry");
    sizes[d] = static_cast<int32_t>(extent);
    known *= extent;
  }
  if (inferred >= 0) {
    if (known == 0 || self->numel() % known != 0) return in.fail("size is invalid for self's number of elements");
    sizes[inferred] = static_cast<int32_t>(self->numel() / known);
    known = self->numel();
  }
  if (known != self->numel()) return in.fail("size is invalid for self's number of elements");
  if (!resize_out(in, *out, sizes, dim)) return;
  copy_reshape(*out, *self);
}

}  // namespace portable
