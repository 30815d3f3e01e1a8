#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/opmath.h"
#include "kernels/portable/util/shape_scatter.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::scatter_add.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)
// out = self, with src[c] added to out[c with dim replaced by index[c]] for every
// coordinate c of index, in row-major order (bool adds as "or").
rt::Tensor& scatter_add_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                            const rt::Tensor& index, const rt::Tensor& src, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  Dtypes::run(context, kOp, self.dtype(), [&](auto t) {
    using T = typename decltype(t)::type;
    using M = opmath_t<T>;
    T* to = out.data_as<T>();
    const T* from = src.data_as<const T>();
    scatter_walk(in, self, dim, index, &src, out, [&](int64_t o, int64_t s) {
      to[o] = rt::value_cast<T>(op_add<M>(rt::value_cast<M>(to[o]), rt::value_cast<M>(from[s])));
    });
  });
  return out;
}

}  // namespace portable
