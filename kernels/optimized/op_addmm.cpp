#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/epilogue.h"
#include "kernels/optimized/gemm.h"
#include "kernels/optimized/matmul.h"
#include "kernels/optimized/quantized_calls.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::addmm.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// tile = beta * self + alpha * tile, for a tile of out whose first element is (row0, col0):
// self's strides over out's (i, j) are 0 along a broadcast dimension.
template <typename T>
void add_self(const opt::Matrix<T>& tile, int64_t row0, int64_t col0, const T* bias,
              int64_t bias_row, int64_t bias_col, T beta, T alpha) {
  for (int64_t i = 0; i < tile.rows; ++i) {
    T* row = tile.data + i * tile.row_stride;
    const T* bias_at = bias + (row0 + i) * bias_row + col0 * bias_col;
    if (beta == T(0)) {  // torch ignores self (even its NaNs) when beta is 0
      if (alpha != T(1)) {
        for (int64_t j = 0; j < tile.cols; ++j) row[j * tile.col_stride] *= alpha;
      }
    } else if (alpha == T(1) && beta == T(1)) {  // linear: add the bias
      for (int64_t j = 0; j < tile.cols; ++j) row[j * tile.col_stride] += bias_at[j * bias_col];
    } else {
      for (int64_t j = 0; j < tile.cols; ++j) {
        row[j * tile.col_stride] = alpha * row[j * tile.col_stride] + beta * bias_at[j * bias_col];
      }
    }
  }
}

// out = beta * self + alpha * (mat1 @ mat2), self broadcast to out's shape (a matrix, a
// row, or one value). Float: a Linear's bias (a row, alpha = beta = 1) is the GEMM's
// epilogue (Note [GEMM epilogue]); anything else a pass over out after the product. Double:
// Eigen, then that pass on each tile while it is in cache.
template <typename T>
bool addmm(const rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& mat1,
           const rt::Tensor& mat2, rt::Tensor& out, T beta, T alpha) {
  const int64_t n = mat1.size(0), k = mat1.size(1), m = mat2.size(1);
  const opt::Matrix<const T> a{mat1.data_as<const T>(), n, k, mat1.stride(0), mat1.stride(1)};
  const opt::Matrix<const T> b{mat2.data_as<const T>(), k, m, mat2.stride(0), mat2.stride(1)};
  const opt::Matrix<T> c{out.data_as<T>(), n, m, out.stride(0), out.stride(1)};
  const int dim = self.dim();
  const int64_t bias_row = dim == 2 && self.size(0) != 1 ? self.stride(0) : 0;
  const int64_t bias_col = dim >= 1 && self.size(dim - 1) != 1 ? self.stride(dim - 1) : 0;
  const T* bias = self.data_as<const T>();
  if constexpr (std::is_same<T, float>::value) {
    const bool row_bias = beta == 1.0f && alpha == 1.0f && bias_row == 0 && bias_col == 1;
    opt::Epilogue epilogue;
    if (row_bias) epilogue.shift = bias;
    const opt::PreparedGemm* a_prepared = opt::prepared_operand(context, opt::GemmSide::A, 1, n, k);
    const opt::PreparedGemm* b_prepared = opt::prepared_operand(context, opt::GemmSide::B, 1, k, m);
    if (!opt::float_products(1, a, 0, a_prepared, b, 0, b_prepared, c, 0, epilogue)) return false;
    if (!row_bias) add_self(c, 0, 0, bias, bias_row, bias_col, beta, alpha);
  } else {
    opt::batched_gemm(1, a, 0, b, 0, c, 0,
                      [&](const opt::Matrix<T>& tile, int64_t start, bool by_rows) {
                        add_self(tile, by_rows ? start : 0, by_rows ? 0 : start, bias, bias_row,
                                 bias_col, beta, alpha);
                      });
  }
  return true;
}

// Note [Prepared GEMM operand]: mat2 (argument 2, a Linear's folded weight) packed as b
// when constant, else mat1 (argument 1) as a.
void prepare(rt::KernelContext& context, const rt::Tensor& mat1, const rt::Tensor& mat2) {
  constexpr rt::ScalarType kFloat = rt::ScalarType::Float;
  if (!Dtypes::kEnabled.contains(kFloat) || mat1.dtype() != kFloat || mat2.dtype() != kFloat ||
      mat1.dim() != 2 || mat2.dim() != 2)
    return;
  const bool b_side = context.constant_arg(2);
  if (!b_side && !context.constant_arg(1)) return;
  const rt::Tensor& t = b_side ? mat2 : mat1;
  const opt::Matrix<const float> m{t.data_as<const float>(), t.size(0), t.size(1), t.stride(0),
                                   t.stride(1)};
  if (!opt::prepare_operand(context, b_side ? 2 : 1, b_side ? opt::GemmSide::B : opt::GemmSide::A,
                            1, m, 0))
    context.fail(rt::Error::OutOfMemory, kOp, "out of memory while packing a constant operand");
}

}  // namespace

// addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out)
rt::Tensor& addmm_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& mat1,
                      const rt::Tensor& mat2, rt::Scalar beta, rt::Scalar alpha, rt::Tensor& out) {
  if (context.preparing()) {
    prepare(context, mat1, mat2);
    return out;
  }
  const rt::OpContext in(context, kOp);
  const rt::ScalarType dtype = out.dtype();
  if (!Dtypes::check(context, kOp, dtype)) return out;
  if (self.dtype() != dtype || mat1.dtype() != dtype || mat2.dtype() != dtype) {
    in.fail("self, mat1, mat2 and out must have one dtype");
    return out;
  }
  if (mat1.dim() != 2 || mat2.dim() != 2 || mat1.size(1) != mat2.size(0)) {
    in.fail("mat1 and mat2 must be matrices that can be multiplied");
    return out;
  }
  const int32_t sizes[2] = {mat1.size(0), mat2.size(1)};
  // self broadcasts to (n, m): a matrix, a row of m, or a single value.
  const int self_dim = self.dim();
  if (self_dim > 2 || (self_dim == 2 && self.size(0) != 1 && self.size(0) != sizes[0]) ||
      (self_dim >= 1 && self.size(self_dim - 1) != 1 && self.size(self_dim - 1) != sizes[1])) {
    in.fail("self cannot be broadcast to the product's shape");
    return out;
  }
  if (!resize_out(in, out, sizes, 2)) return out;
  Dtypes::run(context, kOp, dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (!addmm<T>(context, self, mat1, mat2, out, beta.to<T>(), alpha.to<T>()))
      in.fail("out of memory for the GEMM's packing scratch");
  });
  return out;
}

}  // namespace optimized

// Note [Fused epilogue]: a Linear's addmm (Float, beta = alpha = 1, self a row of bias or
// one value) and its activation: the inputs of addmm.out, the epilogue, out, out. A row of
// bias and the activation are the packed GEMM's epilogue (Note [GEMM epilogue]); one value
// is added after the product, then the activation, in one pass.
void rt::fused::addmm(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::Tensor& self = args[0]->to_tensor();
  const rt::Tensor& mat1 = args[1]->to_tensor();
  const rt::Tensor& mat2 = args[2]->to_tensor();
  if (context.preparing()) return optimized::prepare(context, mat1, mat2);
  rt::Tensor& out = args[5 + rt::kEpilogueValues]->to_tensor();
  const rt::OpContext in(context, optimized::kOp);
  if (mat1.dim() != 2 || mat2.dim() != 2 || mat1.size(1) != mat2.size(0) ||
      self.numel() != (self.dim() == 0 ? 1 : self.size(self.dim() - 1)) ||
      (self.numel() != 1 && self.numel() != mat2.size(1)))
    return in.fail("mat1 and mat2 must be matrices that can be multiplied, self a bias row");
  const int32_t sizes[2] = {mat1.size(0), mat2.size(1)};
  if (!resize_out(in, out, sizes, 2)) return;
  const int64_t n = mat1.size(0), k = mat1.size(1), m = mat2.size(1);
  const opt::Matrix<const float> a{mat1.data_as<const float>(), n, k, mat1.stride(0),
                                   mat1.stride(1)};
  const opt::Matrix<const float> b{mat2.data_as<const float>(), k, m, mat2.stride(0),
                                   mat2.stride(1)};
  const opt::Matrix<float> c{out.data_as<float>(), n, m, out.stride(0), out.stride(1)};
  const float* bias = self.data_as<const float>();
  const bool row_bias = self.numel() == m && (m == 1 || self.stride(self.dim() - 1) == 1);
  const rt::Epilogue e = rt::read_epilogue(args, 5);
  opt::Epilogue epilogue;
  if (row_bias) epilogue.shift = bias, epilogue.active = e;
  const opt::PreparedGemm* a_prepared = opt::prepared_operand(context, opt::GemmSide::A, 1, n, k);
  const opt::PreparedGemm* b_prepared = opt::prepared_operand(context, opt::GemmSide::B, 1, k, m);
  if (!opt::float_products(1, a, 0, a_prepared, b, 0, b_prepared, c, 0, epilogue))
    return in.fail("out of memory for the GEMM's packing scratch");
  if (row_bias) return;
  optimized::add_self(c, 0, 0, bias, 0, 0, 1.0f, 1.0f);
  optimized::finish_tile(c.data, n, m, c.row_stride, c.col_stride, e);
}

bool rt::fused::addmm_accepts(rt::Span<rt::EValue* const> args) {
  auto one = [](const rt::EValue* scalar) {
    return (scalar->tag() == rt::Tag::Int && scalar->to_int() == 1) ||
           (scalar->tag() == rt::Tag::Double && scalar->to_double() == 1.0);
  };
  for (size_t a = 0; a < 3; ++a) {
    if (args[a]->to_tensor().dtype() != rt::ScalarType::Float) return false;
  }
  const rt::Tensor& self = args[0]->to_tensor();
  const bool row =
      self.dim() == 0 || (self.dim() <= 2 && self.numel() == self.size(self.dim() - 1));
  return optimized::Dtypes::kEnabled.contains(rt::ScalarType::Float) && one(args[3]) &&
         one(args[4]) && row;
}
