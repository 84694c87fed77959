// Sorting n items by small integer keys, as event transport (event queues by material and energy band)
// and the fission bank (sites by parent) do: keff's own counting sort against Kokkos' sorts, std::sort
// and a std::map, with the time and the allocations of one call.
//
//   sort_bench [--n N[,N...]] [--keys K]
//              [--sorters event_queue,counting,sort_by_key,sort_by_key_unique,binsort,std_sort,std_map]
//              [--min-seconds S] [--seed X]
//
// The items are 0..n-1 with keys uniform in [0, K) (K = 16384 by default: 8 materials x 2048 energy
// bands, the size of an event queue's key space). Each sorter produces the items in key order:
//   event_queue         the counting sort event transport runs (kernels/transport/event_queue.hpp,
//                       counting_sort_queue: counts by atomics, a scan, a scatter by atomics into
//                       preallocated buffers): the order within a key is the atomics'
//   counting            keff's stable counting sort (kernels/counting_sort.hpp): positions from the keys,
//                       then one scatter; preallocated scratch, stable, so the order is the same every run
//   sort_by_key         Kokkos::Experimental::sort_by_key on the int keys with the items as values:
//                       unstable, the order within a key is the algorithm's
//   sort_by_key_unique  the same on the unique 64-bit key (key, item): the order a bit-identical
//                       result needs from a comparison sort
//   binsort             Kokkos::BinSort with one bin per key (BinOp1D), create_permute_vector, then
//                       sort(items): order within a bin from atomics
//   std_sort            std::sort of (key, item) pairs, one host thread
//   std_map             inserting (key, item) into a std::map and reading it back in order
// Every call is timed after one untimed warm-up, repeated until --min-seconds (0.5) have passed and at
// least three calls were made. Allocations per call: Kokkos Views (a Kokkos Tools callback) and the
// heap (operator new, counted here). Each result is checked: keys non-decreasing, each item once, and
// for counting, sort_by_key_unique, std_sort and std_map the same order as the stable reference.
// Output: one line per sorter and n, "result sorter=... n=... keys=... seconds=... items_per_s=...
// kokkos_allocs=... heap_allocs=... checked=1".
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include "kernels/counting_sort.hpp"
#include "kernels/transport/event_queue.hpp"
#include "perf/heap_counter.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

std::atomic<std::int64_t> kokkos_allocations{0};

void count_kokkos_allocation(const Kokkos::Tools::SpaceHandle, const char*, const void*, const std::uint64_t) {
  ++kokkos_allocations;
}

using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;
using IntView = Kokkos::View<int*, Mem>;

struct Options {
  std::vector<std::int64_t> sizes{1000, 10000, 100000, 1000000, 10000000};
  int keys = 16384;
  std::vector<std::string> sorters{"event_queue", "counting", "sort_by_key", "sort_by_key_unique", "binsort", "std_sort", "std_map"};
  double min_seconds = 0.5;
  unsigned seed = 1;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sort_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--n") {
      o.sizes.clear();
      for (const auto& s : split(value())) o.sizes.push_back(std::stoll(s));
    } else if (a == "--keys") {
      o.keys = std::stoi(value());
    } else if (a == "--sorters") {
      o.sorters = split(value());
    } else if (a == "--min-seconds") {
      o.min_seconds = std::stod(value());
    } else if (a == "--seed") {
      o.seed = static_cast<unsigned>(std::stoul(value()));
    } else if (a.rfind("--kokkos", 0) != 0) {
      std::fprintf(stderr, "sort_bench: unknown option %s\n", a.c_str());
      std::exit(2);
    }
  }
  for (const auto n : o.sizes) {
    if (n < 1 || n > (std::int64_t{1} << 30)) {
      std::fprintf(stderr, "sort_bench: --n must lie in [1, 2^30]\n");
      std::exit(2);
    }
  }
  if (o.keys < 1) {
    std::fprintf(stderr, "sort_bench: --keys must be at least 1\n");
    std::exit(2);
  }
  return o;
}

// One sorter over one input: its preallocated buffers are made in its constructor (not timed), `run`
// sorts once, `result` gives the items in the order it left them.
struct Sorter {
  std::function<void()> run;
  std::function<std::vector<int>()> result;
  bool deterministic = true;  // the order within a key is fixed (the stable reference's)
};

// items(i) = i: the unsorted order each call starts from.
void fill_iota(const Exec& exec, const IntView& items, int n) {
  Kokkos::parallel_for("sort_bench::iota", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int i) { items(i) = i; });
}

