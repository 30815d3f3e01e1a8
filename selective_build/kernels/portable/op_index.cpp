#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_advanced_index.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::index.Tensor_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Dtypes of self and out; indices are read as they are (int64, int32, or
// bool and uint8 masks).
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& index_Tensor_out(rt::KernelContext& context, const rt::Tensor& self,
                             rt::OptionalTensorList index_list, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  AdvancedIndex plan;
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!shape_same_dtype<Dtypes>(in, self, out) ||
      !advanced_index_plan(in, self, index_list, plan, sizes, &dim)) {
    return out;
  }
  if (!resize_out(in, out, sizes, dim) || out.numel() == 0) return out;
  int64_t slab_strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < plan.slab_dim; ++d) slab_strides[d] = out.stride(plan.slab_at[d]);
  const int64_t element = static_cast<int64_t>(out.element_size());
  advanced_index_walk(in, self, plan, [&](const int64_t* coords, int64_t from) {
    int64_t to = 0;
    for (int d = 0; d < plan.dim; ++d) to += coords[d] * out.stride(plan.insert + d);
    copy_strided(plan.slab, plan.slab_dim, out.element_size(),
                 static_cast<uint8_t*>(out.data()) + to * element, slab_strides,
                 static_cast<const uint8_t*>(self.data()) + from * element, plan.slab_strides);
  });
  return out;
}

}  // namespace portable
