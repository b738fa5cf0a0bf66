// parseVertexFormat(): the one validator of described formats (xfb-run's scenario reader and
// both WebAssembly modules call it; tests/tools and tests/web/page/webgpu.js check they agree).
#include "test_util.hpp"
#include "xfb/vertex_format.hpp"

#include <cmath>

using namespace xfb;

TEST_CASE("a described format resolves names, packs offsets and fills the stride") {
    VertexFormat f = parseVertexFormat({{"POSITION", std::nullopt, 3, std::nullopt},
                                        {"ATTR2", "uint32", 1, std::nullopt},
                                        {"TEXCOORD1", "int32", std::nullopt, 32}});
    REQUIRE(f.attributes.size() == 3);
    CHECK(f.attributes[0].semantic == Semantic::Position);
    CHECK(f.attributes[0].type == ComponentType::Float32);
    CHECK(f.attributes[0].offset == 0);
    CHECK(f.attributes[1].semantic == attr(2));
    CHECK(f.attributes[1].type == ComponentType::UInt32);
    CHECK(f.attributes[1].offset == 12);
    CHECK(f.attributes[2].semantic == Semantic::TexCoord1);
    CHECK(f.attributes[2].components == 4);
    CHECK(f.attributes[2].offset == 32);
    CHECK(f.stride == 48);
}

TEST_CASE("a bad described format names the attribute, the field and the rule") {
    auto message = [](std::vector<AttributeDescription> d, ErrorCode code = ErrorCode::InvalidArgument) {
        return XFB_REQUIRE_ERROR(parseVertexFormat(d, "buffers[1].format"), code);
    };
    CHECK(message({}) == "buffers[1].format must be a non-empty array of { semantic, type?, components?, offset? }");
    CHECK(message({{std::nullopt}}) == "buffers[1].format[0].semantic must be a string such as 'ATTR0' or 'POSITION'");
    CHECK(contains(message({{"ATTR0"}, {"ATTR32"}}), "buffers[1].format[1].semantic must be ATTR0..ATTR31, "));
    CHECK(message({{"ATTR0", "float16"}}) ==
          "buffers[1].format[0].type must be float32, int32 or uint32, got 'float16'");
    CHECK(message({{"ATTR0", std::nullopt, 17}}) == "buffers[1].format[0].components must be an integer 1..16, got 17");
    CHECK(message({{"ATTR0", std::nullopt, -0.25}}) ==
          "buffers[1].format[0].components must be an integer 1..16, got -0.25");
    CHECK(message({{"ATTR0", std::nullopt, std::nan("")}}) ==
          "buffers[1].format[0].components must be an integer 1..16, got a value that is not a number");
    CHECK(message({{"ATTR0", std::nullopt, std::nullopt, 1e300}}) ==
          "buffers[1].format[0].offset must be a non-negative integer number of bytes below 2^30, got Infinity or a "
          "number above 10^15");
    CHECK(contains(message({{"ATTR0"}, {"ATTR0"}}, ErrorCode::FormatInvalid), "ATTR0 appears twice"));
}
