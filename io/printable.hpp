#pragma once
// Text from a user (a TOML key, a command-line argument, a path) as it may appear in a one-line
// message: control characters are escaped C-style ("\0", "\t", "\x1b"), so a NUL cannot cut the message
// short when it becomes an exception's what(), and a newline or an escape sequence cannot forge
// another line or recolour a terminal. Bytes from 0x80 up (UTF-8) are kept.
#include <string>
#include <string_view>

namespace keff {

inline std::string printable(std::string_view text) {
  constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    out += '\\';
    switch (c) {
      case '\0': out += '0'; break;
      case '\t': out += 't'; break;
      case '\n': out += 'n'; break;
      case '\r': out += 'r'; break;
      default:
        out += 'x';
        out += hex[u >> 4];
        out += hex[u & 0xf];
    }
  }
  return out;
}

}  // namespace keff
