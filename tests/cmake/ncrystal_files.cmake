# The files NCrystal materials name, held to keff's rules for the files it reads
# (io/thermal/ncrystal.hpp, NCrystalLookup):
#  - a FIFO named by `ncrystal` is refused at once, with its path and kind, by `keff run`,
#    `keff check-geometry` and `keff plot` (NCrystal opened it itself and blocked for ever);
#  - a relative file is found beside the input, whatever the working directory, and the run header names
#    the file found;
#  - a restart refuses a statepoint whose NCrystal data differ from the data this run reads, material by
#    material: the file edited between the run and its restart, or another file of the same name found
#    first (one beside the input that shadows NCrystal's standard one); the same data continue.
#   cmake -DKEFF=... -DWATER_PIN=examples/water_pin_ncrystal.toml -DNCMAT=tests/inputs/ncrystal/free_gas_water.ncmat
#         -DOUT=dir -P ncrystal_files.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/inputs" "${OUT}/elsewhere")

function(expect status regex)
  execute_process(COMMAND ${KEFF} ${ARGN} WORKING_DIRECTORY "${OUT}/elsewhere" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc STREQUAL "${status}" OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "'${ARGN}': expected status ${status} and '${regex}', got '${rc}':\n${out}${err}")
  endif()
  message("as expected (${status}): ${ARGN}")
endfunction()

# An input in OUT/inputs whose water is `cfg`.
file(READ "${WATER_PIN}" pin)
if(NOT pin MATCHES "ncrystal = \"LiquidWaterH2O_T293.6K.ncmat\"")
  message(FATAL_ERROR "the water pin's ncrystal line was not found")
endif()
function(pin_input name cfg)
  string(REPLACE "ncrystal = \"LiquidWaterH2O_T293.6K.ncmat\"" "ncrystal = \"${cfg}\"" text "${pin}")
  file(WRITE "${OUT}/inputs/${name}" "${text}")
endfunction()
set(short --particles 300 --batches 2 --inactive 1 --quiet)

# ---- a FIFO: refused before NCrystal opens it, by every command that reads the input --------------
pin_input(fifo.toml "fifo.ncmat")
execute_process(COMMAND mkfifo "${OUT}/inputs/fifo.ncmat" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot make a FIFO for the test")
endif()
set(fifo_refused "fifo.toml:[0-9]+: material\\[water\\]\\.ncrystal: '.*inputs/fifo.ncmat': it is a FIFO \\(named pipe\\) \\(allowed: a regular file")
expect(2 "${fifo_refused}" run "${OUT}/inputs/fifo.toml" ${short})
expect(2 "${fifo_refused}" check-geometry "${OUT}/inputs/fifo.toml")
expect(2 "${fifo_refused}" plot "${OUT}/inputs/fifo.toml" -o "${OUT}/fifo.png")

# ---- beside the input: found from another working directory, and named in the header ---------------
pin_input(own.toml "own_water.ncmat")
configure_file("${NCMAT}" "${OUT}/inputs/own_water.ncmat" COPYONLY)
expect(0 "water: \"own_water.ncmat\" from '${OUT}/inputs/own_water.ncmat'"
       run "${OUT}/inputs/own.toml" --particles 300 --batches 2 --inactive 1 --statepoint "${OUT}/own.h5")

# ---- restarts: the same data continue; other data are refused --------------------------------------
expect(0 "" run "${OUT}/inputs/own.toml" ${short} --batches 3 --restart "${OUT}/own.h5" --statepoint "${OUT}/own2.h5")
file(APPEND "${OUT}/inputs/own_water.ncmat" "# edited after the run\n")
expect(2 "cannot restart from '.*own.h5': material 'water': its histories ran with NCrystal data 0x[0-9a-f]+ from '.*own_water.ncmat', and this run reads 0x[0-9a-f]+ from '.*own_water.ncmat' \\(allowed: the same data, digest for digest"
       run "${OUT}/inputs/own.toml" ${short} --batches 3 --restart "${OUT}/own.h5" --statepoint "${OUT}/own2.h5")

# NCrystal's standard water, then a file of the same name beside the input, found first.
pin_input(standard.toml "LiquidWaterH2O_T293.6K.ncmat")
expect(0 "" run "${OUT}/inputs/standard.toml" ${short} --statepoint "${OUT}/standard.h5")
configure_file("${NCMAT}" "${OUT}/inputs/LiquidWaterH2O_T293.6K.ncmat" COPYONLY)
expect(2 "cannot restart from '.*standard.h5': material 'water': its histories ran with NCrystal data 0x[0-9a-f]+ from NCrystal's standard library, and this run reads 0x[0-9a-f]+ from '.*inputs/LiquidWaterH2O_T293.6K.ncmat'"
       run "${OUT}/inputs/standard.toml" ${short} --batches 3 --restart "${OUT}/standard.h5" --statepoint "${OUT}/standard2.h5")
