// app MODEL.pte [INPUT.bin]...
//
// A small program built against a target's package (build/<target>/package/): it loads a
// program, runs its `forward` method on the given inputs and prints every output. Each
// INPUT.bin holds the raw bytes of one input tensor, row-major, in the dtype and shape the
// method expects (numpy: `array.tobytes()`). Output i prints as the line
// "output <i>: <dtype> <numel>" followed by one value per line.
// Exit 0 on success; on any failure one line "app: <what failed>" and exit 1.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/scalar_type.h"
#include "runtime/executor/method.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"

namespace {

bool read_file(const char* path, std::vector<uint8_t>* bytes) {
  FILE* file = fopen(path, "rb");
  if (file == nullptr) return false;
  uint8_t chunk[1 << 16];
  size_t count;
  while ((count = fread(chunk, 1, sizeof chunk, file)) > 0)
    bytes->insert(bytes->end(), chunk, chunk + count);
  const bool ok = ferror(file) == 0;
  fclose(file);
  return ok;
}

int fail(const char* what, const char* detail) {
  fprintf(stderr, "app: %s: %s\n", what, detail);
  return 1;
}

void print_values(const rt::Tensor& tensor) {
  for (int64_t i = 0; i < tensor.numel(); ++i) {
    switch (tensor.dtype()) {
      case rt::ScalarType::Float:
        printf("%.9g\n", static_cast<double>(tensor.data_as<float>()[i]));
        break;
      case rt::ScalarType::Double:
        printf("%.17g\n", tensor.data_as<double>()[i]);
        break;
      case rt::ScalarType::Long:
        printf("%lld\n", static_cast<long long>(tensor.data_as<int64_t>()[i]));
        break;
      case rt::ScalarType::Int:
        printf("%d\n", tensor.data_as<int32_t>()[i]);
        break;
      case rt::ScalarType::Bool:
        printf("%d\n", tensor.data_as<bool>()[i] ? 1 : 0);
        break;
      default:
        printf("?\n");
        break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage", "app MODEL.pte [INPUT.bin]...");
  std::vector<uint8_t> file;
  if (!read_file(argv[1], &file)) return fail(argv[1], "cannot read");

  // 1. Load the program (the bytes must outlive it and every method loaded from it).
  rt::Program program;
  rt::Status status =
      rt::Program::load(rt::Span<const uint8_t>(file.data(), file.size()), &program);
  if (!status.ok()) return fail(argv[1], status.message());

  // 2. The kernels this target selected, registered by its generated code.
  const rt::KernelRegistry registry(rt::selected_kernels());
  status = registry.validate();

  // 3. Load a method: every operator is resolved against the registry here.
  rt::Method method;
  if (status.ok()) status = method.load(program, "forward", registry);
  if (!status.ok()) return fail(argv[1], status.message());
  if (static_cast<size_t>(argc - 2) != method.num_inputs())
    return fail("usage", "wrong number of inputs");

  // 4. Inputs: a tensor with the planned input's dtype and shape over our own bytes.
  std::vector<std::vector<uint8_t>> inputs(method.num_inputs());
  for (size_t i = 0; i < method.num_inputs(); ++i) {
    const char* path = argv[i + 2];
    if (!read_file(path, &inputs[i])) return fail(path, "cannot read");
    const rt::Tensor& planned = method.input(i).to_tensor();
    uint8_t row_major[rt::Tensor::kMaxDims];
    for (int d = 0; d < rt::Tensor::kMaxDims; ++d) row_major[d] = static_cast<uint8_t>(d);
    rt::Tensor value{};
    status = value.init(planned.dtype(), planned.sizes().data(), row_major, planned.dim(),
                        rt::ShapeDynamism::Static);
    if (status.ok() && value.nbytes() != inputs[i].size())
      return fail(path, "size differs from the input's");
    value.set_data(inputs[i].data());
    if (status.ok()) status = method.set_input(i, value);
    if (!status.ok()) return fail(path, status.message());
  }

  // 5. Run, then read the outputs.
  status = method.execute();
  if (!status.ok()) return fail(argv[1], status.message());
  for (size_t i = 0; i < method.num_outputs(); ++i) {
    const rt::EValue& output = method.output(i);
    if (!output.is_tensor()) return fail(argv[1], "an output is not a tensor");
    const rt::Tensor& tensor = output.to_tensor();
    printf("output %zu: %s %lld\n", i, rt::scalar_type_name(tensor.dtype()),
           static_cast<long long>(tensor.numel()));
    print_values(tensor);
  }
  return 0;
}
