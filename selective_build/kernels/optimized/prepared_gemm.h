#pragma once

// A constant GEMM operand packed once at load (Note [Prepared weights] in
// runtime/kernel/kernel_context.h), for the matrix products and convolution.
//
// Note [Prepared GEMM operand]
// While preparing, a kernel whose a or b operand is a constant tensor packs it, one matrix
// per batch, into the panels gemm_packed.h reads (a: row panels of panel_height's rows, Note
// [Balanced row panels]; b: kNR-column panels) after a header that records the side, the
// shape and the panels' geometry. When the call runs, the kernel
// takes the panels only if the header matches the call's shape (it always does: a constant
// keeps its shape; the check makes a mismatch cost speed, never correctness), and so packs
// nothing per call. The memory is the packed matrices, padded to whole panels, plus 64 bytes
// per call: reported in the runner's "weights prepared at load" line.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "kernels/optimized/gemm_packed.h"
#include "kernels/optimized/matrix.h"
#include "runtime/kernel/kernel_context.h"

namespace opt {

enum class GemmSide : int32_t { A, B };

struct alignas(64) PreparedGemm {
  int64_t batch, rows, cols;  // each matrix: rows x cols (a: rows x depth; b: depth x cols)
  GemmSide side;
  int32_t mr, nr;  // the panels' geometry: a's panel height (or 0 for b), b's width

  // The geometry a side-`side` operand of `rows` rows is packed in.
  static int32_t height_for(GemmSide side, int64_t rows) {
    return side == GemmSide::A ? static_cast<int32_t>(panel_height(rows)) : 0;
  }
  static int64_t matrix_floats(GemmSide side, int64_t rows, int64_t cols) {
    return side == GemmSide::A ? packed_a_floats(rows, cols) : packed_b_floats(rows, cols);
  }
  const float* matrix(int64_t b) const {
    return reinterpret_cast<const float*>(this + 1) + b * matrix_floats(side, rows, cols);
  }
  // Matrix b's panels, for an a operand (or a's rows from a panel boundary on, at + offset).
  PanelsA panels_a(int64_t b, int64_t offset = 0) const { return PanelsA{matrix(b) + offset, mr}; }
  bool fits(GemmSide s, int64_t b, int64_t r, int64_t c) const {
    return side == s && batch == b && rows == r && cols == c && mr == height_for(s, r) && nr == kNR;
  }
};

// While preparing: packs `batch` matrices m (m.data + i * batch_stride for each i), the data
// of argument `arg`, as `side` into memory of the method's lifetime. False when that memory
// cannot be had (the call then fails the load).
inline bool prepare_operand(rt::KernelContext& context, size_t arg, GemmSide side, int64_t batch,
                            const Matrix<const float>& m, int64_t batch_stride) {
  const int64_t floats = PreparedGemm::matrix_floats(side, m.rows, m.cols);
  void* memory = context.prepare(sizeof(PreparedGemm) + sizeof(float) * batch * floats, arg);
  if (memory == nullptr) return false;
  PreparedGemm* prepared = new (memory)
      PreparedGemm{batch, m.rows, m.cols, side, PreparedGemm::height_for(side, m.rows), kNR};
  for (int64_t b = 0; b < batch; ++b) {
    Matrix<const float> one = m;
    one.data += b * batch_stride;
    float* packed = const_cast<float*>(prepared->matrix(b));
    if (side == GemmSide::A) {
      pack_a(one, packed);
    } else {
      pack_b(one, packed);
    }
  }
  return true;
}

// While running: what this call prepared, if it is `side` with this shape; else nullptr.
inline const PreparedGemm* prepared_operand(const rt::KernelContext& context, GemmSide side,
                                            int64_t batch, int64_t rows, int64_t cols) {
  const PreparedGemm* prepared = static_cast<const PreparedGemm*>(context.prepared());
  return prepared != nullptr && prepared->fits(side, batch, rows, cols) ? prepared : nullptr;
}

// A constant operand a kernel reads as it is (a depthwise layer's weight): copied at load,
// which lets Note [Preparing through constant producers] make it from its int8 form once.
struct alignas(64) PreparedCopy {
  int64_t floats;
  const float* data() const { return reinterpret_cast<const float*>(this + 1); }
};

// A constant operand laid out once at load: `fill(to)` writes its `floats` values.
template <typename Fill>
inline bool prepare_floats(rt::KernelContext& context, size_t arg, int64_t floats,
                           const Fill& fill) {
  void* memory = context.prepare(sizeof(PreparedCopy) + sizeof(float) * floats, arg);
  if (memory == nullptr) return false;
  PreparedCopy* copy = new (memory) PreparedCopy{floats};
  fill(const_cast<float*>(copy->data()));
  return true;
}

inline bool prepare_copy(rt::KernelContext& context, size_t arg, const float* data,
                         int64_t floats) {
  return prepare_floats(context, arg, floats,
                        [&](float* to) { std::memcpy(to, data, sizeof(float) * floats); });
}

// While running: the copy this call prepared, if it has `floats` values; else nullptr.
inline const float* prepared_copy(const rt::KernelContext& context, int64_t floats) {
  const PreparedCopy* copy = static_cast<const PreparedCopy*>(context.prepared());
  return copy != nullptr && copy->floats == floats ? copy->data() : nullptr;
}

}  // namespace opt
