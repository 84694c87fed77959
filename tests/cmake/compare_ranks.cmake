# Runs keff under mpiexec at several rank counts and requires bit-identical results: every batch's k
# estimators and entropy, the combined k and the mesh tally (the JSON holds doubles with round-trip
# precision).
#   cmake -DKEFF=... -DMPIEXEC=... "-DMPIFLAGS=--oversubscribe;..." "-DARGS=run;..." "-DRANKS=1;2;4"
#         [-DEXTRA=--exchange;blocking] -DOUT=dir -P compare_ranks.cmake
file(MAKE_DIRECTORY "${OUT}")
list(GET RANKS 0 first)
foreach(np IN LISTS RANKS)
  execute_process(COMMAND ${MPIEXEC} -n ${np} ${MPIFLAGS} ${KEFF} ${ARGS} ${EXTRA} --quiet --statepoint ""
                          --json "${OUT}/ranks${np}.json"
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "keff at ${np} rank(s) failed (${rc}):\n${err}")
  endif()
  file(READ "${OUT}/ranks${np}.json" json_${np})
  foreach(key IN ITEMS batches mesh k)
    string(JSON a GET "${json_${first}}" ${key})
    string(JSON b GET "${json_${np}}" ${key})
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "'${key}' differs between ${first} and ${np} rank(s):\n${a}\n---\n${b}")
    endif()
  endforeach()
endforeach()
string(JSON n LENGTH "${json_${first}}" batches)
string(JSON k GET "${json_${first}}" k mean)
message("identical over ${n} batches at ${RANKS} rank(s) (k = ${k})")
