#include "runtime/executorch/tensor_view.h"

namespace rt_et {

rt::Status view_tensor(executorch::runtime::etensor::TensorImpl* impl, rt::Tensor* view) {
  RT_TRY(view->init(static_cast<rt::ScalarType>(impl->scalar_type()), impl->sizes().data(),
                    impl->dim_order().data(), static_cast<int>(impl->dim()),
                    static_cast<rt::ShapeDynamism>(impl->shape_dynamism())));
  view->set_data(impl->mutable_data());
  return rt::Status();
}

}  // namespace rt_et
