// The JSON writers of json_text.hpp.
#include "json_text.hpp"

namespace xfb::boundary {

void write(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            out += "\\u00";
            out += "0123456789abcdef"[c >> 4];
            out += "0123456789abcdef"[c & 15];
        } else {
            out += c;
        }
    }
    out += '"';
}
void write(std::string& out, bool b) { out += b ? "true" : "false"; }
void write(std::string& out, std::int64_t v) { out += std::to_string(v); }
void write(std::string& out, const Json& v) {
    out += v.text;
    out += v.close;
}

void next(Json& o, const char* key) {
    if (o.text.size() > 1) o.text += ',';
    if (!key) return;
    write(o.text, key);
    o.text += ':';
}

} // namespace xfb::boundary