std::vector<int> to_host(const IntView& v, std::int64_t n) {
  std::vector<int> out(static_cast<std::size_t>(n));
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.data(), out.size()),
                    Kokkos::subview(v, std::make_pair(std::int64_t{0}, n)));
  return out;
}

// The queue holds the items, its keys are the benchmark's; each call sorts the whole queue, as a round of
// event transport sorts its lookups.
Sorter event_queue_sorter(const Exec& exec, const IntView& keys, int n, int n_keys) {
  keff::EventQueues<Exec> q;
  q.queue = IntView("sort_bench::queue", n);
  q.sorted = IntView("sort_bench::sorted", n);
  q.keys = keys;
  q.key_offsets = IntView("sort_bench::key_offsets", static_cast<std::size_t>(n_keys) + 1);
  fill_iota(exec, q.queue, n);
  Sorter s;
  s.deterministic = false;
  s.run = [=] {
    keff::counting_sort_queue(exec, q, n);
    exec.fence();
  };
  s.result = [=] { return to_host(q.sorted, n); };
  return s;
}

Sorter counting_sorter(const Exec& exec, const IntView& keys, int n, int n_keys) {
  const int blocks = keff::counting_sort_blocks(exec, n);
  IntView block_counts("sort_bench::block_counts", static_cast<std::size_t>(n_keys) * blocks);
  IntView offsets("sort_bench::offsets", n_keys), position("sort_bench::position", n), items("sort_bench::items", n),
      sorted("sort_bench::sorted", n);
  fill_iota(exec, items, n);
  Sorter s;
  s.run = [=] {
    keff::stable_counting_sort(exec, Kokkos::View<const int*, Mem>(keys), n, n_keys, blocks, block_counts, offsets,
                               position);
    keff::scatter_by_position(exec, Kokkos::View<const int*, Mem>(position), n, Kokkos::View<const int*, Mem>(items),
                              sorted);
    exec.fence();
  };
  s.result = [=] { return to_host(sorted, n); };
  return s;
}

// Kokkos' sort_by_key sorts in place: each call first restores the unsorted keys and items (timed with
// it, as a caller that keeps its keys would have to).
template <class Key>
Sorter sort_by_key_sorter(const Exec& exec, const IntView& keys, int n, bool unique) {
  Kokkos::View<Key*, Mem> original("sort_bench::original_keys", n), work("sort_bench::work_keys", n);
  IntView items("sort_bench::items", n);
  Kokkos::parallel_for(
      "sort_bench::make_keys", Kokkos::RangePolicy<Exec>(exec, 0, n),
      KOKKOS_LAMBDA(int i) { original(i) = unique ? static_cast<Key>(keys(i)) * n + i : static_cast<Key>(keys(i)); });
  Sorter s;
  s.deterministic = unique;
  s.run = [=] {
    Kokkos::deep_copy(exec, work, original);
    fill_iota(exec, items, n);
    Kokkos::Experimental::sort_by_key(exec, work, items);
    exec.fence();
  };
  s.result = [=] { return to_host(items, n); };
  return s;
}

Sorter binsort_sorter(const Exec& exec, const IntView& keys, int n, int n_keys) {
  using Op = Kokkos::BinOp1D<IntView>;
  IntView items("sort_bench::items", n);
  Sorter s;
  s.deterministic = false;
  s.run = [=] {
    fill_iota(exec, items, n);
    Kokkos::BinSort<IntView, Op> bins(exec, keys, Op(n_keys, 0, n_keys), false);
    bins.create_permute_vector(exec);
    bins.sort(exec, items);
    exec.fence();
  };
  s.result = [=] { return to_host(items, n); };
  return s;
}

Sorter std_sort_sorter(const std::vector<int>& keys) {
  auto pairs = std::make_shared<std::vector<std::pair<int, int>>>(keys.size());
  Sorter s;
  s.run = [pairs, &keys] {
    for (std::size_t i = 0; i < keys.size(); ++i) (*pairs)[i] = {keys[i], static_cast<int>(i)};
    std::sort(pairs->begin(), pairs->end());
  };
  s.result = [pairs] {
    std::vector<int> out;
    out.reserve(pairs->size());
    for (const auto& p : *pairs) out.push_back(p.second);
    return out;
  };
  return s;
}

