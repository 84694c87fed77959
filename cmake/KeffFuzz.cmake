# keff_fuzz_targets(): builds tests/fuzz with clang and libFuzzer when they are installed (Debian: clang,
# libclang-rt-<version>-dev; scripts/setup-deps.sh installs them) and registers one ctest per target.
# KEFF_FUZZ=OFF leaves them out. Each test tries a fixed number of inputs from a fixed seed
# (tests/fuzz/run_target.sh), never a time budget, so its verdict does not depend on the machine's speed.
include(ExternalProject)
option(KEFF_FUZZ "Build the libFuzzer targets of tests/fuzz and run them in ctest (needs clang's libFuzzer)" ON)

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
  # Inputs per target: about 30 s each on a 2-core Debian 12 guest.
  set(_runs_fuzz_toml_reader 150000)
  set(_runs_fuzz_cli_options 200000)
  set(_runs_fuzz_text_library 60000)
  set(_runs_fuzz_restart_check 1000000)
  set(_runs_fuzz_tally_show 1000000)
  foreach(_target IN ITEMS fuzz_toml_reader fuzz_cli_options fuzz_text_library fuzz_restart_check fuzz_tally_show)
    set(_seeds ${_toml_seeds})
    if(_target STREQUAL "fuzz_cli_options")
      set(_seeds ${_cli_seeds})
    elseif(_target STREQUAL "fuzz_text_library")
      set(_seeds ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/text_seeds)
    elseif(_target STREQUAL "fuzz_restart_check" OR _target STREQUAL "fuzz_tally_show")
      set(_seeds "")  # from nothing: the input is raw values
    endif()
    set(_regressions ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regressions/${_target})
    if(EXISTS ${_regressions})
      list(APPEND _seeds ${_regressions})
    endif()
    add_test(NAME ${_target}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_target.sh ${_bin}/${_target} ${_runs_${_target}} ${_bin}
                     ${_bin}/corpus/${_target} ${_seeds})
    set_tests_properties(${_target} PROPERTIES LABELS "fuzz;bad-input" TIMEOUT 600
                         ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0;UBSAN_OPTIONS=print_stacktrace=1")
  endforeach()
endfunction()
