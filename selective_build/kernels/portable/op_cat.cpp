#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_concat.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::cat.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& cat_out(rt::KernelContext& context, rt::TensorList tensor_list, int64_t dim_arg,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::BoxedList tensors = tensor_list.boxed();
  CatShape shape;
  if (!check_cat_args<Dtypes>(in, tensors, dim_arg, out, &shape) ||
      !resize_out(in, out, shape.sizes, shape.dim)) {
    return out;
  }
  int64_t offset = 0;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (cat_skips(t)) continue;
    int64_t strides[rt::Tensor::kMaxDims];
    shape_strides(t, strides);
    if (!shape_place_part<Dtypes>(in, out, offset * out.stride(shape.at), t, t.sizes().data(),
                                  strides, shape.dim)) {
      return out;
    }
    offset += t.size(shape.at);
  }
  return out;
}

}  // namespace portable
