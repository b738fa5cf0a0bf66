// A readback requested before a context loss: during the loss neither ready() nor take() may
// touch the dead copy (xfb/readback.hpp: take() throws ContextLost).
#include "gl_fixture.hpp"

#include "../unit/test_util.hpp"

using namespace xfb;
using namespace xfbtest;

TEST_CASE_FIXTURE(GlTest,
                  "a readback taken during a context loss refuses with ContextLost, before and after the restoration") {
    std::vector<float> data = pseudoRandom(4 * 16, -1.0f, 1.0f, 5);
    Buffer a(dev, vec4Format(0), 16, view(data));
    ReadbackRequest during = a.readAsync(), blocking = a.readAsync();
    dev.contextLost(); // the application's webglcontextlost / a reset notification
    // The GL context is in fact still there: a take() that read it would return the bytes.
    CHECK_FALSE(during.ready());
    std::string msg = XFB_REQUIRE_ERROR(during.take(), ErrorCode::ContextLost);
    CHECK(contains(msg, "ReadbackRequest::take"));
    CHECK(contains(msg, "readAsync"));
    XFB_REQUIRE_ERROR(blocking.take(), ErrorCode::ContextLost); // the blocking form refuses as well, without waiting
    dev.contextRestored();
    CHECK_FALSE(during.ready());
    XFB_REQUIRE_ERROR(during.take(), ErrorCode::ContextLost); // still refused: the copy died with the context
    ReadbackRequest fresh = a.readAsync();                    // a new one works (contents undefined after a restore)
    CHECK(fresh.take().size() == data.size() * sizeof(float));
}
