# Runs the default benchmark briefly and checks the JSON summary holds what examples/OUTPUTS.md promises.
#   cmake -DKEFF=... -DOUT=dir -P check_summary.cmake
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND ${KEFF} run --particles 2000 --batches 6 --inactive 2 --json "${OUT}/s.json"
                        --statepoint "${OUT}/sp.h5"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out TIMEOUT 600)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "keff run failed: ${rc}")
endif()
# 4 active batches are too few to combine the estimators: the summary says what k is and why.
foreach(text IN ITEMS "k\\(batch\\)" "entropy" "k \\(mean\\)"
                      "not combined: .*4 active batches: the combination needs at least 10"
                      "Particles/s \\(active batches\\): [0-9.e+]+ in transport, [0-9.e+]+ over whole batches"
                      "Time by phase" "geometry check  100000 points, no overlap or gap found")
  if(NOT out MATCHES "${text}")
    message(FATAL_ERROR "output lacks '${text}'")
  endif()
endforeach()
if(NOT EXISTS "${OUT}/sp.h5")
  message(FATAL_ERROR "no statepoint written")
endif()
file(READ "${OUT}/s.json" json)
string(JSON mean GET "${json}" k mean)
string(JSON std GET "${json}" k std)
string(JSON estimate GET "${json}" k estimate)
if(NOT estimate STREQUAL "mean_of_estimators")
  message(FATAL_ERROR "k.estimate is '${estimate}', expected mean_of_estimators at 4 active batches")
endif()
string(JSON n LENGTH "${json}" batches)
string(JSON k1 GET "${json}" batches 0 k)
string(JSON h1 GET "${json}" batches 0 entropy)
string(JSON pps GET "${json}" particles_per_second)
string(JSON batch_pps GET "${json}" batch_particles_per_second)
# Per phase: seconds on the fastest rank, on average and on the slowest.
string(JSON transport GET "${json}" timing "transport active" max)
string(JSON transport_min GET "${json}" timing "transport active" min)
if(NOT n EQUAL 6)
  message(FATAL_ERROR "expected 6 batches in the summary, got ${n}")
endif()
# A whole batch takes longer than its transport: its rate is positive and no higher.
if(NOT (mean GREATER 0.3 AND mean LESS 2.5 AND std GREATER 0 AND pps GREATER 0 AND transport GREATER 0
       AND NOT transport_min GREATER transport AND batch_pps GREATER 0 AND NOT batch_pps GREATER pps))
  message(FATAL_ERROR "implausible summary: k = ${mean} +/- ${std}, ${pps} particles/s in transport, "
                      "${batch_pps} over whole batches")
endif()
message("summary ok: k = ${mean} +/- ${std}, batch 1 k = ${k1}, entropy ${h1}, ${pps} particles/s")
