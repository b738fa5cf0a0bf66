// Statements of a generated kernel in GLSL or WGSL (kernel_text.hpp).
#include "kernel_text.hpp"

namespace xfb::plan {

void KernelText::open(const std::string& condition) {
    text_ += pad() + "if (" + condition + ") {\n";
    ++indent_;
}

void KernelText::otherwise() { text_ += std::string(std::size_t(indent_ - 1) * 4, ' ') + "} else {\n"; }

void KernelText::close() {
    --indent_;
    text_ += pad() + "}\n";
}

void KernelText::when(const std::string& condition, const std::string& statement) {
    if (!wgsl()) return line("if (" + condition + ") " + statement);
    open(condition);
    line(statement);
    close();
}

std::string KernelText::privateWords(const std::string& name, int n) const {
    return wgsl() ? "var<private> " + name + ": array<u32, " + std::to_string(n) + ">;\n"
                  : "uint " + name + "[" + std::to_string(n) + "];\n";
}

} // namespace xfb::plan
