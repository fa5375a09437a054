// Parses a memory file, lists its bullet units, and classifies it against a custodian budget.
#include <iostream>
#include <memkit/memkit.hpp>

int main() {
  const memkit::Document doc = memkit::parse_markdown(std::string(
      "# Memory Inbox\n\n- Use tabs\n- use tabs  \n- Keep CRLF\n  when the file has it\n"));
  for (const memkit::Unit& unit : doc.units()) {
    if (unit.kind != memkit::UnitKind::bullet_unit) continue;
    std::cout << unit.first_line << "-" << unit.last_line << "  " << *memkit::unit_key(doc, unit)
              << "\n";
  }
  const memkit::Budget budget = *memkit::custodian::budget_for("constraints.md");
  const std::uint64_t tokens = memkit::estimate_tokens(doc.bytes());
  std::cout << tokens << " tokens: " << memkit::budget_state_name(budget.classify(tokens)) << "\n";
  return memkit::render_markdown(doc) == doc.bytes() ? 0 : 1;
}
