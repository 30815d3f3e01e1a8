#include <cstdint>

#include "kernels/portable/util/binary_op.h"
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
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

// Running sums along one dim in out's dtype T: `walk` visits every position
// with that dim's index 0 (operand 0: self, 1: out); from each, `n` elements
// at strides ss, so. Self's elements are converted as loaded.
template <typename T>
void cumsum(rt::KernelContext& context, StridedWalk<2>& walk, const rt::Tensor& self, T* out, int64_t n, int64_t ss,
            int64_t so) {
  using M = opmath_t<T>;
  M (*load)(const uint8_t*) = nullptr;
  Dtypes::run(context, kOp, self.dtype(), [&](auto t) { load = &load_as<M, typename decltype(t)::type>; });
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
void cumsum_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  int64_t dim = in.int_value(1, "dim");
  const int64_t dtype = optional_dtype_arg(in, args, 2);
  rt::Tensor* out = in.tensor(3, "out");
  if (!in.ok() || !Dtypes::check(context, kOp, self->dtype())) return;
  if (dtype >= 0 && dtype != static_cast<int64_t>(out->dtype())) return in.fail("out must have the dtype asked for");
  const int rank = self->dim();
  if (dim < 0) dim += rank > 0 ? rank : 1;  // a 0-dim tensor is one element
  if (dim < 0 || dim >= (rank > 0 ? rank : 1)) return in.fail("dim is out of range");
  if (!resize_out(in, *out, self->sizes().data(), rank) || out->numel() == 0) return;
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < rank; ++d) sizes[d] = d == dim ? 1 : self->size(d);
  StridedWalk<2> walk;
  walk.init(sizes, rank);
  walk.set_operand(0, *self);
  walk.set_operand(1, *out);
  const int64_t n = rank > 0 ? self->size(static_cast<int>(dim)) : 1;
  const int64_t ss = rank > 0 ? self->stride(static_cast<int>(dim)) : 0;
  const int64_t so = rank > 0 ? out->stride(static_cast<int>(dim)) : 0;
  Dtypes::run(context, kOp, out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    cumsum<T>(context, walk, *self, out->data_as<T>(), n, ss, so);
  });
}

}  // namespace portable
