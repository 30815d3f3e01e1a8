// runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR] [--iterations N]
//
// Loads one method, feeds it the inputs in argument order, runs it, and
// writes output0.npy, output1.npy, ... to DIR, or prints one line per output
// ("<index>: <dtype> <shape>", e.g. "0: Float (2, 2)"). With --iterations N
// it first runs N times and prints "mean time per run: <x> us", then sets
// the inputs again for the run whose outputs it reports. Any failure prints
// one line, "runner: <file>: <what failed>", and exits 2 for bad usage or
// unusable files (program, inputs), 1 for everything else.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "runtime/core/evalue.h"
#include "runtime/executor/method.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"
#include "runtime/runner/file_io.h"
#include "runtime/runner/npy.h"

namespace {

using rt::Error;
using rt::Status;

// Prints the one failure line; returns the exit code. Messages may quote names
// from the file: bytes outside printable ASCII become '?', so a hostile file can
// neither break the line nor send escape sequences to the terminal.
int report(const char* file, Status status) {
  char message[1024];
  snprintf(message, sizeof message, "%s", status.message());
  for (char* c = message; *c != '\0'; ++c) {
    if (static_cast<unsigned char>(*c - 0x20) >= 0x5f) *c = '?';
  }
  fprintf(stderr, "runner: %s: %s\n", file, message);
  return status.code() == Error::InvalidProgram || status.code() == Error::InvalidInput ? 2 : 1;
}

double now_us() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

Status set_input(rt::Method& method, size_t index, const char* path) {
  rt::FileData file;
  Status status = rt::read_file(path, &file);
  rt::Tensor array;  // parse_npy initializes it
  if (status.ok()) status = rt::parse_npy(file.bytes, file.size, &array);
  if (status.ok()) status = method.set_input(index, array);
  free(file.bytes);
  return status;
}

struct Options {
  const char* model = nullptr;
  const char* method = "forward";
  const char* output_dir = nullptr;
  long iterations = 0;  // 0: run once, print no timing
  size_t num_inputs = 0;
};

// Reads the command line into `options`. Given the loaded method, it also
// sets the inputs, in order (a second pass). Returns 0 or the exit code.
int parse(int argc, char** argv, Options* options, rt::Method* method) {
  options->num_inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (arg[0] != '-' && (options->model == nullptr || options->model == arg)) {
      options->model = arg;
      continue;
    }
    const char* value = argv[++i];  // argv[argc] is null
    char* end = nullptr;
    const Status bad(Error::InvalidInput, "unknown argument, or an option without a valid value");
    Status status;
    if (value == nullptr || arg[0] != '-') {
      status = bad;
    } else if (strcmp(arg, "--input") == 0) {
      if (method != nullptr) status = set_input(*method, options->num_inputs, value);
      arg = value;
      ++options->num_inputs;
    } else if (strcmp(arg, "--method") == 0) {
      options->method = value;
    } else if (strcmp(arg, "--output-dir") == 0) {
      options->output_dir = value;
    } else if (strcmp(arg, "--iterations") != 0 || (options->iterations = strtol(value, &end, 10)) < 1 ||
               *end != '\0') {
      status = bad;
    }
    if (!status.ok()) return report(arg, status);
  }
  if (options->model != nullptr) return 0;
  return report("usage", Status(Error::InvalidInput, "runner MODEL.pte [--method NAME] [--input FILE.npy]... "
                                                    "[--output-dir DIR] [--iterations N]"));
}

int run(int argc, char** argv, Options& options, rt::Program& program) {
  const rt::KernelRegistry registry(rt::selected_kernels());
  rt::Method method;
  // The generated table's order is checked when it is compiled (kernels_sorted in registry.h).
  Status status = method.load(program, options.method, registry);
  if (status.ok() && options.num_inputs != method.num_inputs()) {
    status = Status(Error::InvalidInput, "wrong number of --input files for the method");
  }
  if (!status.ok()) return report(options.model, status);
  if (const int code = parse(argc, argv, &options, &method)) return code;
  if (options.iterations > 0) {
    const double start = now_us();
    for (long i = 0; status.ok() && i < options.iterations; ++i) status = method.execute();
    if (!status.ok()) return report(options.model, status);
    printf("mean time per run: %.3f us\n", (now_us() - start) / static_cast<double>(options.iterations));
    // Planned memory may reuse an input's bytes for later values: set the
    // inputs again so the outputs below come from them, as after one run.
    if (const int code = parse(argc, argv, &options, &method)) return code;
  }
  status = method.execute();
  if (!status.ok()) return report(options.model, status);
  char text[4096];
  for (size_t i = 0; i < method.num_outputs(); ++i) {
    const rt::EValue& output = method.output(i);
    if (!output.is_tensor()) return report(options.model, Status(Error::NotSupported, "an output is not a tensor"));
    if (options.output_dir == nullptr) {
      rt::format_shape(text, output.to_tensor());
      printf("%zu: %s %s\n", i, rt::scalar_type_name(output.to_tensor().dtype()), text);
      continue;
    }
    snprintf(text, sizeof text, "%s/output%zu.npy", options.output_dir, i);
    status = rt::write_npy(text, output.to_tensor());
    if (!status.ok()) return report(text, status);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int code = parse(argc, argv, &options, nullptr)) return code;
  rt::FileData file;
  Status status = rt::read_file(options.model, &file);
  rt::Program program;
  if (status.ok()) status = rt::Program::load(rt::Span<const uint8_t>(file.bytes, file.size), &program);
  const int code = status.ok() ? run(argc, argv, options, program) : report(options.model, status);
  free(file.bytes);
  return code;
}
