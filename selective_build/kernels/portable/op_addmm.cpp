#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/nn_matmul.h"
#include "kernels/portable/util/opmath.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::addmm.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Element (i, j) of a 2-D tensor, or of a 1-D or 0-dim one broadcast to 2-D.
struct Matrix2D {
  int64_t row_stride;
  int64_t col_stride;

  explicit Matrix2D(const rt::Tensor& t)
      : row_stride(t.dim() == 2 && t.size(0) != 1 ? t.stride(0) : 0),
        col_stride(t.dim() >= 1 && t.size(t.dim() - 1) != 1 ? t.stride(t.dim() - 1) : 0) {}
  int64_t at(int64_t i, int64_t j) const { return i * row_stride + j * col_stride; }
};

template <typename T>
void addmm(const rt::Tensor& self, const rt::Tensor& mat1, const rt::Tensor& mat2, rt::Tensor& out,
           rt::Scalar beta_arg, rt::Scalar alpha_arg) {
  using M = opmath_t<T>;
  const M beta = beta_arg.to<M>();
  const M alpha = alpha_arg.to<M>();
  const int64_t n = mat1.size(0), k = mat1.size(1), m = mat2.size(1);
  const Matrix2D a(mat1), b(mat2), c(self), o(out);
  const T* pa = mat1.data_as<const T>();
  const T* pb = mat2.data_as<const T>();
  const T* pc = self.data_as<const T>();
  T* po = out.data_as<T>();
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same<T, M>::value) {
      // Accumulate in out's row, walking mat2 along its rows (cache friendly).
      for (int64_t j = 0; j < m; ++j) po[o.at(i, j)] = M(0);
      for (int64_t p = 0; p < k; ++p) {
        const M scale = pa[a.at(i, p)];
        for (int64_t j = 0; j < m; ++j)
          po[o.at(i, j)] = op_add(po[o.at(i, j)], op_mul(scale, pb[b.at(p, j)]));
      }
    }
    for (int64_t j = 0; j < m; ++j) {
      M sum = M(0);
      if constexpr (std::is_same<T, M>::value) {
        sum = po[o.at(i, j)];
      } else {  // 16-bit floats: accumulate in float, not in out
        for (int64_t p = 0; p < k; ++p)
          sum += static_cast<M>(pa[a.at(i, p)]) * static_cast<M>(pb[b.at(p, j)]);
      }
      // torch ignores self (even its NaNs) when beta is 0.
      const M bias = beta == M(0) ? M(0) : op_mul(beta, static_cast<M>(pc[c.at(i, j)]));
      po[o.at(i, j)] = rt::value_cast<T>(op_add(op_mul(alpha, sum), bias));
    }
  }
}

}  // namespace

// addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out)
rt::Tensor& addmm_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& mat1,
                      const rt::Tensor& mat2, rt::Scalar beta, rt::Scalar alpha, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::ScalarType dtype = out.dtype();
  int32_t sizes[2];
  if (!check_addmm_args(in, self, mat1, mat2, out, sizes)) return out;
  if (!resize_out(in, out, sizes, 2)) return out;
  Dtypes::run(context, kOp, dtype, [&](auto tag) {
    addmm<typename decltype(tag)::type>(self, mat1, mat2, out, beta, alpha);
  });
  return out;
}

}  // namespace portable
