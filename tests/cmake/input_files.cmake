# Inputs that are not regular files, inputs past their size limit, and outputs over inputs:
#  - a FIFO or a device as the input file, the restart file, an HDF5 library, a text library's index or
#    one of its nuclide files is refused with status 2 and its path and kind, before it is opened (a FIFO
#    used to block for ever, a device to be read without end);
#  - an input file larger than limits::max_input_bytes, a nuclide file larger than its points allow;
#  - no output (--json, --statepoint, `data convert`'s) may be one of the command's inputs: the input
#    file, the restart file, the library directory, its index, any nuclide file, by identity (a second
#    path, a symbolic link and a hard link count), and the input is left as it was;
#  - a library whose index lists a name or an id twice is refused by `data info` and `run`, as the
#    writers refuse it.
#   cmake -DKEFF=... -DOUT=dir -P input_files.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

# Runs ARGN (a keff command line) with a time limit; it must exit with status 2 and print `regex`.
function(refused regex)
  execute_process(COMMAND ${KEFF} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc STREQUAL "2" OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "'${ARGN}': expected status 2 and '${regex}', got '${rc}':\n${out}${err}")
  endif()
  message("refused as expected: ${ARGN}")
endfunction()

function(run_ok)
  execute_process(COMMAND ${KEFF} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "'${ARGN}' failed (${rc}):\n${out}${err}")
  endif()
endfunction()

function(make_fifo path)
  execute_process(COMMAND mkfifo "${path}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cannot make a FIFO for the test")
  endif()
endfunction()

set(regular "allowed: a regular file; symbolic links are followed")
make_fifo("${OUT}/fifo")
# Reading through a link to /dev/zero is refused before anything is opened: the device is never read.
file(CREATE_LINK /dev/zero "${OUT}/zero" SYMBOLIC)

# ---- the input file and the restart file -----------------------------------------------------------
refused("cannot open input file '.*/fifo': it is a FIFO \\(named pipe\\) \\(${regular}\\)" run "${OUT}/fifo")
refused("cannot open input file '.*/zero': it is a character device" run "${OUT}/zero")
refused("cannot open input file '.*/no_such.toml': it does not exist" run "${OUT}/no_such.toml")
refused("cannot open input file '${OUT}': it is a directory" run "${OUT}")
refused("cannot restart from '.*/fifo': it is a FIFO" run --restart "${OUT}/fifo" --statepoint "${OUT}/sp.h5")
refused("cannot restart from '.*/zero': it is a character device" run --restart "${OUT}/zero" --statepoint "${OUT}/sp.h5")
# Larger than limits::max_input_bytes (2^26): a sparse file, so the test writes nothing.
file(WRITE "${OUT}/huge.toml" "# a comment\n")
execute_process(COMMAND truncate -s 67108865 "${OUT}/huge.toml" RESULT_VARIABLE rc)
if(rc EQUAL 0)
  refused("cannot open input file '.*/huge.toml': it holds 67108865 bytes \\(allowed: a regular file of at most 2\\^26 bytes\\)"
          run "${OUT}/huge.toml")
endif()

# ---- libraries ---------------------------------------------------------------------------------------
run_ok(data generate --format text --nuclides 14 --gridpoints 200 --seed 77 --out "${OUT}/text")
run_ok(data generate --format h5 --nuclides 14 --gridpoints 200 --seed 77 --out "${OUT}/lib.h5")
refused("fifo: not a nuclear-data library: it is a FIFO" data info "${OUT}/fifo")
refused("zero: not a nuclear-data library: it is a character device" data info "${OUT}/zero")

# A copy of the text library with one file replaced by `kind` (fifo or a link to /dev/zero).
function(text_copy name file kind)
  file(REMOVE_RECURSE "${OUT}/${name}")
  file(COPY "${OUT}/text/" DESTINATION "${OUT}/${name}")
  file(REMOVE "${OUT}/${name}/${file}")
  if(kind STREQUAL "fifo")
    make_fifo("${OUT}/${name}/${file}")
  else()
    file(CREATE_LINK /dev/zero "${OUT}/${name}/${file}" SYMBOLIC)
  endif()
endfunction()
text_copy(index_fifo index.txt fifo)
text_copy(nuclide_fifo z09x/Z092/U235.txt fifo)
text_copy(nuclide_zero z09x/Z092/U235.txt zero)
refused("cannot open nuclear-data file '.*index_fifo/index.txt': it is a FIFO" data info "${OUT}/index_fifo")
refused("cannot open nuclear-data file '.*nuclide_fifo/z09x/Z092/U235.txt': it is a FIFO" data info "${OUT}/nuclide_fifo")
refused("cannot open nuclear-data file '.*nuclide_zero/z09x/Z092/U235.txt': it is a character device"
        data convert "${OUT}/nuclide_zero" "${OUT}/never.h5")
