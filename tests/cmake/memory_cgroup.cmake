# The memory check under a memory cgroup's limit (src/host/memory_check.hpp): NCrystal tables larger than
# the room a 250 MiB cgroup leaves are refused before they are built, with status 1 and the sizes (keff
# compared them with the machine's free memory alone, passed, and the kernel killed it without a word),
# and tables that fit run. Skipped (77) where no cgroup can be made (tests/in_memory_cgroup.sh).
#   cmake -DKEFF=... -DIN_CGROUP=tests/in_memory_cgroup.sh -DWATER_PIN=examples/water_pin_ncrystal.toml
#         -DOUT=dir -P memory_cgroup.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(READ "${WATER_PIN}" pin)
set(limit 262144000)  # 250 MiB

# 10000 energies x 1000 outcomes x 3 x 8 bytes: a 240 MB table, more than the cgroup's room beside the
# rest of the run (about 100 MB); 4000: 96 MB.
foreach(energies 10000 4000)
  string(REPLACE "[settings]\n" "[settings]\nthermal_table_energies = ${energies}\nthermal_table_samples = 1000\nthermal_table_draws = 1\n"
         text "${pin}")
  file(WRITE "${OUT}/pin_${energies}.toml" "${text}")
  execute_process(COMMAND ${IN_CGROUP} ${limit} -- ${KEFF} run "${OUT}/pin_${energies}.toml" --particles 200 --batches 2
                          --inactive 1 --statepoint "" --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
  if(rc EQUAL 77)
    message("no memory cgroup can be made here: ${err}")
    return()
  endif()
  if(energies EQUAL 10000)
    if(NOT rc EQUAL 1 OR NOT err MATCHES "not enough memory: the NCrystal tables needs about 24[0-9.]+ MB on rank 0 \\(tables of the distinct NCrystal materials 240.[0-9] MB, NCrystal's draws being sorted [0-9.]+ kB\\) where [0-9.]+ MB are available")
      message(FATAL_ERROR "a 240 MB table in a 250 MiB cgroup: expected status 1 and the sizes, got '${rc}':\n${out}${err}")
    endif()
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "a 96 MB table in a 250 MiB cgroup should run, got '${rc}':\n${out}${err}")
  endif()
  message("${energies} energies in a 250 MiB cgroup: status ${rc} as expected")
endforeach()
