// The gallery: every demo, in order.
#include "app/demo.hpp"

namespace demos {

std::unique_ptr<Demo> makeParticles(xfb::Device&);
std::unique_ptr<Demo> makeFlock(xfb::Device&);
std::unique_ptr<Demo> makeCloth(xfb::Device&);
std::unique_ptr<Demo> makeTrails(xfb::Device&);
std::unique_ptr<Demo> makeSkinning(xfb::Device&);
std::unique_ptr<Demo> makeFireworks(xfb::Device&);

const std::vector<DemoInfo>& registry() {
    static const std::vector<DemoInfo> demos = {
        {"particles", "Particles (interleaved)", makeParticles},
        {"flock", "Flock (separate, all three roles)", makeFlock},
        {"cloth", "Cloth (Verlet on a grid)", makeCloth},
        {"trails", "Trails (ribbons from rings)", makeTrails},
        {"skinning", "Skinning cache (POINTS pass)", makeSkinning},
        {"fireworks", "Fireworks (a population on the GPU)", makeFireworks},
    };
    return demos;
}

} // namespace demos
