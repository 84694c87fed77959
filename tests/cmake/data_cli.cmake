# `keff data generate|convert|info` from nothing, a run from each library equal bit for bit to the run
# from memory, and bad libraries failing with status 2 and a message naming the file on every rank.
#   cmake -DKEFF=... -DMPIEXEC="mpiexec;-n;2;..." -DOUT=dir -P data_cli.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

# Runs a command that must succeed; its standard output lands in `last_output`.
function(run_ok)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "'${ARGN}' failed (${rc}):\n${out}${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# Runs a command that must exit with status 2 within 120 s and print a line matching `regex`.
function(run_fails regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc STREQUAL "2" OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "'${ARGN}': expected status 2 and '${regex}', got '${rc}':\n${out}${err}")
  endif()
  message("failed as expected: ${ARGN}")
endfunction()

set(spec --nuclides 14 --gridpoints 900 --seed 77)
run_ok(${KEFF} data generate --format h5 ${spec} --out ${OUT}/lib.h5)
run_ok(${KEFF} data generate --format text ${spec} --out ${OUT}/text)
run_ok(${KEFF} data convert ${OUT}/text ${OUT}/converted.h5)
run_ok(${KEFF} data generate --format h5 --nuclides 6 --gridpoints 900 --out ${OUT}/few.h5)
foreach(lib lib.h5 text converted.h5)
  run_ok(${KEFF} data info ${OUT}/${lib})
  message("${last_output}")
  if(NOT last_output MATCHES "checksum +([0-9a-f]+)")
    message(FATAL_ERROR "'keff data info ${lib}' printed no checksum")
  endif()
  set(sum_${lib} ${CMAKE_MATCH_1})
endforeach()
if(NOT sum_lib.h5 STREQUAL sum_text OR NOT sum_lib.h5 STREQUAL sum_converted.h5)
  message(FATAL_ERROR "libraries differ: h5 ${sum_lib.h5}, text ${sum_text}, converted ${sum_converted.h5}")
endif()

# One pin in a reflected box (`settings` and `geometry`); [nuclear_data] differs between the inputs.
include(${CMAKE_CURRENT_LIST_DIR}/pin_problem.cmake)
file(WRITE ${OUT}/memory.toml "${settings}[nuclear_data]\nnuclides = 14\ngridpoints = 900\nseed = 77\n${geometry}")
file(WRITE ${OUT}/h5.toml "${settings}[nuclear_data]\nlibrary = \"lib.h5\"\nload = \"root\"\n${geometry}")
file(WRITE ${OUT}/text.toml "${settings}[nuclear_data]\nlibrary = \"text\"\nload = \"all\"\n${geometry}")
foreach(input memory h5 text)
  run_ok(${KEFF} run ${OUT}/${input}.toml --quiet --json ${OUT}/${input}.json)
  file(READ ${OUT}/${input}.json json_${input})
  string(JSON batches_${input} GET "${json_${input}}" batches)
endforeach()
foreach(input h5 text)
  if(NOT batches_${input} STREQUAL batches_memory)
    message(FATAL_ERROR "the run from ${input} differs from the run from memory:\n${batches_${input}}\n---\n${batches_memory}")
  endif()
endforeach()
message("runs from memory, HDF5 and text are identical")

# The light moderators a run appends for its materials (C12, H2 here), written by --moderators: the run
# from that file equals the run from memory.
run_ok(${KEFF} data generate --format h5 ${spec} --moderators C12,H2 --out ${OUT}/moderated.h5)
string(REPLACE "H1 = 6.7e-2, O16 = 3.3e-2" "C12 = 8.0e-2, H2 = 1.0e-4" moderated "${geometry}")
file(WRITE ${OUT}/moderated_memory.toml "${settings}[nuclear_data]\nnuclides = 14\ngridpoints = 900\nseed = 77\n${moderated}")
file(WRITE ${OUT}/moderated_h5.toml "${settings}[nuclear_data]\nlibrary = \"moderated.h5\"\n${moderated}")
foreach(input moderated_memory moderated_h5)
  run_ok(${KEFF} run ${OUT}/${input}.toml --quiet --json ${OUT}/${input}.json)
  file(READ ${OUT}/${input}.json json_${input})
  string(JSON batches_${input} GET "${json_${input}}" batches)
