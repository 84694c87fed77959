# Signals during a run (src/host/interrupt.hpp, io/output_path.hpp), each sent at a point the run announces
# (io/test_point.hpp, tests/signal_at.sh), so every case reaches the same phase on any machine:
#  1. SIGINT at one rank after batch 2: the run stops with status 130 and one message, the statepoint
#     is written, and a restart from it to 5 batches equals 5 batches straight, bit for bit.
#  2. SIGTERM to one of two ranks after batch 2: both stop after that batch (status 143), statepoint written.
#  3. Two SIGINTs, the second while the statepoint is written: the process ends at once (status 130) and
#     leaves no temporary file and no statepoint.
#  4. kill -9 while a run that writes its statepoint every batch writes the first one, and the third one:
#     the statepoint is absent, then complete with 2 batches, and the next run writing it removes the
#     temporary file the kill left.
#  5. SIGINT inside a batch: transport stops part-way and a restart equals the straight run.
#  6. SIGINT inside the first batch: nothing to continue from, said so.
#  7-10. Signals in keff check-geometry, the geometry check before a run, keff data generate and the
#     synthetic data of keff run (1 and 2 ranks): status 128 + the signal, where it stopped said.
#  11. With CMFD_INPUT (a build with CMFD): SIGTERM inside a CMFD solve, at one rank and at one of two:
#     the batch is left out (the statepoint holds the batch before) and a restart equals the straight run.
#   cmake -DKEFF=... -DMPIEXEC=... "-DMPIFLAGS=..." -DINPUT=<multigroup input> [-DCMFD_INPUT=<input with
#         [cmfd]>] -DSIGNAL_AT=tests/signal_at.sh -DOUT=dir -P interrupt.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/signal_cases.cmake")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(args run ${INPUT} --inactive 1)

function(no_temporaries where)
  file(GLOB left "${OUT}/*.tmp.*")
  if(left)
    message(FATAL_ERROR "${where}: temporary files left behind: ${left}")
  endif()
endfunction()

