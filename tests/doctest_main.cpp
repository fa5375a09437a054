// The tests' main: doctest's, except that a run asked for named test cases fails when it finds
// none. ctest runs each test case by its name (doctest_discover_tests); a name that the discovery
// cuts (at a ';', which CMake takes for a list separator) or mangles would otherwise select nothing
// and pass without running.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

namespace {

unsigned selected = 0;  // test cases that passed the filters, told at the end of the run

// Listens for the end of the run, to read how many test cases the filters selected.
struct Selected : doctest::IReporter {
  explicit Selected(const doctest::ContextOptions& /*options*/) {}
  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    selected = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData& /*data*/) override {}
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& /*stats*/) override {}
  void test_case_exception(const doctest::TestCaseException& /*exception*/) override {}
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& /*data*/) override {}
  void log_message(const doctest::MessageData& /*data*/) override {}
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}
};

REGISTER_LISTENER("selected", 1, Selected);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;  // --help, --list-test-cases and the like
  bool named = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    named = named || arg.starts_with("--test-case=") || arg.starts_with("-tc=");
  }
  if (named && selected == 0) {
    std::fputs("no test case has the name asked for: it ran nothing\n", stderr);
    return 1;
  }
  return result;
}
