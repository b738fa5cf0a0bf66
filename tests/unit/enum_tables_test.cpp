// The enum tables (xfb/enum_tables.hpp): every enumerator's name comes from its row, the stable
// names did not change, and a name maps back to its enumerator.
#include "test_util.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/error.hpp"
#include "xfb/primitive_count.hpp"
#include "xfb/vertex_format.hpp"

using namespace xfb;

TEST_CASE("error codes keep their stable names, in declaration order") {
    CHECK(std::size(errorCodeNames) == 66);
    CHECK(errorCodeName(ErrorCode::ShaderSyntax) == "XFB_SHADER_SYNTAX");
    CHECK(errorCodeName(ErrorCode::SeparateComponentsDriver) == "XFB_SEPARATE_COMPONENTS_DRIVER");
    CHECK(errorCodeName(ErrorCode::BufferTooLarge) == "XFB_BUFFER_TOO_LARGE");
    CHECK(errorCodeName(ErrorCode::GlError) == "XFB_GL_ERROR");
    CHECK(errorCodeName(ErrorCode::Internal) == "XFB_INTERNAL");
    CHECK(errorCodeName(ErrorCode::FeedbackActive) == "XFB_FEEDBACK_ACTIVE");
    CHECK(errorCodeName(ErrorCode::VaryingVectors) == "XFB_VARYING_VECTORS");
    CHECK(errorCodeName(ErrorCode::LayoutConflict) == "XFB_LAYOUT_CONFLICT");
    CHECK(errorCodeName(ErrorCode::GeometryUnsupported) == "XFB_GEOMETRY_UNSUPPORTED");
    CHECK(errorCodeName(ErrorCode::RasterizedStream) == "XFB_RASTERIZED_STREAM");
    CHECK(errorCodeName(ErrorCode(66)) == "XFB_UNKNOWN"); // outside the table
    for (std::size_t i = 0; i < std::size(errorCodeNames); ++i) {
        CHECK(errorCodeName(ErrorCode(i)).starts_with("XFB_"));
        CHECK(enumFromName<ErrorCode>(errorCodeNames, errorCodeName(ErrorCode(i))) == ErrorCode(i));
    }
    Error e(ErrorCode::CountMismatch, "two counts");
    CHECK(std::string(e.what()) == "XFB_COUNT_MISMATCH: two counts");
}

TEST_CASE("draw modes, capture modes and component types round-trip through their names") {
    CHECK(drawModeName(DrawMode::TriangleStrip) == "triangle_strip");
    CHECK(drawModeName(DrawMode::LineLoop) == "line_loop");
    for (std::size_t i = 0; i < std::size(drawModeNames); ++i)
        CHECK(drawModeFromName(drawModeName(DrawMode(i))) == DrawMode(i));
    CHECK_FALSE(drawModeFromName("quads"));
    CHECK(captureModeName(CaptureMode::Interleaved) == "interleaved");
    CHECK(captureModeName(CaptureMode::Separate) == "separate");
    CHECK(componentTypeName(ComponentType::Float32) == "float32");
    CHECK(componentTypeName(ComponentType::UInt32) == "uint32");
    CHECK(enumName(componentTypeNames, ComponentType(7)) == "?");
    CHECK(enumFromName<ScalarKind>(scalarKindNames, "uint") == ScalarKind::UInt);
    CHECK(enumName(backendNames, 0) == "tf");
    CHECK(enumName(expansionNames, 2) == "engine");
}
