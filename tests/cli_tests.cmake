# Tests that run the keff executable the way a user does: all labelled `cli`, and `mpi` where keff runs at
# more than one rank.
set(_keff $<TARGET_FILE:keff>)
# keff with its test points armed (io/test_point.hpp): the same main, for the tests that signal a run at
# a point it announces. `keff` itself ignores KEFF_TEST_POINT.
add_executable(keff_test_points ${PROJECT_SOURCE_DIR}/src/cli/main.cpp)
target_link_libraries(keff_test_points PRIVATE keff::cli keff::driver)
target_compile_definitions(keff_test_points PRIVATE KEFF_ARM_TEST_POINTS=1)
set(_keff_test_points $<TARGET_FILE:keff_test_points>)
set(_cmake_dir ${CMAKE_CURRENT_SOURCE_DIR}/cmake)
set(_out ${CMAKE_CURRENT_BINARY_DIR}/cli)
set(_mpiflags "-DMPIFLAGS=${KEFF_MPIEXEC_PREFLAGS}")  # one argument: quoted wherever it is used

add_test(NAME cli_help COMMAND keff --help)
# The install layout a module or Spack points at (cmake --install into a scratch prefix).
add_test(NAME cli_install_layout
         COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DOUT=${_out}/install -P ${_cmake_dir}/install_layout.cmake)
add_test(NAME cli_default_summary
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DOUT=${_out}/summary -P ${_cmake_dir}/check_summary.cmake)
set_tests_properties(cli_help cli_default_summary cli_install_layout PROPERTIES LABELS "cli")

# Same seed, 1 and 2 OpenMP threads: bit-identical k per batch, entropy, leakage and tallies.
add_test(NAME determinism_threads_default
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DARGS=run;--particles;3000;--batches;8;--inactive;3"
                 -DTHREADS_A=1 -DTHREADS_B=2 -DOUT=${_out}/det_default -P ${_cmake_dir}/compare_runs.cmake)
add_test(NAME determinism_threads_multigroup
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff}
                 "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml;--particles;5000;--batches;8;--inactive;3"
                 -DTHREADS_A=1 -DTHREADS_B=2 -DOUT=${_out}/det_mg -P ${_cmake_dir}/compare_runs.cmake)
set_tests_properties(determinism_threads_default determinism_threads_multigroup PROPERTIES LABELS "cli;determinism")

# Tallies of every filter, score and estimator (inputs/tallies_lattice.toml): the same bits at 1, 2 and
# 4 ranks, in event mode, with 2 domains and at 1 and 2 threads; a restart equals the straight run; a
# trigger ends the run after the same batch at 1 and 2 ranks.
set(_tallies ${CMAKE_CURRENT_SOURCE_DIR}/inputs/tallies_lattice.toml)
add_test(NAME determinism_tallies
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 "-DARGS=run;${_tallies};--particles;1500;--batches;5;--inactive;1"
                 "-DVARIANTS=1:;2:;4:--mode,event;2:--domains,2,1,1;1:--mode,event" -DOUT=${_out}/determinism_tallies
                 -P ${_cmake_dir}/compare_variants.cmake)
add_test(NAME determinism_threads_tallies
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DARGS=run;${_tallies};--particles;1500;--batches;5;--inactive;1"
                 -DTHREADS_A=1 -DTHREADS_B=2 -DOUT=${_out}/det_threads_tallies -P ${_cmake_dir}/compare_runs.cmake)
add_test(NAME restart_tallies_np2
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=2
                 "-DARGS=run;${_tallies};--particles;1500;--inactive;1" -DBATCHES=6 -DHALF=3
                 -DOUT=${_out}/restart_tallies_np2 -P ${_cmake_dir}/restart.cmake)
add_test(NAME cli_tally_triggers
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DINPUT=${_tallies}
                 -DOUT=${_out}/tally_triggers -P ${_cmake_dir}/tally_triggers.cmake)
# Four independent populations: the same bits at 1, 2 and 4 ranks, in event mode and with 2 domains, and
# a restart equals the straight run at 1 and 2 ranks.
add_test(NAME determinism_populations
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 "-DARGS=run;${_tallies};--particles;1600;--batches;5;--inactive;1;--populations;4"
                 "-DVARIANTS=1:;2:;4:--mode,event;2:--domains,2,1,1;1:--mode,event" -DOUT=${_out}/determinism_populations
                 -P ${_cmake_dir}/compare_variants.cmake)
foreach(_np 1 2)
  add_test(NAME restart_populations_np${_np}
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=${_np}
                   "-DARGS=run;${_tallies};--particles;1600;--inactive;1;--populations;4" -DBATCHES=6 -DHALF=3
                   -DOUT=${_out}/restart_populations_np${_np} -P ${_cmake_dir}/restart.cmake)
