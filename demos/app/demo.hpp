#pragma once
// The demo interface: the app shell (app.cpp) owns the window, ImGui and the loop; a demo owns
// its engine objects, steps its simulation and draws it.
#include "xfb/xfb.hpp"

#include <glm/glm.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace demos {

class Screenshot;

struct Frame {
    float dt = 1.0f / 60.0f; ///< simulation seconds per step
    float time = 0;          ///< simulation seconds since start
    glm::mat4 view{1}, projection{1};
    glm::vec3 eye{0};
    int width = 1, height = 1;
};

class Demo {
public:
    virtual ~Demo() = default;
    /// Runs one simulation step (one or more engine passes).
    virtual void step(const Frame& frame) = 0;
    /// Draws the current state into the bound framebuffer.
    virtual void render(const Frame& frame) = 0;
    /// Demo-specific ImGui widgets (the shell adds the common ones).
    virtual void panel() {}
    /// How the demo steps, as the common panel shows it: the backend, why, the last step's GL calls.
    struct Stepping {
        xfb::Backend backend = xfb::Backend::Auto;
        std::string reason;
        int glCalls = 0;
    };
    virtual Stepping stepping() = 0;
    /// The panel's and --backend's choice. @throws xfb::Error the engine's refusal
    virtual void setBackend(xfb::Backend backend) = 0;
    /// The backends the panel offers on a device (with compute or not).
    virtual std::vector<xfb::Backend> backends(bool compute) const {
        if (!compute) return {xfb::Backend::TransformFeedback};
        return {xfb::Backend::TransformFeedback, xfb::Backend::Compute, xfb::Backend::Auto};
    }
    /// The program whose buffer plan the panel shows.
    virtual const xfb::Program& program() = 0;
    /// Element count (the slider in the panel); setCount() rebuilds.
    virtual std::int64_t count() const = 0;
    virtual void setCount(std::int64_t n) = 0;
    virtual std::int64_t maxCount() const = 0;
    /// Named ways to run the same demo (skinning: "cache" or "captured"), chosen in the panel or
    /// with --variant / ?variant=. Empty: one way only. setVariant() returns false for an unknown name.
    virtual std::vector<std::string> variants() const { return {}; }
    virtual bool setVariant(const std::string&) { return false; }
    /// Whether the scene changes from step to step with the camera still. The demo tests require
    /// motion between two frames unless a demo says here that it does not animate.
    virtual bool animates() const { return true; }
    /// A check run's (--frames) own test of what the demo draws, beside the shell's (frame_check.hpp):
    /// called once after the last frame with its pixels (null if it was not captured); each string
    /// returned is a failure of the run. Default: nothing more to check.
    virtual std::vector<std::string> checkRun(const Screenshot* /*last*/) { return {}; }
    /// Camera distance that frames the scene.
    virtual float cameraDistance() const { return 4.0f; }
};

/// A demo stepping one Pipeline: the panel shows and sets that pipeline's backend.
class PipelineDemo : public Demo {
public:
    virtual xfb::Pipeline& pipeline() = 0;
    Stepping stepping() override {
        const auto& b = pipeline().backend();
        return {b.backend, b.reason, pipeline().lastStepGlCalls()};
    }
    void setBackend(xfb::Backend backend) override { pipeline().setBackend(backend); }
};

struct DemoInfo {
    const char* name; ///< for --demo and the gallery's ?demo=
    const char* title;
    std::function<std::unique_ptr<Demo>(xfb::Device&)> create;
};

/// Every demo, in gallery order (demos.cpp).
const std::vector<DemoInfo>& registry();

} // namespace demos
