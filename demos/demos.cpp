// The gallery: every demo, in order.
#include "app/demo.hpp"

namespace demos {

std::unique_ptr<Demo> makeParticles(xfb::Device&);

const std::vector<DemoInfo>& registry() {
    static const std::vector<DemoInfo> demos = {
        {"particles", "Particles (interleaved)", makeParticles},
    };
    return demos;
}

} // namespace demos
