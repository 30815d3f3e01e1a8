// my_ops::mul3.out: out = 3 * input, elementwise. A kernel written as a user of the runtime
// would write one: only the runtime's public headers, no helper of the built-in libraries.

#include <cstdint>

#include "elementwise.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace my_ops {
namespace {

constexpr const char* kOp = "my_ops::mul3.out";
// The dtypes custom_ops.yaml declares; a dtype-selective build compiles only those of them
// its models call the operator with (selected_dtypes reads the generated header).
constexpr rt::DtypeSet kImplemented =
    rt::DtypeSet::of(rt::ScalarType::Int) | rt::DtypeSet::of(rt::ScalarType::Long) |
    rt::DtypeSet::of(rt::ScalarType::Float) | rt::DtypeSet::of(rt::ScalarType::Double);
using Dtypes = rt::DtypeDispatch<kImplemented.bits(), rt::selected_dtypes(kOp).bits()>;

}  // namespace

// mul3.out(Tensor input, *, Tensor(a!) out) -> Tensor(a!): the signature codegen declares in
// the target's gen/kernel_functions.h from the schema in custom_ops.yaml.
rt::Tensor& mul3_out(rt::KernelContext& context, const rt::Tensor& input, rt::Tensor& out) {
  if (!prepare_out(context, kOp, input, out)) return out;
  Dtypes::run(context, kOp, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = input.data_as<T>();
    T* result = out.data_as<T>();
    for (int64_t i = 0; i < input.numel(); ++i) result[i] = static_cast<T>(in[i] * 3);
  });
  return out;
}

}  // namespace my_ops
