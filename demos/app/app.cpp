// The demo shell: a GLFW window (GL 4.3 core natively, WebGL2 in the browser), Dear ImGui, an
// orbit camera, the common panel, and the frame loop. One executable holds every demo.
//   xfb-demos [--demo NAME] [--count N] [--backend tf|compute|auto|fragment] [--variant NAME] [--frames N --screenshot
//   FILE]
//   [--list]
// With --frames, it runs N frames with the camera held still, saves the screenshot and checks the
// run (frame_check.hpp): scene content outside the UI, motion, no error recorded; exit 1 otherwise.
// In the browser the same options come from the page's query string (?demo=flock&frames=60).
#include "demo.hpp"
#include "frame_check.hpp"
#include "gl.hpp"
#include "screenshot.hpp"
#include "step_timer.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <glm/gtc/matrix_transform.hpp>
#include <imgui.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

namespace demos {
namespace {

struct Options {
    std::string demo = "particles", screenshot, backend, variant;
    std::int64_t count = 0;
    int frames = 0; // 0: run until closed
};

class App {
public:
    explicit App(Options o) : options_(std::move(o)) {}

    // Shown in the panel; in a check run also recorded (and printed), which fails the run.
    void reportError(std::string what) {
        error_ = what;
        if (check_)
            check_->error(std::move(what));
        else if (!options_.frames)
            std::fprintf(stderr, "xfb-demos: %s\n", error_.c_str()); // a check run prints it once it starts
    }

    bool init() {
        if (!glfwInit()) return false;
#ifdef __EMSCRIPTEN__
        glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
        const char* glsl = "#version 300 es";
#else
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        const char* glsl = "#version 330 core";
#endif
        window_ = glfwCreateWindow(1280, 720, "xfb demos", nullptr, nullptr);
        if (!window_) return false;
        glfwMakeContextCurrent(window_);
        glfwSwapInterval(options_.frames ? 0 : 1);
        ImGui::CreateContext();
        ImGui::StyleColorsDark();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui_ImplGlfw_InitForOpenGL(window_, true);
        ImGui_ImplOpenGL3_Init(glsl);
        device_.emplace();
        select(options_.demo);
        if (demo_ && options_.frames) {
            check_.emplace(options_.frames, demo_->animates());
            if (!error_.empty()) check_->error(error_);
        }
        return demo_ != nullptr;
    }

    void select(const std::string& name) {
        bool known = false;
        for (std::size_t i = 0; i < registry().size(); ++i)
            if (name == registry()[i].name) index_ = int(i), known = true;
        demo_.reset();
        demo_ = registry()[std::size_t(index_)].create(*device_);
        error_.clear();
        if (!known) {
            reportError("no demo named '" + name + "' (--list names them)");
            ok_ = false;
        }
        if (options_.count) demo_->setCount(std::min(options_.count, demo_->maxCount()));
        if (!options_.backend.empty()) setBackend(options_.backend);
        distance_ = demo_->cameraDistance();
        history_.assign(120, 0.0f);
        if (!options_.variant.empty() && !demo_->setVariant(options_.variant)) {
            std::string known = "none";
            for (const std::string& v : demo_->variants()) known = (known == "none" ? "" : known + ", ") + v;
            reportError("demo '" + name + "' has no variant '" + options_.variant + "' (variants: " + known + ")");
            ok_ = false;
        }
    }

    void setBackend(const std::string& b) {
        try {
            const auto backend = xfb::enumFromName<xfb::Backend>(xfb::backendNames, b);
            if (!backend) throw xfb::Error(xfb::ErrorCode::InvalidArgument, "tf, compute, auto or fragment");
            demo_->setBackend(*backend);
        } catch (const xfb::Error& e) { reportError(std::string("backend '") + b + "': " + e.what()); }
    }