endforeach()
set_tests_properties(determinism_populations restart_populations_np1 restart_populations_np2
                     PROPERTIES LABELS "cli;determinism;mpi" TIMEOUT 600
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
# settings.populations = "auto", an input's default: 8 populations of 2000 histories from 16000 particles,
# one from 8000 (--particles chooses again), and an unknown word is refused.
set(_pub ${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml)
add_test(NAME cli_populations_auto
         COMMAND ${CMAKE_COMMAND} "-DCMD=${_keff};run;${_pub};--particles;16000;--batches;2;--inactive;1;--statepoint;${_out}/populations_auto.h5"
                 "-DREGEX=16000 per generation, 2 batches \\(1 inactive\\), 8 independent populations \\(auto\\).*k \\(populations\\)"
                 -DEXIT=0 -P ${_cmake_dir}/expect_failure.cmake)
add_test(NAME cli_populations_auto_one
         COMMAND ${CMAKE_COMMAND} "-DCMD=${_keff};run;${_pub};--particles;8000;--batches;2;--inactive;1;--statepoint;${_out}/populations_one.h5"
                 "-DREGEX=8000 per generation" "-DFORBID=populations \\(auto\\)|k \\(populations\\)" -DEXIT=0 -P ${_cmake_dir}/expect_failure.cmake)
add_test(NAME restart_auto_populations
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUT=${_pub} -DOUT=${_out}/restart_auto_populations
                 -P ${_cmake_dir}/restart_auto_populations.cmake)
set_tests_properties(cli_populations_auto cli_populations_auto_one restart_auto_populations PROPERTIES LABELS "cli"
                     TIMEOUT 150 ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")
# The C5G7 examples equal their generator's output (skipped without the published data beside the checkout).
find_program(KEFF_PYTHON3 python3)
if(KEFF_PYTHON3)
  add_test(NAME c5g7_inputs
           COMMAND ${CMAKE_COMMAND} -DPYTHON=${KEFF_PYTHON3} -DSOURCE=${PROJECT_SOURCE_DIR}
                   -DDATA=${PROJECT_SOURCE_DIR}/../shared/data/c5g7/c5g7-7group.json -DOUT=${_out}/c5g7_inputs
                   -P ${_cmake_dir}/c5g7_inputs.cmake)
  set_tests_properties(c5g7_inputs PROPERTIES LABELS "integration" SKIP_REGULAR_EXPRESSION "no C5G7 data at")
endif()
add_test(NAME cli_plot
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUTS=${CMAKE_CURRENT_SOURCE_DIR}/inputs -DOUT=${_out}/plot
                 -P ${_cmake_dir}/plot_cli.cmake)
set_tests_properties(cli_plot PROPERTIES LABELS "cli;bad-input")
add_test(NAME cli_tally_show
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUT=${_tallies} -DOUT=${_out}/tally_show -P ${_cmake_dir}/tally_show.cmake)
set_tests_properties(cli_tally_show PROPERTIES LABELS "cli;bad-input" TIMEOUT 600)
set_tests_properties(determinism_tallies restart_tallies_np2 cli_tally_triggers PROPERTIES LABELS "cli;determinism;mpi"
                     TIMEOUT 600 ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
set_tests_properties(determinism_threads_tallies PROPERTIES LABELS "cli;determinism" TIMEOUT 600)

# Same seed, 1, 2 and 4 ranks (and the blocking exchange with synchronized timers): bit-identical
# results. Restart: 5 batches + restart + 5 equals 10 straight, at 1 and 2 ranks; another input refused.
add_test(NAME determinism_ranks_default
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 "-DARGS=run;--particles;2000;--batches;6;--inactive;2"
                 "-DVARIANTS=1:;2:;4:" -DOUT=${_out}/ranks_default -P ${_cmake_dir}/compare_variants.cmake)
add_test(NAME determinism_ranks_multigroup
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml;--particles;3000;--batches;8;--inactive;3"
                 "-DVARIANTS=1:;2:;4:" -DOUT=${_out}/ranks_mg -P ${_cmake_dir}/compare_variants.cmake)
add_test(NAME determinism_ranks_blocking_exchange
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 "-DARGS=run;--particles;2000;--batches;6;--inactive;2;--exchange;blocking;--sync-timers"
                 "-DVARIANTS=1:;4:" -DOUT=${_out}/ranks_blocking -P ${_cmake_dir}/compare_variants.cmake)

# NCrystal's water (examples/water_pin_ncrystal.toml, tables built on every rank from the run's seed): the
# same bits at 1, 2 and 4 ranks, in event mode and with 2 domains, at 1 and 2 threads, and after a restart;
# and the same with NCrystal asked in transport (thermal_tables = false: the particle's own random numbers,
# one NCrystal cache per thread).
if(KEFF_HAVE_NCRYSTAL)
  file(READ ${PROJECT_SOURCE_DIR}/examples/water_pin_ncrystal.toml _water_pin)
  string(REPLACE "temperature = 293.6" "temperature = 293.6\nthermal_tables = false" _water_pin_direct "${_water_pin}")
  file(WRITE ${_out}/water_pin_ncrystal_direct.toml "${_water_pin_direct}")
  # <suffix>|<input>|<particles>|<restart ranks>; direct NCrystal is slower: fewer particles.
  foreach(_case "|${PROJECT_SOURCE_DIR}/examples/water_pin_ncrystal.toml|1500|2"
                "_direct|${_out}/water_pin_ncrystal_direct.toml|600|1")
    string(REPLACE "|" ";" _case "${_case}")
    list(GET _case 0 _suffix)
    list(GET _case 1 _input)
    list(GET _case 2 _particles)
    list(GET _case 3 _np)
    add_test(NAME determinism_ncrystal${_suffix}
             COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                     "-DARGS=run;${_input};--particles;${_particles};--batches;4;--inactive;2"
                     "-DVARIANTS=1:--mode,history;2:--mode,event;4:--mode,history;2:--domains,2,1,1"
                     -DOUT=${_out}/determinism_ncrystal${_suffix} -P ${_cmake_dir}/compare_variants.cmake)
    add_test(NAME determinism_threads_ncrystal${_suffix}
             COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DARGS=run;${_input};--particles;${_particles};--batches;4;--inactive;2"
                     -DTHREADS_A=1 -DTHREADS_B=2 -DOUT=${_out}/det_threads_ncrystal${_suffix} -P ${_cmake_dir}/compare_runs.cmake)
    add_test(NAME restart_ncrystal${_suffix}_np${_np}
             COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=${_np}
                     "-DARGS=run;${_input};--particles;${_particles};--inactive;1" -DBATCHES=4 -DHALF=2
                     -DOUT=${_out}/restart_ncrystal${_suffix}_np${_np} -P ${_cmake_dir}/restart.cmake)
    set_tests_properties(determinism_ncrystal${_suffix} restart_ncrystal${_suffix}_np${_np} PROPERTIES
                         LABELS "cli;determinism;mpi" TIMEOUT 600
                         ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
    set_tests_properties(determinism_threads_ncrystal${_suffix} PROPERTIES LABELS "cli;determinism" TIMEOUT 600)
  endforeach()
  # The files NCrystal materials name: a FIFO refused by every command, a file found beside the input, a
  # restart refusing other NCrystal data (tests/cmake/ncrystal_files.cmake).
  add_test(NAME cli_ncrystal_files
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DWATER_PIN=${PROJECT_SOURCE_DIR}/examples/water_pin_ncrystal.toml
                   -DNCMAT=${PROJECT_SOURCE_DIR}/tests/inputs/ncrystal/free_gas_water.ncmat
                   -DOUT=${_out}/ncrystal_files -P ${_cmake_dir}/ncrystal_files.cmake)
  set_tests_properties(cli_ncrystal_files PROPERTIES LABELS "cli;bad-input" TIMEOUT 900
                       ENVIRONMENT "OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
  # NCrystal tables against a memory cgroup's limit (tests/cmake/memory_cgroup.cmake; skipped where no
  # cgroup can be made).
  add_test(NAME cli_memory_cgroup
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DIN_CGROUP=${CMAKE_CURRENT_SOURCE_DIR}/in_memory_cgroup.sh
                   -DWATER_PIN=${PROJECT_SOURCE_DIR}/examples/water_pin_ncrystal.toml
                   -DOUT=${_out}/memory_cgroup -P ${_cmake_dir}/memory_cgroup.cmake)
  set_tests_properties(cli_memory_cgroup PROPERTIES LABELS "cli;bad-input" TIMEOUT 900 SKIP_REGULAR_EXPRESSION
                       "no memory cgroup can be made here" ENVIRONMENT "OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
endif()

# CMFD with feedback: the same bits at 1, 2 and 4 ranks, in history and event modes and with domain
# decomposition (one build, one thread per rank; src/cmfd/README.md says what holds across thread
# counts); and a restart continues the CMFD window bit for bit, at 1 and 2 ranks, inside CMFD's batches
# (inputs/cmfd_begin_later.toml: batches 6 to the last) and after its end (by default the last inactive
# batch).
if(KEFF_HAVE_CMFD)
  add_test(NAME determinism_cmfd
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                   "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/cmfd_slab_2g.toml;--particles;2000;--batches;8;--inactive;6"
                   "-DVARIANTS=1:--mode,history;1:--mode,event;2:--mode,history;4:--mode,event;2:--domains,2,1,1;4:--domains,4,1,1"
                   -DOUT=${_out}/determinism_cmfd -P ${_cmake_dir}/compare_variants.cmake)
  foreach(_np 1 2)
    add_test(NAME restart_cmfd_np${_np}
             COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=${_np}
                     "-DARGS=run;${CMAKE_CURRENT_SOURCE_DIR}/inputs/cmfd_begin_later.toml;--particles;1500;--inactive;2"
                     -DBATCHES=9 -DHALF=7 -DOUT=${_out}/restart_cmfd_np${_np} -P ${_cmake_dir}/restart.cmake)
  endforeach()
  add_test(NAME restart_cmfd_after_end
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=1
                   "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/cmfd_slab_2g.toml;--particles;1500;--inactive;3"
                   -DBATCHES=10 -DHALF=5 -DOUT=${_out}/restart_cmfd_after_end -P ${_cmake_dir}/restart.cmake)
  # A run stopped before [cmfd] begin (a note, not an error) and continued past it: CMFD from its begin,
  # the bits of the straight run.
  add_test(NAME restart_cmfd_begin_later
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=1
                   "-DARGS=run;${CMAKE_CURRENT_SOURCE_DIR}/inputs/cmfd_begin_later.toml;--particles;1500;--inactive;2"
                   -DBATCHES=9 -DHALF=4 -DOUT=${_out}/restart_cmfd_begin_later -P ${_cmake_dir}/restart.cmake)
  set_tests_properties(determinism_cmfd restart_cmfd_np1 restart_cmfd_np2 restart_cmfd_after_end restart_cmfd_begin_later
                       PROPERTIES LABELS "cli;determinism;mpi" TIMEOUT 600
                                  ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
  set_tests_properties(restart_cmfd_np1 restart_cmfd_after_end restart_cmfd_begin_later PROPERTIES LABELS "cli;determinism")
  # A failed solve shown as failed, never as a number; a run where CMFD did nothing says so. One thread:
  # CMFD's reductions add in the thread count's order, and the failing solve is the one thread's.
  add_test(NAME cli_cmfd_failures
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUT=${PROJECT_SOURCE_DIR}/examples/cmfd_slab_2g.toml
                   -DOUT=${_out}/cmfd_failures -P ${_cmake_dir}/cmfd_failures.cmake)
  set_tests_properties(cli_cmfd_failures PROPERTIES LABELS "cli;bad-input" TIMEOUT 600
                       ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")
  # CMFD solves on legitimate runs: none fails on the slab with a fixed shift, none reports a k_cmfd its
  # left-out groups biased (tests/cmake/cmfd_legitimate.cmake).
  add_test(NAME cli_cmfd_legitimate
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DSLAB=${PROJECT_SOURCE_DIR}/examples/cmfd_slab_2g.toml
                   -DDEFAULT=${PROJECT_SOURCE_DIR}/examples/default.toml
                   -DOUT=${_out}/cmfd_legitimate -P ${_cmake_dir}/cmfd_legitimate.cmake)
  set_tests_properties(cli_cmfd_legitimate PROPERTIES LABELS "cli;verification" TIMEOUT 600
                       ENVIRONMENT "OMP_NUM_THREADS=2;OMP_PROC_BIND=false")
endif()
foreach(_np 1 2)
  add_test(NAME restart_np${_np}
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=${_np}
                   "-DARGS=run;--particles;1500;--inactive;3"
                   -DBATCHES=10 -DHALF=5 -DOUT=${_out}/restart_np${_np} -P ${_cmake_dir}/restart.cmake)
endforeach()
# Domain decomposition: 2 domains at 2 ranks, the statepoint written and read by decomposed runs.
add_test(NAME restart_domains_np2
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=2 -DHALF_NP=2
                 "-DARGS=run;--particles;1500;--inactive;3" "-DEXTRA=--domains;2,1,1"
                 -DBATCHES=10 -DHALF=5 -DOUT=${_out}/restart_domains -P ${_cmake_dir}/restart.cmake)
set_tests_properties(determinism_ranks_default determinism_ranks_multigroup determinism_ranks_blocking_exchange
                     restart_np1 restart_np2 restart_domains_np2
                     PROPERTIES LABELS "cli;determinism;mpi" TIMEOUT 600 ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
set_tests_properties(restart_np1 PROPERTIES LABELS "cli;determinism")

# Output paths checked before transport; links followed; devices, FIFOs and directories left alone.
add_test(NAME cli_output_paths
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUT=${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml
                 -DOUT=${_out}/output_paths -P ${_cmake_dir}/output_paths.cmake)
set_tests_properties(cli_output_paths PROPERTIES LABELS "cli;bad-input" TIMEOUT 300
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# Inputs that are not regular files (FIFOs, devices) or past their size, outputs over inputs (the input
# file, a library's files, by identity), duplicate nuclides: refused by every command that reads them.
add_test(NAME cli_input_files
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DOUT=${_out}/input_files -P ${_cmake_dir}/input_files.cmake)
set_tests_properties(cli_input_files PROPERTIES LABELS "cli;bad-input" TIMEOUT 600
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# Outputs onto a full disk (a tiny tmpfs; root only, else skipped): status 1, the path and the reason,
# no crash at MPI_Finalize, no temporary left.
add_test(NAME cli_full_disk
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DMPIEXEC=${MPIEXEC_EXECUTABLE};${KEFF_MPIEXEC_PREFLAGS}"
                 -DOUT=${_out}/full_disk -P ${_cmake_dir}/full_disk.cmake)
set_tests_properties(cli_full_disk PROPERTIES LABELS "cli;bad-input;mpi" TIMEOUT 600 PROCESSORS 2
                     SKIP_REGULAR_EXPRESSION "SKIPPED:"
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")

# Lost particles below max_lost: a warning each for the first 10, the first 100 listed in the summary.
add_test(NAME cli_lost_listed
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUT=${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/lost_particles.toml
                 -DOUT=${_out}/lost_listed -P ${_cmake_dir}/lost_listed.cmake)
set_tests_properties(cli_lost_listed PROPERTIES LABELS "cli" TIMEOUT 300 ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# Outputs past `ulimit -f`: status 1, path and reason, no temporary; SIGXFSZ does not end the process.
add_test(NAME cli_file_size_limit
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DMPIEXEC=${MPIEXEC_EXECUTABLE};${KEFF_MPIEXEC_PREFLAGS}"
                 -DOUT=${_out}/file_size_limit -P ${_cmake_dir}/file_size_limit.cmake)
set_tests_properties(cli_file_size_limit PROPERTIES LABELS "cli;bad-input" TIMEOUT 300
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# SIGINT/SIGTERM stop after a batch with a statepoint (at 1 and 2 ranks); a second signal ends at once;
# kill -9 leaves the previous complete statepoint or none, and no temporary file the next run trips over.
# Inside a CMFD solve (a build with CMFD) the batch is left out. Each signal is sent at a point the run
# announces (tests/signal_at.sh), never after a delay.
add_test(NAME cli_interrupt
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff_test_points} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 -DINPUT=${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml
                 -DCMFD_INPUT=$<$<BOOL:${KEFF_HAVE_CMFD}>:${PROJECT_SOURCE_DIR}/examples/cmfd_slab_2g.toml>
                 -DSIGNAL_AT=${CMAKE_CURRENT_SOURCE_DIR}/signal_at.sh
                 -DOUT=${_out}/interrupt -P ${_cmake_dir}/interrupt.cmake)
set_tests_properties(cli_interrupt PROPERTIES LABELS "cli;bad-input;mpi" TIMEOUT 900 PROCESSORS 2
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# A tally whose results and statepoint do not fit under ulimit -v: refused before the first batch
# (tests/cmake/address_limit.cmake).
add_test(NAME cli_address_limit
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DINPUT=${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml
                 -DOUT=${_out}/address_limit -P ${_cmake_dir}/address_limit.cmake)
set_tests_properties(cli_address_limit PROPERTIES LABELS "cli;bad-input" TIMEOUT 600 SKIP_REGULAR_EXPRESSION "SKIPPED:"
                     ENVIRONMENT "OMP_NUM_THREADS=2;OMP_PROC_BIND=false")

# Signals outside the batches: as NCrystal opens its materials and builds its tables, and after the last
# batch (tests/cmake/interrupt_phases.cmake).
add_test(NAME cli_interrupt_phases
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff_test_points} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 -DINPUT=${PROJECT_SOURCE_DIR}/examples/la13511_pub_sphere.toml
                 -DNCRYSTAL_INPUT=$<$<BOOL:${KEFF_HAVE_NCRYSTAL}>:${PROJECT_SOURCE_DIR}/examples/water_pin_ncrystal.toml>
                 -DSIGNAL_AT=${CMAKE_CURRENT_SOURCE_DIR}/signal_at.sh
                 -DOUT=${_out}/interrupt_phases -P ${_cmake_dir}/interrupt_phases.cmake)
set_tests_properties(cli_interrupt_phases PROPERTIES LABELS "cli;bad-input;mpi" TIMEOUT 900 PROCESSORS 2
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# Batches of 3 generations: a run stopped between two generations of a batch continues it bit for bit,
# at 1 and 2 ranks.
foreach(_np 1 2)
  add_test(NAME restart_generations_np${_np}
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff_test_points} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=${_np}
                   -DINPUT=${_tallies} -DSIGNAL_AT=${CMAKE_CURRENT_SOURCE_DIR}/signal_at.sh
                   -DOUT=${_out}/restart_generations_np${_np} -P ${_cmake_dir}/restart_generations.cmake)
  set_tests_properties(restart_generations_np${_np} PROPERTIES LABELS "cli;determinism;mpi" TIMEOUT 600 PROCESSORS ${_np}
                       ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
endforeach()

# A KEFF_TEST_POINT left in the environment holds no production run: `keff` finishes as if it were unset
# (it used to wait for a signal for ever at the first point named).
add_test(NAME cli_stray_test_point
         COMMAND ${CMAKE_COMMAND} -E env KEFF_TEST_POINT=transport:1,batch:1,write:1,geometry-check
                 ${_keff} run ${PROJECT_SOURCE_DIR}/examples/la13511_pua_slab.toml --particles 200 --batches 3
                 --inactive 1 --quiet --statepoint ${CMAKE_CURRENT_BINARY_DIR}/stray_test_point.h5)
set_tests_properties(cli_stray_test_point PROPERTIES LABELS "cli;bad-input" TIMEOUT 120
                     FAIL_REGULAR_EXPRESSION "test point" ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")

# Ranks started with different settings (MPMD) fail together before the run's first collective, where
# they used to wait in different collectives for ever.
add_test(NAME cli_ranks_disagree
         COMMAND ${CMAKE_COMMAND}
                 "-DCMD=${MPIEXEC_EXECUTABLE};${KEFF_MPIEXEC_PREFLAGS};-n;1;${_keff};run;--particles;200;--batches;3;--inactive;1;--statepoint;${_out}/disagree.h5;:;-n;1;${_keff};run;--particles;200;--batches;4;--inactive;1;--statepoint;${_out}/disagree.h5"
                 "-DREGEX=the 2 ranks were not given the same run" -DEXIT=2 -P ${_cmake_dir}/expect_failure.cmake)
set_tests_properties(cli_ranks_disagree PROPERTIES LABELS "cli;bad-input;mpi" TIMEOUT 150 PROCESSORS 2
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
# Ranks started with different commands (keff run beside keff --version or keff data info) agree on the
# command before anything else, in the one collective every command starts with.
add_test(NAME cli_ranks_commands_disagree
         COMMAND ${CMAKE_COMMAND}
                 "-DCMD=${MPIEXEC_EXECUTABLE};${KEFF_MPIEXEC_PREFLAGS};-n;1;${_keff};run;--particles;200;--batches;3;--inactive;1;--statepoint;${_out}/disagree.h5;:;-n;1;${_keff};--version"
                 "-DREGEX=the 2 ranks were not started with the same command: rank 0 runs 'keff run' but rank 1 runs 'keff --version'"
                 -DEXIT=2 -P ${_cmake_dir}/expect_failure.cmake)
add_test(NAME cli_ranks_commands_disagree_data
         COMMAND ${CMAKE_COMMAND}
                 "-DCMD=${MPIEXEC_EXECUTABLE};${KEFF_MPIEXEC_PREFLAGS};-n;1;${_keff};data;info;${_out}/none.h5;:;-n;1;${_keff};run;--statepoint;${_out}/disagree.h5"
                 "-DREGEX=rank 0 runs 'keff data info' but rank 1 runs 'keff run'" -DEXIT=2 -P ${_cmake_dir}/expect_failure.cmake)
set_tests_properties(cli_ranks_commands_disagree cli_ranks_commands_disagree_data PROPERTIES
                     LABELS "cli;bad-input;mpi" TIMEOUT 150 PROCESSORS 2
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")

# Bad command lines and bad inputs: a clear message and a non-zero exit, never a crash or a hang.
function(keff_expect_failure name regex exit_code)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${_keff};${ARGN}" "-DREGEX=${regex}" -DEXIT=${exit_code}
                   -P ${_cmake_dir}/expect_failure.cmake)
  set_tests_properties(${name} PROPERTIES LABELS "cli;bad-input" TIMEOUT 150)
endfunction()
keff_expect_failure(cli_zero_particles "--particles: '0' is not allowed" 2 run --particles 0)
keff_expect_failure(cli_populations_unknown "--populations: 'many' is not allowed \\(allowed: \"auto\", or 1 to 32, dividing settings.particles into populations of at least 100 histories\\)" 2
                    run --populations many)
keff_expect_failure(cli_unknown_option "unknown option '--frobnicate'" 2 run --frobnicate)
keff_expect_failure(cli_unknown_command "unknown command 'walk'" 2 walk)
keff_expect_failure(cli_domains_ranks "--domains: \\[2, 1, 1\\] makes 2 domains, which 1 rank\\(s\\) cannot share evenly \\(allowed: a rank count that is a multiple of 2\\)" 2
                    run --domains 2,1,1)
keff_expect_failure(cli_domains_bad "--domains: '2,0,1' is not allowed \\(allowed: NX,NY,NZ, integers from 1 to 64" 2
                    run --domains 2,0,1)
keff_expect_failure(cli_domains_history "domain decomposition runs event-based transport" 2
                    run --domains 1,1,1 --mode history)
keff_expect_failure(cli_inactive_too_many "--inactive / settings.inactive: inactive = 5 leaves no active batch of batches = 5 \\(allowed: 0 <= inactive < batches\\)" 2
                    run --batches 5 --inactive 5)
# Sizes past their limits (io/limits.hpp): refused before anything is allocated, the limit named.
keff_expect_failure(cli_particles_too_many
                    "--particles: '4611686018427387904' is not allowed \\(allowed: an integer in \\[1, 2\\^40\\]\\)" 2
                    run --particles 4611686018427387904)
keff_expect_failure(cli_particles_per_rank "1099511627776 histories per rank \\(allowed: at most 2\\^31 - 1 per rank" 2
                    run --particles 1099511627776)
keff_expect_failure(cli_particles_for_statepoint
                    "particles = 100000000 is too many for a statepoint.*allowed: particles <= 26843545" 2
                    run --particles 100000000)
keff_expect_failure(cli_batches_too_many "--batches: '2147483647' is not allowed \\(allowed: an integer in \\[1, 1000000\\]\\)" 2
                    run --batches 2147483647)
keff_expect_failure(data_cli_too_many_points
                    "65536 nuclides x 16777216 points are too many \\(allowed: nuclides x gridpoints <= 2\\^31 - 1\\)" 2
                    data generate --format h5 --nuclides 65536 --gridpoints 16777216 --out ${_out}/never.h5)
# Kokkos' own arguments, checked before Kokkos::initialize (which aborts with a backtrace on them).
keff_expect_failure(cli_kokkos_threads_zero
                    "'--kokkos-num-threads=0' is not allowed \\(allowed: --kokkos-num-threads=N with N an integer in \\[1, [0-9]+\\]: at most 4 per hardware thread" 2
                    run --kokkos-num-threads=0)
keff_expect_failure(cli_kokkos_threads_negative "'--kokkos-num-threads=-2' is not allowed" 2 run --kokkos-num-threads=-2)
keff_expect_failure(cli_kokkos_threads_text "'--kokkos-num-threads=many' is not allowed" 2 run --kokkos-num-threads=many)
keff_expect_failure(cli_kokkos_threads_no_value "'--kokkos-num-threads' is not allowed" 2 run --kokkos-num-threads 2)
keff_expect_failure(cli_kokkos_device_negative "'--kokkos-device-id=-1' is not allowed \\(allowed: --kokkos-device-id=N with N an integer in \\[0, 1023\\]\\)" 2
                    run --kokkos-device-id=-1)
add_test(NAME cli_kokkos_threads_env
         COMMAND ${CMAKE_COMMAND} "-DCMD=${CMAKE_COMMAND};-E;env;KOKKOS_NUM_THREADS=0;${_keff};run"
                 "-DREGEX=environment variable KOKKOS_NUM_THREADS='0' is not allowed" -DEXIT=2
                 -P ${_cmake_dir}/expect_failure.cmake)
set_tests_properties(cli_kokkos_threads_env PROPERTIES LABELS "cli;bad-input" TIMEOUT 150)
# Thread counts past Kokkos' OpenMP pool (513 hung, 600 crashed) or the machine, in every spelling
# Kokkos reads, and a Kokkos Tools library that does not load: refused before Kokkos::initialize.
keff_expect_failure(cli_kokkos_threads_past_pool
                    "'--kokkos-num-threads=513' is not allowed \\(allowed: --kokkos-num-threads=N with N an integer in \\[1, [0-9]+\\]: .* at most 512, the thread pool of Kokkos' OpenMP backend\\)" 2
                    run --kokkos-num-threads=513)
keff_expect_failure(cli_kokkos_threads_old_spelling "'--kokkos-threads=600' is not allowed \\(allowed: --kokkos-threads=N" 2
                    --version --kokkos-threads=600)
keff_expect_failure(cli_kokkos_threads_unprefixed "'--threads=600' is not allowed \\(allowed: --kokkos-num-threads=N; Kokkos reads '--threads' too" 2
                    data info --threads=600)
keff_expect_failure(cli_kokkos_tools_library_missing
                    "--kokkos-tools-libs: the Kokkos Tools library '.*no_such_tool.so' cannot be loaded: .*No such file" 2
                    run --kokkos-tools-libs=${_out}/no_such_tool.so)
foreach(_case "OMP_NUM_THREADS=1000000;environment variable OMP_NUM_THREADS='1000000' is not allowed"
              "KOKKOS_NUM_THREADS=600;environment variable KOKKOS_NUM_THREADS='600' is not allowed"
              "KOKKOS_TOOLS_LIBS=no_such_tool.so;environment variable KOKKOS_TOOLS_LIBS: the Kokkos Tools library 'no_such_tool.so' cannot be loaded")
  list(GET _case 0 _env)
  list(GET _case 1 _regex)
  string(REGEX REPLACE "=.*" "" _name "${_env}")
  add_test(NAME cli_env_${_name}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${CMAKE_COMMAND};-E;env;${_env};${_keff};run" "-DREGEX=${_regex}" -DEXIT=2
                   -P ${_cmake_dir}/expect_failure.cmake)
  set_tests_properties(cli_env_${_name} PROPERTIES LABELS "cli;bad-input" TIMEOUT 150)
endforeach()
# Help is keff's alone (Kokkos printed its banner, and `run --help` then said "unknown option"); a run
# with OMP_PROC_BIND unset does not carry Kokkos' warning about it.
foreach(_help "--help" "run;--help" "data;generate;-h" "check-geometry;--help" "--kokkos-num-threads=1;--help")
  string(MAKE_C_IDENTIFIER "${_help}" _id)
  add_test(NAME cli_help_${_id}
           COMMAND ${CMAKE_COMMAND} "-DCMD=${_keff};${_help}" "-DREGEX=usage: keff" -DEXIT=0 "-DFORBID=--kokkos-help|unknown option"
                   -P ${_cmake_dir}/expect_failure.cmake)
  set_tests_properties(cli_help_${_id} PROPERTIES LABELS "cli;bad-input" TIMEOUT 150)
endforeach()
# `keff help run` is `keff run --help`, whose options come from the parser's table: an integer flag's
# range as the parser refuses it (cli_zero_particles, cli_batches_too_many); an unknown command lists the commands.
keff_expect_failure(cli_help_run_ranges
                    "--particles N +histories per batch.*\\(settings.particles: an integer in \\[1, 2\\^40\\]\\).*--batches N +batches in all \\(settings.batches: an integer in \\[1, 1000000\\]\\).*--no-cmfd" 0
                    help run)
keff_expect_failure(cli_help_unknown_command "commands:.*keff run" 2 help walk)
add_test(NAME cli_no_proc_bind_warning
         COMMAND ${CMAKE_COMMAND}
                 "-DCMD=${CMAKE_COMMAND};-E;env;--unset=OMP_PROC_BIND;--unset=OMP_PLACES;${_keff};run;--particles;200;--batches;2;--inactive;1;--statepoint;${_out}/nobind.h5;--quiet"
                 "-DREGEX=.*" -DEXIT=0 "-DFORBID=OMP_PROC_BIND" -P ${_cmake_dir}/expect_failure.cmake)
set_tests_properties(cli_no_proc_bind_warning PROPERTIES LABELS "cli;bad-input" TIMEOUT 150 ENVIRONMENT "OMP_NUM_THREADS=1")

# Each file under inputs/bad/ states the message it must produce on a line '# expect: <regex>' and,
# for failures at run time rather than input time (or a warning from a run that succeeds, 0),
# '# exit: <status>'.
file(GLOB _bad_inputs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/*.toml)
foreach(_file IN LISTS _bad_inputs)
  get_filename_component(_name ${_file} NAME_WE)
  file(STRINGS ${_file} _expect REGEX "^# expect: ")
  file(STRINGS ${_file} _exit REGEX "^# exit: ")
  string(REGEX REPLACE "^# expect: " "" _expect "${_expect}")
  string(REGEX REPLACE "^# exit: " "" _exit "${_exit}")
  if(NOT _expect)
    set(_expect "${_name}.toml:[0-9]+")
  endif()
  if(_exit STREQUAL "")  # "0" is false to if(NOT): a file may expect a warning from a run that succeeds
    set(_exit 2)
  endif()
  if(_name MATCHES "^cmfd_" AND NOT KEFF_HAVE_CMFD)
    # Without Kokkos Kernels every [cmfd] is refused before the run (or the input error comes first).
    set(_expect "CMFD|cmfd")
    set(_exit 2)
  endif()
  if(_name MATCHES "^ncrystal_" AND NOT KEFF_HAVE_NCRYSTAL AND NOT _name MATCHES "^ncrystal_(in_multigroup|with_targets_at_rest)$")
    set(_expect "built without NCrystal")  # NCrystal is never asked: the key is refused
    set(_exit 2)
  endif()
  keff_expect_failure(bad_input_${_name} "${_expect}" ${_exit} run ${_file})
endforeach()
if(NOT KEFF_HAVE_NCRYSTAL)
  keff_expect_failure(cli_ncrystal_unavailable "water_pin_ncrystal.toml:[0-9]+: material\\[water\\]\\.ncrystal: this keff was built without NCrystal: run scripts/setup-ncrystal.sh" 2
                      run ${PROJECT_SOURCE_DIR}/examples/water_pin_ncrystal.toml)
endif()
if(NOT KEFF_HAVE_CMFD)
  keff_expect_failure(cli_cmfd_unavailable "built without Kokkos Kernels.*-DKokkosKernels_ROOT=.*\\(asked for by \\[cmfd\\] at .*cmfd_slab_2g.toml:[0-9]+\\)" 2
                      run ${PROJECT_SOURCE_DIR}/examples/cmfd_slab_2g.toml)
endif()
# keff check-geometry lists each overlap or gap with its cells, universe and a point, and says by its exit
# status whether it found any: 1 faults, 0 none (the expected "failure" of the last test), 2 bad usage.
keff_expect_failure(check_geometry_overlap
                    "1 fault found at [0-9]+ points:.*overlap: cell 'core' \\(.*\\) and cell 'blanket' \\(.*\\) of the root universe 'root' both hold \\(" 1
                    check-geometry ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/overlapping_cells.toml --points 100000)
keff_expect_failure(check_geometry_gap "gap: no cell of universe 'pin' holds \\(" 1
                    check-geometry ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/lattice_gap.toml --points 20000)
# A lattice of 10 um elements whose outer universe fills a 100 cm block: flights in the block stop at the
# lattice's box only, not at the grid continued outside (every history ran into max_events).
keff_expect_failure(cli_lattice_outer_fine "Results over 3 active batches.*lost particles +0" 0
                    run ${CMAKE_CURRENT_SOURCE_DIR}/inputs/lattice_outer_fine.toml --statepoint ${_out}/lattice_outer_fine.h5)
keff_expect_failure(check_geometry_not_judged "points +200000 uniform in the box; 200000 within the tolerance of a surface, not judged.*The geometry check could judge none of its 200000 points" 1
                    check-geometry ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/geometry_not_judged.toml --points 200000)
keff_expect_failure(check_geometry_bad_points "--points: '0' is not allowed \\(allowed: an integer in \\[1, 2\\^40\\]\\)" 2
                    check-geometry --points 0)
keff_expect_failure(check_geometry_default "points +200000 uniform in the box.*No overlap or gap found" 0
                    check-geometry --points 200000)
# An entropy mesh that holds no fission site: one warning, at the first batch, and the run goes on.
keff_expect_failure(cli_entropy_mesh_off_source
                    "warning: batch 1: the entropy mesh holds none of the [0-9]+ fission sites: the Shannon entropy \\(0\\) says nothing" 0
                    run ${CMAKE_CURRENT_SOURCE_DIR}/inputs/entropy_mesh_off_source.toml)
keff_expect_failure(bad_input_missing_file "cannot open input file '.*no_such_input.toml'" 2
                    run ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/no_such_input.toml)

# Nuclear-data libraries: keff data generate/convert/info, runs from library files, bad libraries.
add_test(NAME data_cli_libraries
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff}
                 "-DMPIEXEC=${MPIEXEC_EXECUTABLE};${MPIEXEC_NUMPROC_FLAG};2;${KEFF_MPIEXEC_PREFLAGS}"
                 -DOUT=${_out}/data -P ${_cmake_dir}/data_cli.cmake)
set_tests_properties(data_cli_libraries PROPERTIES LABELS "cli;data;mpi" TIMEOUT 600 ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
add_test(NAME data_cli_generate_memory
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DOUT=${_out}/data_memory -P ${_cmake_dir}/data_memory.cmake)
set_tests_properties(data_cli_generate_memory PROPERTIES LABELS "cli;data;bad-input" TIMEOUT 150 SKIP_REGULAR_EXPRESSION "SKIPPED:")
keff_expect_failure(data_cli_no_command "'keff data' needs a command" 2 data)
keff_expect_failure(data_cli_bad_format "--format 'xml' is not allowed \\(allowed: h5, text\\)" 2
                    data generate --format xml --out ${_out}/never)
keff_expect_failure(data_cli_bad_moderator "--moderators: 'C14' is not a synthetic moderator \\(allowed: C12, C13, H2, Be9" 2
                    data generate --format h5 --moderators C12,C14 --out ${_out}/never.h5)
keff_expect_failure(data_cli_info_missing "no_such_library.h5: nuclear-data library does not exist" 2
                    data info ${_out}/no_such_library.h5)

# ACE libraries: `keff data ace` reads and checks every table (the tiny one of tests/ace_builder.hpp, and
# the NJOY-made library where setup made it) and refuses a law it does not sample, naming file, nuclide,
# block, MT and law.
add_test(NAME data_cli_ace_tables COMMAND ${_keff} data ace ${CMAKE_CURRENT_SOURCE_DIR}/inputs/ace/xsdir --reactions)
set_tests_properties(data_cli_ace_tables PROPERTIES LABELS "cli;data" TIMEOUT 150
                     PASS_REGULAR_EXPRESSION "MT  16 .* CM   neutrons 2  laws 61.*verified 1 tables")
keff_expect_failure(data_cli_ace_unsupported_law
                    "es250_law5.ace': nuclide Es250 \\(99250.00c\\): DLW, MT 16: energy law 5 \\(general evaporation\\) is not supported \\(supported: 3, 4, 7, 9, 11, 44, 61, 66\\)" 2
                    data ace ${CMAKE_CURRENT_SOURCE_DIR}/inputs/ace/xsdir_law5)
# Each class of corrupt table (inputs/bad/ace/README.md): refused with the file, the nuclide and the block.
file(GLOB _bad_ace CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/inputs/bad/ace/*.xsdir)
foreach(_file IN LISTS _bad_ace)
  get_filename_component(_name ${_file} NAME_WE)
  file(STRINGS ${_file} _expect REGEX "^# expect: ")
  string(REGEX REPLACE "^# expect: " "" _expect "${_expect}")
  keff_expect_failure(bad_ace_${_name} "${_expect}" 2 data ace ${_file})
endforeach()
keff_expect_failure(data_cli_ace_no_library "data ace: expected an xsdir \\(or set KEFF_ACE_LIBRARY\\)" 2 data ace)
if(KEFF_ACE_LIBRARY)
  add_test(NAME data_cli_ace_library COMMAND ${_keff} data ace ${KEFF_ACE_LIBRARY})
  set_tests_properties(data_cli_ace_library PROPERTIES LABELS "cli;data" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "U235 +92235.00c +293.6 K +76514 energies.*verified 7 tables")
endif()

# Transport on evaluated data. The tiny nuclide's sphere (secondary neutrons of (n,2n) included) gives the
# same bits at 1, 2 and 4 ranks, in both transport modes, and at 1 and 2 threads in each.
set(_es250 ${CMAKE_CURRENT_SOURCE_DIR}/inputs/ace/es250_sphere.toml)
add_test(NAME determinism_evaluated
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" "-DARGS=run;${_es250}"
                 "-DVARIANTS=1:--mode,history;2:--mode,event;4:--mode,history;1:--mode,event;2:--mode,history"
                 -DOUT=${_out}/determinism_evaluated -P ${_cmake_dir}/compare_variants.cmake)
set_tests_properties(determinism_evaluated PROPERTIES LABELS "cli;determinism;mpi" TIMEOUT 600
                     ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
foreach(_mode history event)
  add_test(NAME determinism_threads_evaluated_${_mode}
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DARGS=run;${_es250};--mode;${_mode}" -DTHREADS_A=1 -DTHREADS_B=2
                   -DOUT=${_out}/det_threads_evaluated_${_mode} -P ${_cmake_dir}/compare_runs.cmake)
  set_tests_properties(determinism_threads_evaluated_${_mode} PROPERTIES LABELS "cli;determinism" TIMEOUT 600)
endforeach()
# A material's nuclides resolve through the xsdir at its temperature, or the run is refused naming the
# material and what the library holds.
file(READ ${_es250} _es250_text)
set(_es250_xsdir "xsdir = \"${CMAKE_CURRENT_SOURCE_DIR}/inputs/ace/xsdir\"")
string(REPLACE "xsdir = \"xsdir\"" "${_es250_xsdir}" _es250_text "${_es250_text}")
# The sphere's input with `from` replaced by `to`, refused with `regex`.
function(keff_evaluated_refused name from to regex)
  string(REPLACE "${from}" "${to}" _text "${_es250_text}")
  file(WRITE ${_out}/${name}.toml "${_text}")
  keff_expect_failure(${name} "${name}.toml:[0-9]+: ${regex}" 2 run ${_out}/${name}.toml)
endfunction()
keff_evaluated_refused(evaluated_temperature_beyond_tolerance "Es250 = 0.05 }" "Es250 = 0.05 }\ntemperature = 600.0"
                       "material 'es': nuclide 'Es250': .*no table of Es250 within 10 K of 600.0 K \\(the library holds 99250.00c at 293.6 K\\)")
keff_evaluated_refused(evaluated_nuclide_not_in_library "Es250 = 0.05" "U235 = 0.05"
                       "material 'es': nuclide 'U235': .*xsdir")
keff_evaluated_refused(evaluated_not_a_nuclide_name "Es250 = 0.05" "Uranium = 0.05"
                       "material 'es': nuclide 'Uranium': not a nuclide name \\(allowed: an element symbol and a mass number")
keff_evaluated_refused(evaluated_no_xsdir "${_es250_xsdir}" "ace = true"
                       "nuclear_data.ace: evaluated data, but no xsdir: the input names none and KEFF_ACE_LIBRARY is not set")
set_tests_properties(evaluated_no_xsdir PROPERTIES ENVIRONMENT_MODIFICATION "KEFF_ACE_LIBRARY=unset:")

# The NJOY-made library against OpenMC 0.16 on the same ACE files (perf/RESULTS.md, "Evaluated data
# against OpenMC"): k, the leakage fraction and the inelastic and (n,2n) rates of a short run of each
# example within 3 combined standard deviations of OpenMC's four-seed means.
if(KEFF_ACE_LIBRARY)
  # <example>|<k>|<sigma>|<leakage>|<sigma>|<score>:<value>:<sigma> ... (the "reactions" tally's scores;
  # (n,2n) only where a short run counts hundreds of them)
  set(_references "heu_metal_sphere|1.00364|0.00033|0.573248|0.000260|inelastic:0.537146:0.000232 (n,2n):0.00245291:0.00000989"
                  "pu241_metal_sphere|1.00012|0.00035|0.663909|0.000243|inelastic:0.340796:0.000144 (n,2n):0.00376847:0.0000109"
                  "uranyl_solution_sphere|1.26798|0.00098|0.275957|0.000248|inelastic:0.00470285:0.00000696"
                  "zr_clad_heu_lattice|1.87305|0.00053|0|0|inelastic:0.120929:0.000226")
  if(KEFF_HAVE_NCRYSTAL)
    list(APPEND _references "uranyl_solution_sphere_ncrystal|1.28339|0.00051|0.267442|0.000237|inelastic:0.00471313:0.00000674"
                            "graphite_heu_rods|0.90057|0.00097|0.459356|0.000469|inelastic:0.0429865:0.000106")
  endif()
  foreach(_case IN LISTS _references)
    string(REPLACE "|" ";" _case "${_case}")
    list(GET _case 0 _example)
    list(GET _case 1 _k)
    list(GET _case 2 _k_sigma)
    list(GET _case 3 _leakage)
    list(GET _case 4 _leakage_sigma)
    list(GET _case 5 _scores)
    string(REPLACE " " ";" _scores "${_scores}")
    add_test(NAME evaluated_openmc_${_example}
             COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff}
                     "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/evaluated/${_example}.toml;--particles;5000;--batches;50;--inactive;20"
                     -DK_REF=${_k} -DK_SIGMA=${_k_sigma} -DLEAKAGE_REF=${_leakage} -DLEAKAGE_SIGMA=${_leakage_sigma}
                     "-DSCORE_REFS=${_scores}" -DSIGMAS=3 -DOUT=${_out}/evaluated_openmc_${_example} -P ${_cmake_dir}/against_reference.cmake)
    set_tests_properties(evaluated_openmc_${_example} PROPERTIES LABELS "cli;statistical" TIMEOUT 900
                         ENVIRONMENT "KEFF_ACE_LIBRARY=${KEFF_ACE_LIBRARY}")
  endforeach()
endif()

# The source-stationarity verdict (src/host/stationarity.hpp). C5G7's 2-D core starts from a flat source
# whose entropy falls for about 10 batches: 5 inactive batches leave that in the active ones, and the run
# warns (drift z 9.5 to 21 against about 4 over seeds 1 to 3). An infinite medium a few migration lengths
# wide is stationary from its first batch (its spatial modes die within a generation or two) and must not
# warn with no inactive batch at all.
add_test(NAME stationarity_c5g7_few_inactive
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff}
                 "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/c5g7/2d.toml;--particles;50000;--batches;50;--inactive;5"
                 -DSTATIONARY=false -DOUT=${_out}/stationarity_c5g7_few_inactive -P ${_cmake_dir}/stationarity.cmake)
add_test(NAME stationarity_infinite_medium
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff}
                 "-DARGS=run;${CMAKE_CURRENT_SOURCE_DIR}/inputs/inf_medium_small_box.toml;--inactive;0"
                 -DSTATIONARY=true -DOUT=${_out}/stationarity_infinite_medium -P ${_cmake_dir}/stationarity.cmake)
set_tests_properties(stationarity_c5g7_few_inactive stationarity_infinite_medium PROPERTIES LABELS "cli;statistical"
                     TIMEOUT 900 PROCESSORS 2)
# inactive = "auto" on the same core: the active batches begin once the source is stationary, after the 10
# or so batches it takes, and the verdict over the active ones then finds nothing to warn about.
add_test(NAME stationarity_c5g7_auto
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff}
                 "-DARGS=run;${PROJECT_SOURCE_DIR}/examples/c5g7/2d.toml;--particles;50000;--batches;60;--inactive;auto"
                 -DSTATIONARY=true -DFIRST_ACTIVE_AFTER=10 -DOUT=${_out}/stationarity_c5g7_auto -P ${_cmake_dir}/stationarity.cmake)
set_tests_properties(stationarity_c5g7_auto PROPERTIES LABELS "cli;statistical" TIMEOUT 900 PROCESSORS 2)
# The choice reads only the batch record, the same everywhere: the same bits at 1, 2 and 4 ranks, in event
# mode and at 1 and 2 threads; a restart before the choice and one after it equal the straight run.
set(_auto_args "run;${PROJECT_SOURCE_DIR}/examples/c5g7/2d.toml;--particles;2000;--inactive;auto")
add_test(NAME determinism_inactive_auto
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}"
                 "-DARGS=${_auto_args};--batches;44" "-DVARIANTS=1:;2:;4:--mode,event;1:--mode,event"
                 -DOUT=${_out}/determinism_inactive_auto -P ${_cmake_dir}/compare_variants.cmake)
add_test(NAME determinism_threads_inactive_auto
         COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff} "-DARGS=${_auto_args};--batches;44" -DTHREADS_A=1 -DTHREADS_B=2
                 -DOUT=${_out}/det_threads_inactive_auto -P ${_cmake_dir}/compare_runs.cmake)
set_tests_properties(determinism_inactive_auto determinism_threads_inactive_auto PROPERTIES LABELS "cli;determinism;mpi"
                     PROCESSORS 2)
foreach(_half 15 30)
  add_test(NAME restart_inactive_auto_${_half}
           COMMAND ${CMAKE_COMMAND} -DKEFF=${_keff_test_points} -DMPIEXEC=${MPIEXEC_EXECUTABLE} "${_mpiflags}" -DNP=2
                   "-DARGS=${_auto_args};--batches;44" -DHALF=${_half} -DSIGNAL_AT=${CMAKE_CURRENT_SOURCE_DIR}/signal_at.sh
                   -DOUT=${_out}/restart_inactive_auto_${_half} -P ${_cmake_dir}/restart_interrupted.cmake)
  set_tests_properties(restart_inactive_auto_${_half} PROPERTIES LABELS "cli;determinism;mpi" TIMEOUT 600 PROCESSORS 2
                       ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false")
endforeach()