Sorter std_map_sorter(const std::vector<int>& keys) {
  auto order = std::make_shared<std::vector<int>>(keys.size());
  Sorter s;
  s.run = [order, &keys] {
    std::map<std::pair<int, int>, int> map;
    for (std::size_t i = 0; i < keys.size(); ++i) map.emplace(std::make_pair(keys[i], static_cast<int>(i)), static_cast<int>(i));
    std::size_t j = 0;
    for (const auto& entry : map) (*order)[j++] = entry.second;
  };
  s.result = [order] { return *order; };
  return s;
}

// Keys non-decreasing along the result, every item once, and, where the order is fixed, the reference's.
bool check(const std::vector<int>& result, const std::vector<int>& keys, const std::vector<int>& reference,
           bool deterministic) {
  if (result.size() != keys.size()) return false;
  std::vector<char> seen(keys.size(), 0);
  for (std::size_t i = 0; i < result.size(); ++i) {
    const int item = result[i];
    if (item < 0 || static_cast<std::size_t>(item) >= keys.size() || seen[static_cast<std::size_t>(item)]) return false;
    seen[static_cast<std::size_t>(item)] = 1;
    if (i > 0 && keys[static_cast<std::size_t>(result[i - 1])] > keys[static_cast<std::size_t>(item)]) return false;
  }
  return !deterministic || result == reference;
}

void bench(const Options& o, const Exec& exec, std::int64_t n64) {
  const int n = static_cast<int>(n64);
  std::vector<int> keys_host(static_cast<std::size_t>(n));
  std::mt19937_64 rng(o.seed);
  std::uniform_int_distribution<int> pick(0, o.keys - 1);
  for (auto& k : keys_host) k = pick(rng);
  IntView keys("sort_bench::keys", n);
  Kokkos::deep_copy(keys, Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(keys_host.data(), keys_host.size()));
  std::vector<int> reference(keys_host.size());
  for (int i = 0; i < n; ++i) reference[static_cast<std::size_t>(i)] = i;
  std::stable_sort(reference.begin(), reference.end(), [&](int a, int b) {
    return keys_host[static_cast<std::size_t>(a)] < keys_host[static_cast<std::size_t>(b)];
  });

  for (const std::string& name : o.sorters) {
    Sorter s;
    if (name == "event_queue") s = event_queue_sorter(exec, keys, n, o.keys);
    else if (name == "counting") s = counting_sorter(exec, keys, n, o.keys);
    else if (name == "sort_by_key") s = sort_by_key_sorter<int>(exec, keys, n, false);
    else if (name == "sort_by_key_unique") s = sort_by_key_sorter<std::int64_t>(exec, keys, n, true);
    else if (name == "binsort") s = binsort_sorter(exec, keys, n, o.keys);
    else if (name == "std_sort") s = std_sort_sorter(keys_host);
    else if (name == "std_map") s = std_map_sorter(keys_host);
    else {
      std::fprintf(stderr, "sort_bench: unknown sorter '%s'\n", name.c_str());
      std::exit(2);
    }
    exec.fence();
    s.run();  // warm-up: first-touch pages, lazily made scratch
    int calls = 0;
    const std::int64_t heap_before = keff::perf::heap_allocations(), kokkos_before = kokkos_allocations;
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0;
    while (calls < 3 || seconds < o.min_seconds) {
      s.run();
      ++calls;
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const double heap = static_cast<double>(keff::perf::heap_allocations() - heap_before) / calls;
    const double kokkos = static_cast<double>(kokkos_allocations - kokkos_before) / calls;
    const bool ok = check(s.result(), keys_host, reference, s.deterministic);
    std::printf("result sorter=%s n=%d keys=%d seconds=%.6g items_per_s=%.4g kokkos_allocs=%.3g heap_allocs=%.4g "
                "calls=%d checked=%d\n",
                name.c_str(), n, o.keys, seconds / calls, n / (seconds / calls), kokkos, heap, calls, ok ? 1 : 0);
    std::fflush(stdout);
    if (!ok) {
      std::fprintf(stderr, "sort_bench: %s left n=%d out of order\n", name.c_str(), n);
      std::exit(1);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const Options o = parse(argc, argv);
  Kokkos::Tools::Experimental::set_allocate_data_callback(count_kokkos_allocation);
  const Exec exec;
  std::printf("sort_bench: %s, concurrency %d, keys uniform in [0, %d)\n", Exec::name(), exec.concurrency(), o.keys);
  for (const auto n : o.sizes) bench(o, exec, n);
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
  return 0;
}
