// The fission-bank exchange at any rank count: however the sorted bank is split over ranks (unevenly,
// some ranks empty, M below or above N), every rank ends up with exactly the sites a single rank's comb
// would give its slice, with one population or several (each combed from its own sites). Also the
// agreement on a failure seen by one rank only.
#include <gtest/gtest.h>

#include "kernels/source_select.hpp"
#include "mpi/bank_exchange.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace keff {
namespace {

using Exec = BankExchange::Exec;
using Mem = BankExchange::Mem;

// How many of the m global sites rank r holds: deliberately uneven, and rank 1 holds none when `gap`.
std::vector<std::int64_t> split(std::int64_t m, int size, bool gap) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(size), 0);
  std::int64_t left = m;
  for (int r = 0; r < size; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    if (r == size - 1) {
      counts[ur] = left;
    } else if (!(gap && r == 1)) {
      counts[ur] = std::min(left, (m * (r + 2)) / (3 * size));
    }
    left -= counts[ur];
  }
  return counts;
}

// Runs one exchange of a bank whose global site j has parent j; returns the parents of this rank's
// new source.
std::vector<std::int64_t> exchange(BankExchange& x, const Communicator& comm, const Comb& comb, bool gap,
                                   bool overlapped) {
  const std::int64_t m = comb.m(), n = comb.n();
  const auto counts = split(m, comm.size(), gap);
  std::int64_t first = 0;
  for (int r = 0; r < comm.rank(); ++r) first += counts[static_cast<std::size_t>(r)];
  const std::int64_t mine = counts[static_cast<std::size_t>(comm.rank())];
  Kokkos::View<Site*, Mem> bank("keff::test::bank", static_cast<std::size_t>(mine) + 1);
  Kokkos::parallel_for(
      "keff::test::fill_bank", Kokkos::RangePolicy<Exec>(0, static_cast<int>(mine)),
      KOKKOS_LAMBDA(int i) { bank(i).parent = first + i; });
  const EvenSplit histories(n, comm.size());
  const IndexRange target = histories.part(comm.rank());
  Kokkos::View<Site*, Mem> next("keff::test::next", static_cast<std::size_t>(target.count));
  x.post(Exec(), bank, mine, next, histories, comb);
  if (overlapped) {
    while (!x.progress()) {
    }
  }
  x.finish();
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, next);
  std::vector<std::int64_t> parents;
  for (std::size_t i = 0; i < host.extent(0); ++i) parents.push_back(host(i).parent);
  return parents;
}

TEST(BankExchange, EqualsSingleRankCombForAnySplit) {
  const Communicator comm;
  BankExchange x(comm);
  const std::int64_t n = 1000;
  for (const std::int64_t m : {std::int64_t(1), std::int64_t(7), n / 3, n - 1, n, n + 1, 3 * n}) {
    for (const bool gap : {false, true}) {
      for (const bool overlapped : {false, true}) {
        const Real xi = 0.37 + 0.01 * static_cast<Real>(m % 13);
        const auto got = exchange(x, comm, whole_bank_comb(xi, m, n), gap, overlapped);
        const IndexRange target = EvenSplit(n, comm.size()).part(comm.rank());
        ASSERT_EQ(static_cast<std::int64_t>(got.size()), target.count);
        for (std::int64_t i = 0; i < target.count; ++i) {
          ASSERT_EQ(got[static_cast<std::size_t>(i)], comb_index(target.first + i, xi, m, n))
              << "m = " << m << ", site " << target.first + i << ", gap " << gap << ", overlapped " << overlapped;
        }
      }
    }
  }
  // Every send has its receive; one rank sends nothing.
  EXPECT_EQ(comm.sum(x.counters().isend), comm.sum(x.counters().irecv));
  if (comm.size() == 1) {
    EXPECT_EQ(x.counters().isend, 0);
  }
}

