#include "xfb/xfb.hpp"
#include "xfb/headless_context.hpp"
#include <cstdio>
int main(int argc, char**) {
  try {
  xfb::HeadlessContext ctx(argc > 1 ? xfb::Api::OpenGLES30 : xfb::Api::OpenGL43Core);
  xfb::Device dev;
  auto& c = dev.capabilities();
  printf("%s | %s | %s es=%d %d.%d compute=%d sep=%d int=%d\n", ctx.platform().c_str(), c.version.c_str(), c.renderer.c_str(), c.es, c.major, c.minor, c.compute, c.limits.maxSeparateComponents, c.limits.maxInterleavedComponents);
  const char* src = "#version 300 es\nin vec4 p; in vec4 v; uniform float dt; out vec4 out_p; out vec4 out_v; void main(){ out_p = p + v*dt; out_v = v; }\n";
  xfb::Program prog(dev, {src});
  auto f = xfb::VertexFormat::interleaved({{xfb::attr(0)}, {xfb::attr(1)}});
  std::vector<float> d(8*4); for (int i=0;i<32;++i) d[i]=float(i);
  xfb::Buffer a(dev, f, 4, std::span<const float>(d)), b(dev, f, 4);
  xfb::Pipeline pipe(dev, prog, {{&a, &b}});
  prog.setUniform("dt", 0.5f);
  pipe.step(); auto r = pipe.stepChecked();
  auto out = a.readAs<float>();
  for (int i=0;i<8;++i) printf("%g ", out[i]); printf(" written=%ld\n", (long)r.written);
  } catch (std::exception& e) { printf("ERR %s\n", e.what()); return 1; }
}
