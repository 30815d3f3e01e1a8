#pragma once

// mm and bmm with portable's argument checks (plan_matmul): the same one-line failures for
// the same bad calls. Float runs on the packed GEMM (gemm_packed.h), a constant operand
// packed once at load (prepared_gemm.h); Double on Eigen (gemm.h).

#include <type_traits>

#include "kernels/optimized/gemm.h"
#include "kernels/optimized/gemm_packed.h"
#include "kernels/optimized/prepared_gemm.h"
#include "kernels/portable/util/nn_matmul.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/epilogue.h"
#include "runtime/kernel/kernel_args.h"

namespace opt {

// c = epilogue(a @ b) for one Float product of any layout: the packed GEMM onto a
// row-major c, or onto c^T = b^T a^T when c is column-major (a transposed out), else a
// dot product per element. a_packed / b_packed: the operand's panels prepared at load, or
// null. False when the GEMM's scratch cannot be allocated.
inline bool float_product(const Matrix<const float>& a, const float* a_packed,
                          const Matrix<const float>& b, const float* b_packed,
                          const Matrix<float>& c, const Epilogue& e) {
  if (c.row_major()) return gemm(a, a_packed, b, b_packed, c, e);
  if (c.col_major()) {
    Epilogue transposed = e;
    transposed.by_rows = !e.by_rows;
    return gemm(b.transposed(), nullptr, a.transposed(), nullptr, c.transposed(), transposed);
  }
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.cols; ++j) {
      float sum = 0.0f;
      for (int64_t p = 0; p < a.cols; ++p) sum += a.at(i, p) * b.at(p, j);
      c.at(i, j) = finish_scalar(sum, e, e.by_rows ? i : j);
    }
  }
  return true;
}

// c[i] = epilogue(a[i] @ b[i]) for i < batch (each operand's matrix i at data + i * its
// step), the batch split over the threads; a, b prepared at load when given.
inline bool float_products(int64_t batch, const Matrix<const float>& a, int64_t a_step,
                           const PreparedGemm* a_prepared, const Matrix<const float>& b,
                           int64_t b_step, const PreparedGemm* b_prepared, const Matrix<float>& c,
                           int64_t c_step, const Epilogue& e) {
  bool failed = false;
  const auto one = [&](int64_t i) {
    Matrix<const float> ai = a, bi = b;
    Matrix<float> ci = c;
    ai.data += i * a_step;
    bi.data += i * b_step;
    ci.data += i * c_step;
    if (!float_product(ai, a_prepared == nullptr ? nullptr : a_prepared->matrix(i), bi,
                       b_prepared == nullptr ? nullptr : b_prepared->matrix(i), ci, e))
      __atomic_store_n(&failed, true, __ATOMIC_RELAXED);
  };
  if (batch == 1) {
    one(0);
    return !failed;
  }
  // A product per worker only when it is worth a wake-up (~2^17 multiply-adds).
  const int64_t work = c.rows * c.cols * (a.cols > 0 ? a.cols : 1);
  const int64_t grain = work >= (int64_t{1} << 17) ? 1 : ((int64_t{1} << 17) + work) / (work + 1);
  parallel_for(batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) one(i);
  });
  return !failed;
}

// Note [Prepared GEMM operand] for mm (rank 2) and bmm (rank 3): mat2 (argument 1) packed
// as b when it is constant, else self (argument 0) as a.
template <typename Dtypes>
void prepare_matmul(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                    const rt::Tensor& mat2, int rank) {
  constexpr rt::ScalarType kFloat = rt::ScalarType::Float;
  if (!Dtypes::kEnabled.contains(kFloat) || self.dtype() != kFloat || mat2.dtype() != kFloat ||
      self.dim() != rank || mat2.dim() != rank)
    return;
  const bool b_side = context.constant_arg(1);
  if (!b_side && !context.constant_arg(0)) return;
  const rt::Tensor& t = b_side ? mat2 : self;
  int64_t strides[3];
  portable::matmul_strides(t, strides);
  const int s = rank - 2;
  const Matrix<const float> m{t.data_as<const float>(), t.size(s), t.size(s + 1), strides[1],
                              strides[2]};
  if (!prepare_operand(context, b_side ? 1 : 0, b_side ? GemmSide::B : GemmSide::A,
                       rank == 3 ? t.size(0) : 1, m, strides[0]))
    context.fail(rt::Error::OutOfMemory, op, "out of memory while packing a constant operand");
}

// A whole kernel `mm.out` (rank 2) or `bmm.out` (rank 3), Dtypes a DtypeDispatch over
// what it computes (Float, Double); a Float product's tiles get `active` (a fused
// activation: Note [Fused epilogue] in runtime/kernel/epilogue.h) before their store.
template <typename Dtypes>
void matmul_kernel(rt::KernelContext& context, const char* op, const rt::Tensor& self,
                   const rt::Tensor& mat2, rt::Tensor& out, int rank,
                   const rt::Epilogue& active = {rt::EpilogueKind::None, 0.0f, 0.0f}) {
  if (context.preparing()) return prepare_matmul<Dtypes>(context, op, self, mat2, rank);
  const rt::OpContext in(context, op);
  if (!Dtypes::check(context, op, out.dtype())) return;
  portable::MatmulShape s;
  if (!portable::plan_matmul(in, self, mat2, out, rank, &s)) return;
  Dtypes::run(context, op, out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Matrix<const T> a{self.data_as<const T>(), s.n, s.k, s.a_strides[1], s.a_strides[2]};
    const Matrix<const T> b{mat2.data_as<const T>(), s.k, s.m, s.c_strides[1], s.c_strides[2]};
    const Matrix<T> c{out.data_as<T>(), s.n, s.m, s.o_strides[1], s.o_strides[2]};
    if constexpr (std::is_same<T, float>::value) {
      Epilogue epilogue;
      epilogue.active = active;
      if (!float_products(s.batch, a, s.a_strides[0],
                          prepared_operand(context, GemmSide::A, s.batch, s.n, s.k), b,
                          s.c_strides[0], prepared_operand(context, GemmSide::B, s.batch, s.k, s.m),
                          c, s.o_strides[0], epilogue))
        in.fail("out of memory for the GEMM's packing scratch");
    } else {
      batched_gemm(s.batch, a, s.a_strides[0], b, s.c_strides[0], c, s.o_strides[0],
                   [](const Matrix<T>&, int64_t, bool) {});
    }
  });
}

}  // namespace opt