    // One frame: camera, simulation step (unless paused), render, UI, swap.
    bool frame() {
        glfwPollEvents();
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        ImGuiIO& io = ImGui::GetIO();
        if (!io.WantCaptureMouse && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
            yaw_ -= io.MouseDelta.x * 0.005f;
            pitch_ = std::clamp(pitch_ + io.MouseDelta.y * 0.005f, -1.4f, 1.4f);
        } else if (!paused_ && !check_) { // a check holds the camera: any motion is the simulation's
            yaw_ += 0.002f;
        }
        if (!io.WantCaptureMouse) distance_ *= std::pow(0.9f, io.MouseWheel);
        frame_.width = std::max(w, 1);
        frame_.height = std::max(h, 1);
        frame_.eye = distance_ *
                     glm::vec3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
        frame_.view = glm::lookAt(frame_.eye, glm::vec3(0), glm::vec3(0, 1, 0));
        frame_.projection = glm::perspective(0.8f, float(frame_.width) / float(frame_.height), 0.01f, 100.0f);

        if (!paused_ || stepOnce_) {
            timer_.begin();
            try {
                demo_->step(frame_);
            } catch (const std::exception& e) {
                reportError("step at frame " + std::to_string(frames_ + 1) + " threw: " + e.what());
                paused_ = true;
            }
            timer_.end();
            std::rotate(history_.begin(), history_.begin() + 1, history_.end());
            history_.back() = timer_.milliseconds();
            frame_.time += frame_.dt;
            stepOnce_ = false;
        }

        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, frame_.width, frame_.height);
        glClearColor(kClear[0], kClear[1], kClear[2], 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        demo_->render(frame_);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        panel();
        ImGui::Render();
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        ++frames_;
        if (check_) {
            check_->afterFrame(frames_, frame_.width, frame_.height);
            if (check_->isLast(frames_)) {
                finishCheck();
                return false;
            }
        }
        glfwSwapBuffers(window_);
        return !glfwWindowShouldClose(window_);
    }

    // Judges the run, prints the report (one JSON line) and every failure, saves the screenshot.
    void finishCheck() {
        for (std::string& failure : demo_->checkRun(check_->last())) check_->error(std::move(failure));
        const std::string fields = check_->judge(kClear);
        report_ = "{\"demo\": \"" + std::string(registry()[std::size_t(index_)].name) +
                  "\", \"variant\": " + jsonString(options_.variant) + ", \"frames\": " + std::to_string(frames_) +
                  ", \"count\": " + std::to_string(demo_->count()) + ", \"backend\": \"" +
                  std::string(xfb::backendName(demo_->stepping().backend)) + "\", " + fields +
                  ", \"png\": " + jsonString(options_.screenshot) + "}";
        std::printf("%s\n", report_.c_str());
        std::fflush(stdout);
        if (!options_.screenshot.empty() && check_->last()) check_->last()->savePng(options_.screenshot);
        for (const std::string& f : check_->failures()) std::fprintf(stderr, "xfb-demos: FAIL %s\n", f.c_str());
        ok_ = ok_ && check_->failures().empty();
    }

    void panel() {
        ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(430, 0), ImGuiCond_FirstUseEver);
        ImGui::Begin("xfb");
        if (ImGui::BeginCombo("demo", registry()[std::size_t(index_)].title)) {
            for (std::size_t i = 0; i < registry().size(); ++i)
                if (ImGui::Selectable(registry()[i].title, int(i) == index_)) {
                    options_.count = 0;
                    options_.variant.clear();
                    select(registry()[i].name);
                }
            ImGui::EndCombo();
        }
        int count = int(demo_->count());
        ImGui::SliderInt("elements", &count, 1000, int(demo_->maxCount()), "%d", ImGuiSliderFlags_Logarithmic);
        if (ImGui::IsItemDeactivatedAfterEdit()) demo_->setCount(count); // rebuild once, on release
        const Demo::Stepping stepping = demo_->stepping();
        const std::vector<xfb::Backend> offered = demo_->backends(device_->capabilities().compute);
        if (ImGui::BeginCombo("backend", std::string(xfb::backendName(stepping.backend)).c_str())) {
            for (xfb::Backend b : offered)
                if (ImGui::Selectable(std::string(xfb::backendName(b)).c_str(), b == stepping.backend))
                    setBackend(std::string(xfb::backendName(b)));
            ImGui::EndCombo();
        }
        ImGui::TextWrapped("%s", stepping.reason.c_str());
        ImGui::Checkbox("pause", &paused_);
        ImGui::SameLine();
        if (ImGui::Button("single step")) stepOnce_ = true;
        float peak = *std::max_element(history_.begin(), history_.end());
        ImGui::PlotLines(timer_.unit(), history_.data(), int(history_.size()), 0, nullptr, 0.0f, std::max(peak, 0.1f),
                         ImVec2(0, 50));
        ImGui::Text("step: %.3f %s, %d GL calls in the last pass", history_.back(), timer_.unit(), stepping.glCalls);
        if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", error_.c_str());
        if (ImGui::CollapsingHeader("buffer plan")) {
            const xfb::CapturePlan& plan = demo_->program().capture();
            ImGui::Text("%s mode", std::string(xfb::captureModeName(plan.mode)).c_str());
            for (const auto& a : demo_->program().attributes())
                ImGui::BulletText("in %s %s -> %s", a.type.name.c_str(), a.name.c_str(),
                                  xfb::semanticName(a.semantic).c_str());
            for (const auto& b : plan.buffers) {
                ImGui::BulletText("binding %d, stride %d bytes", b.binding, b.stride);
                for (const auto& f : b.fields)
                    ImGui::Text("      %s @%d (%d x %s)", f.varying.c_str(), f.offset, f.components,
                                std::string(xfb::componentTypeName(f.type)).c_str());
            }
        }
        ImGui::Separator();
        demo_->panel();
        ImGui::End();
    }

