# A statepoint of one population, continued by a run whose populations are "auto" (which would choose 8
# for its particles): the run continues with one, and equals the straight run of one population.
#   cmake -DKEFF=... -DINPUT=... -DOUT=dir -P restart_auto_populations.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(MAKE_DIRECTORY "${OUT}")
set(base ${KEFF} run ${INPUT} --particles 16000 --inactive 1 --quiet)
foreach(step "--batches;4;--populations;1;--statepoint;${OUT}/straight.h5;--json;${OUT}/straight.json"
             "--batches;2;--populations;1;--statepoint;${OUT}/half.h5"
             "--batches;4;--restart;${OUT}/half.h5;--statepoint;${OUT}/end.h5;--json;${OUT}/restarted.json")
  execute_process(COMMAND ${base} ${step} RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "keff run ${step} failed (${rc}):\n${err}")
  endif()
endforeach()
file(READ "${OUT}/straight.json" a_json)
file(READ "${OUT}/restarted.json" b_json)
expect_same_results("${a_json}" "${b_json}" "4 batches of one population and 2 + a restart with populations auto")