endforeach()
if(NOT batches_moderated_h5 STREQUAL batches_moderated_memory)
  message(FATAL_ERROR "the run from moderated.h5 differs from the run from memory")
endif()
message("a library generated with --moderators runs as the synthetic library in memory")

# Bad libraries, on two ranks: status 2 and one clear message, no hang.
execute_process(COMMAND head -c 20000 ${OUT}/lib.h5 OUTPUT_FILE ${OUT}/truncated.h5)
file(WRITE ${OUT}/truncated.toml "${settings}[nuclear_data]\nlibrary = \"truncated.h5\"\nload = \"node\"\n${geometry}")
file(WRITE ${OUT}/missing.toml "${settings}[nuclear_data]\nlibrary = \"nowhere.h5\"\nload = \"readers\"\nreaders = 2\n${geometry}")
file(WRITE ${OUT}/few.toml "${settings}[nuclear_data]\nlibrary = \"few.h5\"\n${geometry}")
run_fails("truncated.h5: cannot open as an HDF5 nuclear-data library .*truncated file" ${MPIEXEC} ${KEFF} data info ${OUT}/truncated.h5)
run_fails("truncated.h5: cannot open as an HDF5 nuclear-data library" ${MPIEXEC} ${KEFF} run ${OUT}/truncated.toml)
run_fails("nowhere.h5: nuclear-data library does not exist" ${MPIEXEC} ${KEFF} run ${OUT}/missing.toml)
run_fails("few.toml:[0-9]+: material 'fuel': nuclide 'U238' is not in the nuclear data library '.*few.h5'"
          ${MPIEXEC} ${KEFF} run ${OUT}/few.toml)
run_fails("not a text-library directory" ${KEFF} data convert ${OUT}/lib.h5 ${OUT}/never.h5)

# Data that parse but are unphysical: refused by 'data info', 'convert' and 'run' alike, naming the
# nuclide, the value and the allowed range (a negative nu ran to a wrong k; Watt 0 0 hung the run).
foreach(case "nu;nu -1 0;nu\\(1e-05 eV\\) = -1 \\+ 0 \\* E\\[MeV\\] = -1 \\(allowed: 0.5 to 10"
             "watt;watt 0 0;Watt spectrum a = 0 MeV, b = 0 /MeV .*allowed: a from 0.1 to 10 MeV")
  list(GET case 0 name)
  list(GET case 1 line)
  list(GET case 2 regex)
  file(REMOVE_RECURSE ${OUT}/bad_${name})
  file(COPY ${OUT}/text/ DESTINATION ${OUT}/bad_${name})
  set(u235 ${OUT}/bad_${name}/z09x/Z092/U235.txt)
  file(READ ${u235} content)
  string(REGEX REPLACE "\n${name} [^\n]*\n" "\n${line}\n" content "${content}")
  file(WRITE ${u235} "${content}")
  file(WRITE ${OUT}/bad_${name}.toml "${settings}[nuclear_data]\nlibrary = \"bad_${name}\"\n${geometry}")
  run_fails("U235.txt: nuclide 'U235': ${regex}" ${MPIEXEC} ${KEFF} data info ${OUT}/bad_${name})
  run_fails("U235.txt: nuclide 'U235': ${regex}" ${KEFF} data convert ${OUT}/bad_${name} ${OUT}/never.h5)
  run_fails("U235.txt: nuclide 'U235': ${regex}" ${MPIEXEC} ${KEFF} run ${OUT}/bad_${name}.toml)
endforeach()

# The hash grid of a library's nuclides: (hash_bins + 1) x 129 entries are past the int kernels index the
# table with (it crashed); refused when the library is read, naming the input, the key and the library.
run_ok(${KEFF} data generate --format h5 --nuclides 129 --gridpoints 50 --out ${OUT}/many.h5)
string(REPLACE "[settings]\n" "[settings]\nhash_bins = 16777216\n" hashed "${settings}")
file(WRITE ${OUT}/hash_grid.toml "${hashed}[nuclear_data]\nlibrary = \"many.h5\"\n${geometry}")
run_fails("hash_grid.toml: settings.hash_bins = 16777216 with the 129 nuclides of the library '.*many.h5': \\(hash_bins \\+ 1\\) x nuclides hash-grid entries are too many \\(allowed: at most 2\\^31 - 1"
          ${MPIEXEC} ${KEFF} run ${OUT}/hash_grid.toml)
