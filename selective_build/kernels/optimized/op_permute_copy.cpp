#include <cstdint>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/permute.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::permute_copy.out";
using Dtypes = FloatDtypes<&kOp>;

}  // namespace

// permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)
// portable's checks; a contiguous out is written in blocks (Note [Permute as
// blocks]), another goes through portable's strided copy.
rt::Tensor& permute_copy_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList dims,
                             rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const int dim = self.dim();
  portable::PermuteShape shape;
  if (!portable::check_permute_copy_args<Dtypes>(in, self, dims, out, &shape) ||
      !rt::resize_out(in, out, shape.sizes, dim) || out.numel() == 0) {
    return out;
  }
  if (out.is_contiguous()) {
    permute_blocks(simplify_permute(shape.sizes, shape.strides, dim), self.data_as<const float>(),
                   out.data_as<float>());
    return out;
  }
  int64_t out_strides[rt::Tensor::kMaxDims];
  portable::shape_strides(out, out_strides);
  portable::copy_strided(shape.sizes, dim, sizeof(float), out.data(), out_strides, self.data(),
                         shape.strides);
  return out;
}

}  // namespace optimized
