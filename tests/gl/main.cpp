// One executable per API (see CMakeLists.txt): XFB_TEST_API_NAME picks the context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
    setenv("XFB_TEST_API", XFB_TEST_API_NAME, 0);
    doctest::Context context(argc, argv);
    return context.run();
}
