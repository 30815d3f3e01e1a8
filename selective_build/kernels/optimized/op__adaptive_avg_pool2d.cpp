#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/optimized/elem/pixels.h"
#include "kernels/optimized/parallel.h"
#include "kernels/optimized/scratch.h"
#include "kernels/portable/util/nn_pool.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

// Float adaptive average pooling an output row at a time: the input rows of the row's bin
// are first summed into one row of column sums (a pass along dense memory per input row,
// which the compiler vectorises), then each output sums its columns of that row. The sum
// runs down then across where portable's runs across then down: the rounding may differ
// in the last bits (within the Float tolerance). Channels-last tensors: a vector of
// channels per pixel (Note [Sums over pixels]).
namespace optimized {
namespace {

constexpr const char* kOp = "aten::_adaptive_avg_pool2d.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Output bin o of `out` over `in` covers [floor(o * in / out), ceil((o + 1) * in / out)).
int64_t bin_start(int64_t o, int64_t in, int64_t out) { return o * in / out; }
int64_t bin_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

// Input and out channels last (each pixel's channels adjacent): every bin's mean is
// Note [Sums over pixels], its sum in portable's order (rows, then columns). Output rows
// split over the threads.
void adaptive_avg_pool_channels_last(const portable::Planes4& x, const portable::Planes4& y,
                                     const float* px, float* py) {
  const int64_t height = x.size[2], width = x.size[3], out_h = y.size[2], out_w = y.size[3];
  opt::parallel_for(y.size[0] * out_h, 1, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t n = item / out_h, oy = item % out_h;
      const int64_t h0 = bin_start(oy, height, out_h), h1 = bin_end(oy, height, out_h);
      for (int64_t ox = 0; ox < out_w; ++ox) {
        const int64_t w0 = bin_start(ox, width, out_w), w1 = bin_end(ox, width, out_w);
        const PixelWindow window{px + x.at(n, 0, h0, w0), h1 - h0, x.stride[2], w1 - w0,
                                 x.stride[3]};
        window_mean(window, y.size[1], static_cast<float>((h1 - h0) * (w1 - w0)),
                    py + y.at(n, 0, oy, ox));
      }
    }
  });
}

// False when the row of column sums cannot be had.
bool adaptive_avg_pool(const portable::Planes4& x, const portable::Planes4& y, const float* px,
                       float* py) {
  const int64_t height = x.size[2], width = x.size[3], channels = y.size[1];
  bool ok = true;
  opt::parallel_for(y.size[0] * channels, 1, [&](int64_t begin, int64_t end) {
    float* sums =
        static_cast<float*>(opt::thread_scratch().get(static_cast<size_t>(width) * sizeof(float)));
    if (sums == nullptr) {
      ok = false;  // every writer stores false: no ordering needed
      return;
    }
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t n = plane / channels, c = plane % channels;
      for (int64_t oy = 0; oy < y.size[2]; ++oy) {
        const int64_t h0 = bin_start(oy, height, y.size[2]), h1 = bin_end(oy, height, y.size[2]);
        for (int64_t w = 0; w < width; ++w) sums[w] = 0.0f;
        for (int64_t h = h0; h < h1; ++h) {
          const float* row = px + x.at(n, c, h, 0);
          if (x.stride[3] == 1) {
            for (int64_t w = 0; w < width; ++w) sums[w] += row[w];
          } else {
            for (int64_t w = 0; w < width; ++w) sums[w] += row[w * x.stride[3]];
          }
        }
        float* out_row = py + y.at(n, c, oy, 0);
        for (int64_t ox = 0; ox < y.size[3]; ++ox) {
          const int64_t w0 = bin_start(ox, width, y.size[3]), w1 = bin_end(ox, width, y.size[3]);
          float sum = 0.0f;
          for (int64_t w = w0; w < w1; ++w) sum += sums[w];
          out_row[ox * y.stride[3]] = sum / static_cast<float>((h1 - h0) * (w1 - w0));
        }
      }
    }
  });
  return ok;
}

}  // namespace

// _adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _adaptive_avg_pool2d_out(rt::KernelContext& context, const rt::Tensor& self,
                                     rt::IntList output_size, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!portable::plan_adaptive_avg_pool2d<Dtypes>(in, self, output_size, out) || out.numel() == 0) {
    return out;
  }
  const portable::Planes4 x(self), y(out);
  Dtypes::run(context, kOp, self.dtype(), [&](auto tag) {
    static_assert(std::is_same<typename decltype(tag)::type, float>::value,
                  "only Float is claimed");
    if (x.stride[1] == 1 && y.stride[1] == 1 && x.size[1] > 1) {
      adaptive_avg_pool_channels_last(x, y, self.data_as<const float>(), out.data_as<float>());
    } else if (!adaptive_avg_pool(x, y, self.data_as<const float>(), out.data_as<float>())) {
      in.fail("out of memory for a row of column sums");
    }
  });
  return out;
}

}  // namespace optimized
