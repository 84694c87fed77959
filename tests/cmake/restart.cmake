# Restart gives the bits of an uninterrupted run: BATCHES straight, against HALF batches that write a
# statepoint, then a restart from it up to BATCHES (at NP ranks; the first half at HALF_NP ranks, one by
# default, so the statepoint also crosses rank counts). EXTRA arguments go to every run at NP ranks
# (e.g. --domains 2,1,1), and to the first half too when HALF_NP is NP. Then a restart with another
# seed must be refused, naming both, and one from an edited copy of the input with a hint that says so.
#   cmake -DKEFF=... -DMPIEXEC=... "-DMPIFLAGS=..." -DNP=2 [-DHALF_NP=2] "-DARGS=run;--particles;..;--inactive;.."
#         [-DEXTRA=--domains;2,1,1] -DBATCHES=10 -DHALF=5 -DOUT=dir -P restart.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(MAKE_DIRECTORY "${OUT}")
set(run ${MPIEXEC} -n ${NP} ${MPIFLAGS} ${KEFF} ${ARGS} ${EXTRA} --quiet)
if(HALF_NP AND HALF_NP EQUAL NP)
  set(half_run ${run})
else()
  set(half_run ${KEFF} ${ARGS} --quiet)
endif()
execute_process(COMMAND ${run} --batches ${BATCHES} --statepoint "" --json "${OUT}/straight.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the uninterrupted run failed (${rc}):\n${err}")
endif()
file(REMOVE "${OUT}/half.h5")
execute_process(COMMAND ${half_run} --batches ${HALF} --statepoint "${OUT}/half.h5"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0 OR NOT EXISTS "${OUT}/half.h5")
  message(FATAL_ERROR "the first half failed (${rc}) or wrote no statepoint:\n${err}")
endif()
execute_process(COMMAND ${run} --batches ${BATCHES} --restart "${OUT}/half.h5" --statepoint "${OUT}/end.h5"
                        --json "${OUT}/restarted.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the restart failed (${rc}):\n${err}")
endif()
file(READ "${OUT}/straight.json" a_json)
file(READ "${OUT}/restarted.json" b_json)
expect_same_results("${a_json}" "${b_json}" "${BATCHES} straight and ${HALF} + restart")

# Another seed is another run: refused with exit status 2 and a message naming both.
execute_process(COMMAND ${run} --batches ${BATCHES} --seed 987 --restart "${OUT}/half.h5" --statepoint ""
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out TIMEOUT 600)
if(NOT rc EQUAL 2 OR NOT err MATCHES "cannot restart from '.*half.h5': it was written by a run of .*seed 1\\).* this run .*seed 987")
  message(FATAL_ERROR "a statepoint of another seed was not refused as expected (exit ${rc}):\n${err}")
endif()
string(REGEX MATCHALL "keff: error" lines "${err}")
list(LENGTH lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one error message, got ${n}:\n${err}")
endif()
# An edited input (a line added; batches = would do the same) is another run too, and the refusal says
# that the input's text is what differs, and how to run more batches.
list(GET ARGS 1 input)
set(edited_said "")
if(input MATCHES "\\.toml$")
  file(READ "${input}" text)
  file(WRITE "${OUT}/edited.toml" "${text}\n# edited after the first half\n")
  set(edited ${ARGS})
  list(REMOVE_AT edited 1)
  list(INSERT edited 1 "${OUT}/edited.toml")
  execute_process(COMMAND ${KEFF} ${edited} --quiet --batches ${BATCHES} --restart "${OUT}/half.h5" --statepoint ""
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "the input file's text differs from the one that wrote the statepoint.*pass --batches N")
    message(FATAL_ERROR "an edited input was not refused with the hint (exit ${rc}):\n${err}")
  endif()
  set(edited_said ", an edited input too")
endif()
message("${HALF} + restart + ${BATCHES} at ${NP} rank(s) equals ${BATCHES} straight; another seed refused${edited_said}")
