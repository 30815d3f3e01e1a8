#include <cstdint>
#include <cstring>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/portable/util/shape_concat.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::cat.out";
using Dtypes = FloatDtypes<&kOp>;

// torch skips 1-dim empty tensors whatever the other tensors' shapes.
bool skipped(const rt::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

// Places contiguous `part` into contiguous out at `offset` along dim `at`:
// each of its outer rows is one block of part.size(at) * inner elements.
void place_blocks(rt::Tensor& out, const rt::Tensor& part, int at, int64_t offset) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < at; ++d) outer *= out.size(d);
  for (int d = at + 1; d < out.dim(); ++d) inner *= out.size(d);
  const int64_t block = part.size(at) * inner, out_row = out.size(at) * inner;
  const float* from = part.data_as<const float>();
  float* to = out.data_as<float>() + offset * inner;
  for (int64_t r = 0; r < outer; ++r)
    memcpy(to + r * out_row, from + r * block, static_cast<size_t>(block) * 4);
}

}  // namespace

// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
// portable's checks; blocks copied with memcpy when out and the parts are
// contiguous (RoPE's halves, a KV cache step), portable's strided placing otherwise.
rt::Tensor& cat_out(rt::KernelContext& context, rt::TensorList tensor_list, int64_t dim_arg,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::BoxedList tensors = tensor_list.boxed();
  if (tensors.size == 0) {
    in.fail("tensors must not be empty");
    return out;
  }
  if (!portable::shape_check_list_dtypes<Dtypes>(in, tensors, out)) return out;
  // The shape comes from the first tensor that is not skipped.
  const rt::Tensor* first = nullptr;
  for (uint32_t i = 0; i < tensors.size && first == nullptr; ++i) {
    if (!skipped(tensors.items[i]->to_tensor())) first = &tensors.items[i]->to_tensor();
  }
  if (first == nullptr) first = &tensors.items[0]->to_tensor();
  const int dim = first->dim();
  if (dim == 0) {
    in.fail("zero-dimensional tensors cannot be concatenated");
    return out;
  }
  const int64_t at = portable::shape_wrap_dim(in, dim_arg, dim, false);
  if (at < 0) return out;
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < dim; ++d) sizes[d] = d == at ? 0 : first->size(d);
  bool contiguous = out.is_contiguous();
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (skipped(t)) continue;
    bool same = t.dim() == dim;
    for (int d = 0; same && d < dim; ++d) same = d == at || t.size(d) == first->size(d);
    if (!same) {
      in.fail("tensors must have the same shape except in dim");
      return out;
    }
    sizes[at] += t.size(static_cast<int>(at));
    contiguous = contiguous && t.is_contiguous();
  }
  if (!rt::resize_out(in, out, sizes, dim)) return out;
  int64_t offset = 0;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (skipped(t)) continue;
    if (contiguous) {
      if (t.numel() > 0) place_blocks(out, t, static_cast<int>(at), offset);
    } else {
      int64_t strides[rt::Tensor::kMaxDims];
      portable::shape_strides(t, strides);
      if (!portable::shape_place_part<Dtypes>(in, out, offset * out.stride(static_cast<int>(at)), t,
                                              t.sizes().data(), strides, dim)) {
        return out;
      }
    }
    offset += t.size(static_cast<int>(at));
  }
  return out;
}

}  // namespace optimized
