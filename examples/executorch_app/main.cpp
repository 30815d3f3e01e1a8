// executorch_app MODEL.pte [INPUT.bin]...
//
// An app written against ExecuTorch's own API (its Module, from the installed executorch
// package), running on a `runtime = "executorch"` target's selected kernels: it links the
// target's package (build/<target>/package/), whose library registers those kernels with
// ExecuTorch's runtime when it is loaded. Nothing here names our kernels; an app that linked
// ExecuTorch's all-operators library (libexecutorch_kernels_optimized.so) instead would be
// the same source.
//
// It loads the program (mapped), runs `forward` on the given inputs and prints every
// output. Each INPUT.bin holds the raw bytes of one input tensor, row-major, in the dtype
// and shape the method expects (numpy: `array.tobytes()`). Output i prints as the line
// "output <i>: <dtype> <numel>" followed by one value per line.
// Exit 0 on success; on any failure one line "executorch_app: <what failed>" and exit 1.

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>

namespace {

using executorch::aten::ScalarType;
using executorch::extension::Module;
using executorch::runtime::EValue;

int fail(const char* what, const char* detail) {
  fprintf(stderr, "executorch_app: %s: %s\n", what, detail);
  return 1;
}

bool read_file(const char* path, std::vector<uint8_t>* bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  bytes->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return !file.bad();
}

void print_values(const executorch::aten::Tensor& tensor) {
  for (ssize_t i = 0; i < tensor.numel(); ++i) {
    switch (tensor.scalar_type()) {
      case ScalarType::Float:
        printf("%.9g\n", static_cast<double>(tensor.const_data_ptr<float>()[i]));
        break;
      case ScalarType::Double:
        printf("%.17g\n", tensor.const_data_ptr<double>()[i]);
        break;
      case ScalarType::Long:
        printf("%lld\n", static_cast<long long>(tensor.const_data_ptr<int64_t>()[i]));
        break;
      case ScalarType::Int:
        printf("%d\n", tensor.const_data_ptr<int32_t>()[i]);
        break;
      default:
        printf("?\n");
        break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage", "executorch_app MODEL.pte [INPUT.bin]...");

  // 1. The program, mapped; `forward` loads on first use, resolving every operator against
  //    the kernels registered so far: the target's, registered when its library loaded.
  Module module(argv[1], Module::LoadMode::Mmap);
  auto meta = module.method_meta("forward");
  if (!meta.ok()) return fail(argv[1], "not a program with a forward method");
  if (static_cast<size_t>(argc - 2) != meta->num_inputs())
    return fail("usage", "wrong number of inputs");

  // 2. Inputs: tensors of the method's dtypes and shapes over the files' bytes.
  std::vector<std::vector<uint8_t>> bytes(meta->num_inputs());
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<EValue> inputs;
  for (size_t i = 0; i < meta->num_inputs(); ++i) {
    const char* path = argv[i + 2];
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) return fail(path, "the input is not a tensor");
    if (!read_file(path, &bytes[i])) return fail(path, "cannot read");
    if (bytes[i].size() != info->nbytes()) return fail(path, "size differs from the input's");
    std::vector<executorch::aten::SizesType> sizes(info->sizes().begin(), info->sizes().end());
    tensors.push_back(
        executorch::extension::from_blob(bytes[i].data(), std::move(sizes), info->scalar_type()));
    inputs.push_back(EValue(*tensors.back()));
  }

  // 3. Run, then print the outputs.
  auto outputs = module.forward(inputs);
  if (!outputs.ok()) return fail(argv[1], "forward failed (ExecuTorch's log says why)");
  for (size_t i = 0; i < outputs->size(); ++i) {
    const EValue& output = (*outputs)[i];
    if (!output.isTensor()) return fail(argv[1], "an output is not a tensor");
    const executorch::aten::Tensor& tensor = output.toTensor();
    printf("output %zu: %s %lld\n", i, executorch::runtime::toString(tensor.scalar_type()),
           static_cast<long long>(tensor.numel()));
    print_values(tensor);
  }
  return 0;
}
