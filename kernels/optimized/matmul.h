#pragma once

// mm and bmm over Eigen (gemm.h), with portable's argument checks (plan_matmul): the
// same one-line failures for the same bad calls.

#include "kernels/optimized/gemm.h"
#include "kernels/portable/util/nn_matmul.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"

namespace opt {

// A whole kernel `mm.out` (rank 2) or `bmm.out` (rank 3), Dtypes a DtypeDispatch over
// what it computes (Float, Double); `float_tiles` runs on each Float tile once computed
// (a fused epilogue: Note [Fused epilogue] in runtime/kernel/epilogue.h).
template <typename Dtypes, typename FloatTiles = void (*)(const Matrix<float>&, int64_t, bool)>
void matmul_kernel(
    rt::KernelContext& context, const char* op, const rt::Tensor& self, const rt::Tensor& mat2,
    rt::Tensor& out, int rank,
    const FloatTiles& float_tiles = [](const Matrix<float>&, int64_t, bool) {}) {
  const rt::OpContext in(context, op);
  if (!Dtypes::check(context, op, out.dtype())) return;
  portable::MatmulShape s;
  if (!portable::plan_matmul(in, self, mat2, out, rank, &s)) return;
  Dtypes::run(context, op, out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Matrix<const T> a{self.data_as<const T>(), s.n, s.k, s.a_strides[1], s.a_strides[2]};
    const Matrix<const T> b{mat2.data_as<const T>(), s.k, s.m, s.c_strides[1], s.c_strides[2]};
    const Matrix<T> c{out.data_as<T>(), s.n, s.m, s.o_strides[1], s.o_strides[2]};
    batched_gemm(s.batch, a, s.a_strides[0], b, s.c_strides[0], c, s.o_strides[0],
                 [&](const Matrix<T>& tile, int64_t start, bool by_rows) {
                   if constexpr (std::is_same<T, float>::value) float_tiles(tile, start, by_rows);
                 });
  });
}

}  // namespace opt
