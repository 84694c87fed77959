# A run stopped by SIGINT after batch HALF (sent at the point the run announces, tests/signal_at.sh),
# restarted at NP ranks, equals the uninterrupted run bit for bit. Unlike restart.cmake, both runs ask for
# the same batches: for settings whose meaning follows the batches (inactive = "auto" bounds its choice by
# half of them).
#   cmake -DKEFF=<keff_test_points> -DMPIEXEC=... "-DMPIFLAGS=..." -DNP=2 "-DARGS=run;input;..." -DHALF=15
#         -DSIGNAL_AT=tests/signal_at.sh -DOUT=dir -P restart_interrupted.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND ${KEFF} ${ARGS} --quiet --statepoint "" --json "${OUT}/straight.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the uninterrupted run failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${SIGNAL_AT} batch:${HALF}=INT -- ${KEFF} ${ARGS} --quiet --statepoint "${OUT}/half.h5"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 130 OR NOT EXISTS "${OUT}/half.h5")
  message(FATAL_ERROR "expected SIGINT after batch ${HALF} (status 130) and a statepoint, got ${rc}:\n${err}")
endif()
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${MPIFLAGS} ${KEFF} ${ARGS} --quiet --restart "${OUT}/half.h5" --statepoint ""
                        --json "${OUT}/restarted.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the restart failed (${rc}):\n${err}")
endif()
file(READ "${OUT}/straight.json" a_json)
file(READ "${OUT}/restarted.json" b_json)
expect_same_results("${a_json}" "${b_json}" "the straight run and ${HALF} batches + SIGINT + restart at ${NP} ranks")
