# `keff plot` as a user runs it: the input's [[plot]] tables drawn to their files with legends, one slice
# from the flags, an overlap reported, a slice outside the model drawn blank with a warning, and bad
# flags (unknown basis, zero or too many pixels, an unwritable output, a picture over another plot's
# legend) refused with the status and the
# words of the usage; keff run --plots DIR drawing the result pictures, and refused without a statepoint.
#   cmake -DKEFF=... -DINPUTS=<tests/inputs> -DOUT=dir -P plot_cli.cmake

function(expect_run name status pattern)
  execute_process(COMMAND ${KEFF} plot ${ARGN} WORKING_DIRECTORY ${OUT}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL status)
    message(FATAL_ERROR "${name}: status ${rc} (expected ${status})\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "${name}: no match for '${pattern}' in\n${out}${err}")
  endif()
endfunction()

function(expect_file path)
  if(NOT EXISTS "${OUT}/${path}")
    message(FATAL_ERROR "${path} was not written")
  endif()
  file(SIZE "${OUT}/${path}" size)
  if(size EQUAL 0)
    message(FATAL_ERROR "${path} is empty")
  endif()
endfunction()

file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

expect_run(tables 0 "plot 'checkerboard'.*checkerboard.png.*plot 'side'" ${INPUTS}/plot_2x2.toml)
foreach(f checkerboard.png checkerboard.legend.txt side.png side.legend.txt)
  expect_file(${f})
endforeach()
file(READ "${OUT}/checkerboard.legend.txt" legend)
if(NOT legend MATCHES "#c81e28 +8  50.000%  a\n")
  message(FATAL_ERROR "checkerboard.legend.txt does not give material a its colour from the input:\n${legend}")
endif()

expect_run(flags 0 "xz slice at y = 1 .*, 30 x 20 pixels, by cell" ${INPUTS}/plot_2x2.toml --basis xz
           --pixels 30,20 --color cell -o flags.png)
expect_file(flags.png)
# --plot NAME: one table, with the flags given in place of its keys (its colours kept).
expect_run(table 0 "plot 'checkerboard': xy slice .*, 8 x 8 pixels, by material" ${INPUTS}/plot_2x2.toml
           --plot checkerboard --pixels 8,8 -o table.png)
file(READ "${OUT}/table.legend.txt" legend)
if(NOT legend MATCHES "#c81e28 +32  50.000%  a\n")
  message(FATAL_ERROR "--plot checkerboard lost the table's colour for a:\n${legend}")
endif()
expect_run(no_table 2 "--plot: .*plot_2x2.toml has no \\[\\[plot\\]\\] named 'top' \\(allowed: checkerboard, side\\)"
           ${INPUTS}/plot_2x2.toml --plot top)
expect_run(overlap 0 "warning: 2 pixels show overlapping cells" ${INPUTS}/bad/plot_overlap.toml)
expect_run(outside 0 "no pixel of the slice is inside the model.*outside the geometry's bounding box"
           ${INPUTS}/plot_2x2.toml --origin 50,50,0 -o outside.png)
# A slice so wide that the model is narrower than a pixel: the default pixels still (no overflow to
# 1 x 1), and the advice is to narrow, not to widen.
expect_run(too_coarse 0 "1e\\+308 x 1e\\+308 cm, 1000 x 1000 pixels.*the model is narrower than one pixel.*narrow --width"
           ${INPUTS}/plot_2x2.toml --width 1e308,1e308 -o coarse.png)
expect_file(outside.png)

expect_run(basis 2 "--basis: 'ab' is not allowed \\(allowed: xy, xz, yz\\)" ${INPUTS}/plot_2x2.toml --basis ab)
expect_run(zero_pixels 2 "--pixels: '0,5' is not allowed" ${INPUTS}/plot_2x2.toml --pixels 0,5)
expect_run(huge_pixels 2 "--pixels: 20000 x 20000 pixels \\(about 4.4 GB\\) is not allowed.*nx \\* ny <= 100000000"
           ${INPUTS}/plot_2x2.toml --pixels 20000,20000)
expect_run(fractional_pixels 2 "--pixels: '10.5,4' is not allowed" ${INPUTS}/plot_2x2.toml --pixels 10.5,4)
expect_run(origin 2 "--origin: '1,2' is not allowed" ${INPUTS}/plot_2x2.toml --origin 1,2)
expect_run(unwritable 1 "no-such-dir/x.png" ${INPUTS}/plot_2x2.toml -o ${OUT}/no-such-dir/x.png)
file(COPY ${INPUTS}/plot_2x2.toml DESTINATION ${OUT})
expect_run(onto_input 1 "the picture of plot 'plot' '.*plot_2x2.toml' is the input file" ${OUT}/plot_2x2.toml
           -o ${OUT}/plot_2x2.toml)
file(SIZE ${OUT}/plot_2x2.toml size)
if(size LESS 100)
  message(FATAL_ERROR "the input was overwritten")
endif()
expect_run(unknown 2 "plot: unknown option '--colour'" ${INPUTS}/plot_2x2.toml --colour cell)
# One plot's picture naming another's legend: refused before anything is drawn, the legend intact.
file(READ ${INPUTS}/plot_2x2.toml text)
string(REPLACE "file = \"side.png\"" "file = \"checkerboard.legend.txt\"" text "${text}")
file(WRITE ${OUT}/onto_legend.toml "${text}")
file(WRITE ${OUT}/checkerboard.legend.txt "kept")
expect_run(onto_legend 1 "the picture of plot 'side' '.*checkerboard.legend.txt' is also the legend of plot 'checkerboard'"
           ${OUT}/onto_legend.toml)
file(READ ${OUT}/checkerboard.legend.txt kept)
if(NOT kept STREQUAL "kept")
  message(FATAL_ERROR "a plot was drawn over another plot's legend")
endif()

# keff run --plots DIR: the result pictures drawn from the statepoint at the end (Python with numpy, h5py
# and matplotlib, which scripts/setup-deps.sh installs); refused before the run without a statepoint.
execute_process(COMMAND ${KEFF} run ${INPUTS}/plot_2x2.toml --particles 500 --batches 4 --inactive 1
                        --statepoint ${OUT}/run.h5 --plots ${OUT}/plots
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "Plots: +${OUT}/plots" OR err MATCHES "warning")
  message(FATAL_ERROR "run --plots: status ${rc}\n${out}${err}")
endif()
expect_file(plots/convergence.png)
execute_process(COMMAND ${KEFF} run ${INPUTS}/plot_2x2.toml --statepoint "" --plots ${OUT}/plots
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--plots: the pictures are drawn from the statepoint, and this run writes none")
  message(FATAL_ERROR "run --plots without a statepoint: status ${rc}\n${err}")
endif()
# A picture package that draws one picture and then fails: the plots are incomplete, not absent (it used
# to say "no result plots" when two of three were written); the run's results stand (status 0).
file(WRITE ${OUT}/failing_package/__main__.py
     "import sys\nprint(sys.argv[-1] + '/convergence.png')\nsys.exit('one picture, then a failure')\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E env KEFF_RESULTS_PACKAGE=${OUT}/failing_package
                        ${KEFF} run ${INPUTS}/plot_2x2.toml --particles 500 --batches 4 --inactive 1 --quiet
                        --statepoint ${OUT}/run.h5 --plots ${OUT}/plots
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT err MATCHES "warning: the result plots in '.*plots' are incomplete: .* exited with status 1")
  message(FATAL_ERROR "run --plots with a failing picture package: status ${rc}\n${err}")
endif()
