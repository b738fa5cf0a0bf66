// Every program the engine creates is deleted again when its link fails: the user's program
// (Program) and the generated record-gather program of a primitive capture (whose constructor
// threw after glCreateProgram and leaked it before the one link helper, gl/shader.hpp). The link
// errors are real ones, provoked through the counting layer (xfbtest::failNextLinks), and the
// balance is counted there: glCreateProgram == glDeleteProgram once the objects are gone.
#include "gl_call_counter.hpp"
#include "gl_fixture.hpp"
#include "../unit/test_util.hpp"
#include "xfb_shaders.hpp"

using namespace xfb;
using namespace xfbtest;

namespace {

void requireBalanced(const GlCalls& calls) {
    INFO("measured: ", calls.describe());
    CHECK(calls.of("glCreateProgram") >= 1);
    CHECK(calls.of("glCreateProgram") == calls.of("glDeleteProgram"));
    CHECK(calls.of("glCreateShader") == calls.of("glDeleteShader"));
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "a Program whose link fails deletes the GL program it created") {
    resetGlCalls();
    failNextLinks(1);
    std::string msg = XFB_REQUIRE_ERROR(Program(dev, {std::string(xfb_shaders::capture_mesh_vert), {}, {}, "injected"}),
                                        ErrorCode::ProgramLink);
    failNextLinks(0);
    CHECK(contains(msg, "xfb_test_injected_link_failure")); // the linker's own log names the missing output
    requireBalanced(glCalls());
}

TEST_CASE_FIXTURE(GlTest, "a primitive capture whose gather program fails to link deletes it: no program leaks") {
    Program program(dev, {std::string(xfb_shaders::capture_mesh_vert), {}, {}, "mesh"});
    Buffer input(
        dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}}),
        3);
    Buffer out(dev,
               VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                          {attr(1), ComponentType::Float32, 3},
                                          {attr(2), ComponentType::Float32, 2}}),
               3);
    resetGlCalls();
    failNextLinks(1); // the gather's link: the user's program is linked already
    std::string msg = XFB_REQUIRE_ERROR(
        PrimitiveCapture(dev, program, {{&input, nullptr}, {nullptr, &out}}, {std::nullopt, Expansion::Engine}),
        ErrorCode::ProgramLink);
    failNextLinks(0);
    CHECK(contains(msg, "record-gather program does not link"));
    requireBalanced(glCalls());
}