# The batches a statepoint holds, as a restart asking for two batches reports them, or runs the second
# when it holds one (either proves the file reads back whole: every checksum and check passed).
function(batches_in statepoint out)
  execute_process(COMMAND ${KEFF} ${args} --particles ${ARGN} --batches 2 --restart "${statepoint}" --statepoint ""
                          --quiet
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
  if(rc EQUAL 0)
    set(${out} 1 PARENT_SCOPE)
  elseif(rc EQUAL 2 AND err MATCHES "it already holds ([0-9]+) batches")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  else()
    message(FATAL_ERROR "'${statepoint}' is not a complete statepoint (${rc}):\n${err}")
  endif()
endfunction()

# A restart from STATEPOINT of the run ARGN, and ARGN straight, must give the same bits (WHAT names the
# restart in the message); their summaries are OUT/NAME_restarted.json and OUT/NAME_straight.json.
function(restart_equals_straight statepoint name what)
  execute_process(COMMAND ${KEFF} ${ARGN} --restart "${statepoint}" --statepoint "" --quiet
                          --json "${OUT}/${name}_restarted.json" RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
  execute_process(COMMAND ${KEFF} ${ARGN} --statepoint "" --quiet --json "${OUT}/${name}_straight.json"
                  RESULT_VARIABLE rc2 ERROR_VARIABLE err2 TIMEOUT 600)
  if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "${what} (${rc}) or the straight run (${rc2}) failed:\n${err}\n${err2}")
  endif()
  file(READ "${OUT}/${name}_restarted.json" a)
  file(READ "${OUT}/${name}_straight.json" b)
  expect_same_results("${a}" "${b}" "${what} and the straight run")
endfunction()

# 1. SIGINT, one rank, after batch 2.
execute_process(COMMAND ${SIGNAL_AT} batch:2=INT -- ${KEFF} ${args} --particles 5000 --batches 1000000
                        --statepoint "${OUT}/int.h5"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130 OR NOT err MATCHES "interrupted by SIGINT after batch 2 of 1000000: statepoint written to '.*int.h5' \\(continue with --restart")
  message(FATAL_ERROR "SIGINT: expected status 130 and the interrupt message after batch 2, got '${rc}':\n${err}")
endif()
string(REGEX MATCHALL "keff: error" lines "${err}")
list(LENGTH lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "SIGINT: expected one message, got ${n}:\n${err}")
endif()
no_temporaries("SIGINT")
batches_in("${OUT}/int.h5" held 5000)
if(NOT held EQUAL 2)
  message(FATAL_ERROR "SIGINT after batch 2, but the statepoint holds ${held} batches")
endif()
restart_equals_straight("${OUT}/int.h5" sigint "2 batches + SIGINT + restart" ${args} --particles 5000 --batches 5)
message("1. SIGINT after batch 2: status 130, statepoint written; its restart equals 5 batches straight")

# 2. SIGTERM to rank 1 of 2 (as a batch system's scancel delivers it) after batch 2: both stop together.
execute_process(COMMAND ${SIGNAL_AT} batch:2@1=TERM -- ${MPIEXEC} -n 2 ${MPIFLAGS} ${KEFF} ${args} --particles 5000
                        --batches 1000000 --statepoint ${OUT}/term.h5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 143 OR NOT "${out}${err}" MATCHES "interrupted by SIGTERM after batch 2 of 1000000: statepoint written")
  message(FATAL_ERROR "SIGTERM to one rank: expected status 143 and the interrupt message after batch 2, got '${rc}':\n${out}${err}")
endif()
batches_in("${OUT}/term.h5" held 5000)
if(NOT held EQUAL 2)
  message(FATAL_ERROR "SIGTERM after batch 2, but the statepoint holds ${held} batches")
endif()
no_temporaries("SIGTERM")
message("2. SIGTERM to rank 1 of 2: both ranks stopped after batch 2, statepoint written")

# 3. The first SIGINT inside batch 2 stops the run, which writes the statepoint of batch 1; a second one
# while that is written ends the process at once, the temporary file removed, nothing published.
execute_process(COMMAND ${SIGNAL_AT} transport:2=INT write:1=INT -- ${KEFF} ${args} --particles 5000
                        --batches 1000000 --statepoint ${OUT}/twice.h5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130 OR NOT err MATCHES "test point write:1")
  message(FATAL_ERROR "two SIGINTs: expected status 130 while the statepoint was written, got '${rc}':\n${err}")
endif()
no_temporaries("two SIGINTs")
if(EXISTS "${OUT}/twice.h5")
  message(FATAL_ERROR "two SIGINTs: the statepoint whose write the second one ended was published")
endif()
message("3. two SIGINTs: ended at once while the statepoint was written, no temporary file, no statepoint")

# 4. kill -9 while statepoints are written every batch: during the first write (nothing to keep) and the
# third (the second batch's statepoint stays). The kill leaves the temporary file; the next run writing
# that statepoint removes it.
file(READ "${INPUT}" text)
string(REPLACE "[settings]" "[settings]\nstatepoint_interval = 1" text "${text}")
file(WRITE "${OUT}/every_batch.toml" "${text}")
set(args run ${OUT}/every_batch.toml --inactive 1)
foreach(write 1 3)
  file(REMOVE "${OUT}/kill.h5")
  execute_process(COMMAND ${SIGNAL_AT} write:${write}=KILL -- ${KEFF} ${args} --particles 5000 --batches 1000000
                          --statepoint "${OUT}/kill.h5"
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
  file(GLOB tmp "${OUT}/kill.h5.tmp.*")
  if(NOT rc EQUAL 137 OR NOT tmp)
    message(FATAL_ERROR "kill -9 in write ${write}: expected status 137 and the temporary file left, got '${rc}' (${tmp}):\n${err}")
  endif()
  math(EXPR expected "${write} - 1")
  if(expected EQUAL 0)
    if(EXISTS "${OUT}/kill.h5")
      message(FATAL_ERROR "kill -9 in the first write: a statepoint was published")
    endif()
    execute_process(COMMAND ${KEFF} ${args} --particles 5000 --batches 2 --statepoint "${OUT}/kill.h5" --quiet
                    RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
  else()
    batches_in("${OUT}/kill.h5" held 5000)
    if(NOT held EQUAL expected)
      message(FATAL_ERROR "kill -9 in write ${write}: the statepoint holds ${held} batches, not ${expected}")
    endif()
    math(EXPR next "${held} + 1")
    execute_process(COMMAND ${KEFF} ${args} --particles 5000 --batches ${next} --restart "${OUT}/kill.h5"
                            --statepoint "${OUT}/kill.h5" --quiet RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the run after kill -9 in write ${write} failed (${rc}):\n${err}")
  endif()
  no_temporaries("the run after kill -9 in write ${write}")
endforeach()
message("4. kill -9 in the first and third statepoint writes: absent, then complete with 2 batches; "
        "each temporary file removed by the next run")

# 5. SIGINT inside batch 2 of the default problem (continuous energy): transport stops part-way, the run
# stops as after batch 1, whose statepoint holds the source the abandoned batch started from, and a
# restart from it equals the straight run bit for bit.
set(long run --particles 20000 --inactive 1 --batches 3)
execute_process(COMMAND ${SIGNAL_AT} transport:2=INT -- ${KEFF} ${long} --statepoint "${OUT}/inside.h5"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130 OR NOT err MATCHES "interrupted by SIGINT after batch 1 of 3: .*; batch 2, under way, was stopped and left out")
  message(FATAL_ERROR "SIGINT inside a batch: expected status 130 and batch 2 named as stopped, got '${rc}':\n${err}")
endif()
no_temporaries("SIGINT inside a batch")
restart_equals_straight("${OUT}/inside.h5" inside "SIGINT inside batch 2 + restart" ${long})
message("5. SIGINT inside batch 2: stopped part-way, statepoint of batch 1; its restart equals 3 batches straight")

# 6. SIGINT inside the first batch: no batch ended, so nothing is written and the message says so.
file(REMOVE "${OUT}/first.h5")
execute_process(COMMAND ${SIGNAL_AT} transport:1=INT -- ${KEFF} ${long} --statepoint "${OUT}/first.h5"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130 OR NOT err MATCHES "no batch had ended, so there is nothing to continue from; batch 1, under way")
  message(FATAL_ERROR "SIGINT inside the first batch: expected status 130 and nothing to continue from, got '${rc}':\n${err}")
endif()
if(EXISTS "${OUT}/first.h5")
  message(FATAL_ERROR "SIGINT inside the first batch: a statepoint was written")
endif()
message("6. SIGINT inside batch 1: stopped, nothing to continue from, no statepoint")

# 7-10. Signals outside transport: each long phase stops on the first signal with 128 + the signal and
# says where; with two ranks, a signal to one stops both.
set(mpirun2 ${MPIEXEC} -n 2 ${MPIFLAGS})
stops_on_signal("7. SIGINT in keff check-geometry" 130
                "interrupted by SIGINT during the geometry check, after [0-9]+ of 1000000000000 points"
                geometry-check=INT -- ${KEFF} check-geometry ${INPUT} --points 1000000000000)
stops_on_signal("7. SIGTERM to rank 1 of 2 in keff check-geometry" 143
                "interrupted by SIGTERM during the geometry check"
                geometry-check@1=TERM -- ${mpirun2} ${KEFF} check-geometry ${INPUT} --points 1000000000000)
string(REPLACE "[settings]" "[settings]\ngeometry_check_points = 1000000000000" text "${text}")
file(WRITE "${OUT}/long_check.toml" "${text}")
stops_on_signal("8. SIGINT in the geometry check before a run" 130
                "interrupted by SIGINT during the geometry check"
                geometry-check=INT -- ${KEFF} run ${OUT}/long_check.toml --statepoint ${OUT}/never.h5)
if(EXISTS "${OUT}/never.h5")
  message(FATAL_ERROR "8. a run stopped in its geometry check wrote a statepoint")
endif()
stops_on_signal("9. SIGINT in keff data generate" 130
                "interrupted by SIGINT while generating synthetic nuclear data, after 1 of 50 nuclides"
                data-generate=INT -- ${KEFF} data generate --format h5 --nuclides 50 --gridpoints 2000
                --out ${OUT}/lib.h5)
if(EXISTS "${OUT}/lib.h5")
  message(FATAL_ERROR "9. keff data generate stopped by a signal wrote its library")
endif()
no_temporaries("9. SIGINT in keff data generate")
stops_on_signal("10. SIGTERM to rank 1 of 2 while keff run generates its data" 143
                "interrupted by SIGTERM while generating synthetic nuclear data"
                data-generate@1=TERM -- ${mpirun2} ${KEFF} run --particles 1000 --batches 3 --inactive 1)

# 11. SIGTERM inside the CMFD solve of batch 4 (an expanding window: batch 4 joins batch 3's part and
# pushes batch 2 out, which leaving the batch out must undo): the run stops as after batch 3, whose
# statepoint a restart continues bit for bit. At two ranks, with the signal to rank 1 only, rank 0
# finishes its solve and both stop. CMFD in every batch ([cmfd] end added: by default it ends with the
# inactive batches).
if(CMFD_INPUT)
  file(READ ${CMFD_INPUT} cmfd_text)
  string(REPLACE "\n[cmfd]\n" "\n[cmfd]\nend = 1000000\n" cmfd_text "${cmfd_text}")
  if(NOT cmfd_text MATCHES "\nend = 1000000\n")
    message(FATAL_ERROR "11. no [cmfd] table in ${CMFD_INPUT}")
  endif()
  file(WRITE ${OUT}/cmfd_every_batch.toml "${cmfd_text}")
  set(cmfd_args run ${OUT}/cmfd_every_batch.toml --inactive 1 --particles 2000)
  foreach(ranks 1 2)
    set(launch ${KEFF})
    set(point cmfd:4=TERM)
    if(ranks EQUAL 2)
      set(launch ${mpirun2} ${KEFF})
      set(point cmfd:4@1=TERM)
    endif()
    file(REMOVE "${OUT}/cmfd.h5")
    execute_process(COMMAND ${SIGNAL_AT} ${point} -- ${launch} ${cmfd_args} --batches 1000000
                            --statepoint "${OUT}/cmfd.h5"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
    if(NOT rc EQUAL 143 OR NOT "${out}${err}" MATCHES
       "interrupted by SIGTERM after batch 3 of 1000000: statepoint written to '.*cmfd.h5'.*batch 4, under way, was stopped")
      message(FATAL_ERROR "11. SIGTERM in the CMFD solve (${ranks} rank(s)): expected status 143 and batch 4 left out, "
                          "got '${rc}':\n${out}${err}")
    endif()
    execute_process(COMMAND ${KEFF} ${cmfd_args} --batches 3 --restart "${OUT}/cmfd.h5" --statepoint "" --quiet
                    RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
    if(NOT rc EQUAL 2 OR NOT err MATCHES "it already holds 3 batches")
      message(FATAL_ERROR "11. the statepoint of a run stopped in batch 4's CMFD solve should hold 3 batches (${rc}):\n${err}")
    endif()
    no_temporaries("11. SIGTERM in the CMFD solve")
    restart_equals_straight("${OUT}/cmfd.h5" cmfd_${ranks} "3 batches + SIGTERM in CMFD (${ranks} rank(s)) + restart"
                            ${cmfd_args} --batches 6)
    message("11. SIGTERM in batch 4's CMFD solve (${ranks} rank(s)): batch 4 left out; its restart equals 6 batches straight")
  endforeach()
endif()
