// libFuzzer target: any bytes as a `keff run` command line (NUL-separated arguments) plus Kokkos'
// arguments and environment. Parsing, the overrides on the default problem, the rank-dependent limits
// and the Kokkos argument check must either pass or throw UsageError / InputError.
#include "io/input/input.hpp"
#include "src/cli/run_options.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::string> fuzz_environment;  // "NAME=value" entries the fake getenv serves

const char* fake_getenv(const char* name) {
  const std::string_view wanted(name);
  for (const auto& entry : fuzz_environment) {
    if (entry.size() > wanted.size() && entry.compare(0, wanted.size(), wanted) == 0 && entry[wanted.size()] == '=') {
      return entry.c_str() + wanted.size() + 1;
    }
  }
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto nul = rest.find('\0');
    args.emplace_back(rest.substr(0, nul));
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
  }
  // Arguments that look like environment entries feed the fake environment as well.
  fuzz_environment.clear();
  for (const auto& a : args) {
    if (a.find('=') != std::string::npos && !a.starts_with("-")) fuzz_environment.push_back(a);
  }
  std::vector<std::string_view> views(args.begin(), args.end());
  try {
    const keff::RunOptions options = keff::parse_run_options(views);
    keff::model::Problem problem = keff::default_problem();
    keff::apply_overrides(options, problem);
    for (const int ranks : {1, 3, 4096}) keff::check_run_limits(problem, ranks);
  } catch (const keff::UsageError&) {
  } catch (const keff::InputError&) {
  }
  std::vector<const char*> argv{"keff"};
  for (const auto& a : args) argv.push_back(a.c_str());
  // A fake machine of 2 hardware threads with OpenMP; the tools-library loader is a fake too (the fuzz
  // input must never make the process dlopen a path).
  keff::KokkosEnvironment environment;
  environment.getenv = fake_getenv;
  environment.hardware_threads = 2;
  environment.openmp = true;
  environment.tool_library_problem = [](const std::string& name) -> std::string {
    return name == "libtool.so" ? "" : "cannot open shared object file";
  };
  (void)keff::check_kokkos_arguments(static_cast<int>(argv.size()), argv.data(), environment);
  return 0;
}
