#pragma once

#include <cstdint>

#include "kernels/portable/util/opmath.h"
#include "runtime/core/tensor.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {

// A batch of matrix products out[b] = a[b] @ c[b]: a is (batch, n, k), c is
// (batch, k, m), out (batch, n, m); strides in elements for each.
struct MatmulShape {
  int64_t batch, n, k, m;
  int64_t a_strides[3], c_strides[3], o_strides[3];
};

// Reads the strides of a 3-D tensor, or a 2-D one as a batch of one.
inline void matmul_strides(const rt::Tensor& t, int64_t* strides) {
  const int shift = t.dim() == 2 ? 1 : 0;
  strides[0] = shift == 0 ? t.stride(0) : 0;
  strides[1] = t.stride(1 - shift);
  strides[2] = t.stride(2 - shift);
}

// Checks a @ c for mm (2-D) or bmm (3-D, `rank` 3), resizes out and fills
// `shape`. Not a template: shared by both ops.
__attribute__((noinline)) inline bool plan_matmul(const rt::OpContext& in, const rt::Tensor& a,
                                                  const rt::Tensor& c, rt::Tensor& out, int rank,
                                                  MatmulShape* shape) {
  if (a.dtype() != out.dtype() || c.dtype() != out.dtype()) {
    in.fail("self, mat2 and out must have one dtype");
    return false;
  }
  const int s = rank - 2;
  if (a.dim() != rank || c.dim() != rank || a.size(s + 1) != c.size(s) ||
      (rank == 3 && a.size(0) != c.size(0))) {
    in.fail(rank == 3 ? "self and mat2 must be batches of matrices that can be multiplied"
                      : "self and mat2 must be matrices that can be multiplied");
    return false;
  }
  int32_t sizes[3] = {rank == 3 ? a.size(0) : 1, a.size(s), c.size(s + 1)};
  if (!resize_out(in, out, sizes + (3 - rank), rank)) return false;
  shape->batch = sizes[0];
  shape->n = sizes[1];
  shape->k = a.size(s + 1);
  shape->m = sizes[2];
  matmul_strides(a, shape->a_strides);
  matmul_strides(c, shape->c_strides);
  matmul_strides(out, shape->o_strides);
  return true;
}

// Checks addmm's arguments and gives out's sizes (mat1's rows by mat2's columns): self,
// mat1, mat2 and out of one dtype, mat1 @ mat2 defined, and self broadcastable to the
// product's shape (a matrix, a row of its width, or one value). The caller checks the
// dtype against its own and resizes out to `sizes`.
inline bool check_addmm_args(const rt::OpContext& in, const rt::Tensor& self,
                             const rt::Tensor& mat1, const rt::Tensor& mat2, const rt::Tensor& out,
                             int32_t* sizes) {
  const rt::ScalarType dtype = out.dtype();
  if (self.dtype() != dtype || mat1.dtype() != dtype || mat2.dtype() != dtype) {
    in.fail("self, mat1, mat2 and out must have one dtype");
    return false;
  }
  if (mat1.dim() != 2 || mat2.dim() != 2 || mat1.size(1) != mat2.size(0)) {
    in.fail("mat1 and mat2 must be matrices that can be multiplied");
    return false;
  }
  sizes[0] = mat1.size(0);
  sizes[1] = mat2.size(1);
  const int dim = self.dim();
  if (dim > 2 || (dim == 2 && self.size(0) != 1 && self.size(0) != sizes[0]) ||
      (dim >= 1 && self.size(dim - 1) != 1 && self.size(dim - 1) != sizes[1])) {
    in.fail("self cannot be broadcast to the product's shape");
    return false;
  }
  return true;
}

// The products, accumulating in opmath_t<T> (integers wrap).
template <typename T>
void matmul(const MatmulShape& s, const T* a, const T* c, T* out) {
  using M = opmath_t<T>;
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t i = 0; i < s.n; ++i) {
      const T* row = a + b * s.a_strides[0] + i * s.a_strides[1];
      for (int64_t j = 0; j < s.m; ++j) {
        const T* col = c + b * s.c_strides[0] + j * s.c_strides[2];
        M sum = M(0);
        for (int64_t p = 0; p < s.k; ++p) {
          sum = op_add(sum, op_mul(static_cast<M>(row[p * s.a_strides[2]]),
                                   static_cast<M>(col[p * s.c_strides[1]])));
        }
        out[b * s.o_strides[0] + i * s.o_strides[1] + j * s.o_strides[2]] = rt::value_cast<T>(sum);
      }
    }
  }
}

// A whole kernel `mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out)` (rank
// 2) or `bmm.out` (rank 3). always_inline: one instantiation per op, and an
// outlined copy only adds a call frame.
template <typename Dtypes>
__attribute__((always_inline)) inline void matmul_kernel(rt::KernelContext& context, const char* op,
                                                         const rt::Tensor& self,
                                                         const rt::Tensor& mat2, rt::Tensor& out,
                                                         int rank) {
  const rt::OpContext in(context, op);
  if (!Dtypes::check(context, op, out.dtype())) return;
  MatmulShape shape;
  if (!plan_matmul(in, self, mat2, out, rank, &shape)) return;
  Dtypes::run(context, op, out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    matmul<T>(shape, self.data_as<const T>(), mat2.data_as<const T>(), out.data_as<T>());
  });
}

}  // namespace portable
