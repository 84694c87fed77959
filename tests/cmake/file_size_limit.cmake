# Outputs past the file-size limit (`ulimit -f`, RLIMIT_FSIZE): the statepoint, the JSON summary and a
# library of `keff data generate` each fail with status 1, a message naming the path and the reason
# (File too large), and no temporary file left (a failed last statepoint after the JSON summary is
# written, which the message names); SIGXFSZ, whose default action ends the process without
# a word, must not end it. keff runs under mpiexec with the limit set on keff alone: MPI's own start-up
# writes files larger than these limits.
#   cmake -DKEFF=... -DMPIEXEC="mpiexec;<flags>" -DOUT=dir -P file_size_limit.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

# Runs keff with ARGN under a limit of `kib` KiB: status 1, `regex` said, nothing left in OUT but `keep`.
function(fails_cleanly kib regex keep)
  string(REPLACE ";" " " command "${ARGN}")
  execute_process(COMMAND ${MPIEXEC} -n 1 bash -c "ulimit -f ${kib} && exec ${KEFF} ${command}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  file(GLOB left RELATIVE "${OUT}" "${OUT}/*")
  list(REMOVE_ITEM left ${keep})
  if(NOT rc STREQUAL "1" OR NOT "${out}${err}" MATCHES "${regex}" OR left)
    message(FATAL_ERROR "'${command}' under ulimit -f ${kib}: expected status 1, '${regex}' and nothing left; "
                        "got '${rc}', left '${left}':\n${out}${err}")
  endif()
  message("failed cleanly as expected under ulimit -f ${kib}: ${command}")
endfunction()

set(too_large "File too large \\(nothing was replaced; the temporary file was removed\\)")
# 20000 source sites make a statepoint of about 1.8 MB. The last statepoint failing loses nothing else: the
# run finishes, writes its JSON summary (2 batches: under 4 KiB) and says where its results are.
fails_cleanly(100 "cannot write the statepoint '${OUT}/sp.h5': ${too_large}; the run finished: its results are in the JSON summary '${OUT}/sp.json'"
              sp.json run --particles 20000 --batches 2 --inactive 1 --quiet --statepoint ${OUT}/sp.h5 --json ${OUT}/sp.json)
file(READ "${OUT}/sp.json" summary)
string(JSON k GET "${summary}" k mean)
string(JSON batches LENGTH "${summary}" batches)
if(NOT batches EQUAL 2)
  message(FATAL_ERROR "the summary written after the statepoint failed holds ${batches} batches (expected 2)")
endif()
file(REMOVE "${OUT}/sp.json")
# Ten batches make a JSON summary of more than 4 KiB.
fails_cleanly(4 "cannot write the JSON summary '${OUT}/s.json': ${too_large}" ""
              run --particles 1000 --batches 10 --inactive 1 --quiet --statepoint '' --json ${OUT}/s.json)
fails_cleanly(100 "cannot write the nuclear-data library '${OUT}/lib.h5': ${too_large}" ""
              data generate --format h5 --nuclides 8 --gridpoints 4000 --out ${OUT}/lib.h5)