    int run() {
#ifdef __EMSCRIPTEN__
        emscripten_set_main_loop_arg(
            [](void* self) {
                auto* app = static_cast<App*>(self);
                if (!app->frame()) {
                    emscripten_cancel_main_loop();
                    // The gallery test reads the report, the errors and the two captured frames.
                    EM_ASM(
                        {
                            window.__demoDone = Object.assign(JSON.parse(UTF8ToString($1) || '{}'),
                                                              {ok : $0 != 0, frames : window.__demoFrames || []});
                        },
                        app->ok_ ? 1 : 0, app->report_.c_str());
                }
            },
            this, 0, true);
        return 0;
#else
        while (frame()) {}
        demo_.reset();
        device_.reset();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window_);
        glfwTerminate();
        return ok_ ? 0 : 1;
#endif
    }

private:
    Options options_;
    GLFWwindow* window_ = nullptr;
    std::optional<xfb::Device> device_;
    StepTimer timer_;
    std::unique_ptr<Demo> demo_;
    int index_ = 0, frames_ = 0;
    Frame frame_;
    float yaw_ = 0.6f, pitch_ = 0.35f, distance_ = 4;
    bool paused_ = false, stepOnce_ = false, ok_ = true;
    std::vector<float> history_;
    std::string error_, report_;
    std::optional<FrameCheck> check_; // only in a --frames run
    static constexpr float kClear[3] = {0.02f, 0.025f, 0.04f};
};

Options parse(int argc, char** argv) {
    Options o;
    std::vector<std::string> args(argv + 1, argv + argc);
#ifdef __EMSCRIPTEN__
    // ?demo=flock&frames=60&count=4096&backend=tf
    char* raw = reinterpret_cast<char*>(EM_ASM_INT({ return allocateUTF8(location.search.slice(1)); }));
    std::string query = raw;
    std::free(raw);
    for (std::size_t at = 0; at < query.size();) {
        std::size_t end = query.find('&', at), eq = query.find('=', at);
        if (end == std::string::npos) end = query.size();
        if (eq < end) args.insert(args.end(), {"--" + query.substr(at, eq - at), query.substr(eq + 1, end - eq - 1)});
        at = end + 1;
    }
#endif
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
        if (args[i] == "--demo")
            o.demo = args[i + 1];
        else if (args[i] == "--frames")
            o.frames = std::stoi(args[i + 1]);
        else if (args[i] == "--count")
            o.count = std::stoll(args[i + 1]);
        else if (args[i] == "--screenshot")
            o.screenshot = args[i + 1];
        else if (args[i] == "--backend")
            o.backend = args[i + 1];
        else if (args[i] == "--variant")
            o.variant = args[i + 1];
    }
    return o;
}

} // namespace
} // namespace demos

// Start-up failed: say why (and, in the browser, tell the gallery test at once).
static int fail(const std::string& why) {
    std::fprintf(stderr, "xfb-demos: %s\n", why.c_str());
#ifdef __EMSCRIPTEN__
    EM_ASM({ window.__demoDone = Object.assign({}, {ok : false, errors : [UTF8ToString($0)], frames : []}); },
           why.c_str());
#endif
    return 1;
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--list") == 0) {
        for (const auto& d : demos::registry()) std::printf("%s\t%s\n", d.name, d.title);
        return 0;
    }
    static demos::App app(demos::parse(argc, argv));
    try {
        if (!app.init()) return fail("no window or GL 4.3 context (run under Xvfb: xvfb-run -a ./xfb-demos)");
        return app.run();
    } catch (const std::exception& e) { return fail(e.what()); }
}
