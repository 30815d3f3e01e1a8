// my_ops::affine.out: out = input * scale + bias, elementwise, computed in double and
// rounded once to the tensor's dtype (as torch computes a float tensor times Python floats:
// in float, so the result can differ from torch's by an ulp; verification's Float
// tolerance covers that).

#include <cstdint>

#include "elementwise.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace my_ops {
namespace {

constexpr const char* kOp = "my_ops::affine.out";
constexpr rt::DtypeSet kImplemented =
    rt::DtypeSet::of(rt::ScalarType::Float) | rt::DtypeSet::of(rt::ScalarType::Double);
using Dtypes = rt::DtypeDispatch<kImplemented.bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// affine.out(Tensor input, float scale, float bias, *, Tensor(a!) out) -> Tensor(a!): the
// schema's `float` arguments arrive as doubles, already checked and converted by the
// generated unboxing.
rt::Tensor& affine_out(rt::KernelContext& context, const rt::Tensor& input, double scale,
                       double bias, rt::Tensor& out) {
  if (!prepare_out(context, kOp, input, out)) return out;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = input.data_as<T>();
    T* result = out.data_as<T>();
    for (int64_t i = 0; i < input.numel(); ++i) result[i] = static_cast<T>(in[i] * scale + bias);
  });
  return out;
}

}  // namespace my_ops
