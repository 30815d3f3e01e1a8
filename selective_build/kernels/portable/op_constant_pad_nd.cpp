#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/unary_clamp.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::constant_pad_nd.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& constant_pad_nd_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList pad,
                                rt::Scalar value, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int dim = self.dim();
  if (pad.size() % 2 != 0) {
    in.fail("pad must have an even length");
    return out;
  }
  if (pad.size() / 2 > static_cast<size_t>(dim)) {
    in.fail("pad has more pairs than self has dims");
    return out;
  }
  // Pairs (before, after) pad the last dim first; negative ones crop.
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t before[rt::Tensor::kMaxDims];
  for (int d = 0; d < dim; ++d) {
    sizes[d] = self.size(d);
    before[d] = 0;
  }
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int d = dim - 1 - static_cast<int>(i);
    before[d] = pad[2 * i];
    const int64_t size = sizes[d] + pad[2 * i] + pad[2 * i + 1];
    if (size < 0) {
      in.fail("padding makes a size negative");
      return out;
    }
    if (size > INT32_MAX) {
      in.fail("padding makes a size too large");
      return out;
    }
    sizes[d] = static_cast<int32_t>(size);
  }
  // torch refuses a value its dtype cannot hold (a fractional one truncates).
  if (rt::is_integral_type(out.dtype(), false) && !value.is_floating() &&
      !unary_integer_fits(out.dtype(), value.to<int64_t>())) {
    in.fail("value does not fit in self's dtype");
    return out;
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  alignas(8) uint8_t fill[8];
  copy_store_scalar(converter, value, fill);
  copy_fill(out, fill);
  // The part of self that lands inside out.
  int32_t block[rt::Tensor::kMaxDims];
  int64_t self_base = 0, out_base = 0;
  int64_t self_strides[rt::Tensor::kMaxDims], out_strides[rt::Tensor::kMaxDims];
  shape_strides(self, self_strides);
  shape_strides(out, out_strides);
  for (int d = 0; d < dim; ++d) {
    const int64_t from = before[d] < 0 ? -before[d] : 0;
    const int64_t to = before[d] > 0 ? before[d] : 0;
    const int64_t a = self.size(d) - from, b = sizes[d] - to;
    const int64_t length = a < b ? a : b;
    if (length <= 0) return out;
    block[d] = static_cast<int32_t>(length);
    self_base += from * self_strides[d];
    out_base += to * out_strides[d];
  }
  const int64_t element = static_cast<int64_t>(out.element_size());
  copy_strided(block, dim, out.element_size(),
               static_cast<uint8_t*>(out.data()) + out_base * element, out_strides,
               static_cast<const uint8_t*>(self.data()) + self_base * element, self_strides);
  return out;
}

}  // namespace portable
