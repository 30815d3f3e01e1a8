#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_op.h"
#include "kernels/portable/util/dim_rows.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/reduce_util.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::cumsum.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Running sums along the rows of `rows` in out's dtype T; self's elements are
// converted as loaded.
template <typename T>
void cumsum(rt::KernelContext& context, DimRows& rows, const rt::Tensor& self, T* out) {
  using M = opmath_t<T>;
  StridedWalk<2>& walk = rows.walk;
  const int64_t n = rows.n, ss = rows.self_stride, so = rows.out_stride;
  M (*load)(const uint8_t*) = nullptr;
  Dtypes::run(context, kOp, self.dtype(),
              [&](auto t) { load = &load_as<M, typename decltype(t)::type>; });
  if (load == nullptr) return;
  const uint8_t* base = static_cast<const uint8_t*>(self.data());
  const int64_t element = static_cast<int64_t>(self.element_size());
  do {
    for (int64_t r = 0; r < walk.row_size(); ++r) {
      const uint8_t* x = base + (walk.offset(0) + r * walk.row_stride(0)) * element;
      T* y = out + walk.offset(1) + r * walk.row_stride(1);
      M sum = M(0);
      for (int64_t i = 0; i < n; ++i) {
        sum = op_add(sum, load(x + i * ss * element));
        y[i * so] = rt::value_cast<T>(sum);
      }
    }
  } while (walk.next_row());
}

}  // namespace

// cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& cumsum_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                       rt::Optional<rt::ScalarType> dtype_arg, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const int64_t dtype = optional_dtype_arg(dtype_arg);
  if (!Dtypes::check(context, kOp, self.dtype())) return out;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out.dtype())) {
    in.fail("out must have the dtype asked for");
    return out;
  }
  DimRows rows;
  if (!plan_dim_rows(in, self, out, dim, &rows)) return out;
  Dtypes::run(context, kOp, out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    cumsum<T>(context, rows, self, out.data_as<T>());
  });
  return out;
}

}  // namespace portable
