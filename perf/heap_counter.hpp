#pragma once
// Heap allocations of the whole process, counted by replacing operator new (heap_counter.cpp): for a
// benchmark that reports what each call allocates beside what it costs. Its own translation unit, so
// that no caller's code inlines the replacement.
#include <cstdint>

namespace keff::perf {

// operator new calls since the process started.
std::int64_t heap_allocations();

}  // namespace keff::perf
