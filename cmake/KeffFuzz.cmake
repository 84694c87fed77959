# keff_fuzz_targets(): builds tests/fuzz with clang and libFuzzer when they are installed (Debian: clang,
# libclang-rt-<version>-dev; scripts/setup-deps.sh installs them) and registers one ctest per target.
# KEFF_FUZZ=OFF leaves them out; KEFF_FUZZ_SECONDS sets how long each runs in the suite.
include(ExternalProject)
option(KEFF_FUZZ "Build the libFuzzer targets of tests/fuzz and run them in ctest (needs clang's libFuzzer)" ON)
set(KEFF_FUZZ_SECONDS 30 CACHE STRING "Seconds each fuzz target runs in ctest")

function(keff_fuzz_targets)
  if(NOT KEFF_FUZZ)
    return()
  endif()
  find_program(KEFF_FUZZ_CXX NAMES clang++ clang++-19 clang++-16 clang++-14)
  if(NOT KEFF_FUZZ_CXX)
    message(STATUS "keff: no clang++: the fuzz tests are left out (install clang and libclang-rt-dev)")
    return()
  endif()
  # libFuzzer comes with the compiler runtime package, not with clang itself: try to link a target.
  set(_probe_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe)
  file(WRITE ${_probe_dir}/probe.cpp
       "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${KEFF_FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${_probe_dir}/probe.cpp -o ${_probe_dir}/probe
                  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT _rc EQUAL 0)
    message(STATUS "keff: ${KEFF_FUZZ_CXX} cannot link libFuzzer: the fuzz tests are left out (install libclang-rt-dev)")
    return()
  endif()
  message(STATUS "keff: fuzz targets built with ${KEFF_FUZZ_CXX}")
  set(_bin ${CMAKE_BINARY_DIR}/fuzz)
  ExternalProject_Add(keff_fuzz
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz
    BINARY_DIR ${_bin}
    CMAKE_ARGS -DCMAKE_CXX_COMPILER=${KEFF_FUZZ_CXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo
               -DKEFF_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD ON)
  set(_toml_seeds ${PROJECT_SOURCE_DIR}/examples ${CMAKE_CURRENT_SOURCE_DIR}/inputs ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad)
  set(_cli_seeds ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/cli_seeds)
  foreach(_target IN ITEMS fuzz_toml_reader fuzz_cli_options fuzz_text_library fuzz_restart_check fuzz_tally_show)
    set(_corpus ${_bin}/corpus/${_target})
    file(MAKE_DIRECTORY ${_corpus})
    set(_seeds ${_toml_seeds})
    if(_target STREQUAL "fuzz_cli_options")
      set(_seeds ${_cli_seeds})
    elseif(_target STREQUAL "fuzz_text_library")
      set(_seeds ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/text_seeds)
    elseif(_target STREQUAL "fuzz_restart_check" OR _target STREQUAL "fuzz_tally_show")
      set(_seeds "")  # from nothing: the input is raw values
    endif()
    add_test(NAME ${_target}
             COMMAND ${_bin}/${_target} -max_total_time=${KEFF_FUZZ_SECONDS} -timeout=10 -rss_limit_mb=2048
                     -print_final_stats=1 -artifact_prefix=${_bin}/ ${_corpus} ${_seeds})
    set_tests_properties(${_target} PROPERTIES LABELS "fuzz;bad-input" TIMEOUT 300
                         ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0;UBSAN_OPTIONS=print_stacktrace=1")
  endforeach()
endfunction()
