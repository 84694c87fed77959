# Signals during a run (src/interrupt.hpp, io/output_path.hpp):
#  1. SIGINT at one rank: the run stops after a batch with status 130 and one message, the statepoint
#     is written, and a restart from it to B batches equals B batches straight, bit for bit.
#  2. SIGTERM to one of two ranks: both stop after the same batch (status 143), statepoint written.
#  3. Two SIGINTs: the process ends at once (status 130) and leaves no temporary file.
#  4. kill -9 at random moments of a run that writes its statepoint every batch: each time the
#     statepoint is either absent or complete (a restart reads it), and the next run writing it leaves
#     no temporary file behind.
#   cmake -DKEFF=... -DMPIEXEC=... "-DMPIFLAGS=..." -DINPUT=<multigroup input> -DOUT=dir -P interrupt.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
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

# 1. SIGINT, one rank. --foreground: without it timeout signals the child and then its own process group,
# the child again, and a run that has handled the first SIGINT by then takes the second as "end now".
# A signal before the first batch ends stops the run inside it with nothing to continue from (case 5's
# subject): where start-up is slow (MPI in a fresh container took 5 s), the signal comes later.
foreach(delay 4 15 60)
  execute_process(COMMAND timeout --foreground --preserve-status -s INT ${delay} ${KEFF} ${args} --particles 5000
                          --batches 1000000 --statepoint "${OUT}/int.h5"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT err MATCHES "no batch had ended")
    break()
  endif()
endforeach()
if(NOT rc EQUAL 130 OR NOT err MATCHES "interrupted by SIGINT after batch ([0-9]+) of 1000000: statepoint written to '.*int.h5' \\(continue with --restart")
  message(FATAL_ERROR "SIGINT: expected status 130 and the interrupt message, got '${rc}':\n${err}")
endif()
set(done ${CMAKE_MATCH_1})
string(REGEX MATCHALL "keff: error" lines "${err}")
list(LENGTH lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "SIGINT: expected one message, got ${n}:\n${err}")
endif()
no_temporaries("SIGINT")
batches_in("${OUT}/int.h5" held 5000)
if(NOT held EQUAL done)
  message(FATAL_ERROR "SIGINT after batch ${done}, but the statepoint holds ${held} batches")
endif()
math(EXPR total "${done} + 3")
restart_equals_straight("${OUT}/int.h5" sigint "${done} batches + SIGINT + restart" ${args} --particles 5000 --batches ${total})
message("1. SIGINT after batch ${done}: status 130, statepoint written; its restart equals ${total} batches straight")

# 2. SIGTERM to one of two ranks (as a batch system's scancel delivers it): both stop together.
set(mpirun ${MPIEXEC} -n 2 ${MPIFLAGS})
string(REPLACE ";" " " mpirun_text "${mpirun} ${KEFF} ${args} --particles 5000 --batches 1000000 --statepoint ${OUT}/term.h5")
# Rank 1 is signalled once both ranks have been running for 3 s (however slow the start of MPI is), and
# later when that came before the first batch ended (as in case 1).
foreach(delay 3 15 60)
  execute_process(COMMAND bash -c "${mpirun_text} & mp=$!; for i in $(seq 600); do set -- $(cat /proc/$mp/task/*/children 2>/dev/null); [ $# -ge 2 ] && break; sleep 0.2; done; sleep ${delay}; kill -TERM $2; wait $mp"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT "${out}${err}" MATCHES "no batch had")
    break()
  endif()
endforeach()
if(NOT rc EQUAL 143 OR NOT "${out}${err}" MATCHES "interrupted by SIGTERM after batch ([0-9]+) of 1000000: statepoint written")
  message(FATAL_ERROR "SIGTERM to one rank: expected status 143 and the interrupt message, got '${rc}':\n${out}${err}")
endif()
set(done ${CMAKE_MATCH_1})
batches_in("${OUT}/term.h5" held 5000)
if(NOT held EQUAL done)
  message(FATAL_ERROR "SIGTERM after batch ${done}, but the statepoint holds ${held} batches")
endif()
no_temporaries("SIGTERM")
message("2. SIGTERM to rank 1 of 2: both ranks stopped after batch ${done}, statepoint written")

