// runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR] [--iterations N]
//
// The runner of a `runtime = "executorch"` target: the command line, output and exit codes
// of ours (runtime/runner/main.cpp), on ExecuTorch's runtime: the program mapped with its
// mmap data loader, one method loaded through Program/Method with planned buffers from the
// heap, the selected kernels registered by the generated registration linked beside it,
// the backends by their own libraries. Inputs and outputs are .npy files read and written
// by our runtime/runner/npy.h, through views of ExecuTorch's tensors.
//
// ExecuTorch reports a failure in its log; the runner keeps the log's last error line and
// prints it as its one line, "runner: <file>: <what failed>", exiting 2 for bad usage or
// unusable files (program, inputs), 1 for everything else.

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/executorch/tensor_view.h"
#include "runtime/runner/file_io.h"
#include "runtime/runner/npy.h"

namespace {

namespace et = ::executorch::runtime;
using EtImpl = et::etensor::TensorImpl;

constexpr long kMaxIterations = 1000000000;

// The error that explains ExecuTorch's next failure: the first it logged since the runner
// last cleared it (the lines after it describe the failed call's arguments), unless a
// kernel of ours failed: then the kernel's message (the adapter logs it after whatever
// ExecuTorch logged during the call, a refused resize say), the line our runner prints.
char g_cause[512];
bool g_cause_is_kernels = false;

void keep_errors(et_timestamp_t, et_pal_log_level_t level, const char* filename, const char*,
                 size_t, const char* message, size_t length) {
  if (level != kError && level != kFatal) return;
  const bool kernels = strstr(filename, "kernel_adapter.cpp") != nullptr;
  if (g_cause_is_kernels || (g_cause[0] != '\0' && !kernels)) return;
  g_cause_is_kernels = kernels;
  size_t kept = length < sizeof g_cause - 1 ? length : sizeof g_cause - 1;
  memcpy(g_cause, message, kept);
  while (kept > 0 && (message[kept - 1] == '\n' || message[kept - 1] == '\r')) --kept;
  g_cause[kept] = '\0';
}

void clear_cause() {
  g_cause[0] = '\0';
  g_cause_is_kernels = false;
}

// As runtime/runner/main.cpp: bytes outside printable ASCII as \xNN, a backslash as \\.
void print_escaped(const char* text, const char* after) {
  for (const char* c = text; *c != '\0'; ++c) {
    const unsigned char byte = static_cast<unsigned char>(*c);
    fprintf(stderr, byte == '\\' ? "\\\\" : byte - 0x20u < 0x5fu ? "%c" : "\\x%02x", byte);
  }
  fprintf(stderr, "%s", after);
}

int report(const char* file, const char* message, int code) {
  fprintf(stderr, "runner: ");
  print_escaped(file, ": ");
  print_escaped(message, "\n");
  return code;
}

// The cause ExecuTorch logged for `error`, else what failed and the error's number.
int report_executorch(const char* file, const char* what, et::Error error, int code) {
  if (g_cause[0] != '\0') return report(file, g_cause, code);
  char text[200];
  snprintf(text, sizeof text, "%s: ExecuTorch error 0x%x", what, static_cast<unsigned>(error));
  return report(file, text, code);
}

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

long parse_iterations(const char* text) {
  long value = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return 0;
    value = value * 10 + (*c - '0');
    if (value > kMaxIterations) return 0;
  }
  return value;
}

struct Options {
  const char* model = nullptr;
  const char* method = "forward";
  const char* output_dir = nullptr;
  long iterations = 0;
  std::vector<const char*> inputs;
};

int parse(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (arg[0] != '-' && options->model == nullptr) {
      options->model = arg;
      continue;
    }
    const char* value = argv[++i];
    if (value != nullptr && strcmp(arg, "--input") == 0) {
      options->inputs.push_back(value);
    } else if (value != nullptr && strcmp(arg, "--method") == 0) {
      options->method = value;
    } else if (value != nullptr && strcmp(arg, "--output-dir") == 0) {
      options->output_dir = value;
    } else if (value == nullptr || strcmp(arg, "--iterations") != 0) {
      return report(arg, "unknown argument, or an option without a value", 2);
    } else if ((options->iterations = parse_iterations(value)) == 0) {
      return report(value, "takes a whole number from 1 to 1000000000", 2);
    }
  }
  if (options->model != nullptr) return 0;
  return report("usage",
                "runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR] "
                "[--iterations N]",
                2);
}

// One input: the mapped .npy file and our view of its array, laid out in the dim order
// the method's input has (npy is row-major; a channels-last input gets a permuted copy),
// and an ExecuTorch tensor over those bytes, which set_input copies into the method.
struct Input {
  rt::FileData file;
  rt::Tensor array;
  std::vector<uint8_t> permuted;
  int32_t sizes[rt::Tensor::kMaxDims];
  uint8_t dim_order[rt::Tensor::kMaxDims];
  int32_t strides[rt::Tensor::kMaxDims];
  std::unique_ptr<EtImpl> impl;

