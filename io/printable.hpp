#pragma once
// Text from a user (a TOML key, a command-line argument, a path) as it may appear in a one-line
// message: control characters are escaped C-style ("\0", "\t", "\x1b"), so a NUL cannot cut the message
// short when it becomes an exception's what(), and a newline or an escape sequence cannot forge
// another line or recolour a terminal. Bytes from 0x80 up (UTF-8) are kept.
#include <cstdio>
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

// A double as a message quotes it: every digit it needs to read back to the same bits (%.17g).
inline std::string exact_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// Text read from a file (a statepoint's `input` attribute, names in a file someone may have edited) as it
// may appear in a message: printable, and cut to `max` bytes with a note of how much was left out, so a
// forged 5 MB string makes one short line.
inline std::string printable_cut(std::string_view text, std::size_t max = 200) {
  if (text.size() <= max) return printable(text);
  return printable(text.substr(0, max)) + "... (" + std::to_string(text.size() - max) + " more bytes)";
}

}  // namespace keff
