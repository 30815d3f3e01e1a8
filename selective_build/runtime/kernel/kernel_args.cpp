#include "runtime/kernel/kernel_args.h"

namespace rt {

void OpContext::fail(const char* what) const { context_.fail(Error::InvalidArgument, op_, what); }

bool resize_out(const OpContext& in, Tensor& out, const int32_t* sizes, int dim) {
  if (out.resize(sizes, dim).ok()) return true;
  in.fail("out has the wrong shape");
  return false;
}

}  // namespace rt
