#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_index.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::embedding.out";
// Rows move as bytes, so every dtype the entry declares for weight and out
// (Float, and the index dtypes Int and Long that a key always carries) works.
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False,
//               bool sparse=False, *, Tensor(a!) out) -> Tensor(a!)
// portable's checks; one memcpy per looked-up row when weight and out are
// contiguous (portable's strided row copy otherwise).
rt::Tensor& embedding_out(rt::KernelContext& context, const rt::Tensor& weight,
                          const rt::Tensor& indices, int64_t /*padding_idx*/,
                          bool /*scale_grad_by_freq*/, bool /*sparse*/, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!portable::check_embedding_args<Dtypes>(in, weight, indices, out)) return out;
  int32_t sizes[rt::Tensor::kMaxDims];
  const int dim = portable::embedding_out_sizes(weight, indices, sizes);
  if (!rt::resize_out(in, out, sizes, dim)) return out;
  const int32_t width = sizes[dim - 1];
  const int64_t element = static_cast<int64_t>(out.element_size());
  const bool rows = weight.is_contiguous() && out.is_contiguous();
  const int64_t out_stride = out.stride(dim - 1), weight_stride = weight.stride(1);
  for (int64_t i = 0; i < indices.numel(); ++i) {
    const int64_t row = portable::shape_index_at(in, indices, i, weight.size(0));
    if (row < 0) return out;
    const uint8_t* from =
        static_cast<const uint8_t*>(weight.data()) + row * weight.stride(0) * element;
    if (rows) {
      memcpy(static_cast<uint8_t*>(out.data()) + i * width * element, from,
             static_cast<size_t>(width * element));
    } else {
      uint8_t* to = static_cast<uint8_t*>(out.data()) + out.offset_of(i * width) * element;
      portable::copy_strided(&width, 1, static_cast<size_t>(element), to, &out_stride, from,
                             &weight_stride);
    }
  }
  return out;
}

}  // namespace optimized
