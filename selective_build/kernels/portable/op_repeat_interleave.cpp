#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::repeat_interleave.Tensor_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

template <typename T>
void fill(const rt::Tensor& repeats, rt::Tensor& out) {
  int64_t k = 0;
  for (int64_t i = 0; i < repeats.numel(); ++i) {
    const T times = repeats.data_as<const T>()[repeats.offset_of(i)];
    for (T j = 0; j < times; ++j) out.data_as<T>()[out.offset_of(k++)] = static_cast<T>(i);
  }
}

template <typename T>
int64_t total(const rt::Tensor& repeats) {
  int64_t sum = 0;
  for (int64_t i = 0; i < repeats.numel(); ++i) {
    const T times = repeats.data_as<const T>()[repeats.offset_of(i)];
    if (times < 0) return -1;
    sum += times;
    if (sum > INT32_MAX) return -1;
  }
  return sum;
}

}  // namespace

// repeat_interleave.Tensor_out(Tensor repeats, *, SymInt? output_size=None, Tensor(a!) out) -> Tensor(a!)
// out (repeats' dtype, 1-dim) = i repeated repeats[i] times, for each i in order. Its
// length is the sum of repeats, a value: the program plans out with an upper bound (or
// passes output_size, which must then be that sum) and the kernel resizes it.
rt::Tensor& repeat_interleave_Tensor_out(rt::KernelContext& context, const rt::Tensor& repeats,
                                         rt::Optional<int64_t> output_size, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (repeats.dim() != 1) {
    in.fail("repeats must be 1-dim");
    return out;
  }
  if (out.dtype() != repeats.dtype()) {
    in.fail("out must have repeats' dtype");
    return out;
  }
  int64_t sum = 0;
  if (!Dtypes::run(context, kOp, repeats.dtype(),
                   [&](auto t) { sum = total<typename decltype(t)::type>(repeats); })) {
    return out;
  }
  if (sum < 0) {
    in.fail("repeats must be non-negative and add up to at most 2^31 - 1");
    return out;
  }
  if (output_size.has_value() && output_size.value() != sum) {
    in.fail("output_size is not the sum of repeats");
    return out;
  }
  const int32_t length = static_cast<int32_t>(sum);
  if (!resize_out(in, out, &length, 1)) return out;
  Dtypes::run(context, kOp, repeats.dtype(),
              [&](auto t) { fill<typename decltype(t)::type>(repeats, out); });
  return out;
}

}  // namespace portable
