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
  if (!Dtypes::check(context, kOp, self.dtype())) return out;
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  const int dim = self.dim();
  if (dims.size() != static_cast<size_t>(dim)) {
    in.fail("dims must name every dim of self once");
    return out;
  }
  // Out's dim d is self's dim dims[d]: its size, read at that stride.
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims] = {};
  uint32_t seen = 0;
  for (int d = 0; d < dim; ++d) {
    int64_t source = dims[d];
    if (source < 0) source += dim;
    if (source < 0 || source >= dim || (seen & (1u << source)) != 0) {
      in.fail("dims must name every dim of self once");
      return out;
    }
    seen |= 1u << source;
    sizes[d] = self.size(static_cast<int>(source));
    strides[d] = self.stride(static_cast<int>(source));
  }
  if (!rt::resize_out(in, out, sizes, dim) || out.numel() == 0) return out;
  if (out.is_contiguous()) {
    permute_blocks(simplify_permute(sizes, strides, dim), self.data_as<const float>(),
                   out.data_as<float>());
    return out;
  }
  int64_t out_strides[rt::Tensor::kMaxDims];
  portable::shape_strides(out, out_strides);
  portable::copy_strided(sizes, dim, sizeof(float), out.data(), out_strides, self.data(), strides);
  return out;
}

}  // namespace optimized
