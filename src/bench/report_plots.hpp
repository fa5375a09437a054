// The four plots of the bench report (memkit/bench.hpp), made from its figures, and the colour of
// each phase and process, which the report's tables share with the plots' legends.
#pragma once

#include <string>
#include <vector>

#include "memkit/bench.hpp"

namespace memkit::bench::detail {

// The same colour for a phase or a process everywhere on the page ("#rrggbb").
[[nodiscard]] std::string report_phase_color(const CompactionFigures& figures,
                                             const std::string& phase);
[[nodiscard]] std::string report_process_color(const CompactionFigures& figures,
                                               const std::string& step);

// The whole processes' steps in the order they first appear over the sizes.
[[nodiscard]] std::vector<std::string> report_process_names(const CompactionFigures& figures);

// "1.4× the inbox at 256 KiB"; empty when the inbox or the peak is 0.
[[nodiscard]] std::string report_times_the_inbox(double peak_bytes, const SizeFigures& size);

// Each an <svg> (report_chart.hpp): wall time, throughput and peak memory against the inbox's
// size, and the comparison's ratios, pair by pair, with their medians.
[[nodiscard]] std::string report_time_chart(const CompactionFigures& figures);
[[nodiscard]] std::string report_throughput_chart(const CompactionFigures& figures);
[[nodiscard]] std::string report_memory_chart(const CompactionFigures& figures);
[[nodiscard]] std::string report_ratio_chart(const CompactionFigures& figures);

}  // namespace memkit::bench::detail
