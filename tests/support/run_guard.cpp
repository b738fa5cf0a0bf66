// The doctest implementation for each test executable, with a listener that records what a run
// executed (see run_guard.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "run_guard.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace xfbtest {
namespace {

struct Verdict {
    bool ran = false;   // a test run happened (not a query such as --list-test-cases)
    unsigned cases = 0; // test cases that passed the filters and were executed
    int asserts = 0;
    std::string splittableNames; // names containing ';', found while listing
};
Verdict verdict;

struct RunGuardListener : doctest::IReporter {
    explicit RunGuardListener(const doctest::ContextOptions&) {}

    void report_query(const doctest::QueryData& q) override {
        for (unsigned i = 0; q.data && i < q.num_data; ++i)
            if (std::strchr(q.data[i]->m_name, ';'))
                verdict.splittableNames += std::string("\n  '") + q.data[i]->m_name + "'";
    }
    void test_run_end(const doctest::TestRunStats& s) override {
        verdict.ran = true;
        verdict.cases = s.numTestCasesPassingFilters;
        verdict.asserts = s.numAsserts;
        std::printf("xfb-test-run: cases=%u asserts=%d\n", s.numTestCasesPassingFilters, s.numAsserts);
        std::fflush(stdout);
    }
    void test_run_start() override {}
    void test_case_start(const doctest::TestCaseData&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

} // namespace

REGISTER_LISTENER("xfb-run-guard", 1, RunGuardListener);

int runGuarded(int argc, char** argv) {
    doctest::Context context(argc, argv);
    int status = context.run();
    if (!verdict.splittableNames.empty()) {
        // CMake splits test names at ';' into entries that select nothing: rename with ',' or ':'.
        std::fprintf(
            stderr,
            "xfb-test-run: test names containing ';' (CMake would split them into entries that run nothing):%s\n",
            verdict.splittableNames.c_str());
        return status ? status : 3;
    }
    if (verdict.ran && verdict.cases == 0) {
        std::fprintf(stderr, "xfb-test-run: no test case matched the filters: this run checked nothing\n");
        return status ? status : 4;
    }
    if (verdict.ran && verdict.asserts == 0) {
        std::fprintf(stderr, "xfb-test-run: the selected test cases made no assertion: this run checked nothing\n");
        return status ? status : 5;
    }
    return status;
}

} // namespace xfbtest
