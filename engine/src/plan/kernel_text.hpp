#pragma once
// Internal: statements of a generated compute kernel written once and printed in GLSL or WGSL.
// A kernel skeleton (geometry_emit.hpp: a geometry program's emit and strip triangulation) is one
// description; what differs between the languages is only spelling, and that is here: braces (WGSL
// requires them around every body; GLSL keeps a lone statement on its `if` line), increments
// (`++x` / `x++`), typed locals (`uint x = v` / `let x = v`), private arrays.
#include <string>

namespace xfb::plan {

enum class KernelLanguage { Glsl, Wgsl };

class KernelText {
public:
    KernelText(KernelLanguage language, int indent) : language_(language), indent_(indent) {}

    bool wgsl() const { return language_ == KernelLanguage::Wgsl; }
    const std::string& text() const { return text_; }

    void line(const std::string& statement) { text_ += pad() + statement + ";\n"; } ///< `statement;`
    void open(const std::string& condition);                                        ///< `if (condition) {`
    void otherwise();                                                               ///< `} else {`
    void close();                                                                   ///< `}`
    /// One statement under a condition: `if (c) s;` in GLSL, braced in WGSL.
    void when(const std::string& condition, const std::string& statement);

    std::string increment(const std::string& name) const { return wgsl() ? name + "++" : "++" + name; }
    /// A local of a u32 value: `uint name = value` / `let name = value`.
    std::string local(const std::string& name, const std::string& value) const {
        return (wgsl() ? "let " : "uint ") + name + " = " + value;
    }
    /// A module-scope array of `n` u32 words: `uint name[n];` / `var<private> name: array<u32, n>;`.
    std::string privateWords(const std::string& name, int n) const;

private:
    std::string pad() const { return std::string(std::size_t(indent_) * 4, ' '); }
    KernelLanguage language_;
    int indent_;
    std::string text_;
};

} // namespace xfb::plan
