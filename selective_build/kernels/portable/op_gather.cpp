#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/shape_index.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::gather.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& gather_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim_arg,
                       const rt::Tensor& index, bool /*sparse_grad*/, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out) || !shape_check_index_dtype(in, index)) return out;
  const int dim = self.dim();
  const int64_t at = shape_wrap_dim(in, dim_arg, dim);
  if (at < 0) return out;
  // index has self's number of dims (a 0-dim self takes a 0- or 1-dim
  // index) and no larger size outside `dim`.
  const int index_dim = index.dim();
  bool fits = dim == 0 ? index_dim <= 1 && index.numel() <= 1 : index_dim == dim;
  for (int d = 0; fits && dim > 0 && d < dim; ++d) fits = d == at || index.size(d) <= self.size(d);
  if (!fits) {
    in.fail("index must have self's dims and no larger size outside dim");
    return out;
  }
  if (!resize_out(in, out, index.sizes().data(), index_dim)) return out;
  const int64_t extent = dim == 0 ? 1 : self.size(static_cast<int>(at));
  const size_t element = out.element_size();
  uint8_t* to = static_cast<uint8_t*>(out.data());
  const uint8_t* from = static_cast<const uint8_t*>(self.data());
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t k = shape_index_at(in, index, i, extent);
    if (k < 0) return out;
    // self's element at index's coordinates, with `dim` replaced by k.
    int64_t offset = 0;
    int64_t rest = i;
    for (int d = index_dim - 1; d >= 0 && dim > 0; --d) {
      const int64_t c = rest % index.size(d);
      rest /= index.size(d);
      offset += (d == at ? k : c) * self.stride(d);
    }
    memcpy(to + out.offset_of(i) * static_cast<int64_t>(element),
           from + offset * static_cast<int64_t>(element), element);
  }
  return out;
}

}  // namespace portable
