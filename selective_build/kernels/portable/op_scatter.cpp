#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "kernels/portable/util/shape_scatter.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/scalar.h"

namespace portable {
namespace {

constexpr const char* kSrc = "aten::scatter.src_out";
constexpr const char* kValue = "aten::scatter.value_out";
using SrcDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kSrc).bits(), rt::selected_dtypes(kSrc).bits()>;
using ValueDtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kValue).bits(), rt::selected_dtypes(kValue).bits()>;

}  // namespace

// scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)
// out = self, with out[c with dim replaced by index[c]] = src[c] for every coordinate c of
// index (a later write to the same element wins).
rt::Tensor& scatter_src_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                            const rt::Tensor& index, const rt::Tensor& src, rt::Tensor& out) {
  const rt::OpContext in(context, kSrc);
  if (!shape_same_dtype<SrcDtypes>(in, self, out)) return out;
  const int64_t element = static_cast<int64_t>(self.element_size());
  uint8_t* to = static_cast<uint8_t*>(out.data());
  const uint8_t* from = static_cast<const uint8_t*>(src.data());
  scatter_walk(in, self, dim, index, &src, out, [&](int64_t o, int64_t s) {
    memcpy(to + o * element, from + s * element, static_cast<size_t>(element));
  });
  return out;
}

// scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)
// As scatter.src_out with every src element `value` (converted to self's dtype).
rt::Tensor& scatter_value_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                              const rt::Tensor& index, rt::Scalar value, rt::Tensor& out) {
  const rt::OpContext in(context, kValue);
  if (!shape_same_dtype<ValueDtypes>(in, self, out)) return out;
  CopyConverter converter;
  if (!ValueDtypes::run(context, kValue, self.dtype(),
                        [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  uint8_t bytes[8];
  copy_store_scalar(converter, value, bytes);
  const int64_t element = static_cast<int64_t>(self.element_size());
  uint8_t* to = static_cast<uint8_t*>(out.data());
  scatter_walk(in, self, dim, index, nullptr, out, [&](int64_t o, int64_t) {
    memcpy(to + o * element, bytes, static_cast<size_t>(element));
  });
  return out;
}

}  // namespace portable
