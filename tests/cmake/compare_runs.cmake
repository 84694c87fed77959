# Runs keff twice with different thread counts and requires bit-identical results: every batch's k
# estimators, entropy and leakage and the tallies (the JSON holds doubles with round-trip precision).
#   cmake -DKEFF=... -DARGS="run;input.toml;..." -DTHREADS_A=1 -DTHREADS_B=2 -DOUT=dir -P compare_runs.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(MAKE_DIRECTORY "${OUT}")
foreach(t IN ITEMS ${THREADS_A} ${THREADS_B})
  execute_process(COMMAND ${KEFF} ${ARGS} --quiet --statepoint "" --json "${OUT}/threads${t}.json"
                          --kokkos-num-threads=${t}
                  RESULT_VARIABLE rc TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "keff with ${t} thread(s) failed: ${rc}")
  endif()
  file(READ "${OUT}/threads${t}.json" json_${t})
endforeach()
expect_same_results("${json_${THREADS_A}}" "${json_${THREADS_B}}" "${THREADS_A} and ${THREADS_B} threads")
string(JSON n LENGTH "${json_${THREADS_A}}" batches)
string(JSON k GET "${json_${THREADS_A}}" k mean)
message("identical over ${n} batches with ${THREADS_A} and ${THREADS_B} threads (k = ${k})")
