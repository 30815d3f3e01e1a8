#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/broadcast.h"
#include "kernels/portable/util/nn_distance.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_cdist_forward.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Element offset in `t` of the batch position of out's batch index `b`
// (out's batch dims are `batch_dim` leading dims; t's align to the right and
// a size-1 dim broadcasts).
int64_t batch_offset(const rt::Tensor& t, const rt::Tensor& out, int batch_dim, int64_t b) {
  const int t_batch = t.dim() - 2;
  int64_t offset = 0;
  for (int d = batch_dim - 1; d >= 0; --d) {
    const int64_t index = b % out.size(d);
    b /= out.size(d);
    const int td = d - (batch_dim - t_batch);
    if (td >= 0 && t.size(td) != 1) offset += index * t.stride(td);
  }
  return offset;
}

// out[..., i, j] = distance of x1's row i and x2's row j (Note [p-norm distances]).
template <typename T>
void cdist(const rt::Tensor& x1, const rt::Tensor& x2, rt::Tensor& out, double p) {
  const T* a = x1.data_as<const T>();
  const T* b = x2.data_as<const T>();
  T* y = out.data_as<T>();
  const int batch_dim = out.dim() - 2;
  const int64_t rows = out.size(batch_dim), cols = out.size(batch_dim + 1),
                m = x1.size(x1.dim() - 1);
  int64_t batches = 1;
  for (int d = 0; d < batch_dim; ++d) batches *= out.size(d);
  const NormKind kind = norm_kind(p);
  const int64_t a_row = x1.stride(x1.dim() - 2), a_col = x1.stride(x1.dim() - 1);
  const int64_t b_row = x2.stride(x2.dim() - 2), b_col = x2.stride(x2.dim() - 1);
  for (int64_t batch = 0; batch < batches; ++batch) {
    const T* pa = a + batch_offset(x1, out, batch_dim, batch);
    const T* pb = b + batch_offset(x2, out, batch_dim, batch);
    const int64_t po = batch_offset(out, out, batch_dim, batch);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const auto d = row_distance(pa + i * a_row, a_col, pb + j * b_row, b_col, m, kind, p);
        y[po + i * out.stride(batch_dim) + j * out.stride(batch_dim + 1)] = rt::value_cast<T>(d);
      }
    }
  }
}

}  // namespace

// _cdist_forward.out(Tensor x1, Tensor x2, float p, int? compute_mode, *, Tensor(a!) out) -> Tensor(a!)
// compute_mode only chooses torch's algorithm (a matrix product for p = 2 on
// large inputs); every mode gets the direct sum here.
rt::Tensor& _cdist_forward_out(rt::KernelContext& context, const rt::Tensor& x1,
                               const rt::Tensor& x2, double p, rt::Optional<int64_t> compute_mode,
                               rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, x1.dtype())) return out;
  if (x2.dtype() != x1.dtype() || out.dtype() != x1.dtype()) {
    in.fail("x2 and out must have x1's dtype");
    return out;
  }
  if (x1.dim() < 2 || x2.dim() < 2) {
    in.fail("x1 and x2 must have at least 2 dims (rows, features)");
    return out;
  }
  if (x1.size(x1.dim() - 1) != x2.size(x2.dim() - 1)) {
    in.fail("x1 and x2 must have the same number of features (last dim)");
    return out;
  }
  if (!(p >= 0)) {
    in.fail("p must be a non-negative number");
    return out;
  }
  if (compute_mode.has_value() && (compute_mode.value() < 0 || compute_mode.value() > 2)) {
    in.fail("compute_mode must be None, 0, 1 or 2");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int batch_dim = 0;
  if (!broadcast_sizes(x1.sizes().data(), x1.dim() - 2, x2.sizes().data(), x2.dim() - 2, sizes,
                       &batch_dim)) {
    in.fail("the batch dims of x1 and x2 do not broadcast");
    return out;
  }
  sizes[batch_dim] = x1.size(x1.dim() - 2);
  sizes[batch_dim + 1] = x2.size(x2.dim() - 2);
  if (!resize_out(in, out, sizes, batch_dim + 2) || out.numel() == 0) return out;
  Dtypes::run(context, kOp, x1.dtype(),
              [&](auto tag) { cdist<typename decltype(tag)::type>(x1, x2, out, p); });
  return out;
}

}  // namespace portable
