// runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR] [--iterations N]
//
// Loads one method, feeds it the inputs in argument order, runs it, and
// writes output0.npy, output1.npy, ... to DIR, or prints one line per output
// ("<index>: <dtype> <shape>", e.g. "0: Float (2, 2)"). With --iterations N
// it runs N times, setting the inputs before every run (planned memory may
// reuse an input's bytes for later values), and prints
// "mean time per run: <x> us" then "min time per run: <x> us", execution
// alone; the outputs are those of the last run. Any failure prints one line,
// "runner: <file>: <what failed>", and exits 2 for bad usage or unusable
// files (program, inputs), 1 for everything else.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>

#include "runtime/core/evalue.h"
#include "runtime/executor/method.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"
#include "runtime/runner/file_io.h"
#include "runtime/runner/npy.h"

namespace {

using rt::Error;
using rt::Status;

// Enough for any benchmark; a larger count is a typo (or 99999999999999999999,
// which strtol would have saturated into a loop without end).
constexpr long kMaxIterations = 1000000000;

// Prints the one failure line; returns the exit code. The file name is the
// user's, escaped (\xNN for bytes outside printable ASCII, \\ for a
// backslash) so it can be told apart; the message may quote names from the
// file: bytes outside printable ASCII become '?'. Either way a hostile name
// can neither break the line nor send escape sequences to the terminal.
int report(const char* file, Status status) {
  char message[1024];
  snprintf(message, sizeof message, "%s", status.message());
  for (char* c = message; *c != '\0'; ++c) {
    if (static_cast<unsigned char>(*c - 0x20) >= 0x5f) *c = '?';
  }
  fputs("runner: ", stderr);
  for (const char* c = file; *c != '\0'; ++c) {
    const unsigned char byte = static_cast<unsigned char>(*c);
    if (byte == '\\') {
      fputs("\\\\", stderr);
    } else if (byte - 0x20u >= 0x5fu) {
      fprintf(stderr, "\\x%02x", byte);
    } else {
      fputc(byte, stderr);
    }
  }
  fprintf(stderr, ": %s\n", message);
  return status.code() == Error::InvalidProgram || status.code() == Error::InvalidInput ? 2 : 1;
}

double now_us() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

// "1" to "1000000000", digits only: no sign, space or suffix; 0 otherwise.
long parse_iterations(const char* text) {
  long value = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return 0;
    value = value * 10 + (*c - '0');
    if (value > kMaxIterations) return 0;  // checked per digit: never overflows
  }
  return value;
}

struct Options {
  const char* model = nullptr;
  const char* method = "forward";
  const char* output_dir = nullptr;
  long iterations = 0;  // 0: run once, print no timing
  size_t num_inputs = 0;
};

// Reads the command line into `options`. Returns 0 or the exit code.
int parse(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (arg[0] != '-' && options->model == nullptr) {
      options->model = arg;
      continue;
    }
    const char* value = argv[++i];  // argv[argc] is null
    if (value != nullptr && strcmp(arg, "--input") == 0) {
      ++options->num_inputs;
    } else if (value != nullptr && strcmp(arg, "--method") == 0) {
      options->method = value;
    } else if (value != nullptr && strcmp(arg, "--output-dir") == 0) {
      options->output_dir = value;
    } else if (value != nullptr && strcmp(arg, "--iterations") == 0) {
      options->iterations = parse_iterations(value);
      if (options->iterations == 0) {
        return report(arg, Status(Error::InvalidInput, "takes a whole number from 1 to 1000000000"));
      }
    } else {
      return report(arg, Status(Error::InvalidInput, "unknown argument, or an option without a value"));
    }
  }
  if (options->model != nullptr) return 0;
  return report("usage", Status(Error::InvalidInput, "runner MODEL.pte [--method NAME] [--input FILE.npy]... "
                                                    "[--output-dir DIR] [--iterations N]"));
}