# A nuclide file larger than the points its index announces allow (limits::max_text_nuclide_bytes).
file(REMOVE_RECURSE "${OUT}/nuclide_big")
file(COPY "${OUT}/text/" DESTINATION "${OUT}/nuclide_big")
execute_process(COMMAND truncate -s 200000 "${OUT}/nuclide_big/z09x/Z092/U235.txt")
refused("U235.txt': it holds 200000 bytes \\(allowed: a regular file of at most 116736 bytes\\)"
        data info "${OUT}/nuclide_big")

# A run whose library is one of them: the same messages.
include(${CMAKE_CURRENT_LIST_DIR}/pin_problem.cmake)
foreach(lib fifo zero nuclide_fifo text lib.h5)
  file(WRITE "${OUT}/${lib}.toml" "${settings}[nuclear_data]\nlibrary = \"${lib}\"\n${geometry}")
endforeach()
refused("fifo: not a nuclear-data library: it is a FIFO" run "${OUT}/fifo.toml")
refused("zero: not a nuclear-data library: it is a character device" run "${OUT}/zero.toml")
refused("cannot open nuclear-data file '.*nuclide_fifo/z09x/Z092/U235.txt': it is a FIFO" run "${OUT}/nuclide_fifo.toml")

# ---- outputs over inputs ------------------------------------------------------------------------------
file(SHA256 "${OUT}/text/index.txt" index_before)
file(SHA256 "${OUT}/text/z09x/Z092/U235.txt" u235_before)
file(SHA256 "${OUT}/lib.h5" h5_before)
set(input_rule "allowed: a file that is none of the command's inputs")
refused("data convert: OUT.h5 '.*text/index.txt' is the file '.*text/index.txt' of the nuclear-data library '.*text' \\(${input_rule}"
        data convert "${OUT}/text" "${OUT}/text/index.txt")
refused("data convert: OUT.h5 '.*U235.txt' is the file" data convert "${OUT}/text" "${OUT}/text/z09x/Z092/U235.txt")
refused("--json '.*U235.txt' is the file '.*text/z09x/Z092/U235.txt' of the nuclear-data library"
        run "${OUT}/text.toml" --json "${OUT}/text/z09x/Z092/U235.txt")
refused("--statepoint '.*index.txt' is the file '.*text/index.txt' of the nuclear-data library"
        run "${OUT}/text.toml" --statepoint "${OUT}/text/index.txt")
refused("--statepoint '.*lib.h5' is the nuclear-data library '.*lib.h5'" run "${OUT}/lib.h5.toml" --statepoint "${OUT}/lib.h5")
# Another name for an input: a symbolic link, a hard link.
file(CREATE_LINK "${OUT}/text/z09x/Z092/U235.txt" "${OUT}/soft.json" SYMBOLIC)
file(CREATE_LINK "${OUT}/text/index.txt" "${OUT}/hard.json")
refused("--json '.*soft.json' is the file '.*U235.txt' of the nuclear-data library" run "${OUT}/text.toml" --json "${OUT}/soft.json")
refused("--json '.*hard.json' is the file '.*index.txt' of the nuclear-data library" run "${OUT}/text.toml" --json "${OUT}/hard.json")
file(CREATE_LINK "${OUT}/text.toml" "${OUT}/input_link.h5" SYMBOLIC)
refused("--statepoint '.*input_link.h5' is the input file" run "${OUT}/text.toml" --statepoint "${OUT}/input_link.h5")
file(SHA256 "${OUT}/text/index.txt" index_after)
file(SHA256 "${OUT}/text/z09x/Z092/U235.txt" u235_after)
file(SHA256 "${OUT}/lib.h5" h5_after)
if(NOT index_before STREQUAL index_after OR NOT u235_before STREQUAL u235_after OR NOT h5_before STREQUAL h5_after)
  message(FATAL_ERROR "an input library was changed by a refused command")
endif()

# ---- every reader refuses what the writers refuse ----------------------------------------------------
file(REMOVE_RECURSE "${OUT}/duplicate")
file(COPY "${OUT}/text/" DESTINATION "${OUT}/duplicate")
file(READ "${OUT}/duplicate/index.txt" index)
string(REGEX REPLACE "\nO16 8016 " "\nH1 8016 " index "${index}")
file(WRITE "${OUT}/duplicate/index.txt" "${index}")
file(WRITE "${OUT}/duplicate.toml" "${settings}[nuclear_data]\nlibrary = \"duplicate\"\n${geometry}")
set(twice "duplicate/index.txt: nuclide 'H1' appears twice in the index \\(entries 1 and 2; allowed: each name once\\)")
refused("${twice}" data info "${OUT}/duplicate")
refused("${twice}" run "${OUT}/duplicate.toml")
refused("${twice}" data convert "${OUT}/duplicate" "${OUT}/never.h5")
message("inputs that are not regular files refused; outputs over inputs refused; duplicates refused by every reader")
