# Compile options shared by every keff target: warnings on, optionally fatal, optional sanitizers.
add_library(keff_options INTERFACE)
add_library(keff::options ALIAS keff_options)
target_compile_features(keff_options INTERFACE cxx_std_20)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(keff_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>)
  # No errno from math functions: keff never reads it, and without it the compiler inlines sqrt with no
  # branch to libm and may treat log and exp as pure. No result changes (perf/RESULTS.md, "Contention in
  # the hot loop").
  target_compile_options(keff_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-fno-math-errno>)
  if(KEFF_WARNINGS_AS_ERRORS)
    target_compile_options(keff_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
  if(KEFF_ENABLE_SANITIZERS)
    target_compile_options(keff_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(keff_options INTERFACE -fsanitize=address,undefined)
  endif()
endif()

# keff_add_mpi_test(<target> [NP 1 2 4] [SUFFIX s] [ENV VAR=value...] [ARGS ...]): one ctest entry
# <target>[s]_np<n> per rank count, oversubscribed so that 4 ranks run on a 2-core machine, one OpenMP
# thread per rank unless ENV sets its own. SUFFIX tells apart several entries of one target. OpenMP
# threads wait passively: with more threads than cores, spinning threads starve the ones working, and
# event-based transport, which launches many short kernels, slowed down a hundredfold without it.
set(KEFF_MPIEXEC_PREFLAGS --oversubscribe --bind-to none)
execute_process(COMMAND id -u OUTPUT_VARIABLE _keff_uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(_keff_uid STREQUAL "0")
  list(APPEND KEFF_MPIEXEC_PREFLAGS --allow-run-as-root)
endif()
function(keff_add_mpi_test target)
  cmake_parse_arguments(ARG "" "SUFFIX" "NP;ARGS;ENV" ${ARGN})
  if(NOT ARG_NP)
    set(ARG_NP 1 2 4)
  endif()
  foreach(np IN LISTS ARG_NP)
    add_test(NAME ${target}${ARG_SUFFIX}_np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${KEFF_MPIEXEC_PREFLAGS}
                     ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS} ${ARG_ARGS})
    set_tests_properties(${target}${ARG_SUFFIX}_np${np} PROPERTIES PROCESSORS ${np} LABELS "mpi"
                         ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive;${ARG_ENV}")
  endforeach()
endfunction()
