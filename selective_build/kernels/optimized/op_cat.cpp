#include <cstdint>
#include <cstring>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/loops.h"
#include "kernels/portable/util/shape_concat.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::cat.out";
using Dtypes = FloatDtypes<&kOp>;

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

// Channels-last parts and out (Note [Channels last], runtime/executor/channels_last.h), cat
// along the channels: each pixel of out is the parts' runs of channels one after another,
// each part's run copied pixel after pixel (pixels split over the threads).
bool place_channels_last(rt::Tensor& out, const rt::BoxedList& tensors, int at) {
  if (at != 1 || !out.is_channels_last()) return false;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (!portable::cat_skips(t) && !t.is_channels_last()) return false;
  }
  const int64_t pixels = out.numel() / (out.size(1) > 0 ? out.size(1) : 1);
  const int64_t width = out.size(1);
  float* to = out.data_as<float>();
  split_rows(pixels, width, [&](int64_t first, int64_t last) {
    int64_t offset = 0;
    for (uint32_t i = 0; i < tensors.size; ++i) {
      const rt::Tensor& t = tensors.items[i]->to_tensor();
      if (portable::cat_skips(t) || t.size(1) == 0) continue;  // no data to copy from
      const int64_t run = t.size(1);
      const float* from = t.data_as<const float>();
      for (int64_t p = first; p < last; ++p)
        memcpy(to + p * width + offset, from + p * run, static_cast<size_t>(run) * 4);
      offset += run;
    }
  });
  return true;
}

}  // namespace

// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
// portable's checks; blocks copied with memcpy when out and the parts are
// contiguous (RoPE's halves, a KV cache step), runs of channels per pixel when they are
// channels last and the cat is along the channels, portable's strided placing otherwise.
rt::Tensor& cat_out(rt::KernelContext& context, rt::TensorList tensor_list, int64_t dim_arg,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::BoxedList tensors = tensor_list.boxed();
  portable::CatShape shape;
  if (!portable::check_cat_args<Dtypes>(in, tensors, dim_arg, out, &shape) ||
      !rt::resize_out(in, out, shape.sizes, shape.dim)) {
    return out;
  }
  if (out.numel() > 0 && place_channels_last(out, tensors, shape.at)) return out;
  bool contiguous = out.is_contiguous();
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    contiguous = contiguous && (portable::cat_skips(t) || t.is_contiguous());
  }
  int64_t offset = 0;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (portable::cat_skips(t)) continue;
    if (contiguous) {
      if (t.numel() > 0) place_blocks(out, t, shape.at, offset);
    } else {
      int64_t strides[rt::Tensor::kMaxDims];
      portable::shape_strides(t, strides);
      if (!portable::shape_place_part<Dtypes>(in, out, offset * out.stride(shape.at), t,
                                              t.sizes().data(), strides, shape.dim)) {
        return out;
      }
    }
    offset += t.size(shape.at);
  }
  return out;
}

}  // namespace optimized