  rt::Status open(const char* path, et::Span<const uint8_t> method_dim_order) {
    RT_TRY(file.open(path));
    RT_TRY(rt::parse_npy(file.bytes(), file.size(), &array));
    if (method_dim_order.size() == static_cast<size_t>(array.dim())) {
      rt::Tensor laid;
      RT_TRY(laid.init(array.dtype(), array.sizes().data(), method_dim_order.data(), array.dim(),
                       rt::ShapeDynamism::Static));
      if (!laid.is_contiguous()) {
        permuted.resize(laid.nbytes());
        laid.set_data(permuted.data());
        const size_t element = array.element_size();
        for (int64_t i = 0; i < array.numel(); ++i) {
          memcpy(permuted.data() + laid.offset_of(i) * element,
                 array.data_as<uint8_t>() + i * element, element);
        }
        array = laid;
      }
    }
    for (int d = 0; d < array.dim(); ++d) {
      sizes[d] = array.size(d);
      dim_order[d] = array.dim_order()[d];
      strides[d] = static_cast<int32_t>(array.stride(d));
    }
    impl.reset(new EtImpl(static_cast<et::etensor::ScalarType>(array.dtype()), array.dim(), sizes,
                          array.data(), dim_order, strides));
    return rt::Status();
  }
};

// Writes output `index` (a tensor) as DIR/output<index>.npy, or prints its dtype and shape.
int write_output(const Options& options, size_t index, const et::EValue& output) {
  if (!output.isTensor()) return report(options.model, "an output is not a tensor", 1);
  rt::Tensor view;
  rt::Status status = rt_et::view_tensor(output.toTensor().unsafeGetTensorImpl(), &view);
  if (!status.ok()) return report(options.model, status.message(), 1);
  char text[4096];
  if (options.output_dir == nullptr) {
    rt::format_shape(text, view);
    printf("%zu: %s %s\n", index, rt::scalar_type_name(view.dtype()), text);
    return 0;
  }
  snprintf(text, sizeof text, "%s/output%zu.npy", options.output_dir, index);
  status = rt::write_npy(text, view);
  return status.ok() ? 0 : report(text, status.message(), 1);
}

int run(Options& options) {
  {
    // Our FileData refuses what is no regular file (a named pipe would block the mmap
    // loader's open forever, a device could be endless) before a byte is read.
    rt::FileData probe;
    const rt::Status status = probe.open(options.model);
    if (!status.ok()) return report(options.model, status.message(), 2);
  }
  auto loader = executorch::extension::MmapDataLoader::from(options.model);
  if (!loader.ok()) return report(options.model, "cannot open or map the file", 2);
  auto program = et::Program::load(&loader.get(), et::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    return report_executorch(options.model, "not an ExecuTorch program", program.error(), 2);
  }
  auto meta = program->method_meta(options.method);
  if (!meta.ok()) return report(options.method, "the program has no method of this name", 2);
  std::vector<Input> inputs(options.inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto info = meta->input_tensor_meta(i);  // absent when the method has fewer inputs
    const rt::Status status = inputs[i].open(
        options.inputs[i], info.ok() ? info->dim_order() : et::Span<const uint8_t>());
    if (!status.ok()) return report(options.inputs[i], status.message(), 2);
  }
  // Planned buffers as the program sizes them; everything else from the heap.
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<et::Span<uint8_t>> spans;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    buffers.emplace_back(static_cast<size_t>(meta->memory_planned_buffer_size(i).get()));
    spans.emplace_back(buffers.back().data(), buffers.back().size());
  }
  et::HierarchicalAllocator planned({spans.data(), spans.size()});
  executorch::extension::MallocMemoryAllocator method_allocator;
  executorch::extension::MallocMemoryAllocator temp_allocator;
  et::MemoryManager memory(&method_allocator, &planned, &temp_allocator);
  clear_cause();
  auto method = program->load_method(options.method, &memory);
  if (!method.ok()) {
    return report_executorch(options.model, "loading the method", method.error(), 1);
  }
  if (inputs.size() != method->inputs_size()) {
    return report(options.model, "wrong number of --input files for the method", 2);
  }
  const long runs = options.iterations > 0 ? options.iterations : 1;
  int64_t total = 0, fastest = INT64_MAX;
  for (long run = 0; run < runs; ++run) {
    // Every run sees its inputs afresh (the plan may reuse their bytes); only execute()
    // is timed.
    clear_cause();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const et::Error error =
          method->set_input(et::EValue(executorch::aten::Tensor(inputs[i].impl.get())), i);
      if (error != et::Error::Ok) {
        return report_executorch(options.inputs[i], "setting the input", error, 2);
      }
    }
    const int64_t start = now_ns();
    const et::Error error = method->execute();
    const int64_t took = now_ns() - start;
    if (error != et::Error::Ok) {
      return report_executorch(options.model, "running the method", error, 1);
    }
    total += took;
    fastest = took < fastest ? took : fastest;
  }
  if (options.iterations > 0) {
    // Other tools parse the first line: keep its format.
    printf("mean time per run: %.3f us\nmin time per run: %.3f us\n",
           total / (1e3 * static_cast<double>(runs)), fastest / 1e3);
  }
  for (size_t i = 0; i < method->outputs_size(); ++i) {
    if (const int code = write_output(options, i, method->get_output(i))) return code;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int code = parse(argc, argv, &options)) return code;
  et::register_pal(et::PalImpl::create(&keep_errors, __FILE__));
  et::runtime_init();
  return run(options);
}
