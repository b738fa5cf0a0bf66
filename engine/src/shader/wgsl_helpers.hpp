#pragma once
// Internal: the WGSL functions a translation defines for GLSL operations WGSL has no built-in for
// (GLSL's mod, matrix constructors, inverse, component-wise matrix operations, ...). Each is
// written once, the first time it is needed, and named after what it does and its shapes.
#include "module.hpp"

#include <set>
#include <deque>
#include <string>

namespace xfb::shader {

class WgslHelpers {
public:
    /// The definitions so far, in the order first needed.
    const std::string& code() const { return code_; }

    std::string mod(int xRows, int yRows);                ///< GLSL's x - y * floor(x / y)
    std::string smoothstep(int rows);                     ///< GLSL's t * t * (3 - 2 t), as GLSL rounds it
    std::string mulHigh(int rows);                        ///< the high 32 bits of u32 x * y (vectors: per component)
    std::string diagonal(const Type& m);                  ///< matCxR(s): s on the diagonal
    std::string resize(const Type& to, const Type& from); ///< matCxR(m): upper-left part, identity elsewhere
    std::string inverse(int n);                           ///< inverse() of a matNxN (adjugate / determinant)
    std::string outerProduct(const Type& result);         ///< outerProduct(c, r): column j is c * r[j]
    std::string componentWise(const std::string& op, const Type& a, const Type& b); ///< + - / * per column
    std::string matrixEqual(const Type& m);                                         ///< every column equal
    /// Every member / element equal (a struct or an array; `structs` holds the module's definitions).
    std::string aggregateEqual(const Type& t, const std::deque<StructDef>& structs);
    /// `a == b` of any comparable type, as a bool expression.
    std::string equal(const std::string& a, const std::string& b, const Type& t, const std::deque<StructDef>& structs);

private:
    template<class F>
    std::string once(const std::string& name, F&& define) {
        if (names_.insert(name).second) code_ += define(name);
        return name;
    }
    std::string code_;
    std::set<std::string> names_;
};

} // namespace xfb::shader
