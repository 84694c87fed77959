# A tally trigger (examples/INPUT.md, "`[[mesh]]` and `[[tally]]`"): the run goes on past settings.batches, batch by batch, until
# the trigger holds or settings.max_batches; it says which happened; and the same bits at 1 and 2 ranks,
# where every rank decides on the same sums, end it after the same batch. One trigger the run meets, one
# it cannot (max_batches reached); --batches ends the run where it says.
#   cmake -DKEFF=... -DMPIEXEC=... "-DMPIFLAGS=..." -DINPUT=<input with a 'whole' tally> -DOUT=dir -P tally_triggers.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(READ "${INPUT}" text)
foreach(case met unmet)
  if(case STREQUAL "met")
    # The whole problem's flux after 2, 3, 4 ... active batches of 1500 histories (seed 5, below): 0.42 %,
    # 0.39 %, 0.29 % ... With one inactive batch the source has not settled and the error of this small
    # lattice's flux wanders from seed to seed (0.2 % to 2 % at batch 3 over seeds 1 to 8): the seed is
    # one whose error first falls under the threshold after batch 3, so the run must go on to meet it.
    set(rel_err 0.004)
  else()
    set(rel_err 0.00001)  # beyond 12 batches of 1500
  endif()
  string(REPLACE "batches = 30\ninactive = 10" "batches = 3\ninactive = 1\nmax_batches = 12" t "${text}")
  string(REPLACE "name = \"whole\"" "name = \"whole\"\ntrigger = { score = \"flux\", rel_err = ${rel_err} }" t "${t}")
  file(WRITE "${OUT}/${case}.toml" "${t}")
  foreach(np 1 2)
    execute_process(COMMAND ${MPIEXEC} -n ${np} ${MPIFLAGS} ${KEFF} run ${OUT}/${case}.toml --particles 1500
                            --inactive 1 --seed 5 --statepoint "" --json ${OUT}/${case}_${np}.json
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${case} at ${np} ranks failed (${rc}):\n${err}")
    endif()
    file(READ "${OUT}/${case}_${np}.json" json_${np})
    string(JSON batches LENGTH "${json_${np}}" batches)
    string(JSON said GET "${json_${np}}" triggers)
    if(case STREQUAL "met" AND (batches LESS_EQUAL 3 OR batches GREATER_EQUAL 12 OR NOT said MATCHES "^every tally trigger held after batch ${batches}$"))
      message(FATAL_ERROR "a trigger the run meets: ${batches} batches, '${said}'")
    endif()
    if(case STREQUAL "unmet" AND (NOT batches EQUAL 12 OR NOT said MATCHES "settings.max_batches = 12 reached before every tally trigger held: tally 'whole', flux: max relative error"))
      message(FATAL_ERROR "a trigger the run cannot meet: ${batches} batches, '${said}'")
    endif()
  endforeach()
  expect_same_results("${json_1}" "${json_2}" "the ${case} trigger at 1 and 2 ranks")
  message("${case}: ${batches} batches at 1 and 2 ranks alike: ${said}")
endforeach()

# --batches ends the run where it says, a failing trigger or not (a run split in two, README), and the
# run says so; it used to go on to max_batches.
execute_process(COMMAND ${KEFF} run ${OUT}/unmet.toml --particles 1500 --inactive 1 --batches 5 --statepoint ""
                        --json ${OUT}/split.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
file(READ "${OUT}/split.json" json)
string(JSON batches LENGTH "${json}" batches)
string(JSON said GET "${json}" triggers)
if(NOT rc EQUAL 0 OR NOT batches EQUAL 5 OR NOT said MATCHES "^--batches 5 reached before every tally trigger held"
   OR NOT out MATCHES "note +--batches 5 ends the run at batch 5, a failing tally trigger or not")
  message(FATAL_ERROR "--batches 5 with a trigger the run cannot meet (${rc}): ${batches} batches, '${said}'\n${out}${err}")
endif()
message("--batches 5: 5 batches, '${said}'")
