# Runs keff in several ways that must give the same bits (rank counts, transport modes, domain
# decomposition) and requires every run's results to equal the first's: every batch's k estimators,
# entropy, leakage and, with CMFD, k_cmfd and the CMFD entropy; the combined k, the leakage and the tallies.
# Each variant is "NP:ARG,ARG,...": the rank count, then the arguments (commas for spaces) added to ARGS;
# "1:;2:;4:" compares rank counts alone.
#   cmake -DKEFF=... -DMPIEXEC=... "-DMPIFLAGS=..." "-DARGS=run;input.toml;..."
#         "-DVARIANTS=1:--mode,history;2:--mode,event;2:--domains,2,1,1" -DOUT=dir -P compare_variants.cmake
include("${CMAKE_CURRENT_LIST_DIR}/same_results.cmake")
file(MAKE_DIRECTORY "${OUT}")
set(i 0)
foreach(variant IN LISTS VARIANTS)
  string(REGEX MATCH "^([0-9]+):(.*)$" _ "${variant}")
  set(np ${CMAKE_MATCH_1})
  string(REPLACE "," ";" extra "${CMAKE_MATCH_2}")
  # --domains NX,NY,NZ keeps its commas: the value after --domains is joined back.
  string(REPLACE "--domains;" "--domains=" extra "${extra}")
  string(REGEX REPLACE "--domains=([0-9]+);([0-9]+);([0-9]+)" "--domains;\\1,\\2,\\3" extra "${extra}")
  execute_process(COMMAND ${MPIEXEC} -n ${np} ${MPIFLAGS} ${KEFF} ${ARGS} ${extra} --quiet --statepoint ""
                          --json "${OUT}/variant${i}.json"
                  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "keff at ${np} rank(s) with '${extra}' failed (${rc}):\n${err}")
  endif()
  file(READ "${OUT}/variant${i}.json" json_${i})
  list(GET VARIANTS 0 first)
  expect_same_results("${json_0}" "${json_${i}}" "'${first}' and '${variant}'")
  math(EXPR i "${i} + 1")
endforeach()
string(JSON n LENGTH "${json_0}" batches)
string(JSON k GET "${json_0}" k mean)
message("identical over ${n} batches in ${i} variants: ${VARIANTS} (k = ${k})")