// Four populations of 250 new sites, from bank ranges of 1, 249, 7 and 1200 sites: each new site comes
// from its own population's range, by that population's comb, whatever the split over ranks.
TEST(BankExchange, PopulationsCombTheirOwnSites) {
  const Communicator comm;
  BankExchange x(comm);
  Comb comb;
  for (int q = 0; q < 4; ++q) comb.xi[q] = 0.61 + 0.07 * q;
  comb.split = PopulationSplit{4, 1000};
  const std::int64_t sizes[] = {1, 249, 7, 1200};
  for (int q = 0; q < 4; ++q) comb.bank_first[q + 1] = comb.bank_first[q] + sizes[q];
  for (const bool gap : {false, true}) {
    const auto got = exchange(x, comm, comb, gap, true);
    const IndexRange target = EvenSplit(comb.n(), comm.size()).part(comm.rank());
    ASSERT_EQ(static_cast<std::int64_t>(got.size()), target.count);
    for (std::int64_t i = 0; i < target.count; ++i) {
      const std::int64_t site = target.first + i;
      const auto q = static_cast<std::size_t>(site / 250);
      const std::int64_t parent = got[static_cast<std::size_t>(i)];
      ASSERT_GE(parent, comb.bank_first[q]) << "site " << site;
      ASSERT_LT(parent, comb.bank_first[q + 1]) << "site " << site;
      ASSERT_EQ(parent, comb.bank_first[q] + comb_index(site - 250 * static_cast<std::int64_t>(q), comb.xi[q], sizes[q], 250))
          << "site " << site;
    }
  }
}

TEST(BankExchange, EmptyGlobalBankPostsNothing) {
  const Communicator comm;
  BankExchange x(comm);
  Kokkos::View<Site*, Mem> bank("keff::test::bank", 1), next("keff::test::next", 10);
  x.post(Exec(), bank, 0, next, EvenSplit(10 * comm.size(), comm.size()), whole_bank_comb(0.5, 0, 10 * comm.size()));
  EXPECT_FALSE(x.in_flight());
  EXPECT_TRUE(x.progress());
  x.finish();
}

TEST(BankExchange, FirstCombedFromIsTheCombBoundary) {
  for (const std::int64_t m : {1, 5, 999, 1000, 1001, 4000}) {
    const std::int64_t n = 1000;
    const Real xi = 0.731;
    for (std::int64_t j = 0; j <= m; j += std::max<std::int64_t>(1, m / 37)) {
      const std::int64_t i = first_combed_from(j, whole_bank_comb(xi, m, n));
      if (i < n) {
        EXPECT_GE(comb_index(i, xi, m, n), j);
      }
      if (i > 0) {
        EXPECT_LT(comb_index(i - 1, xi, m, n), j);
      }
    }
  }
  // Populations: a bisection over the whole piecewise comb.
  Comb comb;
  for (int q = 0; q < 3; ++q) comb.xi[q] = 0.731 - 0.3 * q;
  comb.split = PopulationSplit{3, 999};
  const std::int64_t sizes[] = {5, 1, 2000};
  for (int q = 0; q < 3; ++q) comb.bank_first[q + 1] = comb.bank_first[q] + sizes[q];
  for (std::int64_t j = 0; j <= comb.m(); ++j) {
    const std::int64_t i = first_combed_from(j, comb);
    if (i < comb.n()) {
      EXPECT_GE(comb.index(i), j);
    }
    if (i > 0) {
      EXPECT_LT(comb.index(i - 1), j);
    }
  }
}

TEST(Communicator, FirstErrorReachesEveryRank) {
  const Communicator comm;
  EXPECT_EQ(comm.first_error(""), "");
  // Only the last rank fails (at one rank: the only one).
  const std::string mine = comm.rank() == comm.size() - 1 ? "cannot open 'x' on rank " + std::to_string(comm.rank()) : "";
  EXPECT_EQ(comm.first_error(mine), "cannot open 'x' on rank " + std::to_string(comm.size() - 1));
  // Several fail: the lowest rank's message wins everywhere.
  EXPECT_EQ(comm.first_error("rank " + std::to_string(comm.rank())), "rank 0");
}

}  // namespace
}  // namespace keff
