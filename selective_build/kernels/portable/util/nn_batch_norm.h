#pragma once

#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

// The checks of _native_batch_norm_legit_no_training, shared by the portable kernel and the
// optimized one.
namespace portable {

// The tensors of one call; weight and bias may be nullptr.
struct BatchNormCall {
  const rt::Tensor* input;
  const rt::Tensor* params[4];  // weight, bias, running_mean, running_var
  rt::Tensor* out;
  int64_t batch, channels, inner;
  double eps;
};

// Checks the call (dtypes, one parameter per channel) and resizes the outs (out1 and out2
// empty, as torch without training); false after failing through `in`. The caller has
// checked input's dtype against what it supports.
__attribute__((noinline)) inline bool plan_batch_norm(
    const rt::OpContext& in, const rt::Tensor& input, const rt::Tensor* weight,
    const rt::Tensor* bias, const rt::Tensor& running_mean, const rt::Tensor& running_var,
    double eps, rt::Tensor& out0, rt::Tensor& out1, rt::Tensor& out2, BatchNormCall* call) {
  BatchNormCall& c = *call;
  c.input = &input;
  c.params[0] = weight;
  c.params[1] = bias;
  c.params[2] = &running_mean;
  c.params[3] = &running_var;
  c.out = &out0;
  rt::Tensor* save_mean = &out1;
  rt::Tensor* save_invstd = &out2;
  c.eps = eps;
  const rt::ScalarType dtype = c.input->dtype();
  const int rank = c.input->dim();
  if (rank < 2) {
    in.fail("input must have a batch and a channel dim");
    return false;
  }
  c.batch = c.input->size(0);
  c.channels = c.input->size(1);
  c.inner = 1;
  for (int d = 2; d < rank; ++d) c.inner *= c.input->size(d);
  for (const rt::Tensor* p : c.params) {
    if (p == nullptr) continue;
    if (p->dtype() != dtype) {
      in.fail("weight, bias, running_mean and running_var must have input's dtype");
      return false;
    }
    if (p->dim() != 1 || p->size(0) != c.channels) {
      in.fail("parameters must have one entry per channel");
      return false;
    }
  }
  if (c.out->dtype() != dtype || save_mean->dtype() != dtype || save_invstd->dtype() != dtype) {
    in.fail("out0, out1 and out2 must have input's dtype");
    return false;
  }
  // Without training nothing is saved: out1 and out2 are empty, as torch.
  const int32_t empty[1] = {0};
  return resize_out(in, *c.out, c.input->sizes().data(), rank) &&
         resize_out(in, *save_mean, empty, 1) && resize_out(in, *save_invstd, empty, 1);
}

// The checks of _native_batch_norm_legit_no_training (Note [Shared kernel checks],
// shape_copy.h): input's dtype one of Dtypes (the calling library's), then plan_batch_norm.
template <typename Dtypes>
bool plan_batch_norm_no_training(const rt::OpContext& in, const rt::Tensor& input,
                                 const rt::Tensor* weight, const rt::Tensor* bias,
                                 const rt::Tensor& running_mean, const rt::Tensor& running_var,
                                 double eps, rt::Tensor& out0, rt::Tensor& out1, rt::Tensor& out2,
                                 BatchNormCall* call) {
  return Dtypes::check(in.context(), in.op(), input.dtype()) &&
         plan_batch_norm(in, input, weight, bias, running_mean, running_var, eps, out0, out1, out2,
                         call);
}

}  // namespace portable
