# Writes a C++ source file that returns a text file's bytes as a std::string_view, so an input file can
# be compiled into the executable and stay the one copy that is edited.
#   cmake -DIN=<text file> -DOUT=<.cpp> -DFUNCTION=<name> -P embed_text.cmake
# defines `std::string_view keff::<FUNCTION>()`.
file(READ "${IN}" text)
set(delimiter "keff_embedded")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains ')${delimiter}\"', which would end the raw string literal")
endif()
file(WRITE "${OUT}.tmp"
     "// Generated at build time from ${IN} by cmake/embed_text.cmake: edit that file, not this one.\n"
     "#include <string_view>\n\n"
     "namespace keff {\n\n"
     "std::string_view ${FUNCTION}() {\n"
     "  return R\"${delimiter}(${text})${delimiter}\";\n"
     "}\n\n"
     "}  // namespace keff\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
