// The two run summaries read one field list per record (io/output/run_results.hpp): every field of the
// exchanges, event transport and domains, and every estimator, appears in the text summary by the name
// the JSON summary keys it with, with the same value.
#include "output_samples.hpp"

#include "io/output/output.hpp"
#include "io/output/summary_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>

namespace keff {
namespace {

using namespace test_output;

// A run of 2 ranks with event transport and domains, so that every record is reported.
RunResults reported_everywhere() {
  RunResults r = sample_results();
  r.ranks = 2;
  r.exchange = {"overlapped", 7, 11, 13, 17, 3, 7, 1009, 19};
  r.transport = {"event", "material", "counting", "slots", 4096, 23, 2900, 3100, 1300, 2700};
  DomainReport d;
  d.mesh = {2, 1, 1};
  d.particles_sent = 501, d.messages_sent = 29, d.bytes_sent = 40080, d.sites_routed = 97;
  d.termination_checks = 5, d.confirmations = 2;
  d.pack = {"pack", 0.25, 0.5, 0.75}, d.mpi = {"mpi", 1, 2, 3}, d.idle = {"idle", 0.125, 0.25, 0.375};
  r.domains = d;
  return r;
}

// Each field of `record` as the JSON holds it under `object`, and in the text as "name value".
template <class R>
void expect_in_both(const R& record, const nlohmann::json& object, const std::string& text) {
  int fields = 0;
  for_each_field(record, [&](const char* name, const auto& v) {
    ++fields;
    SCOPED_TRACE(name);
    ASSERT_TRUE(object.contains(name));
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, std::string>) {
      EXPECT_EQ(object.at(name).template get<std::string>(), v);
      EXPECT_NE(text.find(std::string(name) + " " + v), std::string::npos) << text;
    } else if constexpr (std::is_integral_v<T>) {
      EXPECT_EQ(object.at(name).template get<T>(), v);
      EXPECT_NE(text.find(std::string(name) + " " + std::to_string(v)), std::string::npos) << text;
    } else {  // the domain mesh
      EXPECT_EQ(object.at(name).template get<T>(), v);
      EXPECT_NE(text.find(std::string(name) + " " + std::to_string(v[0]) + " x " + std::to_string(v[1]) + " x " +
                          std::to_string(v[2])),
                std::string::npos)
          << text;
    }
  });
  EXPECT_EQ(static_cast<int>(object.size()), fields + (std::is_same_v<R, DomainReport> ? 1 : 0));  // + "seconds"
}

TEST(SummaryText, EveryListedFieldIsInBothSummaries) {
  const RunResults r = reported_everywhere();
  TempDir dir;
  write_summary_json(dir.file("s.json"), r);
  const auto json = nlohmann::json::parse(std::ifstream(dir.file("s.json")));
  std::ostringstream out;
  write_summary_text(out, r);
  const std::string text = out.str();

  {
    SCOPED_TRACE("bank_exchange");
    expect_in_both(r.exchange, json.at("bank_exchange"), text);
  }
  {
    SCOPED_TRACE("transport");
    expect_in_both(r.transport, json.at("transport"), text);
  }
  {
    SCOPED_TRACE("domains");
    expect_in_both(*r.domains, json.at("domains"), text);
  }
  for_each_timing(*r.domains, [&](const char* phase, const PhaseTiming& t) {
    EXPECT_EQ(json.at("domains").at("seconds").at(phase).at("max").get<double>(), t.max);
    EXPECT_NE(text.find(std::string(phase) + " (s)"), std::string::npos) << phase;
  });
  for_each_estimator(r, [&](const char* name, const MeanStd& m, const BatchCorrelation&) {
    EXPECT_EQ(json.at("estimators").at(name).at("mean").get<double>(), m.mean) << name;
    const std::size_t row = text.find(std::string("k (").append(name).append(")"));
    ASSERT_NE(row, std::string::npos) << name << "\n" << text;
    EXPECT_NE(text.substr(row, text.find('\n', row) - row).find(format_k(m)), std::string::npos) << name;
  });
}

// One rank has no exchange to report, and history-based transport no rounds: the text says so, or
// nothing, rather than a line of zeros; the JSON keeps its fields.
TEST(SummaryText, OneRankHistoryRunPrintsNoCounts) {
  const RunResults r = sample_results();
  std::ostringstream out;
  write_summary_text(out, r);
  EXPECT_NE(out.str().find("Bank exchange: none (1 rank)"), std::string::npos);
  EXPECT_EQ(out.str().find("Transport:"), std::string::npos);
  EXPECT_EQ(out.str().find("Domains"), std::string::npos);
}

}  // namespace
}  // namespace keff
