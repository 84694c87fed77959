# Output paths are checked before transport starts: a device, a FIFO, a directory, a link to one of
# them, an empty path, a missing directory, the input file itself, two outputs naming one file (the
# pictures of --plots included) are refused with status 2 and a message naming the flag and the reason,
# no batch is run, and the special file is still what it was.
# A symbolic link to a regular file is followed: the target is replaced, the link stays a link.
#   cmake -DKEFF=... -DINPUT=<a small input> -DOUT=dir -P output_paths.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/adir")
set(run ${KEFF} run ${INPUT} --particles 300 --batches 3 --inactive 1)

execute_process(COMMAND mkfifo "${OUT}/fifo" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot make a FIFO for the test")
endif()
file(CREATE_LINK fifo "${OUT}/link_to_fifo" SYMBOLIC)
# A device node of our own (a copy of /dev/null and /dev/full's kind), when allowed to make one: the
# real ones are never used, so a regression cannot replace them.
execute_process(COMMAND mknod "${OUT}/null" c 1 3 RESULT_VARIABLE rc_null ERROR_QUIET)
execute_process(COMMAND mknod "${OUT}/full" c 1 7 RESULT_VARIABLE rc_full ERROR_QUIET)

function(file_kind path out)
  execute_process(COMMAND stat -c %F "${path}" OUTPUT_VARIABLE kind OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${kind}" PARENT_SCOPE)
endfunction()

# Runs keff with ARGN; it must exit with status 2 before any batch, matching `regex`, and `path` must
# keep its kind.
function(refused path regex)
  if(path)
    file_kind("${path}" before)
  endif()
  execute_process(COMMAND ${run} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc STREQUAL "2" OR NOT err MATCHES "${regex}")
    message(FATAL_ERROR "'${ARGN}': expected status 2 and '${regex}', got '${rc}':\n${out}${err}")
  endif()
  if(out MATCHES "batch +k\\(batch\\)")
    message(FATAL_ERROR "'${ARGN}': batches ran before the output path was refused:\n${out}")
  endif()
  if(path)
    file_kind("${path}" after)
    if(NOT before STREQUAL after)
      message(FATAL_ERROR "'${ARGN}': '${path}' was '${before}' and is now '${after}'")
    endif()
  endif()
  message("refused as expected: ${ARGN}")
endfunction()

set(allowed "allowed: a regular file, or a new file in an existing, writable directory")
refused("${OUT}/fifo" "--json '.*/fifo': it is a FIFO \\(named pipe\\) \\(${allowed}" --json "${OUT}/fifo")
refused("${OUT}/fifo" "--statepoint '.*/fifo': it is a FIFO" --statepoint "${OUT}/fifo")
refused("${OUT}/link_to_fifo" "it is a link to '.*fifo', which is a FIFO" --json "${OUT}/link_to_fifo")
refused("${OUT}/adir" "--json '.*/adir': it is a directory" --json "${OUT}/adir")
refused("" "--json '.*/missing/x.json': its directory '.*/missing' cannot be used" --json "${OUT}/missing/x.json")
refused("" "--json '.*' is the input file" --json "${INPUT}")
refused("" "--statepoint '.*same.h5' is also --json '.*same.h5'" --json "${OUT}/same.h5" --statepoint "${OUT}/same.h5")
# The pictures --plots draws are outputs too: none may be the statepoint or the summary, and the
# directory must be one (made when missing), all found before transport.
refused("" "--plots' convergence picture '.*/pics/convergence.png' is also --statepoint"
        --statepoint "${OUT}/pics/convergence.png" --plots "${OUT}/pics")
refused("" "--plots' convergence picture '.*/pics/convergence.png' is also --json"
        --statepoint "${OUT}/pics_sp.h5" --json "${OUT}/pics/convergence.png" --plots "${OUT}/pics")
file(WRITE "${OUT}/plain" "a file")
refused("${OUT}/plain" "--plots '.*/plain' is not a directory" --statepoint "${OUT}/sp_plain.h5" --plots "${OUT}/plain")
refused("" "--plots '.*/sp_dir.h5' is also the file '.*/sp_dir.h5'" --statepoint "${OUT}/sp_dir.h5" --plots "${OUT}/sp_dir.h5")
if(EXISTS "${OUT}/sp_dir.h5")
  message(FATAL_ERROR "--plots naming the statepoint's path made '${OUT}/sp_dir.h5'")
endif()
# An empty path (a quoted "" survives only written out, not through a list).
execute_process(COMMAND ${run} --json "" RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc STREQUAL "2" OR NOT err MATCHES "--json: the path is empty")
  message(FATAL_ERROR "--json '': expected status 2 and 'the path is empty', got '${rc}':\n${err}")
endif()
if(rc_null EQUAL 0 AND rc_full EQUAL 0)
  refused("${OUT}/null" "--json '.*/null': it is a character device" --json "${OUT}/null")
  refused("${OUT}/full" "--statepoint '.*/full': it is a character device" --statepoint "${OUT}/full")
else()
  message("(not allowed to make device nodes here: the device cases are covered by FIFOs only)")
endif()

# Links to regular files (and to files not there yet) are followed; the links stay.
file(WRITE "${OUT}/target.json" "old")
file(CREATE_LINK target.json "${OUT}/link.json" SYMBOLIC)
file(CREATE_LINK new_sp.h5 "${OUT}/sp_link.h5" SYMBOLIC)
execute_process(COMMAND ${run} --quiet --json "${OUT}/link.json" --statepoint "${OUT}/sp_link.h5"
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a run writing through symbolic links failed (${rc}):\n${err}")
endif()
foreach(link link.json sp_link.h5)
  if(NOT IS_SYMLINK "${OUT}/${link}")
    message(FATAL_ERROR "${link} was replaced instead of followed")
  endif()
endforeach()
file(READ "${OUT}/target.json" json)
string(JSON k GET "${json}" k mean)
if(NOT EXISTS "${OUT}/new_sp.h5")
  message(FATAL_ERROR "the statepoint was not written to the link's target")
endif()
file(GLOB leftovers "${OUT}/*.tmp.*")
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()
message("links followed: target.json holds k = ${k}; new_sp.h5 written")
