# Signals outside the batches (src/host/interrupt.hpp), each sent at a point the run announces
# (io/test_point.hpp, tests/signal_at.sh), so every case reaches the same phase on any machine:
#  1. SIGTERM while the input reader opens an NCrystal material (keff run, check-geometry, plot): the
#     command stops once the input is read, status 143, "while the input was read".
#  2. SIGTERM while NCrystal's table is built, at 1 rank and to rank 1 of 2: the tables stop between
#     energies and the run stops before its first batch, status 143, naming the material and the energies
#     done; no statepoint.
#  3. SIGTERM after the last batch, and while the outputs are written: nothing is stopped; the JSON summary
#     and the statepoint are written, status 0, and the run says the signal came after the last batch (it
#     used to stop with 143, no JSON, and a --restart hint that the restart then refused).
#   cmake -DKEFF=<keff_test_points> -DMPIEXEC=... "-DMPIFLAGS=..." -DNCRYSTAL_INPUT=<water pin> (optional)
#         -DINPUT=<a quick input> -DSIGNAL_AT=tests/signal_at.sh -DOUT=dir -P interrupt_phases.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(mpirun2 ${MPIEXEC} -n 2 ${MPIFLAGS})

include("${CMAKE_CURRENT_LIST_DIR}/signal_cases.cmake")

if(NCRYSTAL_INPUT)
  set(water run ${NCRYSTAL_INPUT} --particles 300 --batches 2 --inactive 1)
  stops_on_signal("1. SIGTERM as keff run opens an NCrystal material" 143 "interrupted by SIGTERM while the input was read"
            ncrystal-open=TERM -- ${KEFF} ${water} --statepoint "${OUT}/open.h5")
  stops_on_signal("1. SIGTERM as keff check-geometry opens an NCrystal material" 143 "interrupted by SIGTERM while the input was read"
            ncrystal-open=TERM -- ${KEFF} check-geometry ${NCRYSTAL_INPUT})
  stops_on_signal("1. SIGTERM as keff plot opens an NCrystal material" 143 "interrupted by SIGTERM while the input was read"
            ncrystal-open=TERM -- ${KEFF} plot ${NCRYSTAL_INPUT} -o "${OUT}/open.png")
  set(stopped "interrupted by SIGTERM while the NCrystal table of material 'water' \\(1 of 1\\) was built, after 0 of 4000 energies")
  stops_on_signal("2. SIGTERM as NCrystal's table is built" 143 "${stopped}"
            ncrystal-table:1=TERM -- ${KEFF} ${water} --statepoint "${OUT}/table.h5")
  stops_on_signal("2. SIGTERM to rank 1 of 2 as NCrystal's table is built" 143 "interrupted by SIGTERM while the NCrystal table"
            ncrystal-table:1@1=TERM -- ${mpirun2} ${KEFF} ${water} --statepoint "${OUT}/table.h5")
  if(EXISTS "${OUT}/open.h5" OR EXISTS "${OUT}/table.h5" OR EXISTS "${OUT}/open.png")
    message(FATAL_ERROR "a command stopped before its first batch wrote an output")
  endif()
endif()

set(quick run ${INPUT} --particles 500 --batches 3 --inactive 1)
foreach(point batch:3 outputs)
  file(REMOVE "${OUT}/last.json" "${OUT}/last.h5")
  stops_on_signal("3. SIGTERM at ${point} of a 3-batch run" 0 "SIGTERM came after the last batch had run: the run is complete and its outputs are written"
            ${point}=TERM -- ${KEFF} ${quick} --statepoint "${OUT}/last.h5" --json "${OUT}/last.json")
  if(NOT EXISTS "${OUT}/last.json" OR NOT EXISTS "${OUT}/last.h5")
    message(FATAL_ERROR "3. a run signalled at ${point} left out its JSON summary or its statepoint")
  endif()
  file(READ "${OUT}/last.json" json)
  if(NOT json MATCHES "\"batch\": 3")
    message(FATAL_ERROR "3. the JSON summary of a run signalled at ${point} lacks batch 3")
  endif()
endforeach()
