# The memory check under an address-space limit (ulimit -v, src/host/memory_check.hpp): a tally whose
# statepoint and results do not fit beside the run is refused before the first batch, with status 1 and
# the parts (the run used to finish every batch, then fail to build its statepoint, losing the results).
# Skipped (SKIPPED in the output) where keff cannot start a small run under the limit at all.
#   cmake -DKEFF=... -DINPUT=examples/la13511_pub_sphere.toml -DOUT=dir -P address_limit.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(limit 800000)  # KiB
function(limited result)
  execute_process(COMMAND sh -c "ulimit -v ${limit} && exec \"$@\"" sh ${KEFF} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  set(${result} "${rc}" PARENT_SCOPE)
  set(${result}_text "${out}${err}" PARENT_SCOPE)
endfunction()

limited(small run ${INPUT} --particles 500 --batches 2 --inactive 1 --statepoint "${OUT}/small.h5")
if(NOT small EQUAL 0)
  message("SKIPPED: keff does not run a small problem under ulimit -v ${limit} here:\n${small_text}")
  return()
endif()

# A 160^3 mesh tally: 4.1 million values, 729 MB of sums, results, statepoint and JSON text.
file(READ "${INPUT}" text)
file(WRITE "${OUT}/fine_tally.toml" "${text}
[[mesh]]
name = \"fine\"
lower_left = [-6.1, -6.1, -6.1]
upper_right = [6.1, 6.1, 6.1]
shape = [160, 160, 160]

[[tally]]
name = \"fine\"
filters = [\"mesh\"]
mesh = \"fine\"
scores = [\"flux\"]
")
limited(fine run "${OUT}/fine_tally.toml" --particles 500 --batches 3 --inactive 1 --statepoint "${OUT}/fine.h5")
if(NOT fine EQUAL 1 OR NOT fine_text MATCHES "not enough memory: the tallies .* needs about 729\\.[0-9] MB on rank 0 \\(batch and running sums 131\\.[0-9] MB, results 131\\.[0-9] MB, the statepoint as it is written 262\\.[0-9] MB, the JSON summary's text 204\\.[0-9] MB\\) where [0-9.]+ MB are available")
  message(FATAL_ERROR "a tally whose outputs do not fit under ulimit -v ${limit}: expected status 1 and the parts, got '${fine}':\n${fine_text}")
endif()
if(fine_text MATCHES "\n +1 +[0-9]")
  message(FATAL_ERROR "the refusal came after a batch had run:\n${fine_text}")
endif()
message("refused before the first batch, as expected")
