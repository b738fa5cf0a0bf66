// One executable per API (see CMakeLists.txt): XFB_TEST_API_NAME picks the context.
#include "../support/run_guard.hpp"

#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    setenv("XFB_TEST_API", XFB_TEST_API_NAME, 0);
    // EGL gives the highest version compatible with a request (Mesa: ES 3.2 for 3.0). Mesa caps
    // the context at exactly ES 3.0 (no compute, GLSL ES 3.00) with this variable, read once per
    // process before the first context: the gles30 run covers the no-compute path natively.
    if (std::strcmp(XFB_TEST_API_NAME, "gles30") == 0) setenv("MESA_GLES_VERSION_OVERRIDE", "3.0", 0);
    // The single-pass ordered emit spins until a predecessor work group publishes, and llvmpipe
    // ends every loop of an invocation after 65535 iterations (compute/ordered_emit.hpp): on a
    // loaded machine a predecessor on a descheduled thread could end the spin early and a case
    // would fail by chance. ctest runs each case alone; these run llvmpipe on one thread, where a
    // tile's predecessors have finished (the H200 run covers the concurrent look-back).
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--test-case=ordered emit", 24) == 0) setenv("LP_NUM_THREADS", "1", 0);
    return xfbtest::runGuarded(argc, argv);
}
