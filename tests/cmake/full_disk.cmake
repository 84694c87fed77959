# Outputs onto a full disk: the statepoint (at 1 and 2 ranks), the JSON summary and a library of
# `keff data generate` each fail with status 1 (2 ranks: every rank), a message naming the path the user
# gave and the system's reason (No space left on device), no crash (a failed statepoint write used to
# end in a segmentation fault inside HDF5 at MPI_Finalize) and no temporary file left.
# `keff data` refuses an unusable output path up front (status 2) and fails like a run on a full disk.
# The full disk is a 64 KiB tmpfs mounted for the test, which needs root (CI runs as root); elsewhere
# the test says why and is skipped (SKIP_REGULAR_EXPRESSION "SKIPPED:").
#   cmake -DKEFF=... -DMPIEXEC="mpiexec;<flags>" -DOUT=dir -P full_disk.cmake
set(tiny "${OUT}/tiny")
execute_process(COMMAND umount "${tiny}" OUTPUT_QUIET ERROR_QUIET)  # a mount a killed run left
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${tiny}")
execute_process(COMMAND mount -t tmpfs -o size=64k tmpfs "${tiny}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message("SKIPPED: cannot mount a small tmpfs as a full disk (needs root): ${err}")
  return()
endif()

function(finish)
  execute_process(COMMAND umount "${tiny}")
endfunction()

# Runs ARGN; it must exit with status 1 and print `regex`, and leave nothing in the full file system
# but `keep`.
function(fails_cleanly regex keep)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  file(GLOB left RELATIVE "${tiny}" "${tiny}/*")
  list(REMOVE_ITEM left ${keep})
  if(NOT rc STREQUAL "1" OR NOT "${out}${err}" MATCHES "${regex}" OR "${out}${err}" MATCHES "egmentation|signal|HDF5-DIAG" OR left)
    finish()
    message(FATAL_ERROR "'${ARGN}': expected status 1, '${regex}', no crash and nothing left; got '${rc}', left '${left}':\n${out}${err}")
  endif()
  message("failed cleanly as expected: ${ARGN}")
endfunction()

set(full "No space left on device \\(nothing was replaced; the temporary file was removed\\)")
set(run run --particles 3000 --batches 3 --inactive 1 --quiet)
fails_cleanly("cannot write the statepoint '${tiny}/sp.h5': ${full}" "" ${KEFF} ${run} --statepoint "${tiny}/sp.h5")
fails_cleanly("cannot write the statepoint '${tiny}/sp.h5': ${full}" "" ${MPIEXEC} -n 2 ${KEFF} ${run} --statepoint "${tiny}/sp.h5")
fails_cleanly("cannot write the nuclear-data library '${tiny}/lib.h5': ${full}" ""
              ${KEFF} data generate --format h5 --nuclides 8 --gridpoints 4000 --out "${tiny}/lib.h5")
# The JSON summary is written at the end: fill the disk first.
execute_process(COMMAND dd if=/dev/zero of=${tiny}/fill bs=1024 count=62 OUTPUT_QUIET ERROR_QUIET)
fails_cleanly("cannot write the JSON summary '${tiny}/s.json': ${full}" "fill"
              ${KEFF} ${run} --statepoint "${OUT}/sp.h5" --json "${tiny}/s.json")
finish()
