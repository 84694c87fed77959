#pragma once
// Contracts in device code, as Celeritas' CELER_EXPECT / CELER_ASSERT: checked in the debug preset (no
// NDEBUG), where a broken one aborts with its file, line and condition on the host or the device, and
// compiled out in release builds, where they cost nothing. KEFF_EXPECT states what a function needs of
// its arguments, KEFF_ASSERT what must hold inside it. They guard the indices a kernel computes and then
// writes through: level stacks, slot indices, sort keys, bank offsets.
#include <Kokkos_Core.hpp>

#define KEFF_EXPECT(...) KOKKOS_EXPECTS(__VA_ARGS__)
// 1 where the contracts are checked (Kokkos' own condition): for checks that need work of their own,
// e.g. a fast path compared with the slow one it replaces (`if constexpr (keff_contracts_checked)`).
#if !defined(NDEBUG) || defined(KOKKOS_ENFORCE_CONTRACTS) || defined(KOKKOS_ENABLE_DEBUG)
inline constexpr bool keff_contracts_checked = true;
#else
inline constexpr bool keff_contracts_checked = false;
#endif
#define KEFF_ASSERT(...) KOKKOS_ASSERT(__VA_ARGS__)
