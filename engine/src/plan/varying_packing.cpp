// The varying-vector limit: GLSL ES 1.00 appendix A.7's packing algorithm, as ANGLE applies it to
// WebGL programs (its VaryingPacking, strict mode), which decides whether a WebGL2 program links.
#include "xfb/capture_plan.hpp"

#include "vertex_wrapper.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

namespace xfb {

namespace {

// The packing order (ANGLE's VariableSortOrder): matrices whose larger side is 4, mat2, 4-component
// vectors, matrices whose larger side is 3, 3-, 2-, 1-component vectors.
int sortOrder(const VaryingShape& v) {
    if (v.rows > 1) { // a matrix: rows = its columns, columns = its rows
        const int side = std::max(v.rows, v.columns);
        return side == 4 ? 0 : side == 2 ? 1 : 3;
    }
    return v.columns == 4 ? 2 : v.columns == 3 ? 4 : v.columns == 2 ? 5 : 6;
}

// The columns a row of `v` takes: mat2 takes two whole rows (WebGL's strict rule).
int packedColumns(const VaryingShape& v) { return v.rows == 2 && v.columns == 2 ? 4 : std::clamp(v.columns, 1, 4); }

// Rows a value of `type` takes, its members flattened (memoised per struct: nesting must not multiply the work).
std::int64_t rowsOf(const ShaderInterface& shader, const GlslType& type,
                    std::map<std::string, std::int64_t, std::less<>>& memo, int depth = 0) {
    if (type.kind != ScalarKind::Struct)
        return type.columns * (type.kind == ScalarKind::Double && type.rows > 2 ? 2 : 1);
    if (auto m = memo.find(type.name); m != memo.end()) return m->second;
    std::int64_t rows = 0;
    if (auto s = shader.structs.find(type.name); s != shader.structs.end() && depth <= 256)
        for (const auto& m : s->second.members) rows += rowsOf(shader, m.type, memo, depth + 1) * m.elementCount();
    return memo[type.name] = rows;
}

// Struct outputs are flattened into their members, as the GL packs them; past this many members an
// output counts as whole rows (far beyond any limit, it never fits either way).
constexpr std::int64_t kMaxFlattened = 4096;

void addShape(const ShaderInterface& shader, const std::string& name, const GlslType& type, std::int64_t elements,
              std::vector<VaryingShape>& out, std::map<std::string, std::int64_t, std::less<>>& memo, int depth = 0) {
    if (type.kind == ScalarKind::Struct) {
        const std::int64_t rows = rowsOf(shader, type, memo) * elements;
        auto s = shader.structs.find(type.name);
        if (s == shader.structs.end() || depth > 256) return;
        if (rows > kMaxFlattened) return out.push_back({name, 1, 4, rows});
        for (const auto& m : s->second.members)
            addShape(shader, name + "." + m.name, m.type, elements * m.elementCount(), out, memo, depth + 1);
        return;
    }
    VaryingShape v{name, type.columns, type.rows, elements};
    if (type.kind == ScalarKind::Double)
        v.columns = std::min(4, 2 * v.columns), v.rows *= type.rows > 2 ? 2 : 1; // 64-bit: twice the components
    out.push_back(v);
}

// A rows x 4 grid of taken cells.
struct Grid {
    std::vector<unsigned char> cells; // 4 bits a row
    int height;
    explicit Grid(int rows) : cells(std::size_t(rows), 0), height(rows) {}
    bool isFree(int row, int column, int rows, int columns) const {
        const unsigned mask = ((1u << columns) - 1u) << column;
        for (int r = row; r < row + rows; ++r)
            if (cells[std::size_t(r)] & mask) return false;
        return true;
    }
    void take(int row, int column, int rows, int columns) {
        const unsigned mask = ((1u << columns) - 1u) << column;
        for (int r = row; r < row + rows; ++r) cells[std::size_t(r)] |= (unsigned char)(mask);
    }
    bool place(const VaryingShape& v) {
        const std::int64_t rows64 = std::int64_t(v.rows) * v.elements;
        if (rows64 > height || rows64 <= 0) return rows64 <= 0;
        const int rows = int(rows64), columns = packedColumns(v);
        if (columns >= 2) {
            // From the first row, aligned to column 0; 2-column ones then from the last row up in columns 2-3.
            for (int r = 0; r + rows <= height; ++r)
                if (isFree(r, 0, rows, columns)) return take(r, 0, rows, columns), true;
            if (columns == 2)
                for (int r = height - rows; r >= 0; --r)
                    if (isFree(r, 2, rows, 2)) return take(r, 2, rows, 2), true;
            return false;
        }
        // One column: the one whose free space holds it and leaves the least, at its lowest free rows.
        int contiguous[4] = {}, best[4] = {}, total[4] = {};
        for (int r = 0; r < height; ++r)
            for (int c = 0; c < 4; ++c) {
                if (cells[std::size_t(r)] & (1u << c)) {
                    contiguous[c] = 0;
                } else {
                    ++total[c];
                    best[c] = std::max(best[c], ++contiguous[c]);
                }
            }
        int column = 0;
        for (int c = 1; c < 4; ++c)
            if (best[c] >= rows && (best[column] < rows || total[c] < total[column])) column = c;
        if (best[column] < rows) return false;
        for (int r = 0; r + rows <= height; ++r)
            if (isFree(r, column, rows, 1)) return take(r, column, rows, 1), true;
        return false;
    }
};

// Every output in rows of its own: an upper bound that always packs.
std::int64_t ownRows(const std::vector<VaryingShape>& shapes) {
    std::int64_t sum = 0;
    for (const auto& v : shapes) sum += std::int64_t(v.rows) * v.elements;
    return sum;
}

} // namespace

std::vector<VaryingShape> varyingShapes(const ShaderInterface& shader, const CapturePlan& capture) {
    std::vector<VaryingShape> out;
    std::map<std::string, std::int64_t, std::less<>> memo;
    std::set<std::string, std::less<>> seen; // a redeclared name is one variable
    for (const auto& d : shader.outputs)
        if (!d.name.starts_with("gl_") && seen.insert(d.name).second)
            addShape(shader, d.name, d.type, d.elementCount(), out, memo);
    if (capture.mode == CaptureMode::Separate)
        for (const auto& v : capture.varyings)
            if (plan::packedInSeparateMode(v))
                out.push_back({std::string(plan::kPackedPrefix) + v.name, 1, v.components(), 1});
    // A declared layout's partial fields are outputs of their own beside the varying they copy
    // (NVIDIA keeps both: 17 vec4 parts of a captured vec4[17] fail its link at 32 rows).
    if (capture.declared)
        for (const auto& d : plan::driverList(capture, true).varyings)
            if (d.name.starts_with(plan::kPartPrefix)) out.push_back({d.name, 1, d.components, 1});
    return out;
}

bool varyingsFit(const std::vector<VaryingShape>& shapes, int rows) {
    if (rows < 0) return shapes.empty();
    if (ownRows(shapes) <= rows) return true; // also keeps hostile counts from building a huge grid
    std::vector<const VaryingShape*> order;
    for (const auto& v : shapes) order.push_back(&v);
    std::stable_sort(order.begin(), order.end(), [](const VaryingShape* a, const VaryingShape* b) {
        const int x = sortOrder(*a), y = sortOrder(*b);
        return x != y ? x < y : a->elements > b->elements;
    });
    Grid grid(rows);
    for (const auto* v : order)
        if (!grid.place(*v)) return false;
    return true;
}

std::int64_t varyingRows(const std::vector<VaryingShape>& shapes) {
    const std::int64_t upper = ownRows(shapes);
    if (upper > 4096) return upper;
    // The cells the outputs take, and the tallest one: nothing packs below either.
    std::int64_t cells = 0, tallest = 0;
    for (const auto& v : shapes) {
        cells += std::int64_t(v.rows) * v.elements * packedColumns(v);
        tallest = std::max(tallest, std::int64_t(v.rows) * v.elements);
    }
    std::int64_t lo = std::max((cells + 3) / 4, tallest), hi = upper;
    while (lo < hi) { // fits in hi; the packing only gains from more rows
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (varyingsFit(shapes, int(mid)))
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

} // namespace xfb
