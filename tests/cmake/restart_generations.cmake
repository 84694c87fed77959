# A run stopped in the middle of a batch of generations (settings.generations_per_batch) continues it
# bit for bit: SIGINT after generation 5 (batch 2 generation 2, the first active batch; the test point
# batch:<n> counts generations) writes a statepoint holding that batch's tallies so far, and a restart
# from it to 3 batches, at NP ranks, equals 3 batches straight. The message names the batch and the
# generation.
#   cmake -DKEFF=<keff_test_points> -DMPIEXEC=... "-DMPIFLAGS=..." -DNP=2 -DINPUT=<input with tallies>
#         -DSIGNAL_AT=tests/signal_at.sh -DOUT=dir -P restart_generations.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(args run ${INPUT} --particles 1000 --inactive 1 --generations-per-batch 3 --quiet)
execute_process(COMMAND ${SIGNAL_AT} batch:5=INT -- ${KEFF} ${args} --batches 1000 --statepoint "${OUT}/mid.h5"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130 OR NOT err MATCHES "interrupted by SIGINT after batch 2 generation 2 of 1000: statepoint written")
  message(FATAL_ERROR "SIGINT after generation 5: expected status 130 and the message naming batch 2 generation 2, "
                      "got '${rc}':\n${err}")
endif()
set(run ${MPIEXEC} -n ${NP} ${MPIFLAGS} ${KEFF} ${args} --batches 3)
execute_process(COMMAND ${run} --restart "${OUT}/mid.h5" --statepoint "" --json "${OUT}/restarted.json"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
execute_process(COMMAND ${run} --statepoint "" --json "${OUT}/straight.json"
                RESULT_VARIABLE rc2 ERROR_VARIABLE err2 TIMEOUT 600)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "the restart (${rc}) or the straight run (${rc2}) failed:\n${err}\n${err2}")
endif()
file(READ "${OUT}/restarted.json" a)
file(READ "${OUT}/straight.json" b)
expect_same_results("${a}" "${b}" "a restart from batch 2 generation 2 and 3 batches straight")
string(JSON generations GET "${a}" run generations_per_batch)
string(JSON records LENGTH "${a}" batches)
if(NOT generations EQUAL 3 OR NOT records EQUAL 9)
  message(FATAL_ERROR "expected 9 generation records of 3 a batch, got ${records} of ${generations}")
endif()
message("SIGINT at batch 2 generation 2, then a restart at ${NP} rank(s): the bits of 3 batches of 3 generations straight")