// An input file, mapped, and the tensor over its data.
struct Input {
  rt::FileData file;
  rt::Tensor array;
};

// Sets every input of `method` from `inputs`.
Status set_inputs(rt::Method& method, const Input* inputs, size_t count, size_t* failed) {
  for (size_t i = 0; i < count; ++i) {
    const Status status = method.set_input(i, inputs[i].array);
    if (!status.ok()) {
      *failed = i;
      return status;
    }
  }
  return Status();
}

// Runs the loaded method as `options` say; `inputs` are read, `paths` name them.
int run_method(rt::Method& method, const Options& options, Input* inputs, const char* const* paths) {
  size_t failed = 0;
  Status status = set_inputs(method, inputs, options.num_inputs, &failed);
  if (!status.ok()) return report(paths[failed], status);
  const long runs = options.iterations > 0 ? options.iterations : 1;
  double total = 0, fastest = 0;
  for (long i = 0; i < runs; ++i) {
    // Every run sees the inputs afresh; only execute() is timed.
    if (i > 0) status = set_inputs(method, inputs, options.num_inputs, &failed);
    if (!status.ok()) return report(paths[failed], status);
    const double start = now_us();
    status = method.execute();
    const double took = now_us() - start;
    if (!status.ok()) return report(options.model, status);
    total += took;
    if (i == 0 || took < fastest) fastest = took;
  }
  if (options.iterations > 0) {
    // Other tools parse the first line: keep its format.
    printf("mean time per run: %.3f us\n", total / static_cast<double>(runs));
    printf("min time per run: %.3f us\n", fastest);
  }
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

// Reads the inputs named on the command line, then runs the method.
int run(int argc, char** argv, const Options& options, rt::Program& program) {
  const rt::KernelRegistry registry(rt::selected_kernels());
  rt::Method method;
  Status status = registry.validate();
  if (status.ok()) status = method.load(program, options.method, registry);
  if (status.ok() && options.num_inputs != method.num_inputs()) {
    status = Status(Error::InvalidInput, "wrong number of --input files for the method");
  }
  if (!status.ok()) return report(options.model, status);
  // Zeroed memory is a valid empty Input (null bytes, trivial tensor); every
  // one is constructed before use and destroyed below.
  const size_t count = options.num_inputs;
  Input* inputs = static_cast<Input*>(calloc(count + 1, sizeof(Input)));
  const char** paths = static_cast<const char**>(calloc(count + 1, sizeof(const char*)));
  if (inputs == nullptr || paths == nullptr) {
    free(inputs);
    free(paths);
    return report(options.model, Status(Error::OutOfMemory, "out of memory"));
  }
  for (size_t i = 0; i < count; ++i) new (&inputs[i]) Input();
  int code = 0;
  size_t read = 0;
  // The command line parsed: walk it as parse() did, the model, then pairs.
  bool model_seen = false;
  for (int i = 1; code == 0 && i < argc; ++i) {
    if (argv[i][0] != '-' && !model_seen) {
      model_seen = true;
      continue;
    }
    if (strcmp(argv[i++], "--input") != 0 || read == count) continue;
    const char* path = paths[read] = argv[i];
    Input& input = inputs[read++];
    status = input.file.open(path);
    if (status.ok()) status = rt::parse_npy(input.file.bytes(), input.file.size(), &input.array);
    if (!status.ok()) code = report(path, status);
  }
  if (code == 0) code = run_method(method, options, inputs, paths);
  for (size_t i = 0; i < count; ++i) inputs[i].~Input();
  free(inputs);
  free(paths);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int code = parse(argc, argv, &options)) return code;
  rt::FileData file;
  Status status = file.open(options.model);
  rt::Program program;
  if (status.ok()) status = rt::Program::load(rt::Span<const uint8_t>(file.bytes(), file.size()), &program);
  return status.ok() ? run(argc, argv, options, program) : report(options.model, status);
}