# 3. A second SIGINT ends the process at once.
string(REPLACE ";" " " run_text "${KEFF} ${args} --particles 200000 --batches 1000000 --statepoint ${OUT}/twice.h5")
execute_process(COMMAND bash -c "${run_text} & p=$!; sleep 4; kill -INT $p; sleep 0.05; kill -INT $p; wait $p"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130)
  message(FATAL_ERROR "two SIGINTs: expected status 130, got '${rc}':\n${err}")
endif()
no_temporaries("two SIGINTs")
if(EXISTS "${OUT}/twice.h5")
  batches_in("${OUT}/twice.h5" held 200000)
endif()
message("3. two SIGINTs: ended at once, no temporary file")

# 4. kill -9 while statepoints are written every batch (a large bank, so writes take a while).
file(READ "${INPUT}" text)
string(REPLACE "[settings]" "[settings]\nstatepoint_interval = 1" text "${text}")
file(WRITE "${OUT}/every_batch.toml" "${text}")
set(args run ${OUT}/every_batch.toml --inactive 1)
set(kept 0)
set(absent 0)
set(stale 0)
foreach(delay IN ITEMS 1.2 1.9 2.3 2.8 3.4 4.1)
  file(REMOVE "${OUT}/kill.h5")
  execute_process(COMMAND timeout -s KILL ${delay} ${KEFF} ${args} --particles 200000 --batches 1000000
                          --statepoint "${OUT}/kill.h5" --quiet
                  RESULT_VARIABLE rc TIMEOUT 300)
  file(GLOB tmp "${OUT}/kill.h5.tmp.*")
  if(tmp)
    math(EXPR stale "${stale} + 1")
  endif()
  if(EXISTS "${OUT}/kill.h5")
    batches_in("${OUT}/kill.h5" held 200000)
    math(EXPR kept "${kept} + 1")
  else()
    math(EXPR absent "${absent} + 1")
  endif()
  # The next run writing that statepoint (here: restarting from it, or starting afresh) cleans up.
  if(EXISTS "${OUT}/kill.h5")
    math(EXPR next "${held} + 1")
    execute_process(COMMAND ${KEFF} ${args} --particles 200000 --batches ${next} --restart "${OUT}/kill.h5"
                            --statepoint "${OUT}/kill.h5" --quiet RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
  else()
    execute_process(COMMAND ${KEFF} ${args} --particles 200000 --batches 2 --statepoint "${OUT}/kill.h5" --quiet
                    RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the run after kill -9 at ${delay} s failed (${rc}):\n${err}")
  endif()
  no_temporaries("the run after kill -9 at ${delay} s")
endforeach()
message("4. kill -9 six times: statepoint complete ${kept} times, absent ${absent} times; "
        "${stale} kills left a temporary file, each removed by the next run")

# 5. SIGINT inside a long batch (the default problem, 100000 particles: several seconds a batch on one
# thread): transport stops part-way, the run stops as after the batch before, whose statepoint holds the
# source the abandoned batch started from, and a restart from it equals the straight run bit for bit.
set(long run --particles 100000 --inactive 1 --batches 3)
execute_process(COMMAND timeout --foreground --preserve-status -s INT 12 ${KEFF} ${long} --statepoint "${OUT}/inside.h5"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 130 OR NOT err MATCHES "interrupted by SIGINT after batch ([0-9]+) of 3: .*; batch ([0-9]+), under way, was stopped and left out")
  message(FATAL_ERROR "SIGINT inside a batch: expected status 130 and the batch named as stopped, got '${rc}':\n${err}")
endif()
set(done ${CMAKE_MATCH_1})
no_temporaries("SIGINT inside a batch")
if(done EQUAL 0)
  message("5. SIGINT inside batch 1: stopped part-way, nothing to continue from (the machine was slow to start)")
else()
  restart_equals_straight("${OUT}/inside.h5" inside "SIGINT inside batch ${CMAKE_MATCH_2} + restart" ${long})
  message("5. SIGINT inside batch ${CMAKE_MATCH_2}: stopped part-way, statepoint of batch ${done}; its restart equals 3 batches straight")
endif()
