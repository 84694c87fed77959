# `keff data generate` of 65536 nuclides x 32767 points (within every size limit, about 138 GB with its
# HDF5 image) is refused with status 1 and the estimate before anything is generated, naming the flag
# that allows it; nothing is written. Skipped on a machine with that much memory available.
#   cmake -DKEFF=... -DOUT=dir -P data_memory.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(STRINGS /proc/meminfo available REGEX "^MemAvailable:")
string(REGEX MATCH "[0-9]+" kib "${available}")
if(kib AND kib GREATER 130000000)
  message("SKIPPED: ${kib} KiB available: the library would be generated")
  return()
endif()
execute_process(COMMAND ${KEFF} data generate --format h5 --nuclides 65536 --gridpoints 32767 --out ${OUT}/huge.h5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
set(regex "not enough memory: data generate needs about [0-9.]+ GB on rank 0 \\(generated nuclides [0-9.]+ GB, HDF5 file image [0-9.]+ GB\\) where [0-9.]+ [kMG]B are available \\(allowed: at most the memory available; fewer nuclides or points, or --allow-oversubscribed-memory to try anyway\\)")
if(NOT rc STREQUAL "1" OR NOT "${out}${err}" MATCHES "${regex}" OR EXISTS ${OUT}/huge.h5)
  message(FATAL_ERROR "expected status 1 and '${regex}', nothing written; got '${rc}':\n${out}${err}")
endif()
message("refused as expected:\n${err}")
