// The median ratio of a `--vs` comparison (memkit/bench.hpp).
#include <algorithm>

#include "memkit/bench.hpp"

namespace memkit::bench {

double median_ratio(const ComparisonFigures& comparison) {
  std::vector<double> ratios;
  for (const PairFigures& pair : comparison.pairs) {
    if (pair.memkit_us > 0) {
      ratios.push_back(static_cast<double>(pair.other_us) / static_cast<double>(pair.memkit_us));
    }
  }
  if (ratios.empty()) return 0;
  std::sort(ratios.begin(), ratios.end());
  const std::size_t mid = ratios.size() / 2;
  return ratios.size() % 2 == 1 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
}

}  // namespace memkit::bench
