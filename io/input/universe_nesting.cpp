// A depth-first walk over the universe fill graph (a cell fills one universe, or a lattice whose elements
// and outer universe it places one level down).
#include "io/input/universe_nesting.hpp"

#include <vector>

namespace keff {

namespace {

// Universes a cell places one level below its own.
std::vector<int> children_of(const model::Problem& p, const model::Cell& cell) {
  if (cell.fill_kind == FillKind::universe) return {cell.fill};
  if (cell.fill_kind != FillKind::lattice) return {};
  const model::Lattice& lat = p.lattices[static_cast<std::size_t>(cell.fill)];
  std::vector<int> out = lat.universes;
  if (lat.outer >= 0) out.push_back(lat.outer);
  return out;
}

// Finds cycles and, for every universe, how many levels it spans (itself included) and which of its
// cells leads to the deepest one.
class FillGraph {
 public:
  explicit FillGraph(const model::Problem& p)
      : p_(p), colour_(p.universes.size(), Colour::white), height_(p.universes.size(), 0),
        deepest_cell_(p.universes.size(), -1) {}

  // Levels below and including u; a cycle found on the way is kept in cycle_ and ends the walk.
  int height(int u) {
    const auto ui = static_cast<std::size_t>(u);
    if (colour_[ui] == Colour::black || cycle_) return height_[ui];
    colour_[ui] = Colour::grey;
    int best = 1;
    for (int c : p_.universes[ui].cells) {
      const model::Cell& cell = p_.cells[static_cast<std::size_t>(c)];
      for (int child : children_of(p_, cell)) {
        if (colour_[static_cast<std::size_t>(child)] == Colour::grey) {
          NestingProblem found;
          found.kind = NestingProblem::Kind::cycle;
          found.cell = c;
          found.lattice = cell.fill_kind == FillKind::lattice ? cell.fill : -1;
          found.universe = child;
          cycle_ = found;
          return best;
        }
        const int h = 1 + height(child);
        if (cycle_) return best;
        if (h > best) {
          best = h;
          deepest_cell_[ui] = c;
        }
      }
    }
    colour_[ui] = Colour::black;
    height_[ui] = best;
    return best;
  }

  // The cell whose fill opens level `max_geometry_levels` (0-based) on the deepest path from u.
  int cell_too_deep(int u) const {
    int cell = deepest_cell_[static_cast<std::size_t>(u)];
    for (int level = 0; level + 1 < max_geometry_levels && cell >= 0; ++level) {
      const model::Cell& c = p_.cells[static_cast<std::size_t>(cell)];
      int next = -1;
      for (int child : children_of(p_, c)) {
        if (next < 0 || height_[static_cast<std::size_t>(child)] > height_[static_cast<std::size_t>(next)]) next = child;
      }
      if (next < 0) return -1;
      cell = deepest_cell_[static_cast<std::size_t>(next)];
    }
    return cell;
  }

  const std::optional<NestingProblem>& cycle() const { return cycle_; }

 private:
  enum class Colour { white, grey, black };
  const model::Problem& p_;
  std::vector<Colour> colour_;
  std::vector<int> height_;
  std::vector<int> deepest_cell_;
  std::optional<NestingProblem> cycle_;
};

}  // namespace

std::optional<NestingProblem> find_nesting_problem(const model::Problem& p) {
  FillGraph graph(p);
  // Every universe, not only those reachable from the root, so a cycle is found wherever it is.
  for (std::size_t u = 0; u < p.universes.size() && !graph.cycle(); ++u) graph.height(static_cast<int>(u));
  if (graph.cycle()) return graph.cycle();
  const int levels = graph.height(p.root_universe);
  if (levels <= max_geometry_levels) return std::nullopt;
  NestingProblem deep;
  deep.kind = NestingProblem::Kind::too_deep;
  deep.levels = levels;
  deep.cell = graph.cell_too_deep(p.root_universe);
  return deep;
}

std::string describe(const model::Problem& p, const NestingProblem& problem) {
  const auto cell_text = [&](int c) {
    const model::Cell& cell = p.cells[static_cast<std::size_t>(c)];
    return "cell '" + cell.name + "' (" + cell.where.str() + ") in universe '" +
           p.universes[static_cast<std::size_t>(cell.universe)].name + "'";
  };
  if (problem.kind == NestingProblem::Kind::cycle) {
    return "universe '" + p.universes[static_cast<std::size_t>(problem.universe)].name + "' contains itself: " +
           cell_text(problem.cell) + " closes the cycle";
  }
  std::string text = "universes nest " + std::to_string(problem.levels) + " levels deep, more than the " +
                     std::to_string(max_geometry_levels) + " allowed";
  if (problem.cell >= 0) text += "; " + cell_text(problem.cell) + " fills level " + std::to_string(max_geometry_levels + 1);
  return text;
}

}  // namespace keff
