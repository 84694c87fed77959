# The folders stack in one order, each including only itself and those below it (README.md's "How it is
# built", the READMEs of src/ and io/). Every #include "..." of every source file under the layers is
# checked; an upward one fails with the file, the line's include and the two folders.
#   cmake -DROOT=<source dir> -P include_layers.cmake
set(layers  # lowest first
  kernels/vocabulary kernels/neutron/data kernels kernels/neutron/xs kernels/neutron/interactor kernels/neutron
  kernels/tally kernels/transport
  mpi
  io io/library io/library/ace io/thermal io/input io/output
  src/host src/params src/tally src/cmfd src/driver src/cli)

function(layer_of path out)
  get_filename_component(dir "${path}" DIRECTORY)
  list(FIND layers "${dir}" index)
  set(${out} ${index} PARENT_SCOPE)
endfunction()

set(upward "")
set(checked 0)
foreach(folder IN LISTS layers)
  file(GLOB sources RELATIVE "${ROOT}" "${ROOT}/${folder}/*.hpp" "${ROOT}/${folder}/*.cpp")
  foreach(source IN LISTS sources)
    layer_of("${source}" from)
    file(STRINGS "${ROOT}/${source}" includes REGEX "^#include \"[^\"]+\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" target "${line}")
      layer_of("${target}" to)
      if(to EQUAL -1)
        get_filename_component(dir "${target}" DIRECTORY)
        if(dir MATCHES "^(kernels|mpi|io|src)(/|$)")
          string(APPEND upward "\n  ${source}: ${target} is in no layer (add '${dir}' to the list)")
        endif()
      elseif(to GREATER from)
        list(GET layers ${from} a)
        list(GET layers ${to} b)
        string(APPEND upward "\n  ${source}: #include \"${target}\" (${a} -> ${b}, upward)")
      endif()
      math(EXPR checked "${checked} + 1")
    endforeach()
  endforeach()
endforeach()
if(upward)
  message(FATAL_ERROR "includes against the layer order (${layers}):${upward}")
endif()
message("${checked} includes checked: every one runs to its own folder or one below it")
